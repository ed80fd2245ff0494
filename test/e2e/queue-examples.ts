/* eslint-disable @n8n/community-nodes/no-restricted-imports
	-- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * The examples as queue-mode.ts runs them: each one's trigger replaced by a Webhook node of the same name, and how two
 * runs' outputs are compared (every node's output JSON; ids, times and waits by presence only). Kept apart from the
 * script so that test/queueExamples.test.ts can check them.
 */
import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';

import type { Simulator } from '../simulator/types';
import { EXAMPLE_RUNS } from '../workflow/exampleRuns';
import { withSampleFiles } from '../workflow/fileExamples';
import { inProcessSkipReason } from '../workflow/inProcess';
import { PROJECT_ROOT, webhookNode } from './lib';

export type Json = Record<string, unknown>;

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	position?: [number, number];
	parameters?: Json;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

export interface Example {
	id: string;
	file: string;
	workflow: { name?: string; nodes: WorkflowNode[]; connections: Json; staticData?: object };
	trigger: string;
	/** Runs in a row (06: two weeks of its schedule, the second on the simulator's later data). */
	runs: Array<{ before?: (sim: Simulator) => void }>;
}

const TRIGGER_TYPES = ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger'];
const EMAIL_TYPE = 'n8n-nodes-base.emailSend';
/** n8n's Data Table node: the in-process harness runs a stand-in (test/workflow/standins/DataTable.ts). */
export const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';
/** Values that differ from run to run (ids, times, how long a run waited): compared by presence and type only. */
const VOLATILE_KEYS =
	/^(request_?id|requestId|.*_at|at|date|timestamp|generated|message_?id|waited_seconds|.*_ms)$/i;
/** Identifiers the API makes up per call (a report's rpt_…) and times. */
const VOLATILE_VALUES =
	/^(rpt_[0-9a-f]+|https?:\/\/\S+\/documents\/[0-9a-f]+\.pdf|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?)$/;

/**
 * The examples in examples/ the check runs (`only`: just these numbers, e.g. ['06']), and why the others are left out
 * (`left`: one line each). Runs in a row as scripts/demo.ts does them (test/workflow/exampleRuns.ts).
 */
export function loadExamples(only?: string[]): { examples: Example[]; left: string[] } {
	const examples: Example[] = [];
	const left: string[] = [];
	for (const file of readdirSync(join(PROJECT_ROOT, 'examples'))
		.filter((name) => /^\d\d-.*\.json$/.test(name))
		.sort()) {
		// examples/11 reads its workbook from n8n's file folder: here, examples/holdings.sample.xlsx.
		const workflow = withSampleFiles(
			JSON.parse(readFileSync(join(PROJECT_ROOT, 'examples', file), 'utf8')),
		) as Example['workflow'];
		const id = file.slice(0, 2);
		// The demo's expected outputs come from the in-process harness: what it cannot run is left out.
		const skip = inProcessSkipReason(workflow);
		if (skip) {
			left.push(`${file}: left out: ${skip}`);
			continue;
		}
		const triggers = workflow.nodes.filter((node) => TRIGGER_TYPES.includes(node.type));
		if (triggers.length !== 1) {
			left.push(
				`${file}: left out: started by ${workflow.nodes.find((node) => /trigger/i.test(node.type))?.type ?? 'no trigger'}, not one Manual or Schedule Trigger`,
			);
			continue;
		}
		if (only && !only.includes(id)) continue;
		examples.push({
			id,
			file,
			workflow,
			trigger: triggers[0].name,
			// A run from another trigger (examples/13's upload form) is the form's; the webhook stands for the schedule.
			runs: (EXAMPLE_RUNS[id] ?? [{}]).filter((run) => !run.startNode),
		});
	}
	return { examples, left };
}

/** The example with its trigger replaced by a Webhook node of the same name (so the connections stay as they are). */
export function webhookVersion(example: Example): Json {
	const nodes = example.workflow.nodes.map((node) =>
		node.name === example.trigger
			? webhookNode(`queue-${example.id}`, { name: node.name, position: node.position })
			: node,
	);
	return {
		id: `queueExample${example.id}`,
		name: `queue: ${example.workflow.name ?? example.file}`,
		active: false,
		nodes,
		connections: example.workflow.connections,
		settings: { executionOrder: 'v1' },
	};
}

interface NodeRun {
	data?: { main?: Array<Array<{ json: Json }> | null> };
}
export type RunData = Record<string, NodeRun[]>;

/**
 * Every compared node's output JSON of its last run, output by output (the shape both the demo and n8n's execution
 * share). Not compared: the trigger (a Webhook's output is the HTTP request, not a Manual / Schedule trigger's) and the
 * Send Email nodes (in a real n8n they output the SMTP server's answer; the mails themselves are compared instead).
 */
export function comparedOutputs(example: Example, runData: RunData): Record<string, Json[][]> {
	const skipped = new Set([
		example.trigger,
		...example.workflow.nodes.filter((node) => node.type === EMAIL_TYPE).map((node) => node.name),
		// The rows of a real Data Table carry n8n's own columns and times: queue-mode.ts reads the table itself instead.
		...example.workflow.nodes
			.filter((node) => node.type === DATA_TABLE_TYPE)
			.map((node) => node.name),
	]);
	const outputs: Record<string, Json[][]> = {};
	for (const [node, runs] of Object.entries(runData)) {
		if (skipped.has(node)) continue;
		const last = runs[runs.length - 1];
		outputs[node] = (last?.data?.main ?? []).map((items) =>
			(items ?? []).map((item) => normalize(item.json) as Json),
		);
	}
	return outputs;
}

function normalize(value: unknown, key = ''): unknown {
	if (
		value !== null &&
		typeof value !== 'object' &&
		(VOLATILE_KEYS.test(key) || VOLATILE_VALUES.test(String(value)))
	)
		return `<${typeof value}>`;
	if (Array.isArray(value)) return value.map((entry) => normalize(entry));
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, normalize(v, k)]));
	return value;
}

export function firstDifference(actual: unknown, expected: unknown, path = ''): string | undefined {
	if (JSON.stringify(actual) === JSON.stringify(expected)) return undefined;
	if (
		actual &&
		expected &&
		typeof actual === 'object' &&
		typeof expected === 'object' &&
		Array.isArray(actual) === Array.isArray(expected)
	) {
		const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])];
		for (const key of keys) {
			const difference = firstDifference(
				(actual as Json)[key],
				(expected as Json)[key],
				`${path}${Array.isArray(actual) ? `[${key}]` : `.${key}`}`,
			);
			if (difference) return difference;
		}
	}
	return `${path || '(top)'}: queue mode ${JSON.stringify(actual)?.slice(0, 160)}, demo ${JSON.stringify(expected)?.slice(0, 160)}`;
}

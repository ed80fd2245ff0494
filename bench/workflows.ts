/** Workflows the benchmarks run inside n8n's engine (test/workflow/runner.ts), and how their time is read. */
import type { IDataObject, IExecuteFunctions, INode, INodeType } from 'n8n-workflow';

import { CREDENTIAL_REF, INPUT_NODE, chainWorkflow } from '../test/helpers/workflows';
import type { NodeSpec } from '../test/helpers/workflows';
import { packageNodeTypes } from '../test/workflow/packageNodes';
import { PACKAGE_NAME, runWorkflow } from '../test/workflow/runner';
import type { RunWorkflowOptions, WorkflowInput, WorkflowRunResult } from '../test/workflow/runner';
import { GENERATE_ITEMS_TYPE, GenerateItems } from './nodes/GenerateItems.node';
import { PLAIN_REQUEST_TYPE, PlainRequest } from './nodes/PlainRequest.node';

export const NODE = 'Node';
export const INPUT = 'Input';

export interface NodeUnderTest {
	/** Our node's description.name, e.g. 'sustainabilityInstruments', or a bench node type. */
	type: string;
	parameters: IDataObject;
	/** Default 1. */
	typeVersion?: number;
	settings?: Partial<Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError'>>;
}

/**
 * Manual Trigger -> input -> the node under test. The input is either rows given here (pinned on the Input node,
 * as test/helpers/workflows.ts does) or `{ generate: {count, distinct} }` (the bench-only Generate Items node,
 * which builds 100,000 rows without a 100,000-row code literal).
 */
export function benchWorkflow(
	input:
		| IDataObject[]
		| {
				generate: {
					count: number;
					distinct: number;
					country?: string;
					start?: number;
					marketValue?: boolean;
					groups?: number;
				};
		  },
	node: NodeUnderTest,
): WorkflowInput {
	const { onError, ...settings } = node.settings ?? {};
	const spec: NodeSpec = {
		type: node.type,
		parameters: node.parameters,
		typeVersion: node.typeVersion,
		name: NODE,
		onError,
		settings,
		credentials: CREDENTIAL_REF,
	};
	if (Array.isArray(input)) return chainWorkflow(input, spec);
	const generate: INode = {
		...INPUT_NODE,
		type: GENERATE_ITEMS_TYPE,
		parameters: input.generate as unknown as INode['parameters'],
	};
	const workflow = chainWorkflow([], spec);
	return {
		...workflow,
		nodes: workflow.nodes.map((entry) => (entry.name === INPUT ? generate : entry)),
		pinData: {},
	};
}

export interface TimedRun {
	result: WorkflowRunResult;
	/** Wall time of runWorkflow, ms. */
	wallMs: number;
	/** runData executionTime of the node under test (its step in n8n's engine: input copy, execute, paired items), ms. */
	nodeStepMs: number;
	/** Time inside our node's execute() only (a timing wrapper around the node type), ms; summed over tries. */
	executeMs: number;
}

/** Our node types wrapped so the time inside execute() is measured; everything else is the real node type. */
function timedPackageNodeTypes(sink: { ms: number }): Record<string, INodeType> {
	const types: Record<string, INodeType> = {};
	for (const type of packageNodeTypes as INodeType[]) {
		const wrapped = Object.create(type) as INodeType;
		wrapped.execute = async function (this: IExecuteFunctions) {
			const started = performance.now();
			try {
				return await type.execute!.call(this);
			} finally {
				sink.ms += performance.now() - started;
			}
		};
		types[`${PACKAGE_NAME}.${type.description.name}`] = wrapped;
	}
	return types;
}

export async function timedRun(
	workflow: WorkflowInput,
	baseUrl: string,
	options: Omit<RunWorkflowOptions, 'credentials' | 'nodeTypes'> & { apiKey?: string } = {},
): Promise<TimedRun> {
	const sink = { ms: 0 };
	const { apiKey = 'sim-all-families', ...rest } = options;
	const started = performance.now();
	const result = await runWorkflow(workflow, {
		timeoutMs: 600_000,
		...rest,
		credentials: { sustainabilityComplianceApi: { apiKey, baseUrl } },
		nodeTypes: {
			[GENERATE_ITEMS_TYPE]: new GenerateItems(),
			[PLAIN_REQUEST_TYPE]: new PlainRequest(),
			...timedPackageNodeTypes(sink),
		},
	});
	const wallMs = performance.now() - started;
	const tasks = result.runData[NODE] ?? [];
	const nodeStepMs = tasks.reduce((sum, task) => sum + (task.executionTime ?? 0), 0);
	return { result, wallMs, nodeStepMs, executeMs: sink.ms };
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Golden workflows, in the style of n8n's NodeTestHarness tests: each test/golden/<node>/<case>.workflow.json is an
 * n8n workflow (import it into n8n to look at it) whose pinned data holds the input rows (on 'Input') and, on each of
 * our nodes, the items that node must output. Our nodes' pinned data is taken off, the workflow runs in n8n's engine
 * against the simulator (its data is deterministic), and each of our nodes must output exactly those items (json and
 * pairedItem), but for the values that change from run to run (the soak's list: waited_seconds, request ids, URLs).
 *
 * To add a case: copy a file, change the rows and the parameters, run `GOLDEN_RECORD=1 npx jest test/golden` to
 * write what our node outputs into the file, and read the diff as the review of the new expectation.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeExecutionData, IPinData } from 'n8n-workflow';

import { normalise } from '../soak/soak';
import { useSimulator } from './helpers/simulator';
import { credentialsFor } from './helpers/workflows';
import { PACKAGE_NAME, runWorkflow } from './workflow/runner';
import type { WorkflowInput } from './workflow/runner';

const GOLDEN_DIR = join(__dirname, 'golden');
const FILES = readdirSync(GOLDEN_DIR, { recursive: true, encoding: 'utf8' })
	.filter((file) => file.endsWith('.workflow.json'))
	.sort();
const RECORD = !!process.env.GOLDEN_RECORD;

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

/** JSON as the golden files are written: one line where it fits, else one entry per line (tabs). */
function formatJson(value: unknown, indent = ''): string {
	const inline = (inner: unknown): string => {
		if (typeof inner !== 'object' || inner === null) return JSON.stringify(inner);
		if (Array.isArray(inner)) return `[${inner.map(inline).join(', ')}]`;
		const entries = Object.entries(inner).filter(([, entry]) => entry !== undefined);
		return entries.length
			? `{ ${entries.map(([key, entry]) => `${JSON.stringify(key)}: ${inline(entry)}`).join(', ')} }`
			: '{}';
	};
	const flat = inline(value);
	if (typeof value !== 'object' || value === null || indent.length + flat.length <= 110)
		return flat;
	const next = `${indent}\t`;
	const lines = Array.isArray(value)
		? value.map((entry) => next + formatJson(entry, next))
		: Object.entries(value).map(
				([key, entry]) => `${next}${JSON.stringify(key)}: ${formatJson(entry, next)}`,
			);
	return Array.isArray(value)
		? `[\n${lines.join(',\n')}\n${indent}]`
		: `{\n${lines.join(',\n')}\n${indent}}`;
}

test('there is a golden workflow for every node but Sustainability Reports (its output carries a download link)', () => {
	const nodes = new Set(FILES.map((file) => file.split(/[\\/]/)[0]));
	expect([...nodes].sort()).toEqual([
		'euTaxonomy',
		'portfolioSnapshots',
		'sustainabilityInstruments',
		'sustainableInvestments',
		'temperatureScore',
	]);
});

test.each(FILES)('%s', async (file) => {
	const path = join(GOLDEN_DIR, file);
	const workflow = JSON.parse(readFileSync(path, 'utf8')) as WorkflowInput & { pinData: IPinData };
	const ours = new Set(
		workflow.nodes
			.filter((node) => node.type.startsWith(`${PACKAGE_NAME}.`))
			.map((node) => node.name),
	);
	const expected = Object.entries(workflow.pinData).filter(([name]) => ours.has(name));
	const pinned = Object.fromEntries(
		Object.entries(workflow.pinData).filter(([name]) => !ours.has(name)),
	);
	expect(expected.length).toBeGreaterThan(0);

	const result = await runWorkflow(
		{ ...workflow, pinData: pinned },
		{ credentials: credentialsFor(sim.url) },
	);
	expect(result.error).toBeUndefined();
	const output = (name: string) =>
		result.items(name).map(({ json, pairedItem }): INodeExecutionData => ({ json, pairedItem }));
	if (RECORD) {
		for (const [name] of expected) workflow.pinData[name] = output(name);
		writeFileSync(path, `${formatJson(workflow)}\n`);
		return;
	}
	for (const [name, items] of expected) expect(normalise(output(name))).toEqual(normalise(items));
});

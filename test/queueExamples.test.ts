import { useSimulator } from './helpers/simulator';
import {
	comparedOutputs,
	firstDifference,
	loadExamples,
	webhookVersion,
	type Example,
	type Json,
	type RunData,
} from './e2e/queue-examples';
import { findN8nNodesBase } from './workflow/node-types';
import { runWorkflow } from './workflow/runner';

/** The pieces of `npm run test:n8n:queue` (test/e2e/queue-mode.ts) that need no real n8n. */
describe('queue-mode check: webhook versions of the examples', () => {
	const { examples, left } = loadExamples();

	it('takes every example but the AI ones (agent, MCP server) and the upload form, and says why those are left out', () => {
		// 11 needs n8n's file nodes, which the harness loads from a cached n8n install (without one it is left out).
		const withN8n = Boolean(findN8nNodesBase());
		expect(examples.map((example) => example.id)).toEqual([
			'01',
			'02',
			'03',
			'04',
			'05',
			'06',
			'07',
			...(withN8n ? ['11'] : []),
			'12',
			...(withN8n ? ['13'] : []),
			'14',
		]);
		expect(left).toEqual([
			expect.stringMatching(/^08-.*chatTrigger.*npm run test:n8n:agent/),
			expect.stringMatching(/^09-.*mcpTrigger.*npm run test:n8n:mcp/),
			expect.stringMatching(
				withN8n
					? /^10-.*n8n-nodes-base\.formTrigger/
					: /^10-.*needs n8n's n8n-nodes-base\.formTrigger/,
			),
			...(withN8n ? [] : [expect.stringMatching(/^11-.*needs n8n's/)]),
			...(withN8n ? [] : [expect.stringMatching(/^13-.*needs n8n's/)]),
		]);
	});

	it('runs only the examples asked for', () => {
		expect(loadExamples(['06', '03']).examples.map((example) => example.id)).toEqual(['03', '06']);
	});

	it.each(examples.map((example) => [example.file, example] as const))(
		'%s: only the trigger changes, into a Webhook of the same name',
		(_file, example: Example) => {
			const version = webhookVersion(example) as {
				nodes: Array<{ name: string; type: string; parameters: Json }>;
				connections: Json;
			};
			expect(version.connections).toEqual(example.workflow.connections);
			expect(version.nodes.map((node) => node.name)).toEqual(
				example.workflow.nodes.map((node) => node.name),
			);
			for (const node of version.nodes) {
				const original = example.workflow.nodes.find((entry) => entry.name === node.name);
				if (node.name === example.trigger) {
					expect(node.type).toBe('n8n-nodes-base.webhook');
					expect(node.parameters).toMatchObject({
						httpMethod: 'POST',
						path: `queue-${example.id}`,
						responseMode: 'lastNode',
					});
				} else expect(node).toBe(original);
			}
		},
	);
});

describe('queue-mode check: comparing two runs of an example', () => {
	const sim = useSimulator({ temperatureRoute: true });
	const example = loadExamples().examples.find((entry) => entry.id === '03')!;

	async function outputs(): Promise<Record<string, Json[][]>> {
		const result = await runWorkflow(example.workflow as never, {
			credentials: {
				sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url },
			},
			mode: 'trigger',
		});
		expect(result.error).toBeUndefined();
		return comparedOutputs(example, result.runData as unknown as RunData);
	}

	it('two runs of the report example are equal apart from its report id, link and times; a changed figure is not', async () => {
		const first = await outputs();
		sim.reset();
		const second = await outputs();
		const report = (runs: Record<string, Json[][]>) => runs['Generate MiFID II Report'][0][0];
		expect(report(first).identifier).toBe('<string>');
		expect(report(first).location_url).toBe('<string>');
		expect(Object.keys(first)).toEqual([
			'Current Holdings',
			'One Item per Row',
			'Generate MiFID II Report',
		]);
		for (const node of Object.keys(first))
			expect(firstDifference(second[node], first[node], node)).toBeUndefined();

		const changed = structuredClone(second);
		report(changed).file_size = Number(report(changed).file_size) + 1;
		expect(
			firstDifference(
				changed['Generate MiFID II Report'],
				first['Generate MiFID II Report'],
				'Report',
			),
		).toMatch(/^Report\[0\]\[0\]\.file_size: queue mode \d+, demo \d+$/);
	});
});

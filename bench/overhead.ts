/**
 * Section 2, engine overhead: Get SFDR Classification inside n8n's engine against a bare fetch loop doing the same
 * requests and building the same output (bench/baseline.ts), alternating in one process.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { BenchContext, Section } from './context';
import { baselineSfdr } from './baseline';
import { collectGarbage, int, mb, median, ms, ratio, withMemoryPeak } from './measure';
import type { MemoryPeak } from './measure';
import { generateRows } from './nodes/GenerateItems.node';
import type { SectionResult, Table } from './report';
import { NODE, benchWorkflow, timedRun } from './workflows';

interface Sample {
	executeMs: number;
	nodeStepMs: number;
	wallMs: number;
	memory: MemoryPeak;
}

interface Row {
	target: 'simulator' | 'replay';
	items: number;
	runs: number;
	requests: number;
	node: Sample[];
	baseline: Array<{ ms: number; memory: MemoryPeak }>;
}

const SFDR = 'POST /instruments/sustainability-profile' as const;

async function nodeSample(
	baseUrl: string,
	count: number,
): Promise<{ sample: Sample; outputs: number }> {
	const workflow = benchWorkflow(
		{ generate: { count, distinct: count } },
		{ type: 'sustainabilityInstruments', parameters: { operation: 'getSfdrClassification' } },
	);
	const { value, memory } = await withMemoryPeak(async () => {
		const run = await timedRun(workflow, baseUrl);
		if (run.result.error) throw run.result.error;
		return {
			executeMs: run.executeMs,
			nodeStepMs: run.nodeStepMs,
			wallMs: run.wallMs,
			outputs: run.result.items(NODE).length,
		};
	});
	return {
		sample: {
			executeMs: value.executeMs,
			nodeStepMs: value.nodeStepMs,
			wallMs: value.wallMs,
			memory,
		},
		outputs: value.outputs,
	};
}

async function baselineSample(
	baseUrl: string,
	count: number,
): Promise<{ ms: number; memory: MemoryPeak; outputs: number }> {
	const { value, memory } = await withMemoryPeak(async () => {
		const items: INodeExecutionData[] = generateRows(count, count).map((json) => ({ json }));
		const started = performance.now();
		const { output } = await baselineSfdr(baseUrl, items);
		return { ms: performance.now() - started, outputs: output.length };
	});
	return { ms: value.ms, memory, outputs: value.outputs };
}

export const overhead: Section = {
	id: 'overhead',
	title: '2. Engine overhead: Get SFDR Classification in n8n vs a bare fetch loop',
	async run(context: BenchContext): Promise<SectionResult> {
		const sizes = context.quick ? [5_000, 10_000] : [10_000, 100_000];
		const runs = context.quick ? 3 : 5;
		const sim = await context.simulator();
		const rows: Row[] = [];
		for (const target of ['simulator', 'replay'] as const) {
			const baseUrl = target === 'simulator' ? sim.url : sim.replayUrl;
			for (const count of sizes) {
				context.log(`overhead: ${int(count)} items against the ${target}, ${runs} runs each`);
				// Warm-up (JIT, keep-alive sockets, the replay's recordings): not counted.
				await nodeSample(baseUrl, count);
				await baselineSample(baseUrl, count);
				await sim.reset();
				const row: Row = { target, items: count, runs, requests: 0, node: [], baseline: [] };
				for (let run = 0; run < runs; run++) {
					// Alternate which goes first, so drift (other load on the machine, heap growth) hits both alike.
					const order = run % 2 === 0 ? ['node', 'baseline'] : ['baseline', 'node'];
					for (const which of order) {
						if (which === 'node') {
							const { sample, outputs } = await nodeSample(baseUrl, count);
							if (outputs !== count) throw new Error(`node gave ${outputs} items for ${count}`);
							row.node.push(sample);
						} else {
							const sample = await baselineSample(baseUrl, count);
							if (sample.outputs !== count)
								throw new Error(`baseline gave ${sample.outputs} items`);
							row.baseline.push({ ms: sample.ms, memory: sample.memory });
						}
					}
				}
				row.requests =
					target === 'simulator'
						? (await sim.requestCount(SFDR)) / (2 * runs)
						: Math.ceil(count / 10_000);
				await sim.reset();
				rows.push(row);
				collectGarbage();
			}
		}
		await sim.close();

		const table = (target: Row['target']): Table => ({
			title:
				target === 'simulator'
					? 'Against the simulator (its computing time included on both sides)'
					: "Against recorded simulator answers (replayed: the server's time left out, so the client's own cost shows)",
			command: context.command('overhead'),
			columns: [
				'Items',
				'Requests / run',
				'Node execute() median',
				'Node step (runData executionTime) median',
				'Bare fetch loop median',
				'Ratio execute() / fetch',
				'Ratio step / fetch',
				'Peak heap Δ node run / fetch',
				'Peak RSS Δ node run / fetch',
			],
			rows: rows
				.filter((row) => row.target === target)
				.map((row) => {
					const executeMs = median(row.node.map((s) => s.executeMs));
					const stepMs = median(row.node.map((s) => s.nodeStepMs));
					const baseMs = median(row.baseline.map((s) => s.ms));
					return [
						int(row.items),
						row.requests,
						ms(executeMs),
						ms(stepMs),
						ms(baseMs),
						ratio(executeMs / baseMs),
						ratio(stepMs / baseMs),
						`${mb(median(row.node.map((s) => s.memory.heapDelta)))} / ${mb(median(row.baseline.map((s) => s.memory.heapDelta)))}`,
						`${mb(median(row.node.map((s) => s.memory.rssDelta)))} / ${mb(median(row.baseline.map((s) => s.memory.rssDelta)))}`,
					];
				}),
			notes:
				target === 'simulator'
					? [
							`${runs} runs of each, alternating in one process after one warm-up run of each; the simulator runs in a child process.`,
							"Node execute(): time inside our node's execute() (a timing wrapper around the node type). Node step: the run data's executionTime of our node, i.e. also n8n's per-item input copy and paired-item bookkeeping around it.",
							'Input: 1 item per distinct ISIN, { row, isin, name }, from a bench-only Generate Items node (baseline: the same rows built in-process, outside its timing). Output: Add to Input Items.',
							'Baseline (bench/baseline.ts): distinct ISINs, the same bodies (10,000 ISINs each) sent one after the other with fetch, matched by ISIN, the same output objects; no ISIN normalising or check-digit test.',
							'Memory: peak of process.memoryUsage() sampled every 5 ms during the whole workflow run (engine, input node, our node, run data) or the whole baseline (input rows + output), minus the level after a forced GC just before; median of the runs.',
						]
					: [
							'Same runs, but every request is answered by a replay of the answer the simulator gave to the identical request (bench/simHost.ts), so the ratio shows the client-side cost.',
						],
		});
		const largest = (target: Row['target']) => rows.filter((row) => row.target === target).at(-1)!;
		const check = (target: Row['target']) => {
			const row = largest(target);
			const value =
				median(row.node.map((s) => s.executeMs)) / median(row.baseline.map((s) => s.ms));
			return {
				name: `execute()/fetch ratio ≤ 1.25 at ${int(row.items)} items (${target})`,
				ok: value <= 1.25,
				value: ratio(value),
			};
		};
		return {
			id: 'overhead',
			title: this.title,
			tables: [table('simulator'), table('replay')],
			data: rows,
			checks: [check('simulator'), check('replay')],
		};
	},
};

/**
 * Section 4, scale: time and memory of Get SFDR Classification for growing inputs, per item, to show the cost grows
 * linearly.
 */
import type { BenchContext, Section } from './context';
import { collectGarbage, int, mb, median, ms, withMemoryPeak } from './measure';
import type { SectionResult } from './report';
import { NODE, benchWorkflow, timedRun } from './workflows';

interface Sample {
	wallMs: number;
	stepMs: number;
	replayExecuteMs: number;
	heap: number;
	rss: number;
	requests: number;
}

export const scale: Section = {
	id: 'scale',
	title: '4. Scale: Get SFDR Classification as the input grows',
	async run(context: BenchContext): Promise<SectionResult> {
		const sizes = context.quick ? [1_000, 5_000, 20_000] : [1_000, 10_000, 100_000];
		const runs = context.quick ? 2 : 3;
		const sim = await context.simulator();
		const results: Array<{ items: number; samples: Sample[] }> = [];
		for (const count of sizes) {
			context.log(`scale: ${int(count)} items, ${runs} runs`);
			const workflow = benchWorkflow(
				{ generate: { count, distinct: count } },
				{ type: 'sustainabilityInstruments', parameters: { operation: 'getSfdrClassification' } },
			);
			// Warm-up, also records the answers the replay listener gives back later.
			await timedRun(workflow, sim.replayUrl);
			const samples: Sample[] = [];
			for (let run = 0; run < runs; run++) {
				await sim.reset();
				const { value, memory } = await withMemoryPeak(async () => {
					const result = await timedRun(workflow, sim.url);
					if (result.result.error) throw result.result.error;
					if (result.result.items(NODE).length !== count) throw new Error('wrong output size');
					return result;
				});
				const requests = await sim.requestCount('POST /instruments/sustainability-profile');
				const replay = await timedRun(workflow, sim.replayUrl);
				samples.push({
					wallMs: value.wallMs,
					stepMs: value.nodeStepMs,
					replayExecuteMs: replay.executeMs,
					heap: memory.heapDelta,
					rss: memory.rssDelta,
					requests,
				});
				collectGarbage();
			}
			results.push({ items: count, samples });
		}
		await sim.close();
		const perItemUs = (value: number, items: number) => `${((value * 1000) / items).toFixed(1)} µs`;
		const rows = results.map(({ items, samples }) => {
			const wall = median(samples.map((s) => s.wallMs));
			const step = median(samples.map((s) => s.stepMs));
			const client = median(samples.map((s) => s.replayExecuteMs));
			const heap = median(samples.map((s) => s.heap));
			return [
				int(items),
				samples[0].requests,
				ms(wall),
				ms(step),
				perItemUs(step, items),
				ms(client),
				perItemUs(client, items),
				mb(heap),
				`${(heap / items / 1024).toFixed(2)} KB`,
				mb(median(samples.map((s) => s.rss))),
			];
		});
		return {
			id: 'scale',
			title: this.title,
			tables: [
				{
					title: 'One distinct ISIN per item, Output: Add to Input Items',
					command: context.command('scale'),
					columns: [
						'Items',
						'Requests',
						'Workflow wall time',
						'Node step (simulator)',
						'per item',
						'Node execute() (replayed answers)',
						'per item',
						'Peak heap Δ',
						'per item',
						'Peak RSS Δ',
					],
					rows,
					notes: [
						`Median of ${runs} runs after a warm-up. Workflow: Manual Trigger → Generate Items (bench-only) → Get SFDR Classification, in n8n's engine; simulator in a child process.`,
						"Node step: the run data's executionTime of our node against the simulator (its computing time, about 0.1 ms per ISIN, included). Node execute(): time inside our node against replayed simulator answers, i.e. the client's own cost.",
						'Memory: peak of process.memoryUsage() sampled every 5 ms during the whole workflow run (input items, output items and run data included) minus the level after a forced GC before it.',
					],
				},
			],
			data: results,
		};
	},
};

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- bench tooling runs in Node, outside n8n's sandbox */
/**
 * Section 3, throttle goodput: the simulator's short-burst limit at R requests per second; work that needs M
 * requests; completion time against the ideal M / R, failed executions, and the requests the throttle refused
 * (each one counts against the monthly quota). Beside it, n8n's node-level Retry On Fail on a node without our
 * backoff (bench/nodes/PlainRequest.node.ts), run for real in the engine.
 */
import type { BenchContext, Section } from './context';
import { int, median, ratio, seconds } from './measure';
import { generateRows } from './nodes/GenerateItems.node';
import type { SectionResult } from './report';
import type { ChildSimulator } from './sim';
import { NODE, benchWorkflow, timedRun } from './workflows';
import type { NodeUnderTest } from './workflows';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const RATE = 20;
const WINDOW_MS = 1000;
const BATCH = 10;

export interface Scenario {
	name: string;
	/** Parallel executions (same key), each with `isins` distinct ISINs. */
	executions: number;
	isins: number;
	node: NodeUnderTest;
}

export interface Outcome {
	scenario: string;
	requestsNeeded: number;
	idealMs: number;
	runs: Array<{ ms: number; failed: number; requests: number; refused: number; error?: string }>;
}

const sfdr = (concurrency = 1): NodeUnderTest => ({
	type: 'sustainabilityInstruments',
	parameters: {
		operation: 'getSfdrClassification',
		options: { batchSize: BATCH, ...(concurrency > 1 ? { concurrency } : {}) },
	},
});

/** A fresh simulator state, then an idle second, so the limit's window starts empty. */
export async function idleWindow(sim: ChildSimulator): Promise<void> {
	await sim.reset();
	await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
}

/**
 * Runs the scenario's executions at once in this process, `repeat` times, against `sim` limited to `rate` requests
 * per second (Batch Size 10 in the scenario's node).
 */
export async function runScenario(
	sim: ChildSimulator,
	scenario: Scenario,
	repeat: number,
	rate = RATE,
): Promise<Outcome> {
	const requestsNeeded = scenario.executions * Math.ceil(scenario.isins / BATCH);
	const outcome: Outcome = {
		scenario: scenario.name,
		requestsNeeded,
		idealMs: (requestsNeeded / rate) * WINDOW_MS,
		runs: [],
	};
	for (let run = 0; run < repeat; run++) {
		await idleWindow(sim);
		const started = performance.now();
		const results = await Promise.all(
			Array.from({ length: scenario.executions }, (_, index) =>
				timedRun(
					benchWorkflow(
						generateRows(scenario.isins, scenario.isins, 'US', index * scenario.isins),
						scenario.node,
					),
					sim.url,
					{ timeoutMs: 300_000 },
				),
			),
		);
		const ms = performance.now() - started;
		const stats = await sim.stats();
		const failed = results.filter(
			(result) => result.result.status !== 'success' || result.result.error,
		);
		outcome.runs.push({
			ms,
			failed: failed.length,
			requests: stats.byRoute[SFDR] ?? 0,
			refused: stats.byStatus['429'] ?? 0,
			error: failed[0]?.result.error?.message,
		});
		for (const result of results)
			if (!result.result.error && result.result.items(NODE).length === 0)
				throw new Error('no output');
	}
	return outcome;
}

export const throttle: Section = {
	id: 'throttle',
	title: '3. Throttle goodput: short-burst limit of 20 requests per second',
	async run(context: BenchContext): Promise<SectionResult> {
		const isins = context.quick ? 1_000 : 2_000;
		const repeat = context.quick ? 1 : 3;
		// Warm n8n's engine up first, against another simulator, so the first scenario does not pay for it.
		const warm = await context.simulator();
		await timedRun(benchWorkflow(generateRows(10, 10), sfdr()), warm.url);
		await warm.close();
		// Each scenario gets its own simulator (its own address, so our pacing starts unlearned): its first run is
		// the first contact with the limit, the next ones run with what the transport learned (within 30 s).
		const fresh = () => context.simulator({ burstLimit: { requests: RATE, windowMs: WINDOW_MS } });
		const scenarios: Scenario[] = [
			{
				name: `Get SFDR Classification, ${int(isins)} ISINs, Batch Size ${BATCH}`,
				executions: 1,
				isins,
				node: sfdr(),
			},
			{ name: `… with Concurrency 4`, executions: 1, isins, node: sfdr(4) },
			{
				name: `4 executions at once (same key), ${int(isins / 4)} ISINs each`,
				executions: 4,
				isins: isins / 4,
				node: sfdr(),
			},
		];
		const outcomes: Outcome[] = [];
		for (const scenario of scenarios) {
			context.log(`throttle: ${scenario.name}`);
			const sim = await fresh();
			outcomes.push(await runScenario(sim, scenario, repeat));
			await sim.close();
		}
		let retry: Outcome | undefined;
		if (!context.quick) {
			const retryNode: NodeUnderTest = {
				type: 'bench.plainRequest',
				parameters: { batchSize: BATCH },
				settings: { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 },
			};
			context.log('throttle: Retry On Fail on a node without backoff');
			const sim = await fresh();
			retry = await runScenario(
				sim,
				{
					name: "n8n's Retry On Fail (5 tries, 5 s apart) on a node without backoff, same work",
					executions: 1,
					isins,
					node: retryNode,
				},
				1,
			);
			outcomes.push(retry);
			await sim.close();
		}

		const rows = outcomes.map((outcome) => {
			const ms = median(outcome.runs.map((run) => run.ms));
			const failed = outcome.runs.some((run) => run.failed > 0);
			return [
				outcome.scenario,
				outcome.requestsNeeded,
				seconds(outcome.idealMs),
				seconds(((outcome.requestsNeeded - RATE) / RATE) * WINDOW_MS),
				outcome.runs.map((run) => `${seconds(run.ms)}${run.failed ? ' (failed)' : ''}`).join(', '),
				failed ? '– (failed)' : ratio(ms / outcome.idealMs),
				outcome.runs.map((run) => run.failed).join(', '),
				outcome.runs.map((run) => `${run.requests} / ${run.refused}`).join(', '),
			];
		});
		return {
			id: 'throttle',
			title: this.title,
			tables: [
				{
					title: `Burst limit ${RATE} requests per ${WINDOW_MS} ms (sliding window, per key), M requests needed`,
					command: context.command('throttle'),
					columns: [
						'Work',
						'M',
						'Ideal M / R',
						'Lower bound (M − R) / R',
						'Completion time (runs 1, 2, 3)',
						'Median / ideal',
						'Failed executions',
						'Requests sent / refused with 429',
					],
					rows,
					notes: [
						"Completion: from starting the execution(s) to the last one finishing, in n8n's engine (warmed up); the simulator's window is empty at the start of each run.",
						'Run 1 meets the limit unannounced (the vendor does not publish it); runs 2 and 3 follow within seconds and use the limit the transport learned for this key and address.',
						'Lower bound: the first R requests of an empty window pass at once, so no client can finish before (M − R) / R; the target is measured against M / R.',
						'Refused requests still count against the monthly quota (10,000 a month).',
						retry
							? `Retry On Fail, run for real: n8n-core (WorkflowExecute) re-runs the whole node, at most 5 tries 5 s apart; the bench-only node (bench/nodes/PlainRequest.node.ts) sends one plain request per batch through httpRequestWithAuthentication and throws on a non-2xx answer, so every try starts over and meets the same limit. Its error: "${retry.runs[0].error ?? 'none'}".`
							: "Retry On Fail (n8n's node setting) runs only in the full bench (it takes 20 s of fixed waits).",
					],
				},
			],
			data: outcomes,
			checks: outcomes.slice(0, 3).map((outcome) => {
				const value = median(outcome.runs.map((run) => run.ms)) / outcome.idealMs;
				const failed = outcome.runs.reduce((sum, run) => sum + run.failed, 0);
				return {
					name: `${outcome.scenario}: ≤ 1.2 × ideal, no failure`,
					ok: value <= 1.2 && failed === 0,
					value: `${ratio(value)}, ${failed} failed`,
				};
			}),
		};
	},
};

/**
 * Section 3c, the pacing controller on simulated time (nodes/shared/api/pacing.ts through test/helpers/sharedKeySim.ts:
 * the simulator's own short-burst limiter, the transport's retry rules, no HTTP, no timers): one to four processes,
 * each with its own pacer, share one key. Completion versus the ideal M / R, refusals, the smallest share of a
 * process while all are busy, and requests given up, over many seeds. The same scenarios as the unit tests
 * (test/unit/pacingShared.test.ts) and more: uneven work, a process that starts late.
 */
import { acceptedBetween, simulateSharedKey } from '../test/helpers/sharedKeySim';
import type { SharedKeySimResult, SimProcess } from '../test/helpers/sharedKeySim';
import type { BenchContext, Section } from './context';
import type { SectionResult } from './report';

interface Scenario {
	name: string;
	limit: number;
	processes: SimProcess[];
	/** Whether the shares are compared: the processes are alike, or one starts while the other uses the whole limit. */
	even: boolean;
}

const alike = (count: number, requests: number, concurrency: number): SimProcess[] =>
	Array.from({ length: count }, () => ({ requests, concurrency }));

const late = (requests: number, startAt: number): SimProcess => ({
	requests,
	concurrency: 5,
	startAt,
});

const SCENARIOS: Scenario[] = [
	{ name: 'one process', limit: 20, processes: alike(1, 200, 4), even: false },
	{
		name: 'one process, 10 executions at once',
		limit: 5,
		processes: alike(1, 100, 10),
		even: false,
	},
	{ name: 'two processes, 5 executions each', limit: 5, processes: alike(2, 50, 5), even: true },
	{
		name: 'two processes, 6 and 4 executions',
		limit: 5,
		processes: [
			{ requests: 60, concurrency: 6 },
			{ requests: 40, concurrency: 4 },
		],
		even: false,
	},
	{
		name: 'two processes, the second 2 s later',
		limit: 5,
		processes: [{ requests: 50, concurrency: 5 }, late(50, 2000)],
		even: false,
	},
	{
		name: 'a long run, and a short one 5 s later',
		limit: 5,
		processes: [{ requests: 1000, concurrency: 5 }, late(50, 5000)],
		even: true,
	},
	{ name: 'two processes', limit: 20, processes: alike(2, 100, 4), even: true },
	{ name: 'three processes', limit: 10, processes: alike(3, 50, 3), even: true },
	{ name: 'four processes', limit: 20, processes: alike(4, 100, 4), even: true },
];

const totalWork = (scenario: Scenario) =>
	scenario.processes.reduce((sum, process) => sum + process.requests, 0);

/** The smallest share of accepted requests over the mean share, while every process is busy. */
function smallestShare(result: SharedKeySimResult, scenario: Scenario): number {
	const from = Math.max(...scenario.processes.map((process) => process.startAt ?? 0));
	const until = Math.min(...result.processes.map((process) => process.finishedAt ?? result.endMs));
	const shares = result.processes.map((process) => acceptedBetween(process, from, until));
	const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
	return mean > 0 ? Math.min(...shares) / mean : 1;
}

export const pacing: Section = {
	id: 'pacing',
	title: '3c. The pacing controller on simulated time: processes sharing one key',
	async run(context: BenchContext): Promise<SectionResult> {
		const seeds = Array.from({ length: context.quick ? 3 : 24 }, (_, index) => index + 1);
		const rows: Array<Array<string | number>> = [];
		const data: unknown[] = [];
		let worstRatio = 0;
		let failedAll = 0;
		for (const scenario of SCENARIOS) {
			const ideal = (totalWork(scenario) / scenario.limit) * 1000;
			const ratios: number[] = [];
			const refusals: number[] = [];
			const shares: number[] = [];
			let failed = 0;
			for (const seed of seeds) {
				const result = simulateSharedKey({
					limit: { requests: scenario.limit, windowMs: 1000 },
					processes: scenario.processes,
					seed,
				});
				ratios.push(result.endMs / ideal);
				refusals.push(result.processes.reduce((sum, process) => sum + process.refused, 0));
				failed += result.processes.reduce((sum, process) => sum + process.failed, 0);
				if (scenario.even) shares.push(smallestShare(result, scenario));
			}
			const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
			const worst = Math.max(...ratios);
			worstRatio = Math.max(worstRatio, worst);
			failedAll += failed;
			const refusedPer100 =
				(refusals.reduce((sum, count) => sum + count, 0) * 100) /
				refusals.length /
				totalWork(scenario);
			const work = scenario.processes
				.map(
					(process) =>
						`${process.requests} × ${process.concurrency}${process.startAt ? ` from ${process.startAt / 1000} s` : ''}`,
				)
				.join(', ');
			rows.push([
				scenario.name,
				scenario.limit,
				work,
				`${(ideal / 1000).toFixed(1)} s`,
				`${mean.toFixed(2)}× / ${worst.toFixed(2)}×`,
				refusedPer100.toFixed(0),
				shares.length
					? `${Math.min(...shares).toFixed(2)} / ${(shares.reduce((a, b) => a + b, 0) / shares.length).toFixed(2)}`
					: '–',
				failed,
			]);
			data.push({
				scenario: scenario.name,
				limit: scenario.limit,
				ratios,
				refusals,
				shares,
				failed,
			});
			context.log(
				`pacing: ${scenario.name}, limit ${scenario.limit}: ${mean.toFixed(2)}× mean, ${worst.toFixed(2)}× worst`,
			);
		}
		return {
			id: 'pacing',
			title: this.title,
			tables: [
				{
					title: `${seeds.length} seeds each; latency 20–60 ms, the API counting a request half-way`,
					command: context.command('pacing'),
					columns: [
						'Scenario',
						'Limit (requests/s)',
						'Requests × concurrency per process',
						'Ideal M / R',
						'Completion / ideal (mean / worst)',
						'Refused per 100 requests',
						'Smallest share / mean share while all busy (worst / mean)',
						'Requests given up',
					],
					rows,
					notes: [
						"Simulated time: each process has its own Pacer and retries as the transport does (test/helpers/sharedKeySim.ts); the limit is the simulator's BurstLimiter (sliding window, only accepted requests count).",
						'Shares: from the last start to the first finish; not shown where the processes have different work to do.',
						'Real n8n: sections 3 (one process) and 3b (queue mode, two workers).',
					],
				},
			],
			data,
			checks: [
				{
					name: 'every scenario within 1.2 × ideal in every seed, nothing given up',
					ok: worstRatio <= 1.2 && failedAll === 0,
					value: `worst ${worstRatio.toFixed(2)}×, ${failedAll} given up`,
				},
			],
		};
	},
};

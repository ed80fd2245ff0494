/**
 * The pacing controller (nodes/shared/api/pacing.ts) on simulated time: 1, 2 and 4 processes, each with its own Pacer
 * and a backlog, share one key behind the simulator's short-burst limiter (test/helpers/sharedKeySim.ts). No HTTP,
 * no timers. Every figure is of simulated time, so the bounds are exact for the seeds used.
 */
import { MIN_RATE } from '../../nodes/shared/api/pacing';
import { acceptedBetween, simulateSharedKey } from '../helpers/sharedKeySim';
import type { SharedKeySimResult, SimProcess } from '../helpers/sharedKeySim';

const SEEDS = [1, 2, 3];

function run(limit: number, processes: SimProcess[], seed: number): SharedKeySimResult {
	return simulateSharedKey({ limit: { requests: limit, windowMs: 1000 }, processes, seed });
}

const work = (result: SharedKeySimResult) =>
	result.processes.reduce((sum, process) => sum + process.acceptedAt.length + process.failed, 0);
const refusals = (result: SharedKeySimResult) =>
	result.processes.reduce((sum, process) => sum + process.refused, 0);

describe.each([
	{ clients: 1, limit: 20, each: 200, concurrency: 4, completion: 1.1, refused: 0.1 },
	{ clients: 2, limit: 5, each: 50, concurrency: 5, completion: 1.1, refused: 0.45 },
	{ clients: 4, limit: 20, each: 100, concurrency: 4, completion: 1.15, refused: 0.2 },
])(
	'$clients process(es) sharing a limit of $limit requests per second',
	({ clients, limit, each, concurrency, completion, refused }) => {
		const results = SEEDS.map((seed) =>
			run(
				limit,
				Array.from({ length: clients }, () => ({ requests: each, concurrency })),
				seed,
			),
		);
		const ideal = ((clients * each) / limit) * 1000;

		it(`get all the work done within ${completion} × the ideal M / R, none of it given up`, () => {
			for (const result of results) {
				expect(work(result)).toBe(clients * each);
				expect(result.processes.every((process) => process.failed === 0)).toBe(true);
				expect(result.endMs).toBeLessThanOrEqual(completion * ideal);
			}
		});

		it(`are refused at most ${refused * 100} % as many times as they have requests`, () => {
			for (const result of results)
				expect(refusals(result)).toBeLessThanOrEqual(refused * clients * each);
		});

		if (clients > 1) {
			it('each get at least half of a fair share while all are busy, and never pace below the floor', () => {
				for (const result of results) {
					const busyUntil = Math.min(...result.processes.map((process) => process.finishedAt!));
					const shares = result.processes.map((process) => acceptedBetween(process, 0, busyUntil));
					const fair = shares.reduce((sum, share) => sum + share, 0) / clients;
					for (const share of shares) expect(share).toBeGreaterThanOrEqual(fair / 2);
					for (const process of result.processes)
						for (const [, rate] of process.rates) expect(rate).toBeGreaterThanOrEqual(MIN_RATE);
				}
			});
		}
	},
);

describe('when the other processes stop', () => {
	it('the one left is back near the whole limit within 10 s', () => {
		for (const seed of SEEDS) {
			const small = { requests: 60, concurrency: 4 };
			const result = run(20, [{ requests: 400, concurrency: 4 }, small, small, small], seed);
			const othersStop = Math.max(...result.processes.slice(1).map((p) => p.finishedAt!));
			const left = result.processes[0];
			expect(left.finishedAt! - othersStop).toBeGreaterThan(12_000);
			// The first second from the others' stop in which it gets 90 % of the limit accepted.
			let at = othersStop;
			while (at < left.finishedAt! && acceptedBetween(left, at, at + 1000) < 18) at += 250;
			expect(at - othersStop).toBeLessThanOrEqual(10_000);
		}
	});
});

describe('a process that starts while another already uses the whole limit', () => {
	it.each([5, 20])(
		'gets a share of a limit of %i requests per second, and none of its requests fails',
		(limit) => {
			// More seeds than above: with 10 retries per throttled request (the transport's bound before pacing),
			// seeds 4 and 6 gave requests of the late one up at 5 requests per second.
			for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
				const result = run(
					limit,
					[
						{ requests: 200 * limit, concurrency: 5 },
						{ requests: 10 * limit, concurrency: 5, startAt: 5000 },
					],
					seed,
				);
				const [first, late] = result.processes;
				expect(late.failed).toBe(0);
				expect(first.failed).toBe(0);
				// Its share while both are busy: at least a fifth of a fair one (the first one, paced on its own
				// answers, meets the late one's requests only where they fit in; see docs/requests-quota-and-errors.md "Several n8n processes with one key").
				const until = late.finishedAt!;
				const fair = (acceptedBetween(first, 5000, until) + acceptedBetween(late, 5000, until)) / 2;
				expect(acceptedBetween(late, 5000, until)).toBeGreaterThanOrEqual(fair / 5);
				for (const [, rate] of late.rates) expect(rate).toBeGreaterThanOrEqual(MIN_RATE);
			}
		},
	);
});

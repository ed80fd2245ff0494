/**
 * Simulated time for the pacing controller (nodes/shared/api/pacing.ts): several processes, each with its own Pacer
 * and a backlog of requests, share one API key behind the simulator's own short-burst limiter (BurstLimiter from
 * test/simulator/gateway.ts: a sliding window in which only accepted requests count). No HTTP, no timers: a queue
 * of events in simulated milliseconds. Each process retries a refused request as the transport does (the wait of
 * throttleRetryFloor, then the next free slot), and gives up as the transport does (more than maxThrottleRetries,
 * or more than Max Wait spent waiting).
 */
import { Pacer, RECHECK_MS } from '../../nodes/shared/api/pacing';
import type { PaceSlot } from '../../nodes/shared/api/pacing';
import {
	DEFAULT_RETRY_POLICY,
	retryAfterMs,
	throttleRetryFloor,
} from '../../nodes/shared/api/transport';
import { BurstLimiter } from '../simulator/gateway';
import { seededRandom } from '../simulator/faults';

export interface SimProcess {
	/** Requests of work this process has to get through. */
	requests: number;
	/** Requests it keeps in flight or waiting at once (concurrent executions and batches of the process). */
	concurrency: number;
	/** When it starts (simulated ms). */
	startAt?: number;
}

export interface SharedKeySimOptions {
	/** The API's limit: `requests` accepted per sliding `windowMs`, per key. */
	limit: { requests: number; windowMs: number; retryAfterSeconds?: number };
	processes: SimProcess[];
	/** Round trip of one request, uniform in [min, max] ms; the API counts it half-way. */
	latencyMs?: [number, number];
	seed?: number;
	/** Simulated time after which the simulation stops, finished or not. */
	horizonMs?: number;
}

export interface ProcessOutcome {
	/** Answer times (ms) of the accepted requests. */
	acceptedAt: number[];
	refused: number;
	/** Requests given up (as the transport would: a failed item). */
	failed: number;
	/** When its last request was answered; undefined if it did not finish. */
	finishedAt?: number;
	/** The pacer's rate in requests per second after each answer, paced only (time, rate). */
	rates: Array<[number, number]>;
}

export interface SharedKeySimResult {
	processes: ProcessOutcome[];
	/** When the last process finished (or the horizon). */
	endMs: number;
}

export function simulateSharedKey(options: SharedKeySimOptions): SharedKeySimResult {
	const [minLatency, maxLatency] = options.latencyMs ?? [20, 60];
	const horizon = options.horizonMs ?? 600_000;
	const chance = seededRandom(options.seed ?? 1);
	const server = new BurstLimiter({
		requests: options.limit.requests,
		windowMs: options.limit.windowMs,
		retryAfterSeconds: options.limit.retryAfterSeconds,
	});
	const policy = DEFAULT_RETRY_POLICY;

	// The event queue: ordered by time, then by insertion.
	const events: Array<{ at: number; order: number; run: () => void }> = [];
	let order = 0;
	let now = 0;
	const schedule = (at: number, run: () => void) => {
		const event = { at: Math.max(at, now), order: order++, run };
		let index = events.length;
		while (
			index > 0 &&
			(events[index - 1].at > event.at ||
				(events[index - 1].at === event.at && events[index - 1].order > event.order))
		)
			index--;
		events.splice(index, 0, event);
	};

	const outcomes: ProcessOutcome[] = options.processes.map((process, index) => {
		const random = seededRandom((options.seed ?? 1) * 1000 + index + 1);
		const pacer = new Pacer({ random });
		const outcome: ProcessOutcome = { acceptedAt: [], refused: 0, failed: 0, rates: [] };
		let waiting = process.requests;
		let open = process.requests;
		const done = () => {
			if (--open === 0) outcome.finishedAt = now;
		};

		/** One request, from its first slot to its answer, retried as the transport does. */
		const request = () => {
			let retries = 0;
			let throttles = 0;
			let waitedMs = 0;
			// Waits for the slot as the transport does: looks at it again at least every RECHECK_MS, as the pacing
			// may move it while it waits.
			const send = (slot: PaceSlot) => {
				const wake = () => {
					if (slot.at > now) {
						schedule(Math.min(slot.at, now + RECHECK_MS), wake);
						return;
					}
					const latency = minLatency + chance() * (maxLatency - minLatency);
					let refusal: ReturnType<BurstLimiter['check']> = null;
					schedule(now + latency / 2, () => {
						refusal = server.check('key', now);
					});
					schedule(now + latency, () => answer(slot, refusal));
				};
				schedule(Math.min(slot.at, now + RECHECK_MS), wake);
			};
			const answer = (slot: PaceSlot, refusal: ReturnType<BurstLimiter['check']>) => {
				if (!refusal) {
					pacer.accepted(slot, now);
					outcome.acceptedAt.push(now);
					record();
					done();
					next();
					return;
				}
				outcome.refused++;
				pacer.throttled(slot, now, retryAfterMs(refusal.headers));
				record();
				throttles++;
				const floor = throttleRetryFloor(
					policy,
					retries,
					throttles,
					refusal.headers,
					pacer.windowMs,
					random,
				);
				const slotNext = pacer.reserve(now + floor, now);
				const delay = slotNext.at - now;
				if (retries >= policy.maxThrottleRetries || waitedMs + delay > policy.maxTotalWaitMs) {
					pacer.release(slotNext);
					outcome.failed++;
					done();
					next();
					return;
				}
				retries++;
				waitedMs += delay;
				send(slotNext);
			};
			const first = pacer.reserve(now, now);
			waitedMs += first.at - now;
			send(first);
		};
		const record = () => {
			if (pacer.rate !== undefined) outcome.rates.push([now, pacer.rate]);
		};
		const next = () => {
			if (waiting === 0) return;
			waiting--;
			request();
		};
		schedule(process.startAt ?? 0, () => {
			for (let i = 0; i < process.concurrency; i++) next();
		});
		return outcome;
	});

	while (events.length > 0 && events[0].at <= horizon) {
		const event = events.shift()!;
		now = event.at;
		event.run();
	}
	const finished = outcomes.map((outcome) => outcome.finishedAt ?? horizon);
	return { processes: outcomes, endMs: Math.max(...finished) };
}

/** Accepted requests of `outcome` answered in [from, to). */
export function acceptedBetween(outcome: ProcessOutcome, from: number, to: number): number {
	return outcome.acceptedAt.filter((at) => at >= from && at < to).length;
}

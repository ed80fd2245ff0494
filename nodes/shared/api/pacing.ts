/**
 * Shared pacing of the requests of one credential (API key + Base URL) for the API's short-burst limit, whose
 * threshold and window the vendor does not publish, and which other n8n processes (queue-mode workers, other
 * instances) may be spending with the same key: there is no shared store, each process only sees its own answers.
 *
 * Requests go out unpaced until the API throttles one (429 Too Many Requests). From then on every request of that
 * credential in this n8n process (all nodes, executions and concurrent batches) takes a slot: the pacer holds a rate
 * in requests per second and lets at most `limit` requests start in any window of `windowMs` (a second, or longer
 * below one request per second; never shorter, so that no second of the API's holds more than the rate). An
 * answered request counts from the moment its answer came (the API counted it at some time before that), so a slot
 * is free only once the API's window has surely moved on, whatever the network delay. A slot put off on purpose (a
 * backoff) holds up no one; slots still waiting move when the rate changes (the waiter looks again every RECHECK_MS).
 *
 * The rate is an additive-increase / multiplicative-decrease controller, as clients that share a server's unknown
 * limit use:
 * - First throttle: the rate is what the API accepted from us in the last second (alone, that is the limit itself;
 *   beside other processes, about our share). A throttle with next to nothing of ours accepted means others spend
 *   the key: pacing starts at one request per second and climbs from there.
 * - Only a throttle of a request placed under the current pacing is news: one sent before the last change (in
 *   flight with others when the change came) says nothing about the new pacing. A request still waiting when the
 *   pacing changes takes its turn again under the new one, and its throttle counts (the earlier controller ignored
 *   those, so its rate went on stepping up past the limit: a third of the requests refused at 5 per second).
 * - News just after a step up, while the API still gives us what we had before it: that step was the limit; back to
 *   the rate before it, and when the same step is refused again the next one waits for twice the clean run.
 *   Otherwise others took the window: the rate goes to 80 % of the pace kept (`limit` per `windowMs`), never below
 *   MIN_RATE, so no process starves. Decreasing by the pace (not by what we got) makes the faster of two processes
 *   give way more.
 * - Each window's worth of accepted requests without a throttle is a step up: half a request per second after a
 *   throttle, then 1, 2, 4 … while the run stays clean. Processes sharing a key are throttled every few seconds, so
 *   they add a little at a time; when the others stop, the one left doubles its steps and is back near the whole
 *   limit within a few seconds (the controller of issue 15's report doubled its window at each throttle, so a worker
 *   beside another fell to about 0.5 requests per second and recovered by 10 % per four windows).
 * - A `Retry-After` on a throttle holds every request of the credential until then (at most a minute). After each
 *   decrease the next start is put off by a random part of one request's interval, so processes do not retry in
 *   lock-step; a request throttled again waits at most a random part of one pacing window before its next slot
 *   (throttleRetryFloor in transport.ts).
 * A process that starts while another already uses the whole limit gets a smaller share at first: the other paces on
 * its own answers, so its requests find the places its earlier ones left, and the newcomer's only fit in between.
 * A credential left idle forgets it all. Time and chance are parameters (`now`, `random`), so the controller runs
 * on simulated time in test/unit/pacingShared.test.ts.
 */
import { createHash } from 'crypto';

import { PACE_WINDOW_MS, PaceSlots } from './paceSlots';
import type { PaceSlot, SlotPacing } from './paceSlots';

export { PACE_WINDOW_MS } from './paceSlots';
export type { PaceSlot } from './paceSlots';

/** The slowest pacing: one request every two seconds. */
export const MIN_RATE = 0.5;
/** Pacing after a throttle that our own rate does not explain (others spend the key). */
const SHARED_START_RATE = 1;
/** A request waiting for its slot looks again this often: a change of the pacing may have moved it. */
export const RECHECK_MS = 250;
/** Fewer accepted requests than this in the last second do not explain a throttle. */
const MIN_EXPLAINING = 2;
/** Share of the pace kept after a throttle that others caused. */
const DECREASE = 0.8;
/** The first step up after a throttle, in requests per second; each further clean step doubles it … */
const FIRST_STEP = 0.5;
/** … this many times at most. */
const MAX_STEP_DOUBLINGS = 5;
/** A refused step up goes back to the rate before it when the API still accepted this share of that. */
const HOLD_SHARE = 0.9;
/** A `Retry-After` longer than this is not held for every request (the transport's bound still applies). */
const MAX_HOLD_MS = 60_000;
/** Refused steps up at most double the clean run before the next one this many times. */
const MAX_STEP_BACKOFF = 1;
/** A credential unused this long starts unpaced again. */
const IDLE_FORGET_MS = 30_000;

export interface PacerOptions {
	/** A number in [0, 1): the jitter of starts after a decrease. */
	random?: () => number;
}

/** The pacing controller of one credential: its states are unpaced, paced, and paced just after a step up. */
export class Pacer {
	/** Requests per second; undefined = unpaced. */
	rate: number | undefined;
	/** At most this many request starts in any window of `windowMs`; undefined = unpaced. */
	limit: number | undefined;
	windowMs = PACE_WINDOW_MS;
	private readonly slots = new PaceSlots();
	private acceptedSinceChange = 0;
	/** Steps up in a row since the last throttle: the size of the next one. */
	private cleanSteps = 0;
	/** The rate before the last step up, while no throttle came since. */
	private beforeStep: number | undefined;
	/** Steps up refused in a row at the same pacing: each doubles the clean run the next one waits for. */
	private failedSteps = 0;
	/** The pacing (`limit` per `windowMs`) of the step up last refused. */
	private refusedLimit: number | undefined;
	private reserved = 0;
	/** Changes of the pacing so far: throttles of slots placed before the last one are no news. */
	private changes = 0;
	/** No request starts before this (a `Retry-After`, or the jitter after a decrease). */
	private heldUntil = 0;
	private readonly random: () => number;
	lastUsedAt = 0;

	constructor(options: PacerOptions = {}) {
		this.random = options.random ?? Math.random;
	}

	/**
	 * Reserves the start of a request at `at` or, when paced, at the next free slot after it. While it waits, a
	 * change of the pacing may move its slot (earlier or later): the waiter looks at `slot.at` again at least every
	 * RECHECK_MS (see waitForSlot in transport.ts).
	 */
	reserve(at: number, now = Date.now()): PaceSlot {
		if (this.rate !== undefined && now - this.lastUsedAt > IDLE_FORGET_MS) this.forget();
		this.slots.prune(now, this.windowMs);
		this.lastUsedAt = now;
		const slot: PaceSlot = {
			at,
			notBefore: at,
			accepted: false,
			placedUnder: this.changes,
			seq: ++this.reserved,
		};
		this.slots.place(slot, this.pacing());
		return slot;
	}

	/** The request was answered with anything but a throttle, or its fate is unknown (dropped connection). */
	accepted(slot: PaceSlot, now = Date.now()): void {
		this.slots.answered(slot, now);
		if (this.rate === undefined || this.limit === undefined) return;
		const windows = 2 ** Math.min(this.failedSteps, MAX_STEP_BACKOFF);
		if (++this.acceptedSinceChange >= this.limit * windows) this.stepUp(this.rate, now);
	}

	/**
	 * The API throttled the request of `slot` (answer received at `now`): it did not count against the limit.
	 * `retryAfterMs`: the API's `Retry-After`, when it sent one. From then on, requests are paced.
	 */
	throttled(slot: PaceSlot, now = Date.now(), retryAfterMs?: number): void {
		this.release(slot);
		if (retryAfterMs !== undefined && retryAfterMs > 0) this.holdFor(retryAfterMs, now);
		if (this.rate === undefined) this.startPacing(slot, now);
		// Sent before the pacing last changed (e.g. in flight with others when the first throttle came): no news.
		else if (slot.placedUnder >= this.changes) this.slowDown(now);
	}

	/** Gives back a slot whose request was never sent (cancelled, or the wait would be too long). */
	release(slot: PaceSlot): void {
		this.slots.release(slot);
	}

	/** A window's worth of accepted requests without a throttle: small after a throttle, twice as large after each clean one. */
	private stepUp(rate: number, now: number): void {
		const step = FIRST_STEP * 2 ** Math.min(this.cleanSteps, MAX_STEP_DOUBLINGS);
		this.cleanSteps++;
		// The step before this one was not refused: the next ones come quickly again.
		if (this.beforeStep !== undefined) this.failedSteps = 0;
		this.setRate(rate + step, now);
		this.beforeStep = rate;
	}

	/** A `Retry-After`: every request of the credential waits until then (at most a minute). */
	private holdFor(retryAfterMs: number, now: number): void {
		this.heldUntil = Math.max(this.heldUntil, now + Math.min(retryAfterMs, MAX_HOLD_MS));
		if (this.rate !== undefined) this.slots.relay(now, this.pacing());
	}

	/**
	 * The first throttle: the rate is what the API accepted from us in the last second, or, when that explains
	 * nothing (others spend the key), one request per second.
	 */
	private startPacing(refused: PaceSlot, now: number): void {
		const explaining = this.slots.explaining(refused, now);
		this.setRate(explaining < MIN_EXPLAINING ? SHARED_START_RATE : explaining, now, true);
	}

	/** A throttle under the current pacing: back to before a refused step up, else give way to the others. */
	private slowDown(now: number): void {
		this.cleanSteps = 0;
		if (
			this.beforeStep !== undefined &&
			this.slots.acceptedPerSecond(now, this.windowMs) >= this.beforeStep * HOLD_SHARE
		) {
			// A step up refused while the API still gives us what we had before it: that was the limit. Refused
			// again at the same pacing, the next step waits for a longer clean run.
			this.failedSteps = this.limit === this.refusedLimit ? this.failedSteps + 1 : 0;
			this.refusedLimit = this.limit;
			this.setRate(this.beforeStep, now, true);
			return;
		}
		this.failedSteps = 0;
		// From the pace actually kept (2.9 requests per second paces at 2): a decrease from the nominal rate
		// often changed nothing, and the next refusal came at once.
		this.setRate((DECREASE * this.limit! * 1000) / this.windowMs, now, true);
	}

	/** `jittered`: the next start waits a random part of one request's interval (after a throttle). */
	private setRate(rate: number, now: number, jittered = false): void {
		const bounded = Math.max(MIN_RATE, rate);
		if (jittered)
			this.heldUntil = Math.max(this.heldUntil, now + Math.round(this.random() * (1000 / bounded)));
		this.rate = bounded;
		// At most `limit` starts per window, `limit / windowMs` being the rate: whole requests per second when the
		// rate allows, else one request per longer window.
		// Never a window shorter than a second: 2 every 800 ms would let 4 start within one second of the API's.
		this.windowMs = Math.max(PACE_WINDOW_MS, Math.round(1000 / bounded));
		this.limit = Math.max(1, Math.floor((bounded * this.windowMs) / 1000));
		this.changes++;
		this.acceptedSinceChange = 0;
		this.beforeStep = undefined;
		this.slots.relay(now, this.pacing());
	}

	private pacing(): SlotPacing {
		return {
			limit: this.limit,
			windowMs: this.windowMs,
			heldUntil: this.heldUntil,
			changes: this.changes,
		};
	}

	private forget(): void {
		this.rate = undefined;
		this.limit = undefined;
		this.windowMs = PACE_WINDOW_MS;
		this.cleanSteps = 0;
		this.failedSteps = 0;
		this.refusedLimit = undefined;
		this.beforeStep = undefined;
		this.acceptedSinceChange = 0;
		this.heldUntil = 0;
	}
}

const pacers = new Map<string, Pacer>();

/**
 * The identity of a credential: its Base URL and a SHA-256 digest of its key. Two keys never share it (a collision
 * of SHA-256 is not to be found), and the key itself is not kept in memory longer than a request needs it.
 * Per-credential state (pacing here, and anything else keyed per credential) uses it.
 */
export function credentialIdentity(baseUrl: string, apiKey: string): string {
	return `${baseUrl}\u0000${createHash('sha256').update(apiKey, 'utf8').digest('hex')}`;
}

/** The pacer of a credential, by its identity (see credentialIdentity). */
export function pacerFor(baseUrl: string, apiKey: string, now = Date.now()): Pacer {
	for (const [key, pacer] of pacers)
		if (now - pacer.lastUsedAt > IDLE_FORGET_MS * 2) pacers.delete(key);
	const key = credentialIdentity(baseUrl, apiKey);
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new Pacer();
		pacer.lastUsedAt = now;
		pacers.set(key, pacer);
	}
	return pacer;
}

/**
 * Shared pacing of the requests of one credential (API key + Base URL) for the API's short-burst limit, whose
 * threshold and window the vendor does not publish.
 *
 * Requests go out unpaced until the API throttles one (429 Too Many Requests) that our own recent rate explains.
 * Then the limit is learned as the number of our requests the API accepted in the last second, and every request of
 * that credential in this n8n process (all nodes, executions and concurrent batches) takes a slot: at most `limit`
 * requests in any window of `windowMs` (first one second). An answered request counts from the moment its answer
 * came (the API counted it at some time before that), so a slot is free only once the API's window has surely moved
 * on, whatever the network delay; the refused request retries in the next free slot instead of backing off alone.
 *
 * A sliding window paced this way is never overrun, so a further throttle of a request sent under the current
 * pacing means the API counts over a longer window (or refills slower) than assumed: the window is doubled, which
 * halves the rate, up to 2 minutes. After a long run without a throttle 10 % more requests per window (at least one)
 * are tried and taken back at the first throttle, so pacing learned too slow recovers. A credential left idle forgets it all.
 * A throttle our rate cannot explain (next to nothing sent in the last second) teaches nothing: the transport's own
 * bounded backoff handles it.
 */
import { createHash } from 'crypto';

/** Window assumed first: the unit rate limits are usually stated in ("requests per second"). */
export const PACE_WINDOW_MS = 1000;
const MAX_WINDOW_MS = 120_000;
/** Room for timer and clock granularity. */
const MARGIN_MS = 10;
/** Fewer accepted requests than this in the last second do not explain a throttle. */
const MIN_EXPLAINING = 2;
/** After this many limits' worth of accepted requests without a throttle, try a little faster. */
const PROBE_AFTER_LIMITS = 4;
/** A credential unused this long starts unpaced again. */
const IDLE_FORGET_MS = 30_000;

export interface PaceSlot {
	/** When the request may start (epoch ms); once answered, when the answer came. */
	at: number;
	/** The API answered with anything but a throttle (the request counted against the limit). */
	accepted: boolean;
	/** Order of reservation. */
	readonly seq: number;
}

export class Pacer {
	/** Learned requests per window; undefined = unpaced. */
	limit: number | undefined;
	windowMs = PACE_WINDOW_MS;
	/** Slots of requests sent, waiting or answered, within the last two windows (a doubled window still has its
	 * history); ordered by `at`. */
	private readonly slots: PaceSlot[] = [];
	private acceptedSinceChange = 0;
	private reserved = 0;
	/** Reservations up to this one were made before the pacing last changed: their throttles are no news. */
	private changedAfter = 0;
	/** The pacing before a probe for more, restored if the probe is throttled. */
	private beforeProbe: number | undefined;
	lastUsedAt = 0;

	/** Reserves the start of a request at `at` or, when paced, at the next free slot after it. */
	reserve(at: number, now = Date.now()): PaceSlot {
		if (this.limit !== undefined && now - this.lastUsedAt > IDLE_FORGET_MS) this.forget();
		this.prune(now);
		this.lastUsedAt = now;
		let time = at;
		if (this.limit !== undefined) {
			// First come, first served while paced; then at most `limit` starts in any window.
			const last = this.slots[this.slots.length - 1];
			if (last && last.at > time) time = last.at;
			if (this.slots.length >= this.limit) {
				time = Math.max(
					time,
					this.slots[this.slots.length - this.limit].at + this.windowMs + MARGIN_MS,
				);
			}
		}
		const slot: PaceSlot = { at: time, accepted: false, seq: ++this.reserved };
		let index = this.slots.length;
		while (index > 0 && this.slots[index - 1].at > time) index--;
		this.slots.splice(index, 0, slot);
		return slot;
	}

	/** The request was answered with anything but a throttle, or its fate is unknown (dropped connection). */
	accepted(slot: PaceSlot, now = Date.now()): void {
		slot.accepted = true;
		if (now > slot.at) {
			slot.at = now;
			// Keep the order by time: the slot moves towards the end.
			let index = this.slots.indexOf(slot);
			while (index >= 0 && index + 1 < this.slots.length && this.slots[index + 1].at < slot.at) {
				this.slots[index] = this.slots[index + 1];
				this.slots[++index] = slot;
			}
		}
		this.acceptedSinceChange++;
		if (this.limit !== undefined && this.acceptedSinceChange >= PROBE_AFTER_LIMITS * this.limit) {
			this.change(this.limit + Math.max(1, Math.round(this.limit / 10)), this.windowMs, this.limit);
		}
	}

	/**
	 * The API throttled the request of `slot` (answer received at `now`): it did not count against the limit.
	 * Returns whether requests are paced (the throttle was explained by our own rate).
	 */
	throttled(slot: PaceSlot, now = Date.now()): boolean {
		this.release(slot);
		if (this.limit !== undefined) {
			// Sent before the pacing last changed (e.g. in flight with others when the first throttle came): no news.
			if (slot.seq <= this.changedAfter) return true;
			if (this.beforeProbe !== undefined) this.change(this.beforeProbe, this.windowMs);
			else this.change(this.limit, Math.min(this.windowMs * 2, MAX_WINDOW_MS));
			return true;
		}
		// Accepted in the last second, and those still in flight that started before the refused one.
		let explaining = 0;
		for (const other of this.slots) {
			if (
				other.at > now - PACE_WINDOW_MS &&
				other.at <= now &&
				(other.accepted || other.at < slot.at)
			)
				explaining++;
		}
		if (explaining < MIN_EXPLAINING) return false;
		this.change(explaining, PACE_WINDOW_MS);
		return true;
	}

	/** Gives back a slot whose request was never sent (cancelled, or the wait would be too long). */
	release(slot: PaceSlot): void {
		const index = this.slots.indexOf(slot);
		if (index >= 0) this.slots.splice(index, 1);
	}

	/** `beforeProbe`: the limit to go back to if this change (a probe for more) is throttled. */
	private change(limit: number, windowMs: number, beforeProbe?: number): void {
		this.beforeProbe = beforeProbe;
		this.limit = limit;
		this.windowMs = windowMs;
		this.changedAfter = this.reserved;
		this.acceptedSinceChange = 0;
	}

	private forget(): void {
		this.limit = undefined;
		this.windowMs = PACE_WINDOW_MS;
		this.beforeProbe = undefined;
		this.acceptedSinceChange = 0;
	}

	private prune(now: number): void {
		let drop = 0;
		while (drop < this.slots.length && this.slots[drop].at <= now - 2 * this.windowMs - MARGIN_MS)
			drop++;
		if (drop > 0) this.slots.splice(0, drop);
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

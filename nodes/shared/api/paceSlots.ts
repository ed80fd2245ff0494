/**
 * The slots of one credential's requests, ordered by time: where a request may start so that no window of the
 * pacing holds more than its limit (place), the slots still waiting taking their turns again after the pacing
 * changed (relay), and what the recent slots tell the pacer (acceptedPerSecond, explaining). The pacer (pacing.ts)
 * decides the pacing; this only keeps to it.
 */

/** Window assumed first: the unit rate limits are usually stated in ("requests per second"). */
export const PACE_WINDOW_MS = 1000;
/** Room for timer and clock granularity. */
const MARGIN_MS = 10;

export interface PaceSlot {
	/** When the request may start (epoch ms); once answered, when the answer came. */
	at: number;
	/** The earliest start the request asked for. */
	notBefore: number;
	/** The API answered with anything but a throttle (the request counted against the limit). */
	accepted: boolean;
	/** The pacing (a count of its changes) under which the slot was last placed. */
	placedUnder: number;
	/** Order of reservation. */
	readonly seq: number;
}

/** The pacing the slots keep to: at most `limit` starts in any window of `windowMs` (undefined: unpaced). */
export interface SlotPacing {
	limit: number | undefined;
	windowMs: number;
	/** No request starts before this (a `Retry-After`, or the jitter after a decrease). */
	heldUntil: number;
	/** Changes of the pacing so far: the slot remembers under which one it was placed. */
	changes: number;
}

export class PaceSlots {
	/** Slots of requests sent, waiting or answered, within the last two windows (at least two seconds); ordered by `at`. */
	private readonly slots: PaceSlot[] = [];

	/**
	 * Puts the slot at its first free time from `slot.notBefore` on: paced, the first time at which no window of
	 * `windowMs` (+ margin) holds more than `limit` slots with it. A slot put off on purpose (a backoff) holds up
	 * no one: later requests take the free times before it.
	 */
	place(slot: PaceSlot, pacing: SlotPacing): void {
		const limit = pacing.limit;
		let time = slot.notBefore;
		if (limit !== undefined) {
			time = Math.max(time, pacing.heldUntil);
			const span = pacing.windowMs + MARGIN_MS;
			for (let moved = true; moved; ) {
				moved = false;
				// The windows holding `time` start at `time - span` at the earliest; each starts at a slot. `near` is
				// ordered by time, so the end of each window is found by one pass.
				const near = this.slots.filter((other) => other.at > time - span && other.at < time + span);
				for (let start = 0, end = 0; start < near.length && near[start].at <= time; start++) {
					if (end < start) end = start;
					while (end < near.length && near[end].at < near[start].at + span) end++;
					if (end - start + 1 > limit) {
						time = near[start].at + span;
						moved = true;
						break;
					}
				}
				if (!moved) {
					// A window starting at `time` itself (it is the first in it).
					let count = 1;
					for (const other of near) if (other.at >= time && other.at < time + span) count++;
					if (count > limit) {
						const after = near.filter((other) => other.at >= time).map((other) => other.at);
						time = after[after.length - limit] + span;
						moved = true;
					}
				}
			}
		}
		slot.at = time;
		slot.placedUnder = pacing.changes;
		let index = this.slots.length;
		while (index > 0 && this.slots[index - 1].at > time) index--;
		this.slots.splice(index, 0, slot);
	}

	/** After a change of the pacing: the slots still waiting take their turns again under it, in their order. */
	relay(now: number, pacing: SlotPacing): void {
		const waiting = this.slots.filter((slot) => !slot.accepted && slot.at > now);
		if (waiting.length === 0) return;
		for (const slot of waiting) this.slots.splice(this.slots.indexOf(slot), 1);
		waiting.sort((a, b) => a.seq - b.seq);
		for (const slot of waiting) {
			slot.notBefore = Math.max(slot.notBefore, now);
			this.place(slot, pacing);
		}
	}

	/** The slot's request was answered at `now`: it counts from then on (the slot moves towards the end). */
	answered(slot: PaceSlot, now: number): void {
		slot.accepted = true;
		if (now <= slot.at) return;
		slot.at = now;
		let index = this.slots.indexOf(slot);
		while (index >= 0 && index + 1 < this.slots.length && this.slots[index + 1].at < slot.at) {
			this.slots[index] = this.slots[index + 1];
			this.slots[++index] = slot;
		}
	}

	/** Gives back a slot whose request was never sent or was refused. */
	release(slot: PaceSlot): void {
		const index = this.slots.indexOf(slot);
		if (index >= 0) this.slots.splice(index, 1);
	}

	/** Forgets slots older than two windows (at least two seconds). */
	prune(now: number, windowMs: number): void {
		const keep = 2 * Math.max(windowMs, PACE_WINDOW_MS) + MARGIN_MS;
		let drop = 0;
		while (drop < this.slots.length && this.slots[drop].at <= now - keep) drop++;
		if (drop > 0) this.slots.splice(0, drop);
	}

	/** Requests of ours the API accepted (answered) in the last window (a second or more), per second. */
	acceptedPerSecond(now: number, windowMs: number): number {
		let count = 0;
		for (const slot of this.slots)
			if (slot.accepted && slot.at > now - windowMs && slot.at <= now) count++;
		return (count * 1000) / windowMs;
	}

	/**
	 * What could explain the throttle of `refused` at `now`: requests accepted in the last second, and those still
	 * in flight that started before it.
	 */
	explaining(refused: PaceSlot, now: number): number {
		let count = 0;
		for (const other of this.slots) {
			if (
				other.at > now - PACE_WINDOW_MS &&
				other.at <= now &&
				(other.accepted || other.at < refused.at)
			)
				count++;
		}
		return count;
	}
}

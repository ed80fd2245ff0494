import {
	MIN_RATE,
	PACE_WINDOW_MS,
	Pacer,
	credentialIdentity,
	pacerFor,
} from '../../nodes/shared/api/pacing';

/** `count` requests started 5 ms apart from `start`, each answered (accepted) 3 ms after it started. */
function acceptBurst(pacer: Pacer, count: number, start = 0): number {
	let t = start;
	for (let i = 0; i < count; i++, t += 5) pacer.accepted(pacer.reserve(t, t), t + 3);
	return t;
}

/** `count` requests, each started at its paced slot from `now` and answered 3 ms later; the time after them. */
function acceptPaced(pacer: Pacer, count: number, now: number): number {
	for (let i = 0; i < count; i++) {
		const slot = pacer.reserve(now, now);
		now = slot.at + 3;
		pacer.accepted(slot, now);
	}
	return now;
}

/** One request at its paced slot from `now`, throttled `after` ms later; the time of that answer. */
function refusePaced(pacer: Pacer, now: number, after = 3): number {
	const slot = pacer.reserve(now, now);
	pacer.throttled(slot, slot.at + after);
	return slot.at + after;
}

describe('Pacer (shared pacing per credential)', () => {
	it('stays unpaced until a throttle; one our own rate does not explain (others spend the key) paces at 1 request per second', () => {
		// The controller before issue 15 learned nothing from such a throttle: a process beside others that spend the
		// key kept meeting a full window and fell back on the backoff alone.
		const pacer = new Pacer({ random: () => 0 });
		const first = pacer.reserve(0, 0);
		expect(first.at).toBe(0);
		pacer.accepted(first, 5);
		// Unpaced, a later start is never moved.
		const later = pacer.reserve(20, 20);
		expect(later.at).toBe(20);
		pacer.release(later);
		const lone = pacer.reserve(30, 30);
		pacer.throttled(lone, 40);
		expect(pacer.rate).toBe(1);
		expect([pacer.limit, pacer.windowMs]).toEqual([1, 1000]);
	});

	it('learns the limit from what the API accepted in the last second, then spaces requests by the window', () => {
		const pacer = new Pacer();
		const t = acceptBurst(pacer, 20);
		const refused = pacer.reserve(t, t);
		pacer.throttled(refused, t + 2);
		expect(pacer.limit).toBe(20);
		expect(pacer.windowMs).toBe(PACE_WINDOW_MS);
		// The next slot opens one window (+ margin) after the answer to the oldest of the 20.
		const next = pacer.reserve(t + 2, t + 2);
		expect(next.at).toBeGreaterThanOrEqual(3 + PACE_WINDOW_MS);
		expect(next.at).toBeLessThan(3 + PACE_WINDOW_MS + 50);
		// First come, first served: the one after waits for the second oldest.
		expect(pacer.reserve(t + 2, t + 2).at).toBeGreaterThanOrEqual(8 + PACE_WINDOW_MS);
	});

	it('ignores throttles of requests sent before the pacing changed; news takes the rate to 80 % of the pace', () => {
		// The controller before issue 15 doubled the window on such news: beside another process it halved its rate at
		// each throttle the other caused.
		const pacer = new Pacer({ random: () => 0 });
		const t = acceptBurst(pacer, 10);
		const inFlight = [pacer.reserve(t, t), pacer.reserve(t, t)];
		pacer.throttled(inFlight[0], t + 5);
		expect(pacer.rate).toBe(10);
		pacer.throttled(inFlight[1], t + 6);
		expect(pacer.rate).toBe(10);
		// 8 accepted under the learned pacing (no step up yet), then a throttle: others take the rest of the window.
		const now = acceptPaced(pacer, 8, t + 6);
		const sent = pacer.reserve(now, now);
		const refused = pacer.reserve(now, now);
		const waiting = pacer.reserve(now, now);
		expect(waiting.at).toBeGreaterThan(refused.at + 500);
		pacer.throttled(refused, refused.at + 5);
		expect(pacer.rate).toBeCloseTo(8);
		expect([pacer.limit, pacer.windowMs]).toEqual([8, 1000]);
		// One sent before that change is no news; one still waiting then took its turn again under the new pacing,
		// and its throttle is (the earlier controller missed it: the rate went on stepping up past the limit).
		pacer.throttled(sent, sent.at + 6);
		expect(pacer.rate).toBeCloseTo(8);
		expect(waiting.at).toBeGreaterThan(sent.at);
		pacer.throttled(waiting, waiting.at + 5);
		expect(pacer.rate).toBeCloseTo(6.4);
	});

	it('never paces below the floor, however often it is throttled with nothing accepted', () => {
		const pacer = new Pacer({ random: () => 0 });
		let now = acceptBurst(pacer, 20);
		pacer.throttled(pacer.reserve(now, now), now + 1);
		for (let i = 0; i < 20; i++) now = refusePaced(pacer, now, 5);
		expect(pacer.rate).toBe(MIN_RATE);
		expect([pacer.limit, pacer.windowMs]).toEqual([1, 2000]);
	});

	it('steps up after each clean window, twice as much each time; goes back from a refused step while the API still gives what it did', () => {
		const pacer = new Pacer({ random: () => 0 });
		let t = acceptBurst(pacer, 20);
		pacer.throttled(pacer.reserve(t, t), t + 1);
		expect(pacer.rate).toBe(20);
		const acceptWindows = (count: number) => (t = acceptPaced(pacer, count, t));
		const refuseNext = () => (t = refusePaced(pacer, t));
		acceptWindows(20);
		expect(pacer.rate).toBe(20.5);
		acceptWindows(20);
		expect(pacer.rate).toBe(21.5);
		refuseNext();
		expect(pacer.rate).toBe(20.5);
		// After a throttle the steps start small again.
		acceptWindows(20);
		expect(pacer.rate).toBe(21);
		// Refused again at the same pacing (21 a second): the next step waits for two clean windows.
		refuseNext();
		expect(pacer.rate).toBe(20.5);
		acceptWindows(39);
		expect(pacer.rate).toBe(20.5);
		acceptWindows(1);
		expect(pacer.rate).toBe(21);
		// The step after a refused one still waits for two clean windows; then 1, 2, 4 … at a time.
		acceptWindows(41);
		expect(pacer.rate).toBe(21);
		acceptWindows(1);
		expect(pacer.rate).toBe(22);
		acceptWindows(22);
		expect(pacer.rate).toBe(24);
		// A throttle that is not of a step up: the others take more of the key.
		refuseNext();
		expect(pacer.rate).toBe(22);
		refuseNext();
		expect(pacer.rate).toBeCloseTo(0.8 * 22);
	});

	it("holds every start of the credential until the API's Retry-After", () => {
		const pacer = new Pacer({ random: () => 0 });
		const t = acceptBurst(pacer, 20);
		pacer.throttled(pacer.reserve(t, t), t + 1, 3000);
		expect(pacer.reserve(t + 2, t + 2).at).toBeGreaterThanOrEqual(t + 1 + 3000);
	});

	it('forgets the pacing of a credential left idle, and gives back released slots', () => {
		const pacer = new Pacer();
		const t = acceptBurst(pacer, 5);
		pacer.throttled(pacer.reserve(t, t), t + 1);
		expect(pacer.limit).toBe(5);
		const waiting = pacer.reserve(t + 2, t + 2);
		expect(waiting.at).toBeGreaterThan(t + 2);
		pacer.release(waiting);
		const later = t + 60_000;
		expect(pacer.reserve(later, later).at).toBe(later);
		expect(pacer.limit).toBeUndefined();
	});

	it('keeps one pacer per Base URL and key', () => {
		const a = pacerFor('http://127.0.0.1:1', 'key-a');
		expect(pacerFor('http://127.0.0.1:1', 'key-a')).toBe(a);
		expect(pacerFor('http://127.0.0.1:1', 'key-b')).not.toBe(a);
		expect(pacerFor('http://127.0.0.1:2', 'key-a')).not.toBe(a);
	});

	it('never shares a pacer between two keys, also keys a 32-bit fingerprint could not tell apart', () => {
		// Same length and the same 32-bit FNV-1a hash: one credential's throttles would have slowed the other.
		const [first, second] = ['sim-key-007yzx', 'sim-key-00e6ad'];
		expect(pacerFor('http://127.0.0.1:3', first)).not.toBe(pacerFor('http://127.0.0.1:3', second));
		expect(credentialIdentity('http://127.0.0.1:3', first)).not.toBe(
			credentialIdentity('http://127.0.0.1:3', second),
		);
		expect(credentialIdentity('http://127.0.0.1:3', first)).not.toContain(first);
	});
});

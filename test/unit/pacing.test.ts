import { PACE_WINDOW_MS, Pacer, credentialIdentity, pacerFor } from '../../nodes/shared/pacing';

/** `count` requests started 5 ms apart from `start`, each answered (accepted) 3 ms after it started. */
function acceptBurst(pacer: Pacer, count: number, start = 0): number {
	let t = start;
	for (let i = 0; i < count; i++, t += 5) pacer.accepted(pacer.reserve(t, t), t + 3);
	return t;
}

describe('Pacer (shared pacing per credential)', () => {
	it('stays unpaced until a throttle is explained by our own recent rate', () => {
		const pacer = new Pacer();
		const lone = pacer.reserve(0, 0);
		expect(lone.at).toBe(0);
		expect(pacer.throttled(lone, 10)).toBe(false);
		expect(pacer.limit).toBeUndefined();
		// Unpaced, a later start is never moved.
		expect(pacer.reserve(20, 20).at).toBe(20);
	});

	it('learns the limit from what the API accepted in the last second, then spaces requests by the window', () => {
		const pacer = new Pacer();
		const t = acceptBurst(pacer, 20);
		const refused = pacer.reserve(t, t);
		expect(pacer.throttled(refused, t + 2)).toBe(true);
		expect(pacer.limit).toBe(20);
		expect(pacer.windowMs).toBe(PACE_WINDOW_MS);
		// The next slot opens one window (+ margin) after the answer to the oldest of the 20.
		const next = pacer.reserve(t + 2, t + 2);
		expect(next.at).toBeGreaterThanOrEqual(3 + PACE_WINDOW_MS);
		expect(next.at).toBeLessThan(3 + PACE_WINDOW_MS + 50);
		// First come, first served: the one after waits for the second oldest.
		expect(pacer.reserve(t + 2, t + 2).at).toBeGreaterThanOrEqual(8 + PACE_WINDOW_MS);
	});

	it('ignores throttles of requests already in flight when the pacing changed, and doubles the window on news', () => {
		const pacer = new Pacer();
		const t = acceptBurst(pacer, 10);
		const inFlight = [pacer.reserve(t, t), pacer.reserve(t, t)];
		pacer.throttled(inFlight[0], t + 5);
		expect(pacer.limit).toBe(10);
		pacer.throttled(inFlight[1], t + 6);
		expect(pacer.limit).toBe(10);
		expect(pacer.windowMs).toBe(PACE_WINDOW_MS);
		// Sent under the learned pacing and still throttled: the API's window is longer than assumed.
		const paced = pacer.reserve(t + 10, t + 10);
		pacer.throttled(paced, paced.at + 5);
		expect(pacer.limit).toBe(10);
		expect(pacer.windowMs).toBe(2 * PACE_WINDOW_MS);
	});

	it('tries a little faster after a long clean run and goes back at the first throttle', () => {
		const pacer = new Pacer();
		let t = acceptBurst(pacer, 20);
		pacer.throttled(pacer.reserve(t, t), t + 1);
		expect(pacer.limit).toBe(20);
		for (let i = 0; i < 80; i++) {
			const slot = pacer.reserve(t, t);
			t = slot.at + 3;
			pacer.accepted(slot, t);
		}
		expect(pacer.limit).toBe(22);
		const probe = pacer.reserve(t, t);
		pacer.throttled(probe, probe.at + 3);
		expect(pacer.limit).toBe(20);
		expect(pacer.windowMs).toBe(PACE_WINDOW_MS);
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

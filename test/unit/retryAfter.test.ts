/**
 * `Retry-After` (issue 35, case 7): delta-seconds and HTTP dates (RFC 9110 section 10.2.3: the IMF-fixdate and the
 * two obsolete forms), a past date asking for no wait, anything else ignored; waited as asked by the backoff.
 */
import {
	DEFAULT_RETRY_POLICY,
	backoffDelay,
	httpDate,
	retryAfterMs,
	throttleRetryFloor,
} from '../../nodes/shared/api/transport';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 17);
const at = (value: unknown) => retryAfterMs({ 'retry-after': value }, NOW);

describe('retryAfterMs', () => {
	it.each<[string, unknown, number]>([
		['delta-seconds', '20', 20_000],
		['delta-seconds with spaces', ' 3 ', 3000],
		['a number', 2, 2000],
		['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT', 20_000],
		['RFC 850', 'Sunday, 06-Nov-94 08:49:37 GMT', 20_000],
		['asctime (UTC, whatever the local zone)', 'Sun Nov  6 08:49:37 1994', 20_000],
		['the first of several values', ['Sun, 06 Nov 1994 08:49:27 GMT', '99'], 10_000],
		['a date in the past: no wait', 'Sun, 06 Nov 1994 08:48:37 GMT', 0],
		['zero', '0', 0],
	])('%s', (_, value, expected) => {
		expect(at(value)).toBe(expected);
	});

	it.each([
		'soon',
		'-5',
		'',
		'Sun, 31 Feb 1994 08:49:37 GMT',
		'Sun, 06 Nov 1994 25:49:37 GMT',
		'Sun, 06 Foo 1994 08:49:37 GMT',
		'Sun, 06 Nov 1994 08:49:37 CET',
		'2026-11-28T07:00:00Z',
	])('ignores "%s"', (value) => {
		expect(at(value)).toBeUndefined();
	});

	it('reads what Date#toUTCString writes (an IMF-fixdate)', () => {
		const when = Date.UTC(2026, 10, 28, 7, 0, 20);
		expect(httpDate(new Date(when).toUTCString())).toBe(when);
	});

	it('a two-digit year more than 50 years ahead is of the past century (RFC 9110)', () => {
		expect(httpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
		expect(httpDate('Friday, 06-Nov-26 08:49:37 GMT')).toBe(Date.UTC(2026, 10, 6, 8, 49, 37));
	});
});

describe('the wait a Retry-After asks for', () => {
	it('is waited as asked by the backoff and the throttle floor, also beyond the backoff ceiling', () => {
		const date = { 'retry-after': new Date(Date.now() + 45_000).toUTCString() };
		const floor = throttleRetryFloor(DEFAULT_RETRY_POLICY, 0, 1, date, 1000);
		expect(floor).toBeGreaterThan(43_000);
		expect(floor).toBeLessThanOrEqual(45_000);
		expect(backoffDelay(DEFAULT_RETRY_POLICY, 0, { 'retry-after': '45' })).toBe(45_000);
		expect(DEFAULT_RETRY_POLICY.maxDelayMs).toBeLessThan(45_000);
	});
});

import { lastCompletedQuarterEnd, readSnapshotDate } from '../../nodes/shared/dates';
import { parseLooseNumber } from '../../nodes/shared/numbers';

describe('parseLooseNumber', () => {
	it.each([
		[1234.5, 1234.5],
		['1234.5', 1234.5],
		['1,234.50', 1234.5],
		['1 234,50', 1234.5],
		['1.234,50', 1234.5],
		['1,234,567', 1234567],
		['1.234.567', 1234567],
		['1,5', 1.5],
		["1'234.5", 1234.5],
		['-12', -12],
		['1e3', 1000],
	])('%p -> %p', (input, expected) => {
		expect(parseLooseNumber(input)).toBe(expected);
	});

	it('reads percentages only where asked', () => {
		expect(parseLooseNumber('12.5%', { percent: true })).toBe(12.5);
		expect(parseLooseNumber('12.5%')).toBeUndefined();
	});

	it.each([NaN, Infinity, '', 'abc', '1..2', '12abc', null, undefined, {}, '9'.repeat(50)])(
		'refuses %p',
		(input) => {
			expect(parseLooseNumber(input)).toBeUndefined();
		},
	);
});

describe('snapshot dates', () => {
	const today = new Date('2026-11-21T10:00:00Z');

	it('moves dates to the end of their quarter', () => {
		expect(readSnapshotDate('2026-02-10', today)).toEqual({
			date: '2026-02-10',
			quarterEnd: '2026-03-31',
		});
		expect(readSnapshotDate('2024-05-31T00:00:00', today)).toEqual({
			date: '2024-05-31',
			quarterEnd: '2024-06-30',
		});
		expect(readSnapshotDate(new Date('2025-08-01T00:00:00Z'), today)).toMatchObject({
			quarterEnd: '2025-09-30',
		});
		expect(readSnapshotDate('2025-12-01', today)).toMatchObject({ quarterEnd: '2025-12-31' });
	});

	it('allows later dates this year and refuses future years', () => {
		expect(readSnapshotDate('2026-12-31', today)).toMatchObject({ quarterEnd: '2026-12-31' });
		expect(readSnapshotDate('2027-01-01', today)).toEqual({ problem: 'future-year' });
	});

	it.each(['31/12/2025', '2025-13-01', '2025-02-30', 'yesterday', '', 20251231, null])(
		'refuses %p as unreadable',
		(value) => {
			expect(readSnapshotDate(value, today)).toEqual({ problem: 'unreadable' });
		},
	);

	it('reads Luxon-like objects', () => {
		expect(readSnapshotDate({ toISODate: () => '2025-01-15' }, today)).toMatchObject({
			quarterEnd: '2025-03-31',
		});
	});

	it('knows the last completed quarter end', () => {
		expect(lastCompletedQuarterEnd(today)).toBe('2026-09-30');
		expect(lastCompletedQuarterEnd(new Date('2026-02-01T00:00:00Z'))).toBe('2025-12-31');
		expect(lastCompletedQuarterEnd(new Date('2026-06-30T12:00:00Z'))).toBe('2026-06-30');
	});
});

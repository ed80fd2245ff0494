import {
	describeDateProblem,
	lastCompletedQuarterEnd,
	readSnapshotDate,
} from '../../nodes/shared/input/dates';
import {
	columnFormat,
	readInColumn,
	readNumber,
	formatEvidence,
} from '../../nodes/shared/input/numbers';
import { decideWeightScale, scaledWeight } from '../../nodes/shared/input/holdingNumbers';

const valueOf = (
	input: unknown,
	...rest: Parameters<typeof readNumber> extends [unknown, ...infer R] ? R : never
) => {
	const read = readNumber(input, ...rest);
	return 'value' in read ? read.value : read.problem;
};

describe('readNumber', () => {
	it.each([
		[1234.5, 1234.5],
		['1234.5', 1234.5],
		['1,234.50', 1234.5],
		['1 234,50', 1234.5],
		['1\u202f234,50', 1234.5],
		['1.234,50', 1234.5],
		['1,234,567', 1234567],
		['1.234.567', 1234567],
		['1,5', 1.5],
		['1234,567', 1234.567],
		["1'234.5", 1234.5],
		['-12', -12],
		['−12', -12],
		['1e3', 1000],
		['(1,234.50)', -1234.5],
		['€1,234.50', 1234.5],
		['-€1,234.5', -1234.5],
		['EUR 1.234,50', 1234.5],
		['1.234,50 €', 1234.5],
		["CHF 1'234.50", 1234.5],
	])('%p -> %p', (input, expected) => {
		expect(valueOf(input)).toBe(expected);
	});

	it('says which currency a value is written in', () => {
		expect(readNumber('1.234,50 €')).toMatchObject({ value: 1234.5, currency: 'EUR' });
		expect(readNumber('usd 12.5')).toMatchObject({ value: 12.5, currency: 'USD' });
		expect(readNumber('$12.5')).not.toHaveProperty('currency');
		expect(valueOf('XYZ 12')).toBe('not-a-number');
	});

	it.each(['1.234', '1,234', '€1,234', '(1,234)', '1,234 EUR', '-1.234'])(
		'gives both readings of %p and never picks one',
		(input) => {
			const read = readNumber(input);
			expect(read).toMatchObject({ problem: 'two-readings' });
			const { readings } = read as { readings: { dot: number; comma: number } };
			expect([Math.abs(readings.dot), Math.abs(readings.comma)].sort((x, y) => x - y)).toEqual([
				1.234, 1234,
			]);
		},
	);

	it('reads a text that reads two ways in the chosen format', () => {
		expect(valueOf('1.234', 'comma')).toBe(1234);
		expect(valueOf('1.234', 'dot')).toBe(1.234);
		expect(valueOf('1 234,5', 'space')).toBe(1234.5);
		expect(readNumber('1.234,50', 'dot')).toEqual({
			problem: 'not-in-format',
			format: 'dot',
			otherReading: 1234.5,
		});
	});

	it('reads percentages only where asked', () => {
		expect(readNumber('12.5%', 'detect', { percent: true })).toEqual({
			value: 12.5,
			percent: true,
			only: 'dot',
		});
		expect(valueOf('12.5%')).toBe('percent');
	});

	it.each([
		NaN,
		Infinity,
		'',
		'abc',
		'1..2',
		'12abc',
		null,
		undefined,
		{},
		'9'.repeat(70),
		'1e999',
		'(-12)',
		'1,23,4',
	])('refuses %p', (input) => {
		expect(valueOf(input)).toBe('not-a-number');
	});
});

describe('column formats', () => {
	const at = (values: unknown[]) =>
		values.map((value, index) => ({ value, where: `Item ${index}` }));

	it('is settled by a value that can only be read one way', () => {
		expect(formatEvidence('1.234,50')).toBe('comma');
		expect(formatEvidence('1 234,50')).toBe('comma');
		expect(formatEvidence('12.5')).toBe('dot');
		expect(formatEvidence('1.234')).toBeUndefined();
		const column = columnFormat(at(['1.234', '1.234,50']), 'detect');
		expect(column).toMatchObject({
			format: 'comma',
			settledBy: { value: '1.234,50', where: 'Item 1' },
		});
		expect(readInColumn('1.234', column)).toMatchObject({ value: 1234, byColumn: true });
		expect(readInColumn('12,5', column)).toMatchObject({ value: 12.5 });
	});

	it('leaves a value that reads two ways a problem when nothing settles it or the column mixes', () => {
		expect(readInColumn('1.234', columnFormat(at(['1.234', 12]), 'detect'))).toMatchObject({
			problem: 'two-readings',
		});
		const mixed = columnFormat(at(['1.234', '12.5', '1,5']), 'detect');
		expect(mixed.mixed).toBeDefined();
		expect(readInColumn('1.234', mixed)).toMatchObject({ problem: 'two-readings' });
	});

	it('follows the Number Format option over the values', () => {
		const column = columnFormat(at(['12.5']), 'comma');
		expect(readInColumn('1.234', column)).toMatchObject({ value: 1234 });
		expect(readInColumn('12.5', column)).toMatchObject({ problem: 'not-in-format' });
	});
});

describe('weight scale', () => {
	const weights = (...values: Array<number | string>) =>
		values.map((value, index) => ({
			value: typeof value === 'number' ? value : Number.parseFloat(value),
			percent: typeof value === 'string',
			where: `Item ${index}`,
			itemIndex: index,
		}));

	it('reads weights that are at most 1 and add up to 1 as fractions, and says so', () => {
		const decision = decideWeightScale(weights(0.12, 0.38, 0.5), 'detect');
		expect(decision).toMatchObject({ factor: 100 });
		expect((decision as { note: string }).note).toContain('fractions of 1');
		expect(scaledWeight({ value: 0.12, percent: false }, 100)).toBe(12);
	});

	it('reads weights as percent when one is above 1, written with %, or they add up to 100', () => {
		expect(decideWeightScale(weights(0.5, 99.5), 'detect')).toEqual({ factor: 1 });
		expect(decideWeightScale(weights(0.5, '0.5%'), 'detect')).toEqual({ factor: 1 });
		expect(decideWeightScale(weights(...Array(200).fill(0.5)), 'detect')).toEqual({ factor: 1 });
		expect(decideWeightScale(weights(0, 0), 'detect')).toEqual({ factor: 1 });
	});

	it('refuses weights that read two ways, naming both readings and the option', () => {
		const decision = decideWeightScale(weights(0.2, 0.3), 'detect');
		expect(decision).toMatchObject({ at: { where: 'Item 0' } });
		expect((decision as { message: string }).message).toContain(
			'0.2 may be a fraction (20 %) or a percentage (0.2 %)',
		);
		expect((decision as { fix: string }).fix).toContain('Weights Are');
	});

	it('follows the option', () => {
		expect(decideWeightScale(weights(0.2, 0.3), 'percent')).toEqual({ factor: 1 });
		expect(decideWeightScale(weights(0.2, 0.3), 'fraction')).toEqual({ factor: 100 });
		expect(decideWeightScale(weights(0.2, 30), 'fraction')).toMatchObject({
			at: { itemIndex: 1 },
			message: expect.stringContaining('above 1'),
		});
	});
});

describe('snapshot dates', () => {
	const today = new Date('2026-11-21T10:00:00Z');

	it.each<[unknown, string, string]>([
		['2026-02-10', '2026-02-10', '2026-03-31'],
		['2024-05-31T00:00:00', '2024-05-31', '2024-06-30'],
		[new Date('2025-08-01T00:00:00Z'), '2025-08-01', '2025-09-30'],
		['2025-12-01', '2025-12-01', '2025-12-31'],
		['2026-12-31', '2026-12-31', '2026-12-31'], // later this year
		[{ toISODate: () => '2025-01-15' }, '2025-01-15', '2025-03-31'], // Luxon-like
	])('reads %p as %s, moved to the quarter end %s', (value, date, quarterEnd) => {
		expect(readSnapshotDate(value, today)).toEqual({ date, quarterEnd });
	});

	it('refuses future years', () => {
		expect(readSnapshotDate('2027-01-01', today)).toEqual({ problem: 'future-year' });
	});

	it.each(['31/12/2025', '2025-13-01', '2025-02-30', 'yesterday', '', 20251231, null])(
		'refuses %p as unreadable',
		(value) => {
			expect(readSnapshotDate(value, today)).toEqual({ problem: 'unreadable' });
		},
	);

	it('reads a number as an Excel date serial from 61 (1900-03-01) to 73415 (2100-12-31), and says so', () => {
		expect(readSnapshotDate(45657, today)).toEqual({
			date: '2024-12-31',
			quarterEnd: '2024-12-31',
			note: 'Snapshot Date 45657 read as the Excel date 2024-12-31',
		});
		expect(readSnapshotDate(45658.75, today)).toMatchObject({ date: '2025-01-01' });
		expect(readSnapshotDate(61, today)).toMatchObject({ date: '1900-03-01' });
		expect(readSnapshotDate(73415, new Date('2100-06-01T00:00:00Z'))).toMatchObject({
			date: '2100-12-31',
		});
		for (const outside of [60, 0, -1, 73416, 20251231, Number.NaN, Infinity])
			expect(readSnapshotDate(outside, today)).toEqual({ problem: 'unreadable' });
		// A text of digits is not a serial (a CSV has the date written out).
		expect(readSnapshotDate('45657', today)).toEqual({ problem: 'unreadable' });
		expect(describeDateProblem('unreadable', 20251231)).toMatch(
			/a number is read as an Excel date serial only from 61 \(1900-03-01\) to 73415 \(2100-12-31\)/,
		);
	});

	it('knows the last completed quarter end', () => {
		expect(lastCompletedQuarterEnd(today)).toBe('2026-09-30');
		expect(lastCompletedQuarterEnd(new Date('2026-02-01T00:00:00Z'))).toBe('2025-12-31');
		expect(lastCompletedQuarterEnd(new Date('2026-06-30T12:00:00Z'))).toBe('2026-06-30');
	});
});

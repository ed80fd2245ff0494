/**
 * Deterministic data rules and helpers (no server).
 */
import { parseSnapshotDate, quarterEnd, resolveSnapshot } from '../dates';
import {
	FUND_SHARE,
	TAXONOMY_KPIS,
	UNKNOWN_SHARE,
	instrumentData,
	makeIsin,
	taxonomyKpis,
} from '../index';
import { isinCheckDigit } from '../isin';
import { validate } from '../validation';
import { enumError } from './helpers';

const SAMPLE = Array.from({ length: 4000 }, (_, i) => makeIsin('US', i + 1));

describe('instrument data', () => {
	it('is deterministic per ISIN', () => {
		expect(instrumentData(SAMPLE[7])).toEqual(instrumentData(SAMPLE[7]));
	});

	it('has about 10 % unknown ISINs and about 20 % funds among known ones', () => {
		const data = SAMPLE.map((isin) => instrumentData(isin));
		const unknownShare = data.filter((d) => !d.known).length / data.length;
		const known = data.filter((d) => d.known);
		const fundShare = known.filter((d) => d.isFund).length / known.length;
		expect(Math.abs(unknownShare - UNKNOWN_SHARE)).toBeLessThan(0.025);
		expect(Math.abs(fundShare - FUND_SHARE)).toBeLessThan(0.03);
	});

	it('treats XX-prefixed and malformed ISINs as unknown', () => {
		for (const isin of ['XX0000000001', 'us0378331005', 'US037833100', '', 'not an isin']) {
			const data = instrumentData(isin);
			expect(data.known).toBe(false);
			expect(data.sfdr).toBeNull();
			expect(data.taxonomy).toBeNull();
			expect(data.sustainableInvestment).toEqual({
				classification: null,
				description: 'Uncovered',
			});
		}
	});

	it('keeps values in range and taxonomy values consistent', () => {
		for (const data of SAMPLE.slice(0, 1000)
			.map((isin) => instrumentData(isin))
			.filter((d) => d.known)) {
			expect([6, 8, 9]).toContain(data.sfdr);
			expect([9, 8, 0]).toContain(data.sustainableInvestment.classification);
			const score = data.temperature.score ?? 0;
			expect(score).toBeGreaterThanOrEqual(1.2);
			expect(score).toBeLessThanOrEqual(3.5);
			expect(data.temperature.target === null).toBe(data.temperature.baseYear === null);
			expect(data.temperature.industry === null).toBe(data.isFund);
			for (const involvement of Object.values(data.businessInvolvements)) {
				expect(involvement.weight).toBeGreaterThanOrEqual(0);
				expect(involvement.weight).toBeLessThanOrEqual(100);
				expect(Number.isInteger(involvement.count)).toBe(true);
			}
			for (const values of Object.values(data.taxonomy ?? {})) {
				expect(values.eligible).toBeLessThanOrEqual(100);
				expect(values.aligned).toBeLessThanOrEqual(values.eligible);
				expect(values.enabling + values.transitional).toBeLessThanOrEqual(values.aligned + 1e-9);
				expect(values.fossilGas).toBeLessThanOrEqual(2);
				expect(values.nuclear).toBeLessThanOrEqual(2);
				expect(values.noGasAndNuclear).toBeCloseTo(
					values.aligned - values.fossilGas - values.nuclear,
					6,
				);
			}
		}
	});

	it('computes taxonomy KPIs as market-value weighted averages', () => {
		const known = SAMPLE.filter((isin) => instrumentData(isin).known).slice(0, 2);
		const [a, b] = known.map((isin) => instrumentData(isin).taxonomy);
		const kpis = taxonomyKpis([
			{ isin: known[0], instrument_type: 'stock', market_value: 300 },
			{ isin: known[1], instrument_type: 'stock', market_value: 100 },
		]);
		expect(kpis?.['taxonomy_eligible_capex_%']).toBeCloseTo(
			((a?.capex.eligible ?? 0) * 3 + (b?.capex.eligible ?? 0)) / 4,
			4,
		);
		expect(TAXONOMY_KPIS).toHaveLength(32);
		expect(
			taxonomyKpis([{ isin: 'XX0000000001', instrument_type: 'stock', market_value: 1 }]),
		).toBeNull();
	});
});

describe('helpers', () => {
	it('computes ISIN check digits', () => {
		expect(isinCheckDigit('US037833100')).toBe(5);
		expect(isinCheckDigit('DE000BAY001')).toBe(7);
		expect(makeIsin('IE', '00B4L5Y98')).toBe('IE00B4L5Y983');
	});

	it('parses snapshot dates and moves them to the quarter end', () => {
		expect(parseSnapshotDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
		expect(parseSnapshotDate('2023-02-29')).toBeNull();
		expect(parseSnapshotDate('2024-01-05T25:00:00Z')).toBeNull();
		expect(quarterEnd({ year: 2024, month: 1, day: 1 })).toBe('2024-03-31');
		expect(quarterEnd({ year: 2024, month: 5, day: 1 })).toBe('2024-06-30');
		expect(quarterEnd({ year: 2024, month: 9, day: 30 })).toBe('2024-09-30');
		expect(quarterEnd({ year: 2024, month: 10, day: 1 })).toBe('2024-12-31');
		const now = new Date('2025-03-01T00:00:00Z');
		expect(resolveSnapshot('2025-12-31', now)).toEqual({ ok: true, quarterEnd: '2025-12-31' });
		expect(resolveSnapshot('2026-01-01', now)).toEqual({
			ok: false,
			message: 'Snapshot date cannot be higher than actual date',
		});
	});

	it('validates nullable fields and enums', () => {
		const schema = {
			type: 'object',
			properties: { a: { type: 'string', nullable: true, enum: ['x'] } },
		} as const;
		expect(validate(schema, { a: null })).toEqual([]);
		expect(validate(schema, { a: 'y' })).toEqual([
			enumError('.body.a', 'must be equal to one of the allowed values: x'),
		]);
	});
});

describe('data version 2 (a later edition of the instrument data)', () => {
	const pairs = SAMPLE.map((isin) => ({
		isin,
		before: instrumentData(isin, 1),
		after: instrumentData(isin, 2),
	}));
	const share = (predicate: (pair: (typeof pairs)[number]) => boolean) =>
		pairs.filter(predicate).length / pairs.length;

	it('downgrades, upgrades, loses and gains SFDR data for a fixed share of ISINs', () => {
		const rank = { 6: 0, 8: 1, 9: 2 } as const;
		const down = share(
			({ before, after }) =>
				before.sfdr !== null && after.sfdr !== null && rank[after.sfdr] < rank[before.sfdr],
		);
		const up = share(
			({ before, after }) =>
				before.sfdr !== null && after.sfdr !== null && rank[after.sfdr] > rank[before.sfdr],
		);
		const lost = share(({ before, after }) => before.sfdr !== null && after.sfdr === null);
		const gained = share(({ before, after }) => before.sfdr === null && after.sfdr !== null);
		// Known ISINs are 90 %; a step down cannot apply to a 6 (about half), a step up not to a 9.
		expect(down).toBeGreaterThan(0.1);
		expect(up).toBeGreaterThan(0.03);
		expect(lost).toBeGreaterThan(0.02);
		expect(gained).toBeGreaterThan(0.02);
		for (const { before, after } of pairs) {
			if (after.sfdr !== null) expect(after.sfdrDescription).not.toBeNull();
			if (before.sfdr === null && after.sfdr !== null)
				expect(after).toEqual(instrumentData(after.isin, 2));
		}
	});

	it('keeps version 1 as it was and changes no step by more than one class', () => {
		for (const { isin, before, after } of pairs.slice(0, 500)) {
			expect(instrumentData(isin)).toEqual(before);
			if (before.sfdr !== null && after.sfdr !== null)
				expect(
					Math.abs([6, 8, 9].indexOf(after.sfdr) - [6, 8, 9].indexOf(before.sfdr)),
				).toBeLessThanOrEqual(1);
		}
	});
});

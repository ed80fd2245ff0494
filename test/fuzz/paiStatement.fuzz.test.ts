/**
 * Output > PAI Statement (issue 38) over generated quarterly holdings and generated answers, in n8n's engine against
 * the simulator behind a proxy that leaves entries out of the answer or blanks a figure. For every statement (the
 * entity and each fund):
 * - every ISIN held in year N is accounted for: with data for the indicator, or named in its explanation;
 * - PAI 2 equals Σ (value / value of ALL rows of the quarter end) × figure averaged over the quarter ends present,
 *   recomputed here from the simulator's data (the denominator is all investments, cash and rows without ISIN too);
 *   coverage the same way; both inside their domain (0 ≤ figure ≤ the largest figure, 0–100 %); PAI 4 (vendor
 *   answers) a share of all investments within 0–100 %;
 * - the requests are ceil(distinct ISINs over all quarters and funds / Batch Size), each ISIN sent once.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData, makeIsin } from '../simulator';
import { startProxy } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { instrumentsSpec, runNode } from '../helpers/lookupRuns';
import { FUZZ_SEED, runs } from './arbitraries';

const PAI = 'POST /instruments/sustainability-data' as const;
const sim = useSimulator();

const N = new Date().getUTCFullYear() - 1;
const ENDS = [N - 1, N].flatMap((year) => [
	`${year}-03-31`,
	`${year}-06-30`,
	`${year}-09-30`,
	`${year}-12-31`,
]);
const POOL = [...findIsins((d) => d.known, 6, 'IT'), makeIsin('XX', 7)];

type Fate = 'keep' | 'drop' | 'blank';
type Kind = 'holding' | 'cash' | 'noIsin';

interface Row {
	fund: string;
	date: string;
	isin: string;
	type?: string;
	market_value: number;
}

const caseArb = fc.record({
	funds: fc.integer({ min: 1, max: 2 }),
	quarters: fc.subarray(ENDS, { minLength: 1 }),
	held: fc.array(
		fc.array(
			fc.record({
				pick: fc.integer({ min: 0, max: POOL.length - 1 }),
				value: fc.integer({ min: 1, max: 5_000_000 }),
				kind: fc.constantFrom<Kind>('holding', 'holding', 'holding', 'cash', 'noIsin'),
			}),
			{ minLength: 1, maxLength: 5 },
		),
		{ minLength: 16, maxLength: 16 },
	),
	fates: fc.array(fc.constantFrom<Fate>('keep', 'keep', 'drop', 'blank'), {
		minLength: POOL.length,
		maxLength: POOL.length,
	}),
	batchSize: fc.integer({ min: 1, max: 4 }),
	vendor: fc.boolean(),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function rowsOf(c: Case): Row[] {
	const rows: Row[] = [];
	c.quarters.forEach((date) => {
		for (let f = 0; f < c.funds; f++) {
			const held = c.held[(ENDS.indexOf(date) * 2 + f) % c.held.length];
			for (const { pick, value, kind } of held)
				rows.push({
					fund: `F${f}`,
					date,
					isin: kind === 'noIsin' ? '' : POOL[pick],
					...(kind === 'cash' ? { type: 'Cash' } : {}),
					market_value: value,
				});
		}
	});
	return rows;
}

const looksUp = (row: Row) => row.isin !== '' && row.type !== 'Cash';

describe('PAI Statement: generated quarterly holdings and answers', () => {
	it('every ISIN accounted for, figures in their domain over all investments, one request per batch of distinct ISINs', async () => {
		let fates = new Map<string, Fate>();
		const proxy = await startProxy(sim.url, (_path, body) => {
			if (!body || !Array.isArray(body.data)) return body;
			body.data = (body.data as IDataObject[]).filter((entry) => {
				const isin = (entry.metadata as IDataObject | undefined)?.isin as string;
				const fate = fates.get(isin) ?? 'keep';
				if (fate === 'blank' && entry.sustainability_data)
					(entry.sustainability_data as IDataObject).carbon_footprint = {
						value: null,
						unit: 'tCO2e/EURm invested',
					};
				return fate !== 'drop';
			});
			return body;
		});
		try {
			await fc.assert(
				fc.asyncProperty(caseArb, async (c) => {
					sim.reset();
					sim.setAnswerShape(c.vendor ? { measures: 'vendor' } : {});
					fates = new Map(POOL.map((isin, i) => [isin, c.fates[i]]));
					const rows = rowsOf(c);
					const { result, out } = await runNode(
						proxy.url,
						rows as unknown as IDataObject[],
						instrumentsSpec('getPaiIndicators', {
							outputMode: 'paiStatement',
							groupBy: c.funds > 1 ? 'fund' : '',
							options: { batchSize: c.batchSize },
						}),
					);
					expect(result.error).toBeUndefined();

					// Requests: one per batch of distinct ISINs over all quarters and funds, each sent once.
					const distinct = new Set(rows.filter(looksUp).map((row) => row.isin));
					expect(sim.requestCount({ route: PAI })).toBe(Math.ceil(distinct.size / c.batchSize));
					const sent = sim
						.requests({ route: PAI })
						.flatMap((r) => (r.body as { holdings: Array<{ isin: string }> }).holdings)
						.map((h) => h.isin);
					expect(sent.sort()).toEqual([...distinct].sort());

					const yearN = Math.max(...c.quarters.map((date) => Number(date.slice(0, 4))));
					const statements: Array<{ fund?: string; rows: Row[] }> = [{ rows }];
					if (c.funds > 1)
						for (let f = 0; f < c.funds; f++)
							statements.push({
								fund: `F${f}`,
								rows: rows.filter((row) => row.fund === `F${f}`),
							});
					const json = out.map((item) => item.json);
					for (const statement of statements) {
						const mine = json.filter((row) =>
							statement.fund === undefined
								? row.statement === 'entity'
								: row.statement === 'fund' && row.fund === statement.fund,
						);
						const footprint = mine.find((row) => row.pai === 2)!;
						const carbon = (isin: string) =>
							fates.get(isin) === 'keep' ? instrumentData(isin).pai.carbon_footprint : null;
						const ends = ENDS.filter(
							(date) =>
								date.startsWith(String(yearN)) && statement.rows.some((row) => row.date === date),
						);
						const perQuarter = ends.map((date) => {
							const held = statement.rows.filter((row) => row.date === date);
							const total = held.reduce((sum, row) => sum + row.market_value, 0);
							let value = 0;
							let covered = 0;
							for (const row of held.filter(looksUp)) {
								const x = carbon(row.isin);
								if (x === null) continue;
								value += (row.market_value / total) * x;
								covered += row.market_value;
							}
							return { value: covered > 0 ? value : null, coverage: (covered / total) * 100 };
						});
						const mean = (list: number[]) => list.reduce((s, v) => s + v, 0) / list.length;
						// A quarter end where no holding has data has no figure (never a 0); none at all: null.
						const known = perQuarter.flatMap((q) => (q.value === null ? [] : [q.value]));
						if (known.length === 0) expect(footprint.impact_year_n).toBeNull();
						else expect(footprint.impact_year_n).toBeCloseTo(mean(known), 3);
						expect(footprint.coverage_percent).toBeCloseTo(
							mean(perQuarter.map((q) => q.coverage)),
							1,
						);
						// Domains.
						const largest = Math.max(0, ...POOL.map((isin) => carbon(isin) ?? 0));
						if (known.length) {
							expect(footprint.impact_year_n as number).toBeGreaterThanOrEqual(0);
							expect(footprint.impact_year_n as number).toBeLessThanOrEqual(largest + 1e-4);
						}
						expect(footprint.coverage_percent as number).toBeGreaterThanOrEqual(0);
						expect(footprint.coverage_percent as number).toBeLessThanOrEqual(100);
						expect(footprint.quarters_missing).toEqual(
							ENDS.filter((date) => date.startsWith(String(yearN)) && !ends.includes(date)),
						);
						// Every ISIN held in year N: with data, or named in the explanation.
						const heldIsins = new Set(
							statement.rows
								.filter((row) => looksUp(row) && row.date.startsWith(String(yearN)))
								.map((row) => row.isin),
						);
						for (const isin of heldIsins)
							if (carbon(isin) === null) expect(footprint.explanation as string).toContain(isin);
							else
								expect(
									(footprint.explanation as string)
										.match(/without data[^.]*\.|Not in the API's answer[^.]*\./g)
										?.join(' ') ?? '',
								).not.toContain(isin);
						// Share-type: inside 0–100 % of all investments (vendor answers only give the flag).
						const fossil = mine.find((row) => row.pai === 4)!;
						if (fossil.impact_year_n !== null) {
							expect(c.vendor).toBe(true);
							expect(fossil.impact_year_n as number).toBeGreaterThanOrEqual(0);
							expect(fossil.impact_year_n as number).toBeLessThanOrEqual(100);
						} else {
							// The spec's answers have no true/false indicators: no figure, never a 0 %.
							expect(fossil.explanation).toMatch(/no holding has data for it/i);
						}
					}
				}),
				{ numRuns: runs(20), seed: FUZZ_SEED },
			);
		} finally {
			await proxy.close();
		}
	}, 300_000);
});

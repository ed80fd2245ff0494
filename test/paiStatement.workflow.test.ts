/**
 * Output > PAI Statement of Get PAI Indicators (issue 38), run inside n8n's engine against the simulator. Every figure
 * is checked against the Regulation's formulas written out here from the simulator's per-ISIN data
 * (instrumentData), never by calling the node's own code.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData, makeIsin, VENDOR_PAI_BOOLEANS } from './simulator';
import type { PAI_INDICATORS } from './simulator';

type PaiName = keyof typeof PAI_INDICATORS;
import { descriptionOf, hintMessages, instrumentsSpec, runNode } from './helpers/lookupRuns';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';

const PAI = 'POST /instruments/sustainability-data' as const;
const sim = useSimulator();

const N = new Date().getUTCFullYear() - 1;
const ends = (year: number) => [`${year}-03-31`, `${year}-06-30`, `${year}-09-30`, `${year}-12-31`];

const statementNode = (extra: IDataObject = {}) =>
	instrumentsSpec('getPaiIndicators', { outputMode: 'paiStatement', ...extra });

const [A, B, C, D] = findIsins((d) => d.known && d.pai.carbon_footprint !== null, 4, 'DE');
const UNKNOWN = makeIsin('XX', 1);

interface Held {
	fund?: string;
	date: string;
	isin: string;
	market_value: number | string;
	type?: string;
	currency?: string;
}

/** Four quarter ends of a year: A, B and the unknown ISIN held throughout, C from Q3, a cash row every quarter. */
function yearRows(year: number, fund = 'Alpha', scale = 1): Held[] {
	return ends(year).flatMap((date, q) => [
		{ fund, date, isin: A, market_value: (1000 + 100 * q) * scale },
		{ fund, date, isin: B, market_value: (2000 - 50 * q) * scale },
		{ fund, date, isin: UNKNOWN, market_value: 300 * scale },
		...(q >= 2 ? [{ fund, date, isin: C, market_value: 500 * scale }] : []),
		{ fund, date, isin: '', type: 'Cash', market_value: 200 * scale },
	]);
}

/** Σ (vᵢ / V) × xᵢ over the holdings of one quarter end, V the value of every row (cash too). */
function expectedIntensity(rows: Held[], indicator: PaiName): { value: number; coverage: number } {
	const total = rows.reduce((sum, row) => sum + Number(row.market_value), 0);
	let sum = 0;
	let covered = 0;
	for (const row of rows) {
		if (!row.isin || row.type === 'Cash') continue;
		const x = instrumentData(row.isin).pai[indicator];
		if (x === null) continue;
		sum += (Number(row.market_value) / total) * x;
		covered += Number(row.market_value);
	}
	return { value: sum, coverage: (covered / total) * 100 };
}

/** Σ v where the vendor's flag is true / V × 100. */
function expectedShare(rows: Held[], flag: (typeof VENDOR_PAI_BOOLEANS)[number]): number {
	const total = rows.reduce((sum, row) => sum + Number(row.market_value), 0);
	let yes = 0;
	for (const row of rows)
		if (row.isin && row.type !== 'Cash' && instrumentData(row.isin).vendorIndicators[flag] === true)
			yes += Number(row.market_value);
	return (yes / total) * 100;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const quarterRows = (rows: Held[], date: string) => rows.filter((row) => row.date === date);

async function statement(rows: Held[], extra: IDataObject = {}, url = sim.url, typeVersion = 1) {
	const { result, out } = await runNode(url, rows as unknown as IDataObject[], {
		...statementNode(extra),
		typeVersion,
	});
	expect(result.error).toBeUndefined();
	return { result, out: out.map((item) => item.json), items: out };
}
async function refused(rows: Held[], extra: IDataObject = {}) {
	const { result } = await runNode(sim.url, rows as unknown as IDataObject[], statementNode(extra));
	expect(result.error).toBeDefined();
	expect(sim.requestCount({ route: PAI })).toBe(0);
	return `${result.error!.message} ${descriptionOf(result.error) ?? ''}`;
}
const rowOf = (out: IDataObject[], metric: string, where: IDataObject = {}) => {
	const found = out.find(
		(row) => row.metric === metric && Object.entries(where).every(([k, v]) => row[k] === v),
	);
	expect(found).toBeDefined();
	return found!;
};

describe('PAI Statement: rows left out are named in their own statements only', () => {
	it("a short position of fund Beta is in Beta's and the entity's explanation, never in Alpha's", async () => {
		const rows: Held[] = [
			...yearRows(N, 'Alpha'),
			...yearRows(N, 'Beta'),
			{ fund: 'Beta', date: `${N}-12-31`, isin: D, market_value: -400 },
		];
		const { out } = await statement(rows, { groupBy: 'fund' });
		const shortItem = rows.length - 1;
		const names = (row: IDataObject) => String(row.explanation).includes(`Item ${shortItem} (`);
		const carbon = (where: IDataObject) => rowOf(out, 'Carbon footprint', where);
		expect(names(carbon({ statement: 'entity' }))).toBe(true);
		expect(names(carbon({ fund: 'Beta' }))).toBe(true);
		expect(names(carbon({ fund: 'Alpha' }))).toBe(false);
		expect(String(carbon({ fund: 'Alpha' }).explanation)).not.toContain('Left out of every figure');
	});
});

describe('PAI Statement: a refusal says once that nothing was sent', () => {
	it('a market value that cannot be read: its fix, and "Nothing was sent." once', async () => {
		const rows: Held[] = yearRows(N).map((row, index) =>
			index === 1 ? { ...row, market_value: 'about a million' } : row,
		);
		const text = await refused(rows);
		expect(text.match(/Nothing was sent/g)).toHaveLength(1);
	});
});

describe('PAI Statement', () => {
	it("two years of one fund: the Annex I rows in order, PAI 2 and 3 by the Regulation's formula over all investments (cash in the denominator), averaged over four quarter ends, N-1 beside; one request", async () => {
		const rows = [...yearRows(N - 1), ...yearRows(N)];
		const { out } = await statement(rows);
		expect(sim.requestCount({ route: PAI })).toBe(1);
		const sent = sim
			.requests({ route: PAI })
			.flatMap((request) => (request.body as { holdings: Array<{ isin: string }> }).holdings)
			.map((holding) => holding.isin);
		expect(sent.sort()).toEqual([A, B, C, UNKNOWN].sort());

		// Annex order: PAI 1 (four rows), 2, 3, 4 … 18, every row once.
		expect(out.map((row) => row.pai)).toEqual([
			1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		]);
		expect(out.every((row) => row.statement === 'entity' && row.year_n === N)).toBe(true);

		for (const [metric, indicator] of [
			['Carbon footprint', 'carbon_footprint'],
			['GHG intensity of investee companies', 'ghg_intensity_investee_companies'],
		] as const) {
			const row = rowOf(out, metric);
			const perQuarter = ends(N).map((date) =>
				expectedIntensity(quarterRows(rows, date), indicator),
			);
			const previous = ends(N - 1).map((date) =>
				expectedIntensity(quarterRows(rows, date), indicator),
			);
			expect(row.impact_year_n).toBeCloseTo(mean(perQuarter.map((q) => q.value)), 3);
			expect(row.impact_year_n_minus_1).toBeCloseTo(mean(previous.map((q) => q.value)), 3);
			expect(row.coverage_percent).toBeCloseTo(mean(perQuarter.map((q) => q.coverage)), 2);
			const values = row.quarter_values as Record<string, number>;
			expect(Object.keys(values)).toEqual(ends(N));
			ends(N).forEach((date, q) => expect(values[date]).toBeCloseTo(perQuarter[q].value, 3));
			expect(row.quarters_missing).toEqual([]);
			expect(row.mapped).toBe(true);
			expect(row.api_indicator).toBe(indicator);
			// What it leaves out, and that the API's data is today's for every quarter end.
			expect(row.explanation).toContain(`over year ${N}'s 4 quarter ends: 4 × cash row`);
			expect(row.explanation).toContain(UNKNOWN);
			expect(row.explanation).toMatch(/same per-instrument data is used for every quarter end/);
		}

		// The spec's answers give no true/false indicators: no figure, never 0 %.
		const fossil = out.find((row) => row.pai === 4)!;
		expect(fossil.impact_year_n).toBeNull();
		expect(fossil.explanation).toMatch(/No answer gave fossil_fuel_sector_exposure/);

		const scope1 = rowOf(out, 'Scope 1 GHG emissions');
		expect(scope1.impact_year_n).toBeNull();
		expect(scope1.explanation).toMatch(/enterprise value including cash \(EVIC\)/);
		const water = rowOf(
			out,
			'Tonnes of emissions to water generated by investee companies per million EUR invested, expressed as a weighted average',
		);
		expect(water.pai).toBe(8);
		expect(water.impact_year_n).toBeNull();
		expect(water.explanation).toMatch(/emissions to water/);
	});

	it('a quarter end without holdings is named in quarters_missing, the explanation and the hint; N-1 without holdings is null with a note', async () => {
		const rows = yearRows(N).filter((row) => row.date !== `${N}-06-30`);
		const { out, result } = await statement(rows);
		const row = rowOf(out, 'Carbon footprint');
		expect(row.quarters_missing).toEqual([`${N}-06-30`]);
		expect((row.quarter_values as IDataObject)[`${N}-06-30`]).toBeNull();
		const present = ends(N).filter((date) => date !== `${N}-06-30`);
		expect(row.impact_year_n).toBeCloseTo(
			mean(
				present.map((date) => expectedIntensity(quarterRows(rows, date), 'carbon_footprint').value),
			),
			3,
		);
		expect(row.explanation).toContain(`${N}-06-30`);
		expect(row.explanation).toMatch(/average over the 3 quarter ends present/);
		expect(row.impact_year_n_minus_1).toBeNull();
		expect(row.quarter_values_year_n_minus_1).toBeNull();
		expect(row.explanation).toMatch(/Year N-1 \(\d+\): no holdings in the input/);
		expect(hintMessages(result).join(' ')).toMatch(/quarters_missing/);
	});

	it('Group By: one statement per fund and the entity over both; an ISIN held by both funds in every quarter is asked once', async () => {
		const rows = [
			...yearRows(N, 'Alpha'),
			...yearRows(N, 'Beta', 2).map((row) => (row.isin === B ? { ...row, isin: D } : row)),
		];
		const { out, items } = await statement(rows, { groupBy: 'fund' });
		expect(sim.requestCount({ route: PAI })).toBe(1);
		expect(out).toHaveLength(21 * 3);
		expect(
			out.slice(0, 21).every((row) => row.statement === 'entity' && row.fund === undefined),
		).toBe(true);
		expect(out.slice(21, 42).every((row) => row.statement === 'fund' && row.fund === 'Alpha')).toBe(
			true,
		);
		expect(out.slice(42).every((row) => row.statement === 'fund' && row.fund === 'Beta')).toBe(
			true,
		);
		for (const [fund, held] of [
			['Alpha', rows.filter((r) => r.fund === 'Alpha')],
			['Beta', rows.filter((r) => r.fund === 'Beta')],
			[undefined, rows],
		] as const) {
			const row = rowOf(out, 'Carbon footprint', fund ? { fund } : { statement: 'entity' });
			expect(row.impact_year_n).toBeCloseTo(
				mean(
					ends(N).map(
						(date) => expectedIntensity(quarterRows([...held], date), 'carbon_footprint').value,
					),
				),
				3,
			);
		}
		expect(items[21].pairedItem).toEqual(
			rows.flatMap((row, item) => (row.fund === 'Alpha' ? [{ item }] : [])),
		);
	});

	it('mixed currencies are refused naming them, before any request; with a rate for each they are converted', async () => {
		const rows = yearRows(N).map((row) => ({
			...row,
			currency: row.isin === B ? 'USD' : 'EUR',
		}));
		const message = await refused(rows);
		expect(message).toMatch(/2 currencies \(EUR, USD\)/);
		expect(message).toMatch(/Exchange Rates/);

		const { out } = await statement(rows, {
			exchangeRates: { rates: [{ currency: 'USD', rate: 0.5 }] },
		});
		const converted = rows.map((row) =>
			row.currency === 'USD' ? { ...row, market_value: Number(row.market_value) * 0.5 } : row,
		);
		const row = rowOf(out, 'Carbon footprint');
		expect(row.impact_year_n).toBeCloseTo(
			mean(
				ends(N).map(
					(date) => expectedIntensity(quarterRows(converted, date), 'carbon_footprint').value,
				),
			),
			3,
		);
		expect(row.explanation).toContain('1 USD = 0.5 EUR');

		// The same rate from a column of the rows (Exchange Rate Field), no table.
		sim.reset();
		const withColumn = rows.map((held) => ({ ...held, fx: held.currency === 'USD' ? 0.5 : '' }));
		const byColumn = rowOf(
			(await statement(withColumn as Held[], { exchangeRateField: 'fx' })).out,
			'Carbon footprint',
		);
		expect(byColumn.impact_year_n).toBe(row.impact_year_n);
		expect(byColumn.explanation).toContain('USD by the rate column fx');
		// A rate cell that is no rate is refused, naming it.
		sim.reset();
		const bad = withColumn.map((held, index) => (index === 1 ? { ...held, fx: 'n/a' } : held));
		expect(await refused(bad as Held[], { exchangeRateField: 'fx' })).toMatch(
			/^The fx cell holds n\/a, not an exchange rate above 0/,
		);
	});

	it('weights only, unreadable dates and two dates in one quarter are refused in one error before any request', async () => {
		const weights = yearRows(N).map(({ market_value, ...row }) => ({
			...row,
			weight: market_value,
		}));
		const weightsOnly = await refused(weights as unknown as Held[]);
		expect(weightsOnly).toMatch(/current value of all investments/);
		expect(weightsOnly).toMatch(/the rows give weights only/);
		expect(weightsOnly).not.toMatch(/problems in the input/);
		const rows: Held[] = [
			...yearRows(N),
			{ fund: 'Alpha', date: `${N}-02-28`, isin: D, market_value: 10 },
			{ fund: 'Alpha', date: 'someday', isin: D, market_value: 10 },
		];
		const message = await refused(rows);
		expect(message).toMatch(/2 problems/);
		expect(message).toContain(`${N}-02-28, ${N}-03-31`);
		expect(message).toContain('"someday"');
	});

	it("the vendor's true/false answers: PAI 4 and PAI 10 are shares of all investments in %", async () => {
		sim.setAnswerShape({ measures: 'vendor' });
		const rows = yearRows(N);
		const { out } = await statement(rows);
		for (const [pai, flag] of [
			[4, 'fossil_fuel_sector_exposure'],
			[10, 'violations_un_global_compact'],
		] as const) {
			const row = out.find((r) => r.pai === pai)!;
			expect(row.unit).toBe('%');
			expect(row.api_indicator).toBe(flag);
			expect(row.impact_year_n).toBeCloseTo(
				mean(ends(N).map((date) => expectedShare(quarterRows(rows, date), flag))),
				2,
			);
		}
	});

	it('an indicator the route table does not know comes out as an extra row, unmapped, never dropped', async () => {
		const proxy = await startProxy(sim.url, (_path, body) => {
			for (const entry of (body?.data ?? []) as Array<{ sustainability_data?: IDataObject }>)
				if (entry.sustainability_data)
					entry.sustainability_data.water_intensity = { value: 2, unit: 'm3/EURm' };
			return body;
		});
		try {
			const rows = yearRows(N);
			const { out } = await statement(rows, {}, proxy.url);
			const extra = out[out.length - 1];
			expect(extra).toMatchObject({
				pai: null,
				mapped: false,
				api_indicator: 'water_intensity',
				unit: 'm3/EURm',
			});
			// Every holding answered gives 2: Σ (v / V) × 2 over the holdings with data.
			const expected = mean(
				ends(N).map((date) => {
					const held = quarterRows(rows, date);
					const total = held.reduce((sum, r) => sum + Number(r.market_value), 0);
					return held
						.filter((r) => r.isin && r.type !== 'Cash')
						.reduce((sum, r) => sum + (Number(r.market_value) / total) * 2, 0);
				}),
			);
			expect(extra.impact_year_n).toBeCloseTo(expected, 3);
		} finally {
			await proxy.close();
		}
	});

	it('one request per batch of distinct ISINs over all quarters and funds (Batch Size 5: 12 distinct ISINs held 4 times → 3 requests)', async () => {
		const isins = findIsins((d) => d.known, 12, 'FR');
		const rows: Held[] = ends(N).flatMap((date) =>
			isins.map((isin, i) => ({
				fund: i % 2 ? 'Alpha' : 'Beta',
				date,
				isin,
				market_value: 100 + i,
			})),
		);
		const { out } = await statement(rows, { groupBy: 'fund', options: { batchSize: 5 } });
		expect(sim.requestCount({ route: PAI })).toBe(3);
		// The statements of the entity and both funds, from those 3 requests.
		expect(out).toHaveLength(21 * 3);
		expect(out.filter((row) => row.pai === 2).map((row) => row.statement)).toEqual([
			'entity',
			'fund',
			'fund',
		]);
		const sent = sim
			.requests({ route: PAI })
			.flatMap((request) => (request.body as { holdings: Array<{ isin: string }> }).holdings)
			.map((holding) => holding.isin);
		expect(sent.sort()).toEqual([...isins].sort());
	});

	it('Simplify: flat cells, quarter values as quarter_values_<date>', async () => {
		const { out } = await statement(yearRows(N), { simplify: true });
		const row = out.find((r) => r.pai === 2)!;
		expect(row[`quarter_values_${N}-03-31`]).toEqual(expect.any(Number));
		expect(row.quarters_missing).toBe('');
	});
	it('node version 2 has the same output, and a date that falls in two quarters by time zone is refused, not guessed', async () => {
		const rows = yearRows(N);
		const { out } = await statement(rows, {}, sim.url, 2);
		const row = rowOf(out, 'Carbon footprint');
		expect(row.impact_year_n).toBeCloseTo(
			mean(
				ends(N).map((date) => expectedIntensity(quarterRows(rows, date), 'carbon_footprint').value),
			),
			3,
		);
		sim.reset();
		// 23:30 on 31 March at UTC-2 is 1 April in UTC: two quarters, midnight in neither.
		const moment: Held = {
			fund: 'Alpha',
			date: `${N}-03-31T23:30:00-02:00`,
			isin: D,
			market_value: 5,
		};
		const message = await refused([...rows.filter((r) => r.date !== `${N}-03-31`), moment]);
		expect(message).toMatch(/falls in two quarters/);
	});
	it('under Continue On Fail a statement with an unanswered ISIN is one error item, never figures with holdings missing', async () => {
		// Batches of 2: Alpha's ISINs (first batch) are answered, Beta's (second) fail with 500 twice.
		sim.setFaults(PAI, { sequence: [null, '500', '500'] });
		const rows: Held[] = [
			{ fund: 'Alpha', date: `${N}-12-31`, isin: A, market_value: 100 },
			{ fund: 'Alpha', date: `${N}-12-31`, isin: B, market_value: 100 },
			{ fund: 'Beta', date: `${N}-12-31`, isin: C, market_value: 100 },
			{ fund: 'Beta', date: `${N}-12-31`, isin: D, market_value: 100 },
		];
		const { result, out } = await runNode(sim.url, rows as unknown as IDataObject[], {
			...statementNode({ groupBy: 'fund', options: { batchSize: 2 } }),
			onError: 'continueRegularOutput',
		});
		expect(result.status).toBe('success');
		const json = out.map((item) => item.json);
		// The entity (all four ISINs) and Beta: one error item each; Alpha: its 21 rows.
		expect(json).toHaveLength(1 + 21 + 1);
		expect(json[0]).toMatchObject({ statement: 'entity', unanswered_isins: [C, D] });
		expect(json[0].error).toMatch(/^No PAI statement: the API gave no answer for 2 of its 4 ISINs/);
		expect(json.slice(1, 22).every((row) => row.fund === 'Alpha' && row.pai !== undefined)).toBe(
			true,
		);
		expect(json[22]).toMatchObject({ statement: 'fund', fund: 'Beta', http_code: '500' });
		expect(json[22].impact_year_n).toBeUndefined();
		expect(out[22].pairedItem).toEqual([{ item: 2 }, { item: 3 }]);
	});
});

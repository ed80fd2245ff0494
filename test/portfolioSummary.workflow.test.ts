/**
 * Output > Portfolio Summary of the Sustainability Instruments node (issue 13, part 1), run inside n8n's engine
 * against the simulator. Every figure is checked against a recomputation written out here from the simulator's
 * per-ISIN data (instrumentData), never by calling the node's own code.
 */
import type { IDataObject } from 'n8n-workflow';

import holdingsSample from '../examples/holdings.sample.json';
import { findIsins, instrumentData } from './simulator';
import type { InstrumentData } from './simulator';
import type { NodeSpec } from './helpers/workflows';
import { instrumentsSpec, runNode, fullText } from './helpers/lookupRuns';
import { useSimulator } from './helpers/simulator';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const PAI = 'POST /instruments/sustainability-data' as const;
const INVOLVEMENTS = 'POST /instruments/business-involvements' as const;
const ESG = 'POST /instruments/esg-data' as const;

const sim = useSimulator();

const summaryNode = (operation: string, extra: IDataObject = {}, spec: Partial<NodeSpec> = {}) =>
	instrumentsSpec(operation, { outputMode: 'portfolioSummary', ...extra }, spec);
const run = async (rows: IDataObject[], node: NodeSpec) =>
	(await runNode(sim.url, rows, node)).result;
/** The node's output items of a run expected to succeed. */
async function succeeded(rows: IDataObject[], node: NodeSpec) {
	const { result, out } = await runNode(sim.url, rows, node);
	expect(result.error).toBeUndefined();
	return out;
}

const sentIsins = (route: typeof SFDR | typeof PAI | typeof INVOLVEMENTS | typeof ESG) =>
	sim
		.requests({ route })
		.flatMap((request) => (request.body as { holdings: Array<{ isin: string }> }).holdings)
		.map((holding) => holding.isin);

// ISINs with known data in each SFDR class, and ISINs the simulator has no data for.
const [NINE_A, NINE_B] = findIsins((d) => d.known && d.sfdr === 9, 2, 'DE');
const [EIGHT_A, EIGHT_B, EIGHT_C] = findIsins((d) => d.known && d.sfdr === 8, 3, 'DE');
const [SIX_A, SIX_B] = findIsins((d) => d.known && d.sfdr === 6, 2, 'DE');
const [UNKNOWN_A] = findIsins((d) => !d.known, 1, 'DE');
// ISINs that must never be sent: on a cash row, and on a row without a market value.
const [CASH_ISIN, BLANK_ISIN] = findIsins((d) => d.known, 2, 'FR');

/** A holding row the summary uses: its ISIN and its market value (or weight), as the test counts it. */
interface Used {
	isin: string;
	w: number;
}

const sumOf = (rows: Used[]) => rows.reduce((total, row) => total + row.w, 0);

/** Per article: holdings, market value, percent of the market value of the holdings used; and the coverage. */
function expectedSfdr(rows: Used[]) {
	const total = sumOf(rows);
	const bucket = (members: Used[]) => ({
		holdings_count: members.length,
		market_value: sumOf(members),
		percent: (sumOf(members) / total) * 100,
	});
	const classOf = (row: Used) => instrumentData(row.isin).sfdr;
	const noData = rows.filter((row) => classOf(row) === null);
	return {
		total,
		article_9: bucket(rows.filter((row) => classOf(row) === 9)),
		article_8: bucket(rows.filter((row) => classOf(row) === 8)),
		article_6: bucket(rows.filter((row) => classOf(row) === 6)),
		no_data: bucket(noData),
		coverage_percent: ((total - sumOf(noData)) / total) * 100,
	};
}

/** Σ w·x / Σ w over the holdings with a value, their count, and their share of the total. */
function expectedAverage(rows: Used[], valueOf: (data: InstrumentData) => number | null) {
	const total = sumOf(rows);
	const withValue = rows.filter((row) => valueOf(instrumentData(row.isin)) !== null);
	const weighted = withValue.reduce(
		(acc, row) => acc + row.w * valueOf(instrumentData(row.isin))!,
		0,
	);
	return {
		weighted_average: weighted / sumOf(withValue),
		holdings_with_value: withValue.length,
		coverage_percent: (sumOf(withValue) / total) * 100,
	};
}

function expectSfdrSummary(actual: IDataObject, rows: Used[]) {
	const expected = expectedSfdr(rows);
	expect(actual.holdings_count).toBe(rows.length);
	expect(actual.total_market_value).toBeCloseTo(expected.total, 2);
	expect(actual.coverage_percent).toBeCloseTo(expected.coverage_percent, 2);
	const articles = actual.articles as Record<string, IDataObject>;
	for (const key of ['article_9', 'article_8', 'article_6', 'no_data'] as const) {
		expect(articles[key].holdings_count).toBe(expected[key].holdings_count);
		expect(articles[key].market_value).toBeCloseTo(expected[key].market_value, 2);
		expect(articles[key].percent).toBeCloseTo(expected[key].percent, 2);
	}
}

describe('Portfolio Summary: SFDR classification', () => {
	it('one summary per portfolio with Group By; cash, no-ISIN, blank and negative market value rows are listed and not sent', async () => {
		const rows: IDataObject[] = [
			{ portfolio: 'Alpha', isin: NINE_A, name: 'Nine A', market_value: 1000 },
			{ portfolio: 'Alpha', isin: EIGHT_A, name: 'Eight A', market_value: '2,500.50' },
			{ portfolio: 'Alpha', isin: SIX_A, name: 'Six A', market_value: 700 },
			{ portfolio: 'Alpha', isin: UNKNOWN_A, name: 'Unknown A', market_value: 300 },
			{ portfolio: 'Alpha', isin: CASH_ISIN, name: 'Cash EUR', type: 'Cash', market_value: 50 },
			{ portfolio: 'Alpha', isin: '', name: 'Private loan', market_value: 400 },
			{ portfolio: 'Alpha', isin: BLANK_ISIN, name: 'No value', market_value: '' },
			{ portfolio: 'Beta', isin: EIGHT_A, name: 'Eight A', market_value: 100 },
			{ portfolio: 'Beta', isin: NINE_B, name: 'Nine B', market_value: 900 },
			{ portfolio: 'Beta', isin: NINE_B, name: 'Nine B again', market_value: 100 },
			{ portfolio: 'Beta', isin: EIGHT_B, name: 'Short', market_value: -250 },
			{ portfolio: 'Beta', isin: SIX_B, name: 'Six B', market_value: 0 },
		];
		const out = await succeeded(
			rows,
			summaryNode('getSfdrClassification', { groupBy: 'portfolio' }),
		);

		// One request; each ISIN once, and only those of usable rows (EIGHT_B only on the short row).
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(sentIsins(SFDR)).toEqual([NINE_A, EIGHT_A, SIX_A, UNKNOWN_A, NINE_B, SIX_B]);

		expect(out).toHaveLength(2);
		expect(out[0].pairedItem).toEqual([0, 1, 2, 3, 4, 5, 6].map((item) => ({ item })));
		expect(out[1].pairedItem).toEqual([7, 8, 9, 10, 11].map((item) => ({ item })));
		expect(out[0].json.portfolio).toBe('Alpha');
		expect(Object.keys(out[0].json)[0]).toBe('portfolio');
		expect(out[1].json.portfolio).toBe('Beta');

		expectSfdrSummary(out[0].json, [
			{ isin: NINE_A, w: 1000 },
			{ isin: EIGHT_A, w: 2500.5 },
			{ isin: SIX_A, w: 700 },
			{ isin: UNKNOWN_A, w: 300 },
		]);
		expectSfdrSummary(out[1].json, [
			{ isin: EIGHT_A, w: 100 },
			{ isin: NINE_B, w: 900 },
			{ isin: NINE_B, w: 100 },
			{ isin: SIX_B, w: 0 },
		]);
		// The figures the recomputation must have produced, written out once for this data.
		expect((out[1].json.articles as Record<string, IDataObject>).article_9).toEqual({
			holdings_count: 2,
			market_value: 1000,
			percent: 90.91,
		});

		expect(out[0].json.removed_count).toBe(3);
		expect(out[0].json.removed_rows).toEqual([
			{ item: 4, name: 'Cash EUR', isin: CASH_ISIN, reason: 'cash row' },
			{ item: 5, name: 'Private loan', isin: null, reason: 'no ISIN in field "isin"' },
			{
				item: 6,
				name: 'No value',
				isin: BLANK_ISIN,
				reason: 'no market value in field "market_value"',
			},
		]);
		expect(out[1].json.removed_rows).toEqual([
			{
				item: 10,
				name: 'Short',
				isin: EIGHT_B,
				reason: 'negative market value (short position): a summary weights long positions only',
			},
		]);
	});

	it('the sample holdings sheet: its cash row is removed, the figures match the recomputation', async () => {
		const rows = holdingsSample as IDataObject[];
		const [summary] = await succeeded(rows, summaryNode('getSfdrClassification'));
		const cash = rows.findIndex((row) => row.Type === 'Cash');
		const used = rows
			.filter((row) => row.Type !== 'Cash')
			.map((row) => ({
				isin: row.ISIN as string,
				w: Number((row['Market Value'] as string).replace(/,/g, '')),
			}));
		expect(cash).toBeGreaterThan(-1);
		expectSfdrSummary(summary.json, used);
		expect(summary.json.removed_rows).toEqual([
			{ item: cash, name: rows[cash].Name, isin: null, reason: 'cash row' },
		]);
		expect(summary.pairedItem).toHaveLength(rows.length);
	});

	it('Simplify gives flat columns ready for a sheet, removed rows as text', async () => {
		const rows = [
			{ ISIN: NINE_A, 'Market Value': '1 000,00' },
			{ ISIN: EIGHT_C, 'Market Value': 3000 },
			{ ISIN: '', Name: 'Cash', 'Market Value': 10 },
		];
		const [summary] = await succeeded(
			rows,
			summaryNode('getSfdrClassification', { simplify: true }),
		);
		const expected = expectedSfdr([
			{ isin: NINE_A, w: 1000 },
			{ isin: EIGHT_C, w: 3000 },
		]);
		for (const value of Object.values(summary.json))
			expect(typeof value === 'object' && value !== null).toBe(false);
		expect(summary.json).toMatchObject({
			holdings_count: 2,
			total_market_value: 4000,
			article_9_holdings_count: 1,
			article_9_market_value: 1000,
			article_8_holdings_count: 1,
			article_6_holdings_count: 0,
			no_data_holdings_count: 0,
			removed_count: 1,
			removed_rows: 'Item 2 (Cash): no ISIN in field "isin"',
		});
		expect(summary.json.article_9_percent).toBeCloseTo(expected.article_9.percent, 2);
		expect(summary.json.article_8_percent).toBeCloseTo(expected.article_8.percent, 2);
		expect(summary.json.coverage_percent).toBe(100);
	});

	it('reads the Market Value Field named, skips invalid ISINs when told, groups by two fields', async () => {
		const rows = [
			{ desk: 'Rates', book: 1, ISIN: NINE_A, 'Position (EUR)': 600, value: 1 },
			{ desk: 'Rates', book: 1, ISIN: 'US0378331006', 'Position (EUR)': 100, value: 1 },
			{ desk: 'Rates', book: 2, ISIN: SIX_A, 'Position (EUR)': 300, value: 1 },
		];
		const out = await succeeded(
			rows,
			summaryNode('getSfdrClassification', {
				marketValueField: 'position eur',
				groupBy: 'desk, book',
				isinField: 'ISIN',
				options: { invalidIsins: 'skip' },
			}),
		);
		expect(sentIsins(SFDR)).toEqual([NINE_A, SIX_A]);
		expect(
			out.map((item) => [item.json.desk, item.json.book, item.json.total_market_value]),
		).toEqual([
			// The skipped holding's 100 stays in its portfolio's total, as not checked (issue 35 case 8).
			['Rates', 1, 700],
			['Rates', 2, 300],
		]);
		expect(out[0].json.holdings_count).toBe(2);
		expect(out[0].json.articles).toMatchObject({
			article_9: { holdings_count: 1, market_value: 600, percent: 85.71 },
			no_data: { holdings_count: 0, market_value: 0 },
			not_checked: { holdings_count: 1, market_value: 100, percent: 14.29 },
		});
		expect(out[0].json.coverage_percent).toBe(85.71);
		expect(out[0].json.removed_rows).toEqual([]);
		expect(out[0].json.not_checked_rows).toEqual([
			{
				item: 1,
				name: null,
				isin: 'US0378331006',
				reason: expect.stringMatching(
					/^not sent: invalid ISIN: "US0378331006" fails the ISIN check digit/,
				),
			},
		]);
		expect(out[0].json.total_note).toMatch(/divide by total_market_value: the 2 holdings/);
	});

	it('a market value that is not a number stops the run before any request, naming the item and the field', async () => {
		const rows = [
			{ isin: NINE_A, mv: 100 },
			{ isin: EIGHT_A, mv: 'n/a' },
		];
		const result = await run(rows, summaryNode('getSfdrClassification'));
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Market value "n/a" in field "mv" is not a number');
		expect(sim.requestCount()).toBe(0);
	});

	it('refuses before any request when no row can be weighted, saying what was looked for', async () => {
		const result = await run(
			[{ isin: NINE_A }, { isin: EIGHT_A }],
			summaryNode('getPaiIndicators'),
		);
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(
			/No holding can be weighted for a Portfolio Summary of the PAI indicators: all 2 rows are left out \(no market value \(looked for a field named "Market Value", "MV"/,
		);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('Portfolio Summary: PAI indicators and ESG data', () => {
	const PAI_NAMES = [
		'scope_1_emissions',
		'scope_2_emissions',
		'carbon_footprint',
		'ghg_intensity_investee_companies',
	] as const;

	it('PAI, weighted by weight strings such as "9.5%": weighted average over the holdings with a value, unit, coverage, notes', async () => {
		const rows = [
			{ isin: NINE_A, weight: '9.5%' },
			{ isin: EIGHT_A, weight: '30%' },
			{ isin: SIX_A, weight: '12,5 %' },
			{ isin: UNKNOWN_A, weight: '48%' },
			{ isin: CASH_ISIN, weight: '5%', asset_class: 'Cash Equivalent' },
		];
		const [summary] = await succeeded(
			rows,
			summaryNode('getPaiIndicators', { weightBy: 'weight', simplify: true }),
		);
		expect(sentIsins(PAI)).toEqual([NINE_A, EIGHT_A, SIX_A, UNKNOWN_A]);
		const used = [
			{ isin: NINE_A, w: 9.5 },
			{ isin: EIGHT_A, w: 30 },
			{ isin: SIX_A, w: 12.5 },
			{ isin: UNKNOWN_A, w: 48 },
		];
		expect(summary.json).toMatchObject({ holdings_count: 4, total_weight: 100, removed_count: 1 });
		expect(summary.json.total_market_value).toBeUndefined();
		for (const name of PAI_NAMES) {
			const expected = expectedAverage(used, (data) => data.pai[name]);
			expect(summary.json[`${name}_weighted_average`]).toBeCloseTo(expected.weighted_average, 3);
			expect(summary.json[`${name}_holdings_with_value`]).toBe(3);
			expect(summary.json[`${name}_coverage_percent`]).toBeCloseTo(expected.coverage_percent, 2);
			expect(summary.json[`${name}_unit`]).toEqual(expect.any(String));
		}
		expect(summary.json.coverage_percent).toBeUndefined();
		expect(summary.json.scope_1_emissions_coverage_percent).toBe(52);
		expect(summary.json.carbon_footprint_unit).toBe('tCO2e/EURm invested');
		expect(summary.json.scope_1_emissions_note).toMatch(
			/NOT the financed GHG emissions of SFDR PAI 1.*EVIC/,
		);
		expect(summary.json.ghg_intensity_investee_companies_note).toMatch(
			/^Same form as SFDR PAI 3 .*multiply by coverage_percent \/ 100/,
		);
		expect(summary.json.carbon_footprint_note).toMatch(/SFDR PAI 2/);
		expect(summary.json.removed_rows).toBe(`Item 4 (${CASH_ISIN}): cash row`);
	});

	it('ESG data, not simplified: nested metrics, each holding row weighted separately', async () => {
		const rows = [
			{ isin: NINE_A, market_value: '1,234.50' },
			{ isin: EIGHT_B, market_value: 600 },
			{ isin: EIGHT_B, market_value: 400 },
			{ isin: UNKNOWN_A, market_value: 5000 },
		];
		const [summary] = await succeeded(rows, summaryNode('getEsgData'));
		expect(sentIsins(ESG)).toEqual([NINE_A, EIGHT_B, UNKNOWN_A]);
		const used = [
			{ isin: NINE_A, w: 1234.5 },
			{ isin: EIGHT_B, w: 600 },
			{ isin: EIGHT_B, w: 400 },
			{ isin: UNKNOWN_A, w: 5000 },
		];
		expect(summary.json).toMatchObject({
			holdings_count: 4,
			total_market_value: 7234.5,
			removed_count: 0,
			removed_rows: [],
		});
		const metrics = summary.json.metrics as Record<string, IDataObject>;
		expect(Object.keys(metrics)).toEqual([
			'total_score',
			'environment_score',
			'carbon_footprint',
			'percentage_of_women_managers',
		]);
		for (const name of Object.keys(metrics) as Array<keyof InstrumentData['esg']>) {
			const expected = expectedAverage(used, (data) => data.esg[name]);
			expect(metrics[name].weighted_average).toBeCloseTo(expected.weighted_average, 3);
			expect(metrics[name].holdings_with_value).toBe(expected.holdings_with_value);
			expect(metrics[name].coverage_percent).toBeCloseTo(expected.coverage_percent, 2);
		}
		expect(metrics.total_score.unit).toBe('score');
		expect(metrics.total_score.note).toBeUndefined();
		expect(metrics.carbon_footprint.note).toMatch(/SFDR PAI 2/);
	});
});

describe('Portfolio Summary: business involvements', () => {
	it('per category the holdings involved at or above the Minimum Threshold, their share, and weighted scores', async () => {
		const threshold = 20;
		const involved = findIsins(
			(d) =>
				d.known &&
				Object.values(d.businessInvolvements).some(
					(entry) => entry.weight > 0 && entry.weight < threshold,
				) &&
				Object.values(d.businessInvolvements).some((entry) => entry.weight >= threshold),
			3,
			'GB',
		);
		const isins = [...involved, NINE_A, EIGHT_A, UNKNOWN_A];
		const used = isins.map((isin, index) => ({ isin, w: 100 * (index + 1) }));
		const [summary] = await succeeded(
			used.map((row) => ({ ISIN: row.isin, MV: row.w })),
			summaryNode('getBusinessInvolvements', { minimumThreshold: threshold, simplify: true }),
		);
		expect(sim.requests({ route: INVOLVEMENTS })[0].body).toMatchObject({
			minimum_threshold: threshold,
		});
		const total = sumOf(used);
		expect(summary.json).toMatchObject({
			holdings_count: used.length,
			total_market_value: total,
			minimum_threshold: threshold,
		});
		const known = used.filter((row) => instrumentData(row.isin).known);
		expect(summary.json.coverage_percent).toBeCloseTo((sumOf(known) / total) * 100, 2);

		let categoriesSeen = 0;
		for (const category of [
			'thermal_coal',
			'tobacco_distributor',
			'nuclear_weapons',
			'nuclear_power_generation',
		] as const) {
			const members = used.filter(
				(row) =>
					(instrumentData(row.isin).businessInvolvements[category]?.weight ?? 0) >= threshold,
			);
			if (members.length === 0) continue;
			categoriesSeen++;
			expect(summary.json[`${category}_holdings_count`]).toBe(members.length);
			expect(summary.json[`${category}_market_value`]).toBe(sumOf(members));
			expect(summary.json[`${category}_percent`]).toBeCloseTo((sumOf(members) / total) * 100, 2);
		}
		expect(categoriesSeen).toBeGreaterThan(0);
		for (const [column, score] of [
			['total_score', 'total'],
			['environment_score', 'environment'],
			['social_score', 'social'],
			['governance_score', 'governance'],
		] as const) {
			const expected = expectedAverage(used, (data) => data.scores?.[score] ?? null);
			expect(summary.json[`${column}_weighted_average`]).toBeCloseTo(expected.weighted_average, 3);
			expect(summary.json[`${column}_coverage_percent`]).toBeCloseTo(expected.coverage_percent, 2);
		}
	});
});

describe('Portfolio Summary: a failed batch', () => {
	const alpha = [NINE_A, EIGHT_A];
	const beta = [SIX_A, NINE_B];
	const rows = [
		...alpha.map((isin) => ({ book: 'A', isin, market_value: 100 })),
		...beta.map((isin) => ({ book: 'B', isin, market_value: 100 })),
	];

	it('under Continue On Fail: the portfolio with an unanswered ISIN is an error item, the other a summary', async () => {
		// Batches of 2: the first (Alpha's ISINs) answers, the second (Beta's) fails with 500 twice.
		sim.setFaults(SFDR, { sequence: [null, '500', '500'] });
		const result = await run(
			rows,
			summaryNode(
				'getSfdrClassification',
				{ groupBy: 'book', options: { batchSize: 2 } },
				{ onError: 'continueRegularOutput' },
			),
		);
		expect(result.status).toBe('success');
		const out = result.items('Node');
		expect(out).toHaveLength(2);
		expect(out[0].json.error).toBeUndefined();
		expectSfdrSummary(
			out[0].json,
			alpha.map((isin) => ({ isin, w: 100 })),
		);
		expect(out[1].json).toMatchObject({
			book: 'B',
			http_code: '500',
			unanswered_isins: beta,
		});
		expect(out[1].json.error).toMatch(
			/^No summary for this portfolio \(book = "B"\): the API gave no answer for 2 of its 2 ISINs/,
		);
		expect(out[1].json.articles).toBeUndefined();
		expect(out[1].pairedItem).toEqual([{ item: 2 }, { item: 3 }]);
	});

	it('without it, the run fails', async () => {
		sim.setFaults(SFDR, { sequence: [null, '500', '500'] });
		const result = await run(
			rows,
			summaryNode('getSfdrClassification', { groupBy: 'book', options: { batchSize: 2 } }),
		);
		expect(result.status).toBe('error');
	});
});

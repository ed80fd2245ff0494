import type { IDataObject } from 'n8n-workflow';

import { parseTaxonomyKpi } from '../nodes/EuTaxonomy/actions/kpis';
import { findIsins, instrumentData, makeIsin } from './simulator';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import { descriptionOf, fullText } from './helpers/lookupRuns';
import { portfolioRouteGuardTests, portfolioRunner } from './helpers/portfolioRouteTests';
import type { PortfolioNode } from './helpers/portfolioRouteTests';

const TAXONOMY = 'POST /taxonomy/insights' as const;

const sim = useSimulator();
const run = portfolioRunner(sim);

const taxonomy: PortfolioNode = (parameters = {}, onError) => ({
	type: 'euTaxonomy',
	parameters: { operation: 'getPortfolioAlignment', ...parameters },
	onError,
});

function sentHoldings(index = 0): IDataObject[] {
	return (sim.requests({ route: TAXONOMY })[index].body as { holdings: IDataObject[] }).holdings;
}

// ---- Independent recomputation from the simulator's per-instrument data ------------------------------------

const FIELD_OF_SCOPE = {
	eligible: 'eligible',
	aligned: 'aligned',
	enabling: 'enabling',
	transitional: 'transitional',
	'fossil gas': 'fossilGas',
	nuclear: 'nuclear',
	'no gas and nuclear': 'noGasAndNuclear',
} as const;

type Position = { isin: string; instrument_type: string; market_value: number };

/**
 * Market-value weighted average of the instruments' values, in percent: sovereign bonds and instruments
 * without data count as 0; the `excluding sovereign bonds` KPIs leave sovereign bonds out of the total.
 * The measure-less KPIs are the turnover ones.
 */
function expectedPercent(held: Position[], scope: string, measure: string, excluding: boolean) {
	const field = FIELD_OF_SCOPE[scope as keyof typeof FIELD_OF_SCOPE];
	const m = (measure === 'total' ? 'turnover' : measure) as 'turnover' | 'capex' | 'opex';
	let numerator = 0;
	let denominator = 0;
	for (const position of held) {
		const sovereign = position.instrument_type === 'sovereign-bond';
		if (!(excluding && sovereign)) denominator += position.market_value;
		const data = instrumentData(position.isin).taxonomy;
		if (!sovereign && data) numerator += position.market_value * data[m][field];
	}
	return numerator / denominator;
}

/** Every KPI key of spec 4.11. */
const SPEC_KEYS: string[] = [
	'taxonomy_alignment_%',
	'taxonomy_alignment_enabling_%',
	'taxonomy_alignment_transitional_%',
	...['turnover', 'capex', 'opex'].flatMap((m) => [
		...['eligible', 'alignment', 'alignment_enabling', 'alignment_transitional'].map(
			(prefix) => `taxonomy_${prefix}_${m}_%`,
		),
		...['no_gas_and_nuclear', 'fossil_gas', 'nuclear'].map(
			(scope) => `taxonomy_alignment_${scope}_${m}_%`,
		),
	]),
	...['turnover', 'capex', 'opex'].flatMap((m) =>
		['no_gas_and_nuclear', 'fossil_gas'].map(
			(scope) => `taxonomy_alignment_${scope}_${m}_excluding_sovereign_bonds_%`,
		),
	),
	'taxonomy_alignment_nuclear_turnover_excluding_sovereign_bonds_%',
	'taxonomy_alignment_nuclear_capex_excluding_sovereign_bonds_%',
];

const stocks = findIsins((d) => d.known && !d.isFund && d.taxonomy !== null, 4);
const [fund] = findIsins((d) => d.known && d.isFund, 1);
const [sovereign] = findIsins((d) => d.known && !d.isFund, 1, 'DE');
const unknownIsins = [makeIsin('XX', 1), makeIsin('XX', 2)];

/** A holding as the API's own column names give it. */
function holding(isin: string | null, name: string, marketValue: unknown, extra: IDataObject = {}) {
	const type = isin === null ? 'cash' : 'stock';
	return { isin, name, instrument_type: type, market_value: marketValue, ...extra } as IDataObject;
}
/** A stock position (for the recomputation) of `marketValue`. */
const stock = (isin: string, mv: number) => ({ isin, instrument_type: 'stock', market_value: mv });

/** A sheet-like portfolio: stocks, a fund, a sovereign bond, an unknown ISIN, a cash row and a row without ISIN. */
const PORTFOLIO: IDataObject[] = [
	{ ISIN: stocks[0], Name: 'Stock A', Type: 'Stock', 'Market Value': 1_000_000 },
	{ ISIN: fund, Name: 'Fund F', Type: 'ETF', 'Market Value': '2 500,00' },
	{ ISIN: stocks[1], Name: 'Stock B', Type: 'equity', 'Market Value': 300_000 },
	{ ISIN: sovereign, Name: 'Bund 2030', Type: 'Sovereign Bond', 'Market Value': 400_000 },
	{ ISIN: unknownIsins[0], Name: 'Unknown U', Type: 'stock', 'Market Value': 50_000 },
	{ ISIN: stocks[2], Name: 'Stock C', Type: 'stock', 'Market Value': '125,000.50' },
	{ ISIN: 'EUR-CASH', Name: 'Cash EUR', Type: 'Cash', 'Market Value': 10_000 },
	{ ISIN: '', Name: 'Private loan', Type: 'other', 'Market Value': 20_000 },
];
const PORTFOLIO_POSITIONS: Position[] = [
	{ isin: stocks[0], instrument_type: 'stock', market_value: 1_000_000 },
	{ isin: fund, instrument_type: 'etf', market_value: 2_500 },
	{ isin: stocks[1], instrument_type: 'stock', market_value: 300_000 },
	{ isin: sovereign, instrument_type: 'sovereign-bond', market_value: 400_000 },
	{ isin: unknownIsins[0], instrument_type: 'stock', market_value: 50_000 },
	{ isin: stocks[2], instrument_type: 'stock', market_value: 125_000.5 },
];

function expectKpisMatch(json: IDataObject, positions: Position[]): void {
	const kpiKeys = Object.keys(json).filter((key) => key.startsWith('taxonomy_'));
	expect(kpiKeys.sort()).toEqual([...SPEC_KEYS].sort());
	for (const key of kpiKeys) {
		const { measure, scope, excluding_sovereign_bonds } = parseTaxonomyKpi(key);
		expect(typeof json[key]).toBe('number');
		expect(json[key] as number).toBeCloseTo(
			expectedPercent(positions, scope!, measure!, excluding_sovereign_bonds),
			3,
		);
	}
}

// ---- parseTaxonomyKpi -------------------------------------------------------------------------------------

describe('parseTaxonomyKpi', () => {
	it.each([
		['taxonomy_alignment_%', 'total', 'aligned', false],
		['taxonomy_alignment_enabling_%', 'total', 'enabling', false],
		['taxonomy_alignment_transitional_%', 'total', 'transitional', false],
		['taxonomy_eligible_turnover_%', 'turnover', 'eligible', false],
		['taxonomy_alignment_capex_%', 'capex', 'aligned', false],
		['taxonomy_alignment_enabling_opex_%', 'opex', 'enabling', false],
		['taxonomy_alignment_transitional_capex_%', 'capex', 'transitional', false],
		['taxonomy_alignment_no_gas_and_nuclear_turnover_%', 'turnover', 'no gas and nuclear', false],
		['taxonomy_alignment_fossil_gas_opex_%', 'opex', 'fossil gas', false],
		['taxonomy_alignment_nuclear_capex_%', 'capex', 'nuclear', false],
		[
			'taxonomy_alignment_no_gas_and_nuclear_opex_excluding_sovereign_bonds_%',
			'opex',
			'no gas and nuclear',
			true,
		],
		[
			'taxonomy_alignment_fossil_gas_capex_excluding_sovereign_bonds_%',
			'capex',
			'fossil gas',
			true,
		],
		[
			'taxonomy_alignment_nuclear_turnover_excluding_sovereign_bonds_%',
			'turnover',
			'nuclear',
			true,
		],
		// not listed by the spec, but of the same grammar
		['taxonomy_alignment_nuclear_opex_excluding_sovereign_bonds_%', 'opex', 'nuclear', true],
		['taxonomy_eligible_%', 'total', 'eligible', false],
		// unknown keys are kept with measure and scope null, still flagged when they exclude sovereign bonds
		['taxonomy_alignment_biodiversity_turnover_%', null, null, false],
		['taxonomy_alignment_turnover', null, null, false],
		['taxonomy_eligible_enabling_turnover_%', null, null, false],
		['Taxonomy_Alignment_%', null, null, false],
		['taxonomy_alignment_turnover_%_v2', null, null, false],
		['portfolio_coverage_%', null, null, false],
		['', null, null, false],
		['taxonomy_alignment_water_capex_excluding_sovereign_bonds_%', null, null, true],
	])('%j → %s / %s / excluding sovereign bonds %s', (key, measure, scope, excluding) => {
		expect(parseTaxonomyKpi(key)).toEqual({
			kpi: key,
			measure,
			scope,
			excluding_sovereign_bonds: excluding,
		});
	});
});

// ---- Inside n8n, over HTTP against the simulator ------------------------------------------------------------

describe('EU Taxonomy: Get Portfolio Alignment inside n8n', () => {
	it('Summary: one request, cash and no-ISIN rows removed and reported, KPIs as recomputed from the instruments', async () => {
		const result = await run(PORTFOLIO, taxonomy());
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		expect(sentHoldings()).toEqual(
			PORTFOLIO_POSITIONS.map((position, index) => ({
				isin: position.isin,
				name: PORTFOLIO[index].Name,
				instrument_type: position.instrument_type,
				market_value: position.market_value,
			})),
		);

		const out = result.items('Node');
		expect(out).toHaveLength(1);
		const json = out[0].json;
		expectKpisMatch(json, PORTFOLIO_POSITIONS);
		expect(json).toMatchObject({
			found: true,
			holdings_count: 6,
			removed_count: 2,
			removed_rows: [
				{ item: 6, name: 'Cash EUR', isin: 'EUR-CASH', reason: 'cash row' },
				{ item: 7, name: 'Private loan', isin: null, reason: 'no ISIN' },
			],
		});
		expect(out[0].pairedItem).toEqual(PORTFOLIO.map((_, item) => ({ item })));
	});

	it('Table: one item per KPI with measure, scope, excluding_sovereign_bonds and percent, equal to the Summary', async () => {
		const summary = (await run(PORTFOLIO, taxonomy())).items('Node')[0].json;
		sim.reset();
		const result = await run(PORTFOLIO, taxonomy({ output: 'table' }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		const rows = result.items('Node');
		expect(SPEC_KEYS).toHaveLength(32);
		expect(rows).toHaveLength(SPEC_KEYS.length);
		expect(rows.map((row) => row.json.kpi).sort()).toEqual([...SPEC_KEYS].sort());
		for (const row of rows) {
			const { kpi, measure, scope, excluding_sovereign_bonds, percent } =
				row.json as IDataObject & { kpi: string };
			expect(percent).toBe(summary[kpi]);
			expect(['turnover', 'capex', 'opex', 'total']).toContain(measure);
			expect(Object.keys(FIELD_OF_SCOPE)).toContain(scope);
			expect(excluding_sovereign_bonds).toBe(kpi.includes('excluding_sovereign_bonds'));
			expect(row.json).toMatchObject(parseTaxonomyKpi(kpi));
			expect(percent as number).toBeCloseTo(
				expectedPercent(
					PORTFOLIO_POSITIONS,
					scope as string,
					measure as string,
					excluding_sovereign_bonds as boolean,
				),
				3,
			);
			expect(row.json).toMatchObject({ holdings_count: 6, removed_count: 2 });
			expect(row.pairedItem).toEqual(PORTFOLIO.map((_, item) => ({ item })));
		}
		// the sovereign bond makes "excluding sovereign bonds" differ from the plain KPI
		const excl = 'taxonomy_alignment_fossil_gas_capex_excluding_sovereign_bonds_%';
		expect(rows.find((row) => row.json.kpi === excl)!.json.percent).not.toBe(
			summary['taxonomy_alignment_fossil_gas_capex_%'],
		);
	});

	it('keeps KPI keys it does not know, in Summary and in Table (measure and scope null)', async () => {
		const proxy = await startProxy(sim.url, (path, body) => {
			if (path === '/taxonomy/insights' && body?.data) {
				const data = body.data as Record<string, unknown>;
				data['taxonomy_alignment_biodiversity_turnover_%'] = 1.25;
				data['portfolio_coverage_%'] = 87.5;
			}
			return body;
		});
		try {
			const items = PORTFOLIO.slice(0, 3);
			const summary = (await run(items, taxonomy(), { baseUrl: proxy.url })).items('Node')[0].json;
			expect(summary).toMatchObject({
				'taxonomy_alignment_biodiversity_turnover_%': 1.25,
				'portfolio_coverage_%': 87.5,
			});
			const rows = (await run(items, taxonomy({ output: 'table' }), { baseUrl: proxy.url })).items(
				'Node',
			);
			expect(rows).toHaveLength(SPEC_KEYS.length + 2);
			expect(rows.find((row) => row.json.kpi === 'portfolio_coverage_%')!.json).toMatchObject({
				measure: null,
				scope: null,
				excluding_sovereign_bonds: false,
				percent: 87.5,
			});
			expect(
				rows.find((row) => row.json.kpi === 'taxonomy_alignment_biodiversity_turnover_%')!.json,
			).toMatchObject({ measure: null, scope: null, percent: 1.25 });
		} finally {
			await proxy.close();
		}
	});

	it('Group By: one request per portfolio, each output carries its group values and pairs to its own items', async () => {
		const items: IDataObject[] = [
			holding(stocks[0], 'A0', 100, { portfolio: 'Alpha' }),
			holding(stocks[1], 'B1', 200, { portfolio: 'Beta' }),
			holding(stocks[2], 'A2', 300, { portfolio: 'Alpha' }),
			holding(null, 'Cash', 5, { portfolio: 'Beta' }),
			holding(stocks[3], 'B4', 400, { portfolio: 'Beta' }),
		];
		const result = await run(items, taxonomy({ groupBy: 'portfolio' }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: TAXONOMY })).toBe(2);
		expect(sentHoldings(0).map((h) => h.isin)).toEqual([stocks[0], stocks[2]]);
		expect(sentHoldings(1).map((h) => h.isin)).toEqual([stocks[1], stocks[3]]);

		const out = result.items('Node');
		expect(out.map((item) => item.json.portfolio)).toEqual(['Alpha', 'Beta']);
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(out[1].pairedItem).toEqual([{ item: 1 }, { item: 3 }, { item: 4 }]);
		expect(out[0].json).toMatchObject({ holdings_count: 2, removed_count: 0, removed_rows: [] });
		expect(out[1].json).toMatchObject({ holdings_count: 2, removed_count: 1 });
		expectKpisMatch(out[0].json, [stock(stocks[0], 100), stock(stocks[2], 300)]);
		expectKpisMatch(out[1].json, [stock(stocks[1], 200), stock(stocks[3], 400)]);

		sim.reset();
		const table = (await run(items, taxonomy({ groupBy: 'portfolio', output: 'table' }))).items(
			'Node',
		);
		expect(sim.requestCount({ route: TAXONOMY })).toBe(2);
		expect(table).toHaveLength(2 * SPEC_KEYS.length);
		expect(
			table.filter((row) => row.json.portfolio === 'Beta').map((row) => row.json.removed_count),
		).toEqual(SPEC_KEYS.map(() => 1));
	});

	it('a portfolio with only cash is refused locally', async () => {
		const result = await run([holding(null, 'Cash', 1)], taxonomy());
		expect(fullText(result.error)).toMatch(
			/^No holding is left to send: 1 row left out \(cash row\)/,
		);
		expect(descriptionOf(result.error)).toContain(
			'The EU Taxonomy alignment request needs at least one holding with an ISIN, a name, an instrument type and a market value.',
		);
		expect(sim.requestCount()).toBe(0);
	});

	describe('"No data found for the given parameters"', () => {
		const noData = unknownIsins.map((isin, i) => holding(isin, `U${i}`, 10));

		it('is a clear error', async () => {
			const result = await run(noData, taxonomy());
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(
				'No EU Taxonomy data for this portfolio: none of its 2 holdings has taxonomy data or a market value',
			);
			expect((result.error as { description?: string }).description).toMatch(
				/No data found for the given parameters/,
			);
			expect(sim.requestCount()).toBe(1);
		});

		it('under continueOnFail: an item with found = false for that group, the other groups go on', async () => {
			const items = [
				...noData.map((row) => ({ ...row, portfolio: 'Empty' })),
				holding(stocks[0], 'A', 100, { portfolio: 'Real' }),
			];
			const result = await run(items, taxonomy({ groupBy: 'portfolio' }, 'continueRegularOutput'));
			expect(result.error).toBeUndefined();
			expect(sim.requestCount({ route: TAXONOMY })).toBe(2);
			const out = result.items('Node');
			expect(out).toHaveLength(2);
			expect(out[0].json).toMatchObject({
				portfolio: 'Empty',
				found: false,
				message:
					'No EU Taxonomy data for this portfolio (portfolio = "Empty"): none of its 2 holdings has taxonomy data or a market value',
				holdings_count: 2,
				removed_count: 0,
			});
			expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
			expect(out[1].json).toMatchObject({ portfolio: 'Real', found: true, holdings_count: 1 });
			expect(out[1].pairedItem).toEqual([{ item: 2 }]);
		});
	});

	const good = (i: number): IDataObject => holding(stocks[i], `S${i}`, 100);
	portfolioRouteGuardTests(sim, {
		node: taxonomy,
		portfolio: PORTFOLIO,
		cashRowError: /^- Item 6: this cash row cannot be sent/m,
		route: TAXONOMY,
		timeoutMessage:
			'The EU Taxonomy alignment took longer than the API allows (29 seconds). Send fewer holdings, for example by splitting the portfolio with Group By.',
		badInput: [
			[
				'missing market value',
				[good(0), { isin: stocks[1], name: 'S1', instrument_type: 'stock' }],
				/^The market value is missing/,
			],
			[
				'bad instrument type',
				[good(0), good(1), { ...good(2), instrument_type: 'crypto' }],
				/^Instrument type "crypto" is not one the API knows/,
			],
			[
				'invalid ISIN',
				[{ ...good(0), isin: 'US0378331006' }],
				/^Invalid ISIN: "US0378331006" fails the ISIN check digit/,
			],
			[
				'market value not a number',
				[good(0), { ...good(1), market_value: 'n/a' }],
				/^Market value "n\/a" is not a number/,
			],
		],
	});

	it('also when the bad row is in a later group', async () => {
		const items = [
			{ ...good(0), portfolio: 'A' },
			{ ...good(1), portfolio: 'B', market_value: undefined },
		];
		const result = await run(items, taxonomy({ groupBy: 'portfolio' }));
		expect(fullText(result.error)).toMatch(/^The market_value cell is empty/);
		expect(sim.requestCount()).toBe(0);
	});

	it('under continueOnFail the bad group becomes error items and the others are computed', async () => {
		const items = [
			{ ...good(0), portfolio: 'A' },
			{ ...good(1), portfolio: 'B', instrument_type: 'crypto' },
			{ ...good(2), portfolio: 'A' },
		];
		const result = await run(items, taxonomy({ groupBy: 'portfolio' }, 'continueRegularOutput'));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		const out = result.items('Node');
		expect(out).toHaveLength(2);
		expect(out[0].json).toMatchObject({ portfolio: 'A', found: true, holdings_count: 2 });
		expect(out[1].json.error).toMatch(/^Instrument type "crypto"/);
		expect(out[1].pairedItem).toEqual({ item: 1 });
	});
});

describe('Holdings (JSON): the array is one portfolio, also as AI models write it ($fromAI)', () => {
	const holdings = [holding(stocks[0], 'A', 100), holding(stocks[1], 'B', 300)];
	const list = JSON.stringify(holdings, null, 2);
	const cash = holding(null, 'Cash', 100);

	it.each<[string, string, IDataObject[], number?]>([
		['a list with a cash row (removed)', JSON.stringify([holdings[0], cash]), [holdings[0]], 1],
		['an object wrapping the list', JSON.stringify({ holdings }), holdings],
		['a list in a ```json fence', '```json\n' + list + '\n```', holdings],
		[
			'an object wrapping the list, fenced',
			'```json\n' + JSON.stringify({ holdings }) + '\n```',
			holdings,
		],
		[
			'the only list of an object',
			JSON.stringify({ portfolio: 'Main', positions: holdings }),
			holdings,
		],
		['the list encoded twice', JSON.stringify(list), holdings],
		['one holding as an object (a portfolio of one)', JSON.stringify(holdings[0]), [holdings[0]]],
	])('%s: the holdings reach the API as given', async (_, holdingsJson, sent, removed = 0) => {
		const result = await run([{ any: 1 }], taxonomy({ holdingsSource: 'json', holdingsJson }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		expect(sentHoldings()).toEqual(sent);
		const out = result.items('Node');
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ holdings_count: sent.length, removed_count: removed });
		expect(out[0].pairedItem).toEqual([{ item: 0 }]);
	});

	it.each<[string, string, RegExp]>([
		[
			'text that is not JSON',
			'```json\nApple and SAP\n```',
			/^Holdings \(JSON\) is not valid JSON: /,
		],
		[
			'an object with two lists',
			JSON.stringify({ stocks: [holdings[0]], bonds: [holdings[1]] }),
			/^Holdings \(JSON\) is an object with several lists \("stocks", "bonds"\)/,
		],
		// The title ends at "(42)"; the fix follows in the description.
		[
			'a number',
			'42',
			/^Holdings \(JSON\) must be an array of holdings, got a number \(42\) Give /,
		],
	])(
		'%s is refused naming the item, the field and the fix, before any request',
		async (_, holdingsJson, message) => {
			const result = await run([{ any: 1 }], taxonomy({ holdingsSource: 'json', holdingsJson }));
			expect(fullText(result.error)).toMatch(message);
			expect((result.error as { description?: string } | undefined)?.description).toMatch(
				/^Give .*Nothing was sent\.$/,
			);
			expect(sim.requestCount()).toBe(0);
		},
	);
});

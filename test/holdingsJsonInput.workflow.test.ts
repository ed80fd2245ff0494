/**
 * Holdings (JSON) as the input of Sustainability Instruments (issues 38 and 39, item 1): PAI Statement and Portfolio
 * Summary of Get PAI Indicators, and Screen Holdings, run inside n8n's engine against the simulator. The same
 * holdings given as input items and as Holdings (JSON) give the same figures for the same requests; every output item
 * is paired with the input item whose list held its holdings.
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { SustainabilityInstruments } from '../nodes/SustainabilityInstruments/SustainabilityInstruments.node';
import { findIsins, instrumentData, makeIsin } from './simulator';
import { descriptionOf, instrumentsSpec, runNode } from './helpers/lookupRuns';
import { useSimulator } from './helpers/simulator';

const PAI = 'POST /instruments/sustainability-data' as const;
const INVOLVEMENTS = 'POST /instruments/business-involvements' as const;
const sim = useSimulator();

const N = new Date().getUTCFullYear() - 1;
const ends = (year: number) => [`${year}-03-31`, `${year}-06-30`, `${year}-09-30`, `${year}-12-31`];
const [A, B, C] = findIsins((d) => d.known && d.pai.carbon_footprint !== null, 3, 'DE');
const UNKNOWN = makeIsin('XX', 1);

/** Four quarter ends of two years for `fund`: A, B, the unknown ISIN, C from Q3 of year N, a cash row. */
function fundRows(fund: string, scale = 1): IDataObject[] {
	return [N - 1, N].flatMap((year) =>
		ends(year).flatMap((date, q) => [
			{ fund, date, isin: A, market_value: (1000 + 100 * q) * scale },
			{ fund, date, isin: B, market_value: (2000 - 50 * q) * scale },
			{ fund, date, isin: UNKNOWN, market_value: 300 * scale },
			...(year === N && q >= 2 ? [{ fund, date, isin: C, market_value: 500 * scale }] : []),
			{ fund, date, isin: '', instrument_type: 'Cash', market_value: 200 * scale },
		]),
	);
}

const FIGURES = [
	'pai',
	'metric',
	'impact_year_n',
	'impact_year_n_minus_1',
	'coverage_percent',
	'quarter_values',
	'quarters_missing',
	'unit',
	'fund',
	'statement',
] as const;
const figures = (out: INodeExecutionData[]) =>
	out.map((item) => Object.fromEntries(FIGURES.map((key) => [key, item.json[key]])));
const pairedOf = (item: INodeExecutionData) => [item.pairedItem ?? []].flat();

/** Runs `spec` on `items` and returns the output and the requests it sent to `route`. */
async function run(
	items: IDataObject[],
	parameters: IDataObject,
	typeVersion: number,
	route: typeof PAI | typeof INVOLVEMENTS = PAI,
) {
	const before = sim.requestCount({ route });
	const { result, out } = await runNode(sim.url, items, {
		...instrumentsSpec(parameters.operation as string, parameters),
		typeVersion,
	});
	return { result, out, requests: sim.requestCount({ route }) - before };
}

describe('Holdings (JSON): PAI Statement and Portfolio Summary of Get PAI Indicators', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	for (const typeVersion of [1, 2]) {
		it(`version ${typeVersion}: the same holdings as input items and as Holdings (JSON) give the same statement for the same requests, paired with the one input item`, async () => {
			const rows = fundRows('Alpha');
			const statement = { operation: 'getPaiIndicators', outputMode: 'paiStatement' };
			const asItems = await run(rows, statement, typeVersion);
			expect(asItems.result.error).toBeUndefined();
			const asJson = await run(
				[{ portfolio: 'Alpha' }],
				{ ...statement, isinSource: 'holdingsJson', holdingsJson: JSON.stringify(rows) },
				typeVersion,
			);
			expect(asJson.result.error).toBeUndefined();
			expect(asJson.requests).toBe(asItems.requests);
			expect(asJson.requests).toBe(1);
			expect(figures(asJson.out)).toEqual(figures(asItems.out));
			expect(asJson.out.find((item) => item.json.metric === 'Carbon footprint')).toBeDefined();
			for (const item of asJson.out) expect(pairedOf(item)).toEqual([{ item: 0 }]);
		});
	}

	it('two input items, each with its own list (an expression): one statement per fund paired with its own item, the entity with both; one request', async () => {
		const alpha = fundRows('Alpha');
		const beta = fundRows('Beta', 2);
		const parameters = {
			operation: 'getPaiIndicators',
			outputMode: 'paiStatement',
			groupBy: 'fund',
		};
		const asItems = await run([...alpha, ...beta], parameters, 2);
		expect(asItems.result.error).toBeUndefined();
		const asJson = await run(
			[{ holdings: alpha }, { holdings: { holdings: beta } }],
			{ ...parameters, isinSource: 'holdingsJson', holdingsJson: '={{ $json.holdings }}' },
			2,
		);
		expect(asJson.result.error).toBeUndefined();
		expect(asJson.requests).toBe(1);
		expect(asJson.requests).toBe(asItems.requests);
		expect(figures(asJson.out)).toEqual(figures(asItems.out));
		const statements = new Set(asJson.out.map((item) => item.json.fund ?? 'entity'));
		expect([...statements].sort()).toEqual(['Alpha', 'Beta', 'entity']);
		for (const item of asJson.out) {
			const expected =
				item.json.fund === 'Alpha'
					? [{ item: 0 }]
					: item.json.fund === 'Beta'
						? [{ item: 1 }]
						: [{ item: 0 }, { item: 1 }];
			expect(pairedOf(item)).toEqual(expected);
		}
	});

	it('a holding left out is named in explanation by its input item and its place in the list', async () => {
		const beta = fundRows('Beta');
		beta.splice(1, 0, { fund: 'Beta', date: `${N}-12-31`, isin: C, market_value: -400 });
		const { result, out } = await run(
			[{ list: fundRows('Alpha') }, { list: beta }],
			{
				operation: 'getPaiIndicators',
				outputMode: 'paiStatement',
				groupBy: 'fund',
				isinSource: 'holdingsJson',
				holdingsJson: '={{ $json.list }}',
			},
			2,
		);
		expect(result.error).toBeUndefined();
		const carbon = out.find(
			(item) => item.json.metric === 'Carbon footprint' && item.json.fund === 'Beta',
		)!;
		expect(String(carbon.json.explanation)).toContain(
			'Item 1, 2nd holding of Holdings (JSON) (negative',
		);
		expect(String(carbon.json.explanation)).not.toMatch(/Item \d{2}/);
	});

	it('Portfolio Summary from Holdings (JSON): the same figures as from input items, paired with the input item', async () => {
		const rows = fundRows('Alpha').filter((row) => row.date === `${N}-12-31`);
		const parameters = { operation: 'getPaiIndicators', outputMode: 'portfolioSummary' };
		const asItems = await run(rows, parameters, 2);
		const asJson = await run(
			[{}],
			{ ...parameters, isinSource: 'holdingsJson', holdingsJson: rows },
			2,
		);
		expect(asItems.result.error).toBeUndefined();
		expect(asJson.result.error).toBeUndefined();
		expect(asJson.requests).toBe(asItems.requests);
		expect(asJson.out).toHaveLength(1);
		const { removed_rows: removedJson, ...json } = asJson.out[0].json;
		const { removed_rows: removedItems, ...items } = asItems.out[0].json;
		expect(json).toEqual(items);
		// The cash row, named by the input item that held the list (never a row index past the input).
		const withoutItem = (rows: unknown) =>
			(rows as IDataObject[]).map((row) =>
				Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'item')),
			);
		expect((removedJson as IDataObject[]).length).toBeGreaterThan(0);
		expect(withoutItem(removedJson)).toEqual(withoutItem(removedItems));
		expect((removedJson as IDataObject[]).map((row) => row.item)).toEqual(
			(removedJson as IDataObject[]).map(() => 0),
		);
		expect(pairedOf(asJson.out[0])).toEqual([{ item: 0 }]);
	});

	it('a Holdings (JSON) that cannot be read is refused before any request, naming the item and the fix', async () => {
		const { result, requests } = await run(
			[{ list: fundRows('Alpha') }, { list: '[{"isin": "DE0007164600", "market_value": ' }],
			{
				operation: 'getPaiIndicators',
				outputMode: 'paiStatement',
				isinSource: 'holdingsJson',
				holdingsJson: '={{ $json.list }}',
			},
			2,
		);
		expect(result.error).toBeDefined();
		expect(requests).toBe(0);
		expect(sim.requestCount()).toBe(0);
		expect(result.error!.message).toContain('Holdings (JSON) is not valid JSON');
		expect(descriptionOf(result.error)).toContain('Give an array such as');
		expect((result.error as unknown as { context?: IDataObject }).context?.itemIndex).toBe(1);
	});

	it('a holding of the list that cannot be read is named "Mth holding of Holdings (JSON)" on its input item, before any request', async () => {
		const beta = fundRows('Beta');
		beta[1] = { ...beta[1], market_value: 'lots' };
		const { result } = await run(
			[{ list: fundRows('Alpha') }, { list: beta }],
			{
				operation: 'getPaiIndicators',
				outputMode: 'paiStatement',
				isinSource: 'holdingsJson',
				holdingsJson: '={{ $json.list }}',
			},
			2,
		);
		expect(result.error).toBeDefined();
		expect(sim.requestCount()).toBe(0);
		const text = `${result.error!.message} ${descriptionOf(result.error) ?? ''}`;
		expect(text).toContain('2nd holding of Holdings (JSON)');
		expect(text).not.toMatch(/Item \d{2}/);
		expect((result.error as unknown as { context?: IDataObject }).context?.itemIndex).toBe(1);
	});
});

const coalWeight = (isin: string) => instrumentData(isin).businessInvolvements.thermal_coal?.weight;
const violates = (isin: string) =>
	instrumentData(isin).vendorIndicators.violations_un_global_compact;
const [COAL] = findIsins(
	(d) => d.known && (coalWeight(d.isin) ?? 0) >= 1 && violates(d.isin) === false,
	1,
	'DE',
);
const [VIOLATOR] = findIsins(
	(d) => d.known && coalWeight(d.isin) === 0 && violates(d.isin) === true,
	1,
	'DE',
);
const [CLEAN] = findIsins(
	(d) => d.known && coalWeight(d.isin) === 0 && violates(d.isin) === false,
	1,
	'FR',
);
const SCREEN = {
	operation: 'screenHoldings',
	screenPreset: 'custom',
	rules: {
		rule: [
			{ type: 'involvement', category: 'thermal_coal', threshold: 1, label: 'Coal' },
			{ type: 'indicatorFalse', indicator: 'violations_un_global_compact', label: 'UNGC' },
		],
	},
};
const SCREENED: IDataObject[] = [
	{ fund: 'Alpha', isin: COAL, name: 'Coal Co', market_value: 1000 },
	{ fund: 'Alpha', isin: VIOLATOR, name: 'Violator Co', market_value: 2000 },
	{ fund: 'Alpha', isin: CLEAN, name: 'Clean Co', market_value: 4000 },
	{ fund: 'Beta', isin: COAL, name: 'Coal Co', market_value: 600 },
	{ fund: 'Beta', isin: UNKNOWN, name: 'Unknown Co', market_value: 400 },
];

describe('Holdings (JSON): Screen Holdings', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	it('Portfolio Summary: the same shares and breaching holdings as from input items, for the same requests; each fund paired with its own item', async () => {
		const parameters = { ...SCREEN, outputMode: 'portfolioSummary', groupBy: 'fund' };
		const asItems = await run(SCREENED, parameters, 2, INVOLVEMENTS);
		expect(asItems.result.error).toBeUndefined();
		const asJson = await run(
			[
				{ list: SCREENED.filter((row) => row.fund === 'Alpha') },
				{ list: JSON.stringify(SCREENED.filter((row) => row.fund === 'Beta')) },
			],
			{ ...parameters, isinSource: 'holdingsJson', holdingsJson: '={{ $json.list }}' },
			2,
			INVOLVEMENTS,
		);
		expect(asJson.result.error).toBeUndefined();
		expect(asJson.requests).toBe(1);
		expect(asJson.requests).toBe(asItems.requests);
		expect(sim.requestCount({ route: PAI })).toBe(2);
		const pick = (out: INodeExecutionData[]) =>
			out.map(({ json }) => ({
				fund: json.fund,
				holdings_count: json.holdings_count,
				breach_percent: json.breach_percent,
				pass_percent: json.pass_percent,
				not_checked_percent: json.not_checked_percent,
				breaching_holdings: json.breaching_holdings,
				coverage_percent: json.coverage_percent,
			}));
		expect(pick(asJson.out)).toEqual(pick(asItems.out));
		const [alpha, beta] = asJson.out.map((item) => item.json.breach_percent as number);
		expect(alpha).toBeCloseTo(((1000 + 2000) / 7000) * 100, 2);
		expect(beta).toBeCloseTo(60, 2);
		expect(asJson.out.map(pairedOf)).toEqual([[{ item: 0 }], [{ item: 1 }]]);
	});

	it('One Item per Instrument: each ISIN once with its screen, paired with every input item that held it', async () => {
		const { result, out } = await run(
			[
				{ list: SCREENED.filter((row) => row.fund === 'Alpha') },
				{ list: SCREENED.filter((row) => row.fund === 'Beta') },
			],
			{
				...SCREEN,
				outputMode: 'perInstrument',
				isinSource: 'holdingsJson',
				holdingsJson: '={{ $json.list }}',
			},
			2,
			INVOLVEMENTS,
		);
		expect(result.error).toBeUndefined();
		const byIsin = new Map(out.map((item) => [item.json.isin, item]));
		expect(byIsin.size).toBe(4);
		expect(byIsin.get(COAL)!.json.screen).toBe('breach');
		expect(byIsin.get(VIOLATOR)!.json.screen).toBe('breach');
		expect(byIsin.get(UNKNOWN)!.json.screen).toBe('not_checked');
		expect(pairedOf(byIsin.get(COAL)!)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(pairedOf(byIsin.get(UNKNOWN)!)).toEqual([{ item: 1 }]);
		for (const item of out)
			for (const paired of pairedOf(item))
				expect((paired as { item: number }).item).toBeLessThan(2);
	});

	it('a Holdings (JSON) that cannot be read is refused before any request', async () => {
		const { result } = await run(
			[{}],
			{
				...SCREEN,
				outputMode: 'portfolioSummary',
				isinSource: 'holdingsJson',
				holdingsJson: '```json\n[{"isin": "DE0007164600",]\n```',
			},
			2,
		);
		expect(result.error).toBeDefined();
		expect(result.error!.message).toContain('Holdings (JSON) is not valid JSON');
		expect(sim.requestCount()).toBe(0);
	});

	it('the form: Holdings From offers Holdings (JSON), whose Output has no Add to Input Items', () => {
		const properties = new SustainabilityInstruments().description.properties;
		const screen = (property: INodeProperties) =>
			property.displayOptions?.show?.operation?.includes('screenHoldings');
		const source = properties.find((p) => p.name === 'isinSource' && screen(p))!;
		expect(source.options!.map((option) => (option as { value: string }).value)).toContain(
			'holdingsJson',
		);
		const output = properties.find(
			(p) =>
				p.name === 'outputMode' &&
				screen(p) &&
				p.displayOptions?.show?.isinSource?.includes('holdingsJson'),
		)!;
		expect(output.options!.map((option) => (option as { value: string }).value)).toEqual([
			'portfolioSummary',
			'perInstrument',
			'changesSinceLastRun',
		]);
		expect(
			properties.some(
				(p) =>
					p.name === 'holdingsJson' &&
					p.type === 'json' &&
					p.displayOptions?.show?.operation?.includes('getPaiIndicators'),
			),
		).toBe(true);
	});
});

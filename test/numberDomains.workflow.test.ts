/**
 * Values outside their domain (issue 35, case 5 and the report half of case 8), run inside n8n's engine against the
 * simulator, with startProxy rewriting its JSON into answers it never gives: a value outside the range the route's
 * contract gives its numbers (routes.ts `domains`) is never a figure of the output, never summed or averaged, and is
 * named on the item and in the run's hint; a null figure says why; report weights that are all 0 never reach a report.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import { useSimulator } from './helpers/simulator';
import { startProxy } from './helpers/proxy';
import { hintMessages, instrumentsSpec, reportSpec, runNode } from './helpers/lookupRuns';
import type { NodeSpec } from './helpers/workflows';

const sim = useSimulator({ temperatureRoute: true });

/** Runs `spec` on `items` through a proxy whose `rewrite` changes the JSON answer of `path` in place. */
async function throughProxy(
	items: IDataObject[],
	spec: NodeSpec,
	path: string,
	rewrite: (body: IDataObject) => void,
) {
	const proxy = await startProxy(sim.url, (at, body) => {
		if (at === path && body) rewrite(body as IDataObject);
		return body;
	});
	try {
		const { result, out } = await runNode(proxy.url, items, spec);
		expect(result.error).toBeUndefined();
		return { out: out.map((item) => item.json), hints: hintMessages(result) };
	} finally {
		await proxy.close();
	}
}

const STOCKS = findIsins((d) => d.known && !d.isFund && d.temperature.score !== null, 3, 'DE');
const HOLDINGS: IDataObject[] = STOCKS.map((isin, index) => ({
	isin,
	name: `Stock ${index}`,
	instrument_type: 'stock',
	market_value: (index + 1) * 1000,
}));

describe('EU Taxonomy: KPIs outside 0 to 100', () => {
	const taxonomy = (output = 'summary'): NodeSpec => ({
		type: 'euTaxonomy',
		parameters: { operation: 'getPortfolioAlignment', output },
	});
	const BAD: Record<string, number> = {
		'taxonomy_alignment_%': 250,
		'taxonomy_eligible_turnover_%': -40,
		'taxonomy_alignment_capex_%': 1e308,
	};
	const rewrite = (body: IDataObject) => Object.assign(body.data as IDataObject, BAD);

	it('summary: each is null, named with what came in domain_note, counted, and in the hint', async () => {
		const { out, hints } = await throughProxy(HOLDINGS, taxonomy(), '/taxonomy/insights', rewrite);
		const [item] = out;
		for (const key of Object.keys(BAD)) expect(item[key]).toBeNull();
		expect(item.out_of_range_count).toBe(3);
		expect(item.domain_note).toMatch(/taxonomy_alignment_% is 250, outside its range/);
		expect(item.domain_note).toMatch(/taxonomy_eligible_turnover_% is -40/);
		expect(item.domain_note).toMatch(/taxonomy_alignment_capex_% is 1e\+308/);
		expect(item.domain_note).toMatch(/cannot be trusted/);
		// The other KPIs are percentages as they came.
		expect(item['taxonomy_alignment_turnover_%']).toEqual(expect.any(Number));
		expect(hints).toContainEqual(expect.stringMatching(/^3 values out of range \(/));
		expect(hints.every((hint) => hint.length <= 120)).toBe(true);
	});

	it('table: the row of each has percent null and a note naming it', async () => {
		const { out } = await throughProxy(HOLDINGS, taxonomy('table'), '/taxonomy/insights', rewrite);
		const row = out.find((json) => json.kpi === 'taxonomy_alignment_%')!;
		expect(row.percent).toBeNull();
		expect(row.domain_note).toMatch(/is 250, outside its range \(a percentage, 0 to 100\)/);
		const good = out.find((json) => json.kpi === 'taxonomy_alignment_turnover_%')!;
		expect(good).not.toHaveProperty('domain_note');
	});

	it('data {}: not found, with the reason (an answer defect, not "no data"), and a hint', async () => {
		const { out, hints } = await throughProxy(
			HOLDINGS,
			taxonomy(),
			'/taxonomy/insights',
			(body) => (body.data = {}),
		);
		expect(out).toHaveLength(1);
		expect(out[0].found).toBe(false);
		expect(out[0].reason).toMatch(/no KPI at all \(data is an empty object\)/);
		expect(hints).toContain('The API answered no EU Taxonomy KPI: see reason.');
	});
});

describe('Portfolio Summary: values outside their range are left out of the averages', () => {
	const summary = (operation: string) =>
		instrumentsSpec(operation, { outputMode: 'portfolioSummary', marketValueField: 'mv' });
	const rows = STOCKS.map((isin, index) => ({ isin, mv: (index + 1) * 1000 }));

	it('a negative scope 1 emissions figure: averaged over the others, counted and named', async () => {
		const { out, hints } = await throughProxy(
			rows,
			summary('getPaiIndicators'),
			'/instruments/sustainability-data',
			(body) => {
				const first = (body.data as IDataObject[]).find(
					(entry) => (entry.metadata as IDataObject).isin === STOCKS[0],
				)!;
				((first.sustainability_data as IDataObject).scope_1_emissions as IDataObject).value = -40;
			},
		);
		const figure = (out[0].indicators as IDataObject).scope_1_emissions as IDataObject;
		const others = [1, 2].map((index) => ({
			w: (index + 1) * 1000,
			x: instrumentData(STOCKS[index]).pai.scope_1_emissions as number,
		}));
		const expected =
			others.reduce((sum, { w, x }) => sum + w * x, 0) / others.reduce((s, { w }) => s + w, 0);
		expect(figure.weighted_average).toBeCloseTo(expected, 3);
		expect(figure.holdings_with_value).toBe(2);
		expect(figure.coverage_percent).toBeCloseTo((5000 / 6000) * 100, 2);
		expect(figure.out_of_range_count).toBe(1);
		expect(figure.out_of_range_note).toContain(`${STOCKS[0]} (-40)`);
		expect(hints).toContainEqual(
			expect.stringMatching(/^1 value out of range \(sustainability_data\.scope_1_emissions/),
		);
	});

	it('one 1e308: the average is not null beside coverage 100, the value is left out and named', async () => {
		const { out } = await throughProxy(
			rows,
			summary('getEsgData'),
			'/instruments/esg-data',
			(body) => {
				for (const entry of body.data as IDataObject[])
					if ((entry.metadata as IDataObject).isin === STOCKS[2])
						((entry.sustainability_data as IDataObject).environment_score as IDataObject).value =
							1e308;
			},
		);
		const figure = (out[0].metrics as IDataObject).environment_score as IDataObject;
		expect(figure.weighted_average).toEqual(expect.any(Number));
		expect(figure.coverage_percent).toBeCloseTo(50, 2);
		expect(figure.out_of_range_count).toBe(1);
		expect(figure.out_of_range_note).toContain('1e+308');
	});

	it('One Item per Instrument: the value is null on its row, with the note', async () => {
		const { out } = await throughProxy(
			STOCKS.map((isin) => ({ isin })),
			instrumentsSpec('getPaiIndicators', { outputMode: 'perInstrument', simplify: true }),
			'/instruments/sustainability-data',
			(body) => {
				for (const entry of body.data as IDataObject[])
					((entry.sustainability_data as IDataObject).carbon_footprint as IDataObject).value = -1;
			},
		);
		for (const row of out) {
			expect(row.carbon_footprint).toBeNull();
			expect(row.domain_note).toMatch(/carbon_footprint\.value is -1, outside its range/);
		}
	});
});

describe('Temperature Score: scores and market values outside their range', () => {
	const temperature: NodeSpec = {
		type: 'temperatureScore',
		parameters: { operation: 'getPortfolioTemperature', pollInterval: 1, maxWait: 30 },
	};
	const companiesOf = (body: IDataObject) =>
		(((body.data as IDataObject).portfolio as IDataObject).companies ?? []) as IDataObject[];

	it('a score of 250 and a market value of 1e308: both null on their rows, left out and counted', async () => {
		const { out, hints } = await throughProxy(
			HOLDINGS,
			temperature,
			'/temperature-score/insights',
			(body) => {
				for (const company of companiesOf(body)) {
					if (company.isin === STOCKS[0]) company.temperature_score = 250;
					if (company.isin === STOCKS[1]) company.market_value = 1e308;
				}
			},
		);
		const summary = out.find((json) => json.type === 'portfolio')!;
		const rowOf = (isin: string) => out.find((json) => json.isin === isin)!;
		expect(rowOf(STOCKS[0]).temperature_score).toBeNull();
		expect(rowOf(STOCKS[0]).domain_note).toMatch(/temperature_score is 250, outside its range/);
		expect(rowOf(STOCKS[1]).market_value).toBeNull();
		// Only the third company is weighted: the portfolio temperature is its score. The first still counts in the
		// total (its market value is in range: a holding without a score); the second is in no total.
		const third = out.find((json) => json.isin === STOCKS[2])!;
		expect(summary.portfolio_temperature_score).toBeCloseTo(third.temperature_score as number, 4);
		expect(summary.total_market_value).toBe(
			(rowOf(STOCKS[0]).market_value as number) + (third.market_value as number),
		);
		expect(summary.weighted_count).toBe(1);
		expect(summary.out_of_range_count).toBe(2);
		expect(summary.out_of_range_rows).toEqual([
			expect.objectContaining({ isin: STOCKS[0], field: 'temperature_score', value: 250 }),
			expect.objectContaining({ isin: STOCKS[1], field: 'market_value', value: 1e308 }),
		]);
		expect(hints).toContainEqual(expect.stringMatching(/^2 values out of range/));
	});

	it('every score out of range: the null portfolio temperature says why', async () => {
		const { out } = await throughProxy(
			HOLDINGS,
			temperature,
			'/temperature-score/insights',
			(body) => {
				for (const company of companiesOf(body)) company.temperature_score = -3;
			},
		);
		const summary = out.find((json) => json.type === 'portfolio')!;
		expect(summary.portfolio_temperature_score).toBeNull();
		expect(summary.portfolio_temperature_reason).toMatch(
			/No listed holding has both a temperature score and a market value above 0; 3 values outside their range left out/,
		);
	});
});

describe('Generate PDF Report: weights that are all 0', () => {
	const ROUTE = 'POST /reports' as const;
	const rows = (marketValues: number[]) =>
		STOCKS.map((isin, index) => ({
			isin,
			name: `Stock ${index}`,
			currency: 'EUR',
			weight: 0,
			market_value: marketValues[index],
		}));

	it('are worked out from market values, with a note in the output and the hint', async () => {
		const { result, out } = await runNode(
			sim.url,
			rows([1000, 3000, 6000]),
			reportSpec({ downloadPdf: false }),
		);
		expect(result.error).toBeUndefined();
		const sent = (sim.requests({ route: ROUTE })[0].body as { holdings: IDataObject[] }).holdings;
		expect(sent.map((holding) => holding.weight)).toEqual([10, 30, 60]);
		expect(out[0].json.input_notes).toContainEqual(
			expect.stringMatching(/^Weights worked out from market values .*every weight is 0/),
		);
		expect(hintMessages(result)).toContainEqual(
			expect.stringMatching(/^Weights worked out from market values/),
		);
	});

	it('and market values that add up to 0: refused before any request, naming the fix', async () => {
		const { result } = await runNode(sim.url, rows([0, 0, 0]), reportSpec({ downloadPdf: false }));
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/^The report's weights cannot be used: every weight is 0 .*the market values cannot give weights either/,
		);
		expect(sim.requestCount()).toBe(0);
	});
});

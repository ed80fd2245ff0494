/** Temperature Score node, run inside n8n's engine (test/workflow/runner.ts) against the API simulator. */
import type { IDataObject, INode } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import type { Simulator } from './simulator';
import { chainWorkflow, credentialsFor } from './helpers/workflows';
import { runWorkflow } from './workflow/runner';
import { useSimulator } from './helpers/simulator';
import { pairedTo as paired } from './helpers/portfolioRouteTests';
import { fullText } from './helpers/lookupRuns';

const ROUTE = 'POST /temperature-score/insights' as const;
const COMPANIES = findIsins((d) => d.known && !d.isFund && d.temperature.score !== null, 3, 'DE');
const [FUND] = findIsins((data) => data.known && data.isFund, 1, 'LU');

async function run(
	sim: Simulator,
	rows: IDataObject[],
	parameters: IDataObject,
	onError?: INode['onError'],
) {
	const node = {
		type: 'temperatureScore',
		name: 'Temperature',
		parameters: { operation: 'getPortfolioTemperature', ...parameters },
		onError,
	};
	return await runWorkflow(chainWorkflow(rows, node), { credentials: credentialsFor(sim.url) });
}

/** A portfolio: three companies, a fund, a cash row without ISIN and a holding of a type the route skips. */
const PORTFOLIO: IDataObject[] = [
	{ ISIN: COMPANIES[0], Name: 'Company A', Type: 'Stock', 'Market Value': '1,000.00' },
	{ ISIN: COMPANIES[1], Name: 'Company B', Type: 'Equity', 'Market Value': 3000 },
	{ ISIN: '', Name: 'Cash EUR', Type: 'Cash', 'Market Value': 500 },
	{ ISIN: FUND, Name: 'Fund C', Type: 'ETF', 'Market Value': 2000 },
	{ ISIN: COMPANIES[2], Name: 'Crypto D', Type: 'Crypto', 'Market Value': 700 },
];

describe('Temperature Score node (workflow, simulator)', () => {
	const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 2 });
	const slow = useSimulator({ temperatureRoute: true, temperatureLockRequests: 100 });
	/** An API address without the temperature route, as production is. */
	const production = useSimulator({});

	it('waits while is_lock is true (locks + 1 requests), then returns one item per holding paired by ISIN and a portfolio summary', async () => {
		const result = await run(sim, PORTFOLIO, { pollInterval: 1, maxWait: 30 });
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(sim.requestCount({ route: ROUTE })).toBe(3);

		// Nothing invented: no currency column, so no currency is sent (the API assumes EUR); no weight either.
		const sent = (sim.requests({ route: ROUTE })[0].body as { holdings: IDataObject[] }).holdings;
		expect(sent.map((h) => h.instrument_type)).toEqual(['stock', 'stock', 'etf', 'crypto']);
		for (const holding of sent) {
			expect(holding).not.toHaveProperty('currency');
			expect(holding).not.toHaveProperty('weight');
		}

		const items = result.items('Temperature');
		const holdings = items.filter((item) => item.json.type !== 'portfolio');
		expect(holdings.map((item) => [item.json.isin, item.json.type, paired(item)])).toEqual([
			[COMPANIES[0], 'company', [0]],
			[COMPANIES[1], 'company', [1]],
			[FUND, 'fund', [3]],
		]);
		for (const item of holdings) {
			const { score, target, baseYear } = instrumentData(item.json.isin as string).temperature;
			expect(item.json).toMatchObject({ temperature_score: score, target, base_year: baseYear });
			expect(item.json).toHaveProperty('industry');
			expect(item.json).toHaveProperty('aum');
			expect(item.json).not.toHaveProperty('calculating');
		}
		expect(holdings[0].json.industry).toBe(instrumentData(COMPANIES[0]).temperature.industry!.name);
		expect(holdings[0].json.market_value).toBe(1000);

		const summary = items[items.length - 1];
		expect(summary.json.type).toBe('portfolio');
		expect(paired(summary)).toEqual([0, 1, 2, 3, 4]);
		const scores = holdings.map((item) => [
			item.json.market_value as number,
			item.json.temperature_score as number,
		]);
		const total = scores.reduce((sum, [mv]) => sum + mv, 0);
		const expected = scores.reduce((sum, [mv, t]) => sum + mv * t, 0) / total;
		expect(summary.json.portfolio_temperature_score).toBeCloseTo(expected, 4);
		// Every input item is accounted for: the cash row was removed, the crypto holding skipped by the API.
		expect(summary.json).toMatchObject({
			covered_market_value_percent: 100,
			companies_count: 2,
			funds_count: 1,
			scored_count: 3,
			requests: 3,
			currencies: ['EUR'],
			removed_count: 1,
			skipped_count: 1,
		});
		expect(summary.json.removed_rows).toEqual([
			{ item: 2, name: 'Cash EUR', isin: null, reason: 'cash row' },
		]);
		expect((summary.json.skipped_rows as IDataObject[])[0]).toMatchObject({
			item: 4,
			isin: COMPANIES[2],
		});
		expect(String((summary.json.skipped_rows as IDataObject[])[0].reason)).toContain('crypto');
	});

	it('stops with a clear error past Max Wait', async () => {
		const result = await run(slow, PORTFOLIO, { pollInterval: 1, maxWait: 2 });
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(
			/still calculating the temperature scores after .* \(2 requests\); Max Wait is 2\.0 s/,
		);
		expect(slow.requestCount({ route: ROUTE })).toBe(2);
	});

	it('with Wait for Calculation off, returns the answer at once marked calculating = true (one request)', async () => {
		const result = await run(sim, PORTFOLIO, { waitForCalculation: false });
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: ROUTE })).toBe(1);
		const items = result.items('Temperature');
		expect(items).toHaveLength(4);
		for (const item of items) expect(item.json.calculating).toBe(true);
		expect(items[3].json.portfolio_temperature_score).toBeNull();
		expect(items[0].json.temperature_score).toBeNull();
	});

	it('Raw output: the API data as one item per group, each paired to its group', async () => {
		const rows = PORTFOLIO.map((row, index) => ({ ...row, portfolio: index < 2 ? 'P1' : 'P2' }));
		const result = await run(sim, rows, {
			output: 'raw',
			groupBy: 'portfolio',
			pollInterval: 1,
			maxWait: 30,
		});
		expect(result.error).toBeUndefined();
		const items = result.items('Temperature');
		expect(items).toHaveLength(2);
		expect(items.map((item) => item.json.group)).toEqual([
			{ portfolio: 'P1' },
			{ portfolio: 'P2' },
		]);
		expect(items.map(paired)).toEqual([
			[0, 1],
			[2, 3, 4],
		]);
		for (const item of items) {
			expect((item.json.job_metadata as IDataObject).is_lock).toBe(false);
			expect(item.json.portfolio).toHaveProperty('companies');
		}
		expect(
			((items[0].json.portfolio as IDataObject).companies as IDataObject[]).map((c) => c.isin),
		).toEqual([COMPANIES[0], COMPANIES[1]]);
		expect(items[1].json.removed_count).toBe(1);
		// Two sets of holdings, each locked twice: 3 requests each.
		expect(sim.requestCount({ route: ROUTE })).toBe(6);
	});

	it('bad input fails before any request, naming the item and the field', async () => {
		const rows = [{ ISIN: COMPANIES[0], Name: 'Company A', Type: 'Stock' }];
		const result = await run(sim, rows, {});
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(/^The market value is missing/);
		expect(sim.requestCount()).toBe(0);
	});

	it('with continueOnFail, a bad group becomes error items and the other group goes on', async () => {
		const rows = [
			{ ISIN: COMPANIES[0], Name: 'A', Type: 'Stock', MV: 100, portfolio: 'P1' },
			{ ISIN: COMPANIES[1], Name: 'B', Type: 'Stock', portfolio: 'P2' },
		];
		const result = await run(
			sim,
			rows,
			{ groupBy: 'portfolio', pollInterval: 1 },
			'continueRegularOutput',
		);
		expect(result.status).toBe('success');
		const items = result.items('Temperature');
		const errors = items.filter((item) => item.json.error);
		expect(errors).toHaveLength(1);
		expect(paired(errors[0])).toEqual([1]);
		expect(String(errors[0].json.error)).toContain('The market value is missing');
		expect(items.filter((item) => item.json.type === 'portfolio')).toHaveLength(1);
		// Only P1 was sent (locked twice, then answered).
		expect(sim.requestCount({ route: ROUTE })).toBe(3);
	});

	it('on an address without the route (production), says so in plain words', async () => {
		const result = await run(production, PORTFOLIO, {});
		expect(result.status).toBe('error');
		// The title says what failed; the API's words, then what to do, in the description.
		expect(result.error?.message).toBe(
			'The temperature score route is not available on this API address yet.',
		);
		expect(fullText(result.error)).toContain(
			'The vendor has not opened it on production; ask them for an address that serves it.',
		);
		expect((result.error as { description?: string }).description).toContain(
			'Missing Authentication Token',
		);
		expect(production.requestCount({ route: ROUTE })).toBe(0);
		expect(production.requestCount()).toBe(1);
	});
});

/**
 * Never silently wrong: every route's success answer is read against its contract (nodes/shared/api/routes.ts). Each of
 * the 13 routes, run in n8n's engine against the simulator answering 200/201 with something unreadable, fails with our
 * own message naming what came; the documented variants (temperature without `data`, true/false and null indicator
 * values) are read; partly readable answers are reported in the output.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { byIdentifier, snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import {
	DELETE_SNAPSHOT,
	HOLDINGS_NODES,
	LAST_YEAR,
	hintMessages as hintsOf,
	instrumentsSpec as lookup,
	portfolioIdentifier as id,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import { UNASKED_ISIN, VENDOR_PAI_BOOLEANS, findIsins, instrumentData } from './simulator';
import type { FaultKind, RouteKey, Simulator } from './simulator';
import { useSimulator } from './helpers/simulator';

const KEY = 'sim-all-families';
const SFDR = 'POST /instruments/sustainability-profile' as const;
const TEMPERATURE = 'POST /temperature-score/insights' as const;
const POLL_AT_ONCE = { pollInterval: 1, maxWait: 30 };

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

const run = (items: IDataObject[], spec: NodeSpec, simulator: Simulator = sim) =>
	runNode(simulator.url, items, spec, { apiKey: KEY });

const COMPANIES = findIsins((data) => data.known && !data.isFund, 3, 'DE');

/** Holdings every holdings route takes: ISIN, name, type, currency, weight, market value, portfolio and date. */
const HOLDINGS: IDataObject[] = COMPANIES.map((isin, index) => ({
	portfolio_id: 'answers',
	portfolio_name: 'Answers Fund',
	date: `${LAST_YEAR}-05-10`,
	isin,
	name: `Company ${index}`,
	instrument_type: 'Stock',
	currency: 'EUR',
	weight: [50, 30, 20][index],
	market_value: [5000, 3000, 2000][index],
}));
const ISIN_ITEMS = COMPANIES.map((isin) => ({ isin }));

const snapshot = snapshotSpec();

interface RouteCase {
	route: RouteKey;
	items: IDataObject[];
	spec: NodeSpec;
	/** Status the route answers on success. */
	status: number;
}

/** One operation per route of the API. */
const ROUTE_CASES: RouteCase[] = [
	...(
		[
			[SFDR, 'getSfdrClassification'],
			['POST /instruments/sustainability-data', 'getPaiIndicators'],
			['POST /instruments/business-involvements', 'getBusinessInvolvements'],
			['POST /instruments/esg-data', 'getEsgData'],
		] as const
	).map(([route, operation]) => ({
		route,
		items: ISIN_ITEMS,
		spec: lookup(operation),
		status: 200,
	})),
	...HOLDINGS_NODES.map(({ route, type, parameters }) => ({
		route,
		items: HOLDINGS,
		// Polled at once while the temperature is calculating (is_lock), see 'documented variants'.
		spec: { type, parameters: { ...parameters, ...(route === TEMPERATURE ? POLL_AT_ONCE : {}) } },
		status: 201,
	})),
	{
		route: 'GET /sustainable-investments/methodologies',
		items: [{}],
		spec: { type: 'sustainableInvestments', parameters: { operation: 'getMethodologies' } },
		status: 200,
	},
	{
		route: 'GET /portfolios',
		items: [{}],
		spec: { type: 'portfolioSnapshots', parameters: { operation: 'getMany', returnAll: true } },
		status: 200,
	},
	{
		route: 'PUT /portfolios/{identifier}',
		items: [{ identifier: id('answers') }],
		spec: {
			type: 'portfolioSnapshots',
			parameters: {
				operation: 'update',
				portfolio: byIdentifier('={{ $json.identifier }}'),
				updateFields: { name: 'Renamed' },
			},
		},
		status: 200,
	},
	{
		route: 'DELETE /portfolios/{identifier}',
		items: [{ identifier: id('answers'), date: `${LAST_YEAR}-05-10` }],
		spec: DELETE_SNAPSHOT,
		status: 200,
	},
];

const UNREADABLE: Array<[FaultKind, RegExp]> = [
	['unreadable-empty', /an empty JSON object \(\{\}\)/],
	['unreadable-data-text', /top-level key data\b/],
	['unreadable-data-number', /top-level key data\b/],
	['unreadable-list', /a JSON list of 3 entries/],
];

describe.each(ROUTE_CASES)('$route', ({ route, items, spec, status }) => {
	beforeEach(async () => {
		// PUT and DELETE need a stored portfolio to act on when the answer is readable.
		if (route.includes('{identifier}')) {
			const stored = await run(HOLDINGS, snapshot);
			expect(stored.result.error).toBeUndefined();
		}
	});

	it('works with the simulator as it is (the cases below differ only in the answer)', async () => {
		const { result } = await run(items, spec);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route })).toBe(1);
	});

	// A bare list of ids is one of the methodology list shapes read (the record shape is not documented).
	const unreadable =
		route === 'GET /sustainable-investments/methodologies'
			? UNREADABLE.filter(([kind]) => kind !== 'unreadable-list')
			: UNREADABLE;
	it.each(unreadable)(
		'a %s answer fails the node with our message naming what came, sent once',
		async (kind, what) => {
			sim.setFaults(route, { sequence: [kind] });
			const { result } = await run(items, spec);
			expect(result.status).toBe('error');
			const error = result.error as Error & { description?: string; httpCode?: string };
			expect(error.message).toMatch(/^The API's answer to the .+ request cannot be read: /);
			expect(error.message).not.toMatch(/is not iterable|Cannot read prop|undefined/);
			expect(error.description).toContain(`status ${status}, content type application/json`);
			expect(error.description).toMatch(what);
			expect(error.description).toContain('counts against the monthly quota');
			expect(error.description).not.toContain('maintenance');
			expect(error.description).not.toContain(KEY);
			expect(sim.requestCount({ route })).toBe(1);
		},
	);

	if (route === 'POST /reports') {
		it('an HTML page answered 200 may stand for a generated report: never sent again, the outcome unknown', async () => {
			sim.setFaults(route, { sequence: ['html-page'] });
			const { result } = await run(items, spec);
			expect(fullText(result.error)).toMatch(
				/^Whether the API carried out the PDF report request is not known: the report may have been generated\..*answered 200 with a page of its own \(content type text\/html\)/s,
			);
			expect(sim.requestCount({ route })).toBe(1);
		});
		return;
	}

	it('an HTML page answered 200 is taken as a proxy page: asked again, then read', async () => {
		sim.setFaults(route, { sequence: ['html-page'] });
		const { result } = await run(items, spec);
		expect(result.error).toBeUndefined();
		// POST /portfolios: sent again once the list of portfolios shows the snapshot not stored.
		expect(sim.requestCount({ route })).toBe(2);
	});
});

describe('an HTML page from a proxy', () => {
	it('when it stays, the error says an HTML page came, never the page itself', async () => {
		sim.setFaults(SFDR, { sequence: ['html-page'] });
		const { result } = await run(
			ISIN_ITEMS,
			lookup('getSfdrClassification', { options: { maxThrottleWait: 0 } }),
		);
		const error = result.error as Error & { description?: string };
		expect(fullText(error)).toMatch(
			/answered the SFDR classification request instead of the API \(status 200, after 1 try\)\. What came: an HTML page with content type text\/html/,
		);
		expect(`${error.message} ${error.description}`).not.toMatch(
			/undergoing maintenance|<html|<title/i,
		);
		expect(sim.requestCount({ route: SFDR })).toBe(1);
	});
});

describe('Continue On Fail keeps the answers already received', () => {
	it('a second batch answered unreadably: its items carry the error, the first batch keeps its results', async () => {
		sim.setFaults(SFDR, {
			sequence: [null, 'unreadable-data-number'],
		});
		const { result, out } = await run(
			ISIN_ITEMS,
			lookup(
				'getSfdrClassification',
				{ options: { batchSize: 2 } },
				{ onError: 'continueRegularOutput' },
			),
		);
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(3);
		expect((out[0].json.sfdr as IDataObject).found).toBe(true);
		expect((out[1].json.sfdr as IDataObject).found).toBe(true);
		expect(String(out[2].json.error)).toMatch(/cannot be read: data is a number, expected a list/);
		expect(out[2].json.sfdr).toBeUndefined();
	});
});

const temperature = ROUTE_CASES.find((entry) => entry.route === TEMPERATURE)!;
/** The portfolio item of Temperature Score's output. */
const summaryOf = (out: INodeExecutionData[]) =>
	out.find((item) => item.json.type === 'portfolio')!.json;

describe('documented variants', () => {
	it('temperature without the data wrapper: the same portfolio temperature, and is_lock waited on', async () => {
		const wrapped = await run(temperature.items, temperature.spec);
		expect(wrapped.result.error).toBeUndefined();
		sim.reset();
		sim.setAnswerShape({ temperature: 'top-level' });
		const topLevel = await run(temperature.items, temperature.spec);
		expect(topLevel.result.error).toBeUndefined();
		expect(summaryOf(topLevel.out).portfolio_temperature_score).toEqual(
			summaryOf(wrapped.out).portfolio_temperature_score,
		);
		expect(summaryOf(topLevel.out).portfolio_temperature_score).toEqual(expect.any(Number));
		// The same items, but for the industry ids, which the vendor's reference gives as text.
		const withTextIds = wrapped.out.map(({ json }) =>
			Array.isArray(json.industries)
				? {
						...json,
						industries: (json.industries as IDataObject[]).map((industry) => ({
							...industry,
							id: String(industry.id),
						})),
					}
				: json,
		);
		// waited_seconds is the time the run took, not something the answer says.
		const untimed = (json: IDataObject) => {
			const copy = { ...json };
			delete copy.waited_seconds;
			return copy;
		};
		expect(topLevel.out.map((item) => untimed(item.json))).toEqual(withTextIds.map(untimed));
	});

	describe('while is_lock is true the node asks again', () => {
		const locking = useSimulator({ temperatureRoute: true, temperatureLockRequests: 2 });
		it.each(['wrapped', 'top-level'] as const)('%s', async (shape) => {
			locking.setAnswerShape({ temperature: shape });
			const { result, out } = await run(temperature.items, temperature.spec, locking);
			expect(result.error).toBeUndefined();
			expect(locking.requestCount({ route: temperature.route })).toBe(3);
			const summary = summaryOf(out);
			expect(summary.calculating).toBeUndefined();
			expect(summary.portfolio_temperature_score).toEqual(expect.any(Number));
		});
	});

	it('true/false and null indicator values are kept per holding, and summarised as a share of true', async () => {
		sim.setAnswerShape({ measures: 'vendor' });
		const rows = findIsins((data) => data.known && !data.isFund, 12, 'FR').map((isin, index) => ({
			isin,
			market_value: 1000 * (index + 1),
		}));
		const perHolding = await run(rows, lookup('getPaiIndicators'));
		expect(perHolding.result.error).toBeUndefined();
		const [flag] = VENDOR_PAI_BOOLEANS;
		for (const [index, item] of perHolding.out.entries()) {
			const expected = instrumentData(rows[index].isin).vendorIndicators[flag];
			expect((item.json.pai as IDataObject)[flag]).toEqual({ value: expected });
		}

		const summary = await run(rows, lookup('getPaiIndicators', { outputMode: 'portfolioSummary' }));
		expect(summary.result.error).toBeUndefined();
		const figure = (summary.out[0].json.indicators as IDataObject)[flag] as IDataObject;
		const total = rows.reduce((sum, row) => sum + row.market_value, 0);
		const withTrue = rows
			.filter((row) => instrumentData(row.isin).vendorIndicators[flag] === true)
			.reduce((sum, row) => sum + row.market_value, 0);
		expect(figure.true_percent).toBeCloseTo((withTrue / total) * 100, 2);
		expect(figure.coverage_percent).toBe(100);
		expect(figure.holdings_with_value).toBe(rows.length);

		// null is no value: coverage is the share of holdings with true or false.
		const withNull = VENDOR_PAI_BOOLEANS[1];
		const nullRows = rows.filter(
			(row) => instrumentData(row.isin).vendorIndicators[withNull] === null,
		);
		expect(nullRows.length).toBeGreaterThan(0);
		const partial = (summary.out[0].json.indicators as IDataObject)[withNull] as IDataObject;
		const covered = total - nullRows.reduce((sum, row) => sum + row.market_value, 0);
		expect(partial.coverage_percent).toBeCloseTo((covered / total) * 100, 2);
		expect(partial.holdings_with_value).toBe(rows.length - nullRows.length);
	});
});

describe('partly readable answers are reported, not hidden', () => {
	it('an entry for an ISIN not asked for is left out and named', async () => {
		sim.setFaults(SFDR, { sequence: ['answer-extra-isin'] });
		const { result, out } = await run(ISIN_ITEMS, lookup('getSfdrClassification'));
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(3);
		for (const item of out)
			expect(String((item.json.sfdr as IDataObject).answer_note)).toContain(UNASKED_ISIN);
		expect(hintsOf(result).join(' ')).toContain('1 entry for ISINs not asked for');
	});

	it('an ISIN answered twice with different values is flagged on that ISIN', async () => {
		sim.setFaults('POST /instruments/sustainability-data', { sequence: ['answer-duplicate-isin'] });
		const { result, out } = await run(ISIN_ITEMS, lookup('getPaiIndicators'));
		expect(result.error).toBeUndefined();
		const flagged = out.filter((item) => (item.json.pai as IDataObject).answer_note);
		expect(flagged).toHaveLength(1);
		expect(String((flagged[0].json.pai as IDataObject).answer_note)).toContain(
			'answered twice for this ISIN with different values',
		);
	});

	it('an entry without an ISIN is counted', async () => {
		sim.setFaults('POST /instruments/esg-data', { sequence: ['answer-entry-without-isin'] });
		const { result, out } = await run(ISIN_ITEMS, lookup('getEsgData'));
		expect(result.error).toBeUndefined();
		expect(String((out[0].json.esg as IDataObject).answer_note)).toContain(
			'1 entry without a readable ISIN',
		);
	});

	it('temperature: a company not sent is shown but never weighted into the portfolio temperature', async () => {
		const plain = await run(temperature.items, temperature.spec);
		sim.reset();
		sim.setFaults(temperature.route, { sequence: ['answer-extra-isin'] });
		const faulted = await run(temperature.items, temperature.spec);
		expect(faulted.result.error).toBeUndefined();
		expect(summaryOf(faulted.out).portfolio_temperature_score).toBe(
			summaryOf(plain.out).portfolio_temperature_score,
		);
		const extra = faulted.out.find((item) => item.json.isin === UNASKED_ISIN)!;
		expect(String(extra.json.answer_note)).toContain('not sent');
		expect(String(summaryOf(faulted.out).answer_note)).toContain(UNASKED_ISIN);
	});

	it('a snapshot answered with an undocumented message: outcome "unknown" with the message, and a note', async () => {
		sim.setFaults('POST /portfolios', { sequence: ['answer-unknown-message'] });
		const { result, out } = await run(HOLDINGS, snapshot);
		expect(result.error).toBeUndefined();
		expect(out[0].json.outcome).toBe('unknown');
		expect(out[0].json.message).toBe('Fund processed successfully');
		expect(out[0].json.identifier).toBe(id('answers'));
		expect(hintsOf(result).join(' ')).toContain('the outcome is "unknown"');
	});

	it('a deletion answered with an undocumented message: outcome "unknown"', async () => {
		expect((await run(HOLDINGS, snapshot)).result.error).toBeUndefined();
		sim.setFaults('DELETE /portfolios/{identifier}', { sequence: ['answer-unknown-message'] });
		const { result, out } = await run(
			[{ identifier: id('answers'), date: `${LAST_YEAR}-05-10` }],
			DELETE_SNAPSHOT,
		);
		expect(result.error).toBeUndefined();
		expect(out[0].json.outcome).toBe('unknown');
	});
});

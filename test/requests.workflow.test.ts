/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Requests, quota and partial failures (issue 11, items 3, 4, 5 and 7), run inside n8n's engine against the
 * simulator: every answer received is kept, a used-up quota stops the run and the execution, and Max Requests per
 * Run refuses a plan above it before anything is sent and is never exceeded at send time.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from './simulator';
import type { FaultKind, RouteKey } from './simulator';
import { makeIsins } from './helpers/isins';
import { HOLDINGS_NODES, LAST_YEAR, runNode, fullText } from './helpers/lookupRuns';
import type { NodeSpec } from './helpers/workflows';
import { useSimulator } from './helpers/simulator';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const KEY = 'sim-all-families';

const sim = useSimulator({ temperatureRoute: true });

/** Companies every group route has data for (taxonomy, temperature score). */
const COMPANIES = findIsins(
	(data) => data.known && !data.isFund && data.taxonomy !== null && data.temperature.score !== null,
	20,
	'DE',
);

function lookup(options: IDataObject, onError?: NodeSpec['onError'], name?: string): NodeSpec {
	return {
		type: 'sustainabilityInstruments',
		parameters: { operation: 'getSfdrClassification', options },
		onError,
		name,
	};
}

const run = async (items: IDataObject[], ...specs: NodeSpec[]) =>
	(await runNode(sim.url, items, specs, { apiKey: KEY })).result;

const isinItems = (count: number) => makeIsins(count, 1000, 'US').map((isin) => ({ isin }));
const hasError = (json: IDataObject) => typeof json.error === 'string';

/** Items answered by the simulator after the first Limit Exceeded answer arrived there. */
function requestsAfterFirstLimitExceeded(route?: RouteKey): number {
	const requests = sim.requests(route ? { route } : undefined);
	const first = requests.findIndex((request) => request.status === 429);
	return first < 0 ? 0 : requests.length - first - 1;
}

describe('instruments: a failed batch keeps the paid ones (item 3)', () => {
	it('1,000 ISINs at Batch Size 1 with a quota of 300, continuing on fail: 300 items with data, 700 error items', async () => {
		sim.setMonthlyQuota(300);
		const items = isinItems(1000);
		const result = await run(
			items,
			lookup({ batchSize: 1, maxRequests: 0 }, 'continueRegularOutput'),
		);
		expect(result.error).toBeUndefined();
		const out = result.items('Node');
		expect(out).toHaveLength(1000);
		// Each output item is its own input item, with data or with the error of its own batch.
		out.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.isin).toBe(items[index].isin);
		});
		const withData = out.filter((item) => !hasError(item.json));
		expect(withData).toHaveLength(300);
		expect(withData.every((item) => (item.json.sfdr as IDataObject).isin === item.json.isin)).toBe(
			true,
		);
		const errors = out.filter((item) => hasError(item.json));
		expect(errors).toHaveLength(700);
		expect(errors[0].json.error).toMatch(/monthly request quota is used up/);
		expect(`${errors[1].json.error as string} ${errors[1].json.error_details as string}`).toMatch(
			/^Not sent: .*monthly request quota is used up/,
		);
		// The one Limit Exceeded answer, then nothing.
		expect(sim.requestCount({ route: SFDR })).toBe(301);
	});

	it.each([
		[1, [false, true, false, false], 5],
		[2, [false, false, true, true], 3],
	])(
		'at Batch Size %s, a batch failing with 500 twice becomes error items for its own ISINs; the other batches carry their data',
		async (batchSize, failed, requests) => {
			sim.setFaults(SFDR, { sequence: [null, '500', '500'] });
			const items = isinItems(4);
			const result = await run(items, lookup({ batchSize }, 'continueRegularOutput'));
			const out = result.items('Node');
			expect(out.map((item) => [item.json.isin, hasError(item.json)])).toEqual(
				items.map((item, index) => [item.isin, failed[index]]),
			);
			expect(out[failed.indexOf(true)].json.http_code).toBe('500');
			expect(sim.requestCount({ route: SFDR })).toBe(requests);
		},
	);

	it('without continue on fail: the API error first, then how many ISINs had an answer and what a re-run costs', async () => {
		sim.setMonthlyQuota(5);
		const result = await run(isinItems(20), lookup({ batchSize: 1 }));
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(
			/^This API key's monthly request quota is used up.*The API answered for 5 of the 20 distinct ISINs before the run stopped \(5 of 20 batches\).*This run sent 6 requests; running it again sends up to 20\./s,
		);
		expect(sim.requestCount({ route: SFDR })).toBe(6);
	});
});

describe('no orphan requests after Limit Exceeded (item 4)', () => {
	it('with Concurrency 4, no batch starts after the quota answer and nothing arrives after the node returned', async () => {
		sim.setMonthlyQuota(5);
		const result = await run(isinItems(20), lookup({ batchSize: 1, concurrency: 4 }));
		const atReturn = sim.requestCount({ route: SFDR });
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(sim.requestCount({ route: SFDR })).toBe(atReturn);
		// Only requests already in flight when the first Limit Exceeded answer came may follow it.
		expect(atReturn).toBeLessThanOrEqual(5 + 4);
		expect(requestsAfterFirstLimitExceeded(SFDR)).toBeLessThanOrEqual(3);
		expect(fullText(result.error)).toMatch(/monthly request quota is used up/);
	});

	it('another node of the same execution sends nothing with that key after Limit Exceeded', async () => {
		sim.setMonthlyQuota(2);
		const result = await run(
			isinItems(3),
			lookup({ batchSize: 1 }, 'continueRegularOutput', 'First'),
			lookup({ batchSize: 10 }, 'continueRegularOutput', 'Second'),
		);
		expect(sim.requestCount({ route: SFDR })).toBe(3);
		const second = result.items('Second');
		expect(second).toHaveLength(3);
		expect(
			second.every(
				(item) =>
					/monthly request quota is used up/.test(String(item.json.error)) &&
					/request was not sent/.test(String(item.json.error_details)),
			),
		).toBe(true);
	});
});

describe('Max Requests per Run (item 5)', () => {
	it('refuses a plan above the budget before any request, showing the plan and the fix', async () => {
		const result = await run(isinItems(600), lookup({ batchSize: 1 }));
		expect(result.error?.message).toBe(
			'This run would send 600 requests, more than Max Requests per Run (500)',
		);
		expect((result.error as Error & { description?: string }).description).toMatch(
			/Nothing was sent.*Batch Size/,
		);
		expect(sim.requestCount()).toBe(0);
	});

	it('never goes over the budget at send time: a retry that would is refused, the answers received are kept', async () => {
		sim.setFaults(SFDR, { sequence: [null, null, '500'] });
		const result = await run(
			isinItems(3),
			lookup({ batchSize: 1, maxRequests: 3 }, 'continueRegularOutput'),
		);
		expect(sim.requestCount({ route: SFDR })).toBe(3);
		const out = result.items('Node');
		expect(out.map((item) => hasError(item.json))).toEqual([false, false, true]);
		expect(out[2].json.error).toMatch(
			/^Max Requests per Run \(3\) reached: the next SFDR classification request was not sent/,
		);
		expect(out[2].json.error_details).toMatch(/^This run sent 3 requests/);
	});

	it('reports the requests spent in the output pane', async () => {
		const result = await run(isinItems(3), lookup({ batchSize: 1 }));
		expect(result.error).toBeUndefined();
		const hints =
			(result.runData.Node[0] as { hints?: Array<{ message: string; location?: string }> }).hints ??
			[];
		// Plain words on a run far from Max Requests per Run: no budget wording (issue 28 item 4).
		expect(hints).toContainEqual({
			message: '3 requests sent.',
			type: 'info',
			location: 'outputPane',
		});
		// No column is added to the rows.
		expect(Object.keys(result.items('Node')[0].json).sort()).toEqual(['isin', 'sfdr']);
	});

	it('a Group By giving more groups than the budget is refused before any request', async () => {
		const result = await run(groups(501), snapshots());
		expect(result.error?.message).toBe(
			'This run would send 501 requests, more than Max Requests per Run (500)',
		);
		expect(sim.requestCount()).toBe(0);
	});
});

function holding(group: string, index: number): IDataObject {
	return {
		group,
		portfolio_name: `Fund ${group}`,
		date: `${LAST_YEAR}-06-30`,
		isin: COMPANIES[index % COMPANIES.length],
		name: `Company ${index}`,
		instrument_type: 'stock',
		currency: 'USD',
		weight: 100,
		market_value: 1000,
	};
}

/** One holding in each of `count` groups, p0, p1, ... */
const groups = (count: number) =>
	Array.from({ length: count }, (_, index) => holding(`p${index}`, index));

function snapshots(extra: IDataObject = {}, onError?: NodeSpec['onError']): NodeSpec {
	return {
		type: 'portfolioSnapshots',
		parameters: {
			operation: 'createOrUpdateSnapshot',
			portfolioId: '={{ $json.group }}',
			portfolioName: '={{ $json.portfolio_name }}',
			snapshotDate: '={{ $json.date }}',
			currency: 'USD',
			groupBy: 'group',
			...extra,
		},
		onError,
	};
}

/** What each holdings node reads of the items to send one portfolio per group. */
const PER_GROUP: Record<string, IDataObject> = {
	temperatureScore: { waitForCalculation: false },
	sustainabilityReports: {
		reportName: '={{ $json.portfolio_name }}',
		reportId: '={{ $json.group }}',
	},
};
const GROUP_OPERATIONS = HOLDINGS_NODES.map(
	({ label, type, route, parameters }) =>
		[
			label,
			route,
			(options: IDataObject, onError?: NodeSpec['onError']): NodeSpec =>
				type === 'portfolioSnapshots'
					? snapshots({ options }, onError)
					: {
							type,
							parameters: { ...parameters, groupBy: 'group', ...PER_GROUP[type], options },
							onError,
						},
		] as const,
);

describe('group operations stop at Limit Exceeded (item 5)', () => {
	it('1,000 groups with a quota of 300: after the Limit Exceeded answer not one more POST arrives', async () => {
		sim.setMonthlyQuota(300);
		const result = await run(
			groups(1000),
			snapshots({ options: { maxRequests: 0 } }, 'continueRegularOutput'),
		);
		expect(sim.requestCount({ route: 'POST /portfolios' })).toBe(301);
		const out = result.items('Node');
		expect(out).toHaveLength(1000);
		expect(out.filter((item) => !hasError(item.json))).toHaveLength(300);
		expect(out[300].json.error).toMatch(/monthly request quota is used up/);
		expect(out[999].json.error).toMatch(/^Not sent: /);
		expect(out[999].pairedItem).toEqual({ item: 999 });
	});

	it.each(GROUP_OPERATIONS)(
		'%s: stops at Limit Exceeded and says what was done',
		async (_name, route, spec) => {
			sim.setMonthlyQuota(2);
			const result = await run(groups(6), spec({}));
			expect(sim.requestCount({ route })).toBe(3);
			expect(requestsAfterFirstLimitExceeded()).toBe(0);
			expect(fullText(result.error)).toMatch(
				/^This API key's monthly request quota is used up.* 2 of 6 .*before the run stopped/s,
			);
		},
	);

	it.each(GROUP_OPERATIONS)(
		'%s, continuing on fail: no POST after Limit Exceeded; the rest become error items',
		async (_name, route, spec) => {
			sim.setMonthlyQuota(2);
			const result = await run(groups(6), spec({}, 'continueRegularOutput'));
			expect(sim.requestCount({ route })).toBe(3);
			const errors = result.items('Node').filter((item) => hasError(item.json));
			expect(errors.map((item) => item.pairedItem)).toEqual([2, 3, 4, 5].map((item) => ({ item })));
			expect(errors.slice(1).every((item) => /^Not sent: /.test(String(item.json.error)))).toBe(
				true,
			);
		},
	);

	it.each(GROUP_OPERATIONS)(
		'%s: refuses a plan above Max Requests per Run before any request',
		async (_name, _route, spec) => {
			const result = await run(groups(4), spec({ maxRequests: 3 }));
			expect(fullText(result.error)).toMatch(
				/^This run would send 4 requests, more than Max Requests per Run \(3\) Planned: 4 (groups|reports) × 1 request\./,
			);
			expect(sim.requestCount()).toBe(0);
		},
	);
});

describe('Reports keep the PDFs generated before a later group fails (item 7)', () => {
	const reports = (onError?: NodeSpec['onError']): NodeSpec => ({
		type: 'sustainabilityReports',
		parameters: {
			operation: 'generatePdfReport',
			reportName: '={{ $json.portfolio_name }}',
			reportId: '={{ $json.group }}',
			groupBy: 'group',
		},
		onError,
	});
	const rows = ['alpha', 'beta', 'gamma'].map((group, index) => holding(group, index));
	const failThird = () =>
		sim.setFaults('POST /reports', {
			sequence: [null, null, '500', '500'] as Array<FaultKind | null>,
		});

	it('continuing on fail: the generated reports come out with their PDF, the failed group as an error item', async () => {
		failThird();
		const result = await run(rows, reports('continueRegularOutput'));
		const out = result.items('Node');
		expect(out).toHaveLength(3);
		expect(out.slice(0, 2).map((item) => [item.json.name, Boolean(item.binary?.data)])).toEqual([
			['Fund alpha', true],
			['Fund beta', true],
		]);
		expect(out[2].json).toMatchObject({ group: 'gamma', http_code: '500' });
		expect(out[2].pairedItem).toEqual({ item: 2 });
	});

	it('stopping with an error: names how many reports were generated, and for which groups', async () => {
		failThird();
		const result = await run(rows, reports());
		expect(fullText(result.error)).toMatch(
			/^The API had an unexpected error on the PDF report request.*2 of 3 reports were generated before the run stopped \("Fund alpha" \(group = "alpha"\), "Fund beta" \(group = "beta"\)\)/s,
		);
	});
});

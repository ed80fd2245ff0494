import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { SustainabilityComplianceApi } from '../credentials/SustainabilityComplianceApi.credentials';
import { SustainableInvestments } from '../nodes/SustainableInvestments/SustainableInvestments.node';
import {
	ClassificationMatcher,
	sustainabilityLabel,
} from '../nodes/SustainableInvestments/actions/classification';
import { readMethodologies } from '../nodes/shared/api/methodologies';
import { METHODOLOGIES, findIsins, instrumentData, makeIsin } from './simulator';
import { chainWorkflow, credentialsFor } from './helpers/workflows';
import {
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
	contextAdditionalData,
} from './workflow/credentials-helper';
import { HarnessNodeTypes } from './workflow/node-types';
import { startProxy } from './helpers/proxy';
import { runWorkflow } from './workflow/runner';
import { useSimulator } from './helpers/simulator';
import { portfolioRouteGuardTests, portfolioRunner } from './helpers/portfolioRouteTests';
import type { PortfolioNode } from './helpers/portfolioRouteTests';
import { fullText } from './helpers/lookupRuns';

const INSIGHTS = 'POST /sustainable-investments/insights' as const;
const METHODOLOGIES_ROUTE = 'GET /sustainable-investments/methodologies' as const;

const sim = useSimulator();
const run = portfolioRunner(sim);

const LIST_1 = { __rl: true, mode: 'list', value: 1, cachedResultName: METHODOLOGIES[0].name };

const classify: PortfolioNode = (parameters = {}, onError) => ({
	type: 'sustainableInvestments',
	parameters: { operation: 'classifyHoldings', methodology: LIST_1, ...parameters },
	onError,
});

type SentBody = { methodology_id: unknown; holdings: IDataObject[] };
const sentBody = (index = 0) => sim.requests({ route: INSIGHTS })[index].body as SentBody;

const LABEL_OF_CODE = (code: unknown) =>
	({ 9: 'Sustainable', 8: 'Moderate', null: 'Uncovered' })[String(code)] ?? 'Not sustainable';

const [fund] = findIsins((d) => d.known && d.isFund, 1);
/** A known company of each classification code: 9 (sustainable), 0 (not sustainable) and 8 (moderate). */
const [sustainable, notSustainable, moderate] = [9, 0, 8].map(
	(code) =>
		findIsins((d) => d.known && !d.isFund && d.sustainableInvestment.classification === code, 1)[0],
);
const uncovered = makeIsin('XX', 7);

/** Funds first, duplicates (one pasted in lower case with spaces), cash and a row without ISIN. */
const HOLDINGS: IDataObject[] = (
	[
		[fund, 'Fund F', 'ETF', 1000, 10],
		[sustainable, 'Green Co', 'Stock', 2000, 20],
		[null, 'Cash EUR', 'Cash', 500, 5],
		[notSustainable, 'Brown Co', 'Stock', 1500, 15],
		[` ${fund.slice(0, 6).toLowerCase()} ${fund.slice(6)} `, 'Fund F (2nd lot)', 'ETF', 500, 5],
		[uncovered, 'Unknown Co', 'Stock', 700, 7],
		['', 'Private loan', 'Other', 300, 3],
		[sustainable, 'Green Co (2nd lot)', 'Stock', 1000, 10],
		[moderate, 'Amber Co', 'Stock', 2500, 25],
	] as const
).map(([ISIN, Name, Type, marketValue, Weight], row) => ({
	row,
	ISIN,
	Name,
	Type,
	'Market Value': marketValue,
	Weight,
}));
/** The ISIN each row stands for; null for the cash row and the row without ISIN. */
const ISIN_OF_ROW = HOLDINGS.map((row) => (row.row === 4 ? fund : (row.ISIN as string) || null));

describe('labels, matching and methodologies (units)', () => {
	it.each([
		[9, 'Sustainable', 'Sustainable'],
		[8, 'Moderate', 'Moderate'],
		[null, 'Uncovered', 'Uncovered'],
		[0, 'Not sustainable', 'Not sustainable'],
		[9, null, 'Sustainable'],
		[8, undefined, 'Moderate'],
		[null, null, 'Uncovered'],
		[undefined, undefined, 'Uncovered'],
		[0, null, 'Not sustainable'],
		[6, null, 'Not sustainable'],
		[-1, undefined, 'Not sustainable'],
		['9', null, 'Sustainable'],
		// the description decides when it names a category
		[1, 'Not sustainable', 'Not sustainable'],
		[7, 'Non-sustainable', 'Not sustainable'],
		[7, 'UNSUSTAINABLE', 'Not sustainable'],
		[null, 'Not covered', 'Uncovered'],
		[3, 'Moderate', 'Moderate'],
		[2, 'sustainable', 'Sustainable'],
		[0, 'Something new', 'Not sustainable'],
	])('classification %j with description %j → %s', (code, description, label) => {
		expect(sustainabilityLabel(code, description)).toBe(label);
	});

	it('matches by ISIN, the n-th duplicate to the n-th entry, the last entry when there are fewer', () => {
		const matcher = new ClassificationMatcher([
			{ isin: 'B', weight: 1 },
			{ isin: 'a', weight: 2 },
			{ isin: 'A', weight: 3 },
		]);
		expect(matcher.next('A')?.weight).toBe(2);
		expect(matcher.next('B')?.weight).toBe(1);
		expect(matcher.next('A')?.weight).toBe(3);
		expect(matcher.next('A')?.weight).toBe(3);
		expect(matcher.next('B')?.weight).toBe(1);
		expect(matcher.next('C')).toBeUndefined();
		expect(new ClassificationMatcher([]).next('A')).toBeUndefined();
	});

	it.each([
		['a bare array', [{ id: 4, name: 'Four' }], [[4, 'Four', undefined]]],
		[
			'under methodologies',
			{ methodologies: [{ methodology_id: '5', title: 'Five', description: 'D' }] },
			[['5', 'Five', 'D']],
		],
		['under data.items', { data: { items: [{ id: 6, label: 'Six' }] } }, [[6, 'Six', undefined]]],
		[
			'ids only',
			{ data: [7, 8] },
			[
				[7, '7', undefined],
				[8, '8', undefined],
			],
		],
		[
			'a record without a name',
			[{ id: 9, description: 'Only a description' }],
			[[9, 'Only a description', undefined]],
		],
		[
			'a record without an id',
			[{ name: 'No id' }, { id: 10 }],
			[[10, 'Methodology 10', undefined]],
		],
	])('parseMethodologies reads %s', (_, body, expected) => {
		const read = readMethodologies(body);
		const parsed = 'methodologies' in read ? read.methodologies : [];
		expect(parsed.map((m) => [m.id, m.name, m.description])).toEqual(expected);
	});
});

describe('Sustainable Investments: Classify Holdings inside n8n', () => {
	it('one item per input item, matched by ISIN with duplicates and funds listed last; cash and no-ISIN rows reported', async () => {
		let answeredOrder: string[] = [];
		const proxy = await startProxy(sim.url, (path, body) => {
			if (path === '/sustainable-investments/insights' && Array.isArray(body?.data)) {
				// what the instruments routes do (spec 2.3): funds after the other instruments
				const data = body.data as Array<{ isin: string }>;
				body.data = [
					...data.filter((e) => !instrumentData(e.isin).isFund),
					...data.filter((e) => instrumentData(e.isin).isFund),
				];
				answeredOrder = (body.data as Array<{ isin: string }>).map((e) => e.isin);
			}
			return body;
		});
		try {
			const result = await run(HOLDINGS, classify(), { baseUrl: proxy.url });
			expect(result.error).toBeUndefined();
			expect(sim.requestCount()).toBe(1);
			const body = sentBody();
			expect(body.methodology_id).toBe(1);
			expect(body.holdings.map((h) => h.isin)).toEqual(ISIN_OF_ROW.filter((isin) => isin));
			expect(body.holdings[0]).toEqual({
				isin: fund,
				name: 'Fund F',
				instrument_type: 'etf',
				weight: 10,
				market_value: 1000,
			});
			// the answer really is in another order than the request
			expect(answeredOrder.slice(-2)).toEqual([fund, fund]);

			const out = result.items('Node');
			expect(out).toHaveLength(HOLDINGS.length);
			out.forEach((item, index) => {
				expect(item.pairedItem).toEqual({ item: index });
				expect(item.json.row).toBe(index);
				expect(item.json.Name).toBe(HOLDINGS[index].Name);
				const isin = ISIN_OF_ROW[index];
				if (isin === null) {
					expect(item.json).toMatchObject({
						classification: null,
						label: 'Not classified',
						description: null,
						removed: true,
						removed_reason: index === 2 ? 'cash row' : 'no ISIN',
						methodology_id: 1,
					});
					return;
				}
				const expected = instrumentData(isin).sustainableInvestment;
				expect(item.json).toMatchObject({
					isin,
					classification: expected.classification,
					label: LABEL_OF_CODE(expected.classification),
					description: expected.description,
					weight: HOLDINGS[index].Weight,
					methodology_id: 1,
					removed: false,
					removed_reason: null,
				});
			});
			expect(new Set(out.map((item) => item.json.label))).toEqual(
				new Set(['Sustainable', 'Moderate', 'Not sustainable', 'Uncovered', 'Not classified']),
			);
		} finally {
			await proxy.close();
		}
	});

	it('weight as returned: computed by the API from market values when the input has none', async () => {
		const items = [
			{ isin: sustainable, name: 'A', instrument_type: 'stock', market_value: 300 },
			{ isin: moderate, name: 'B', instrument_type: 'stock', market_value: 100 },
		];
		const out = (await run(items, classify())).items('Node');
		expect(out.map((item) => item.json.weight)).toEqual([75, 25]);
	});

	it('Methodology "By ID": the ID is sent as a number', async () => {
		const result = await run(
			HOLDINGS.slice(0, 2),
			classify({ methodology: { __rl: true, mode: 'id', value: ' 3 ' } }),
		);
		expect(result.error).toBeUndefined();
		expect(sentBody().methodology_id).toBe(3);
		expect(result.items('Node').map((item) => item.json.methodology_id)).toEqual([3, 3]);
	});

	it.each([
		['a non-numeric ID', { __rl: true, mode: 'id', value: 'standard' }],
		['no methodology', { __rl: true, mode: 'list', value: '' }],
	])(
		'%s typed in: n8n itself refuses to run the workflow (parameter issues), nothing is sent',
		async (_, methodology) => {
			await expect(run(HOLDINGS.slice(0, 2), classify({ methodology }))).rejects.toThrow(
				/(workflow|node) has issues/,
			);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it.each([
		['a non-numeric ID', 'standard', /^Methodology ID "standard" is not a number/],
		['an empty ID', '', /^No methodology is chosen/],
	])('%s from an expression is refused before any request', async (_, value, message) => {
		const items = HOLDINGS.slice(0, 2).map((row) => ({ ...row, methodology: value }));
		const result = await run(
			items,
			classify({ methodology: { __rl: true, mode: 'id', value: '={{ $json.methodology }}' } }),
		);
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(message);
		expect(sim.requestCount()).toBe(0);
	});

	it('an ID from an expression, per group (read at the first item of each group)', async () => {
		const items = [
			{ ...HOLDINGS[1], methodology: 2 },
			{ ...HOLDINGS[3], methodology: 3 },
		];
		const result = await run(
			items,
			classify({
				groupBy: 'methodology',
				methodology: { __rl: true, mode: 'id', value: '={{ $json.methodology }}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect([sentBody(0).methodology_id, sentBody(1).methodology_id]).toEqual([2, 3]);
		expect(result.items('Node').map((item) => item.json.methodology_id)).toEqual([2, 3]);
	});

	it('an ID the API does not know: the API error, one request', async () => {
		const result = await run(
			HOLDINGS.slice(0, 2),
			classify({ methodology: { __rl: true, mode: 'id', value: '99' } }),
		);
		expect(result.error?.message).toBe(
			'The API rejected the sustainable investments classification request: Methodology not found.',
		);
		expect(sim.requestCount()).toBe(1);
	});

	it('Group By: one request per group, output in input order, methodology per group', async () => {
		const items = HOLDINGS.map((row, index) => ({
			...row,
			book: index % 2 === 0 ? 'even' : 'odd',
		}));
		const result = await run(items, classify({ groupBy: 'book' }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: INSIGHTS })).toBe(2);
		expect(sentBody(0).holdings.map((h) => h.isin)).toEqual([fund, fund, moderate]);
		expect(sentBody(1).holdings.map((h) => h.isin)).toEqual([
			sustainable,
			notSustainable,
			uncovered,
			sustainable,
		]);
		const out = result.items('Node');
		expect(out.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(out.map((item) => item.json.removed)).toEqual(ISIN_OF_ROW.map((isin) => isin === null));
	});

	it('only cash: no request, every row reported', async () => {
		const items = [HOLDINGS[2], HOLDINGS[6]];
		const result = await run(items, classify());
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(0);
		expect(
			result
				.items('Node')
				.map((item) => [item.json.label, item.json.removed_reason, item.pairedItem]),
		).toEqual([
			['Not classified', 'cash row', { item: 0 }],
			['Not classified', 'no ISIN', { item: 1 }],
		]);
	});

	const good = HOLDINGS[1];
	portfolioRouteGuardTests(sim, {
		node: classify,
		portfolio: HOLDINGS,
		cashRowError: /^- Item 2: this cash row cannot be sent/m,
		route: INSIGHTS,
		timeoutMessage:
			'The sustainable investments classification took longer than the API allows (29 seconds). Send fewer holdings, for example by splitting the portfolio with Group By.',
		badInput: [
			[
				'missing market value',
				[good, { ISIN: moderate, Name: 'X', Type: 'stock' }],
				/^The market value is missing/,
			],
			[
				'bad instrument type',
				[{ ...good, Type: 'Crypto' }],
				/^Instrument type "Crypto" is not one the API knows/,
			],
			[
				'invalid ISIN',
				[good, good, { ...good, ISIN: 'DE000716460O' }],
				/^Invalid ISIN: "DE000716460O"/,
			],
			['missing name', [{ ...good, Name: '' }], /^The Name cell is empty/],
		],
	});

	it('under continueOnFail: the bad group becomes error items, the other group is classified', async () => {
		const items = [
			{ ...good, book: 'a' },
			{ ...good, Type: 'Crypto', book: 'b' },
			{ ...HOLDINGS[8], book: 'a' },
		];
		const result = await run(items, classify({ groupBy: 'book' }, 'continueRegularOutput'));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		const out = result.items('Node');
		expect(out.map((item) => item.json.label ?? item.json.error)).toEqual([
			'Sustainable',
			expect.stringMatching(/^Instrument type "Crypto"/),
			'Moderate',
		]);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('Holdings (JSON): one item per holding, paired to the input item', async () => {
		const holdings = [
			{ isin: moderate, name: 'Amber', instrument_type: 'stock', market_value: 10 },
			{ isin: null, name: 'Cash', instrument_type: 'cash', market_value: 5 },
		];
		const result = await run(
			[{ trigger: true }],
			classify({ holdingsSource: 'json', holdingsJson: JSON.stringify(holdings) }),
		);
		expect(result.error).toBeUndefined();
		expect(
			result.items('Node').map((item) => [item.json.name, item.json.label, item.pairedItem]),
		).toEqual([
			['Amber', 'Moderate', { item: 0 }],
			['Cash', 'Not classified', { item: 0 }],
		]);
	});
});

describe('Sustainable Investments: Get Methodologies and the methodology list', () => {
	const getMethodologies = async (items: IDataObject[], baseUrl = sim.url, apiKey?: string) =>
		await runWorkflow(
			chainWorkflow(items, {
				type: 'sustainableInvestments',
				parameters: { operation: 'getMethodologies' },
			}),
			{ credentials: credentialsFor(baseUrl, apiKey) },
		);

	it('Get Methodologies without the family: the plain 403 message', async () => {
		const result = await getMethodologies([{ a: 1 }], sim.url, 'sim-esg-only');
		expect(fullText(result.error)).toMatch(
			/^Your organization's subscription does not include this data family/,
		);
	});

	/** The node's list methods, called the way n8n's editor does: in n8n-core's LoadOptionsContext. */
	function loadOptionsContext(apiKey = 'sim-all-families', baseUrl = sim.url): LoadOptionsContext {
		const methodology = { __rl: true, mode: 'list', value: '' };
		const [, , node] = chainWorkflow([], {
			type: 'sustainableInvestments',
			parameters: { operation: 'classifyHoldings', methodology },
		}).nodes;
		const nodeTypes = new HarnessNodeTypes().add(node.type, new SustainableInvestments());
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		const credentialsHelper = new HarnessCredentialsHelper(
			new HarnessCredentialTypes([new SustainabilityComplianceApi()]),
			credentialsFor(baseUrl, apiKey),
		);
		const additionalData = contextAdditionalData(credentialsHelper, node.parameters);
		return new LoadOptionsContext(workflow, node, additionalData, 'methodology');
	}

	describe.each([
		['the simulator\'s own shape ({"data": [records]})', undefined, true],
		['an object keyed by id ({"data": {"1": "<name>"}})', 'id-keyed' as const, false],
		['an object keyed by id with records', 'id-keyed-records' as const, true],
		['a bare list', 'bare-array' as const, true],
	])('the API answers the list as %s', (_, shape, withDescription) => {
		const shaped = useSimulator({ methodologiesShape: shape });
		const descriptionOf = (m: (typeof METHODOLOGIES)[number]) =>
			withDescription ? m.description : null;

		it('Get Methodologies: one item per methodology (id, name, description), each paired to item 0', async () => {
			const result = await getMethodologies([{ a: 1 }, { a: 2 }], shaped.url);
			expect(result.error).toBeUndefined();
			expect(shaped.requestCount({ route: METHODOLOGIES_ROUTE })).toBe(1);
			const out = result.items('Node');
			expect(out.map((item) => item.json)).toEqual(
				METHODOLOGIES.map((m) => ({ id: m.id, name: m.name, description: descriptionOf(m) })),
			);
			for (const item of out) expect(item.pairedItem).toEqual({ item: 0 });
		});

		it('the dropdown and the list search list them, one request each', async () => {
			const node = new SustainableInvestments();
			const context = () => loadOptionsContext('sim-all-families', shaped.url);
			const options = await node.methods.loadOptions.getMethodologies.call(context());
			expect(options).toEqual(
				METHODOLOGIES.map((m) => ({
					name: m.name,
					value: m.id,
					description: descriptionOf(m) ?? undefined,
				})),
			);
			const search = await node.methods.listSearch.searchMethodologies.call(context(), 'mifid');
			expect(search.results.map((r) => r.value)).toEqual([3]);
			const all = await node.methods.listSearch.searchMethodologies.call(context());
			expect(all.results).toHaveLength(METHODOLOGIES.length);
			expect(shaped.requestCount({ route: METHODOLOGIES_ROUTE })).toBe(3);
		});
	});

	describe('the API answers the list in a shape nobody can read', () => {
		const shaped = useSimulator({ methodologiesShape: 'unreadable' });

		it('Get Methodologies: an error naming the top-level keys, not 0 items', async () => {
			const result = await getMethodologies([{ a: 1 }], shaped.url);
			expect(fullText(result.error)).toMatch(
				/^The API's answer to the list of methodologies request cannot be read: no list of methodologies in it \(top-level keys: payload, metadata/,
			);
			expect(result.items('Node')).toHaveLength(0);
		});

		it('the dropdown: the same error instead of an empty list', async () => {
			const node = new SustainableInvestments();
			await expect(
				node.methods.loadOptions.getMethodologies.call(
					loadOptionsContext('sim-all-families', shaped.url),
				),
			).rejects.toThrow(/top-level keys: payload, metadata/);
		});
	});

	it('the list explains a missing family', async () => {
		const node = new SustainableInvestments();
		await expect(
			node.methods.loadOptions.getMethodologies.call(loadOptionsContext('sim-esg-only')),
		).rejects.toThrow(/does not include this data family/);
	});
});

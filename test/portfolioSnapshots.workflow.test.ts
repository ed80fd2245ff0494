/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- simulator API keys are test values */
import type { IDataObject, INodeExecutionData, ITaskData } from 'n8n-workflow';

import type { PortfolioState } from './simulator';
import { makeIsin } from './helpers/isins';
import {
	byIdentifier,
	chainWorkflow,
	credentialsFor,
	inTimeZone,
	snapshotSpec as createSnapshot,
} from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { runWorkflow } from './workflow/runner';
import type { WorkflowRunResult } from './workflow/runner';
import { PortfolioSnapshots } from '../nodes/PortfolioSnapshots/PortfolioSnapshots.node';
import { searchPortfolios } from '../nodes/shared/run/methods';
import { useSimulator } from './helpers/simulator';
import { fullText } from './helpers/lookupRuns';

const POST = 'POST /portfolios' as const;
const GET = 'GET /portfolios' as const;
const PUT = 'PUT /portfolios/{identifier}' as const;
const DELETE = 'DELETE /portfolios/{identifier}' as const;
const KEY = 'sim-all-families';
const KEY_2 = 'sim-all-families-2';
const ORG = 'org-a';
const id = (clientId: string) => `svc-portfolio:${ORG}_${clientId}`;

const THIS_YEAR = new Date().getUTCFullYear();
const LAST_YEAR = THIS_YEAR - 1;
/** Three quarters of last year: always listed (less than five years old) and never in a future year. */
const QUARTERS = [
	{ date: `${LAST_YEAR}-03-31`, quarterEnd: `${LAST_YEAR}-03-31` },
	{ date: `${LAST_YEAR}-06-15`, quarterEnd: `${LAST_YEAR}-06-30` },
	{ date: `${LAST_YEAR}-08-01T00:00:00`, quarterEnd: `${LAST_YEAR}-09-30` },
];

const sim = useSimulator();

const HOLDING_FIELDS = ['isin', 'name', 'instrument_type', 'currency', 'weight', 'market_value'];
/** A holding from its isin, name, instrument type, currency, weight and market value. */
const holding = (values: readonly unknown[]) =>
	Object.fromEntries(HOLDING_FIELDS.map((field, index) => [field, values[index]])) as IDataObject;

/** Apple, SAP and a cash row (no ISIN, allowed on POST /portfolios), as a sheet gives them. */
function holdingRows(portfolioId: string, portfolioName: string, date: string, scale = 1) {
	return [
		[makeIsin('US', 1), 'Apple Inc.', 'Stock', 'USD', 60, 600 * scale],
		[makeIsin('DE', 2), 'SAP SE', 'stock', 'EUR', 35, '350.00'],
		['', 'Cash EUR', 'cash', 'EUR', 5, 50],
	].map(
		(row): IDataObject => ({
			portfolio_id: portfolioId,
			portfolio_name: portfolioName,
			date,
			...holding(row),
		}),
	);
}

/** Two portfolios x three quarters, three holdings each: 18 rows, 6 groups. */
function historyRows(): IDataObject[] {
	return ['fund-a', 'fund-b'].flatMap((portfolioId) =>
		QUARTERS.flatMap(({ date }) =>
			holdingRows(portfolioId, portfolioId === 'fund-a' ? 'Fund A' : 'Fund B', date),
		),
	);
}

/** The Portfolio parameter in By Identifier mode, read from the item's `identifier`. */
const ITEM_PORTFOLIO = byIdentifier('={{ $json.identifier }}');

function snapshotsNode(
	operation: string,
	parameters: IDataObject = {},
	onError?: NodeSpec['onError'],
): NodeSpec {
	return { type: 'portfolioSnapshots', parameters: { operation, ...parameters }, onError };
}

/** `items` -> the node, with `apiKey`, in a workflow whose Timezone setting is `timezone` (default: none). */
async function run(items: IDataObject[], spec: NodeSpec, apiKey = KEY, timezone?: string) {
	const flow = chainWorkflow(items, spec);
	const result = await runWorkflow(timezone ? inTimeZone(flow, timezone) : flow, {
		credentials: credentialsFor(sim.url, apiKey),
	});
	return { result, out: result.items('Node') };
}

async function storeHistory(): Promise<INodeExecutionData[]> {
	const { result, out } = await run(historyRows(), createSnapshot());
	expect(result.error).toBeUndefined();
	return out;
}

function state(): Record<string, PortfolioState> {
	return Object.fromEntries(
		sim.portfolioState(ORG).map((portfolio) => [portfolio.identifier, portfolio]),
	);
}

describe('Portfolio Snapshots: description', () => {
	it('is a tool-usable node with the four operations and the portfolio search', () => {
		const node = new PortfolioSnapshots();
		expect(node.description).toMatchObject({
			name: 'portfolioSnapshots',
			displayName: 'Portfolio Snapshots',
			usableAsTool: true,
		});
		const operation = node.description.properties.find((p) => p.name === 'operation')!;
		const values = operation.options!.map((o) => (o as { value: string }).value);
		expect(values).toEqual(['createOrUpdateSnapshot', 'deleteSnapshot', 'getMany', 'update']);
		expect(node.methods.listSearch.searchPortfolios).toBe(searchPortfolios);
	});
});

describe('Portfolio Snapshots: Create or Update Snapshot', () => {
	it('stores a history of two portfolios x three quarters with one request per group', async () => {
		const out = await storeHistory();
		expect(sim.requestCount({ route: POST, key: KEY })).toBe(6);
		expect(out).toHaveLength(6);

		const expected = ['fund-a', 'fund-b'].flatMap((portfolioId, p) =>
			QUARTERS.map(({ date, quarterEnd }, q) => ({
				identifier: id(portfolioId),
				portfolio_id: portfolioId,
				name: portfolioId === 'fund-a' ? 'Fund A' : 'Fund B',
				outcome: q === 0 ? 'created' : 'updated',
				quarter_end: quarterEnd,
				snapshot_date: date.slice(0, 10),
				holdings_count: 3,
				removed_count: 0,
				message: `Fund ${q === 0 ? 'created' : 'updated'} successfully at ${quarterEnd}`,
				group: p * 3 + q,
			})),
		);
		out.forEach((item, index) => {
			const { group, ...json } = expected[index];
			expect(item.json).toMatchObject(json);
			expect(item.pairedItem).toEqual([0, 1, 2].map((row) => ({ item: group * 3 + row })));
		});

		// The bodies: identifier, name, currency, date as YYYY-MM-DD, the cash row with isin null.
		const bodies = sim.requests({ route: POST }).map((request) => request.body as IDataObject);
		expect(bodies[2]).toEqual({
			identifier: 'fund-a',
			name: 'Fund A',
			currency: 'EUR',
			snapshot_at: `${LAST_YEAR}-08-01`,
			holdings: [
				[makeIsin('US', 1), 'Apple Inc.', 'stock', 'USD', 60, 600],
				[makeIsin('DE', 2), 'SAP SE', 'stock', 'EUR', 35, 350],
				[null, 'Cash EUR', 'cash', 'EUR', 5, 50],
			].map(holding),
		});

		const stored = state();
		expect(Object.keys(stored).sort()).toEqual([id('fund-a'), id('fund-b')]);
		for (const portfolio of Object.values(stored)) {
			expect(portfolio.currency).toBe('EUR');
			expect(portfolio.snapshots.map((s) => s.date)).toEqual(QUARTERS.map((q) => q.quarterEnd));
		}
	});

	it('a later quarter with another name in the sheet: the output names the portfolio by the name it was created with', async () => {
		const rows = [
			...holdingRows('fund-n', 'First Name', QUARTERS[0].date),
			...holdingRows('fund-n', 'Second Name', QUARTERS[1].date),
		];
		const { result, out } = await run(rows, createSnapshot());
		expect(result.error).toBeUndefined();
		expect(state()[id('fund-n')].name).toBe('First Name');
		expect(
			out.map((item) => [item.json.outcome, item.json.name, item.json.name_in_request]),
		).toEqual([
			['created', 'First Name', 'First Name'],
			['updated', 'First Name', 'Second Name'],
		]);
		expect(out[0].json).not.toHaveProperty('name_note');
		expect(out[1].json.name_note).toBe(
			'Not applied: the API keeps the name the portfolio already has ("First Name"). Rename it with the Update operation.',
		);
	});

	it('replaces the snapshot of a quarter when sent again with another date of that quarter', async () => {
		await storeHistory();
		const rows = holdingRows('fund-a', 'Renamed? No: name is kept', `${LAST_YEAR}-05-02`, 2);
		const { result, out } = await run(rows, createSnapshot({ currency: 'SEK' }));
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			outcome: 'updated',
			quarter_end: `${LAST_YEAR}-06-30`,
			snapshot_date: `${LAST_YEAR}-05-02`,
		});
		// Spec 3: the portfolio keeps its first name; the output does not claim the sheet's name, and says so.
		expect(out[0].json).toMatchObject({ name: null, name_in_request: 'Renamed? No: name is kept' });
		expect(out[0].json.name_note).toMatch(
			/^Not applied: the API keeps the name the portfolio already has\. Rename it with the Update operation\.$/,
		);
		const fundA = state()[id('fund-a')];
		expect(fundA.name).toBe('Fund A');
		expect(fundA.currency).toBe('EUR');
		expect(fundA.snapshots).toHaveLength(3);
		const q2 = fundA.snapshots.find((s) => s.date === `${LAST_YEAR}-06-30`)!;
		expect((q2.holdings[0] as IDataObject).market_value).toBe(1200);
	});

	it('without Group By sends all items as one snapshot, paired to every item', async () => {
		const rows = holdingRows('x', 'X', `${LAST_YEAR}-12-31`);
		const { result, out } = await run(
			rows,
			createSnapshot({
				groupBy: '',
				portfolioId: 'solo_1',
				portfolioName: 'Solo',
				snapshotDate: `${LAST_YEAR}-11-30T00:00:00.000Z`,
				currency: 'USD',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: POST })).toBe(1);
		expect(out[0].json).toMatchObject({
			identifier: id('solo_1'),
			outcome: 'created',
			quarter_end: `${LAST_YEAR}-12-31`,
			holdings_count: 3,
		});
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(state()[id('solo_1')].currency).toBe('USD');
	});

	it('takes holdings from the JSON parameter', async () => {
		const holdingsJson = JSON.stringify([
			{ isin: null, name: 'Cash', currency: 'EUR', market_value: 10 },
		]);
		const { result, out } = await run(
			[{ a: 1 }, { a: 2 }],
			createSnapshot({
				holdingsSource: 'json',
				holdingsJson,
				portfolioId: 'json-1',
				portfolioName: 'J',
				snapshotDate: `${LAST_YEAR}-01-01`,
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: POST })).toBe(1);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			outcome: 'created',
			quarter_end: `${LAST_YEAR}-03-31`,
			holdings_count: 1,
		});
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('Portfolio Snapshots: Get Many', () => {
	it('lists every portfolio of the organization, also with a second key of the same organization', async () => {
		await storeHistory();
		for (const apiKey of [KEY, KEY_2]) {
			const { result, out } = await run(
				[{ x: 1 }, { x: 2 }],
				snapshotsNode('getMany', { returnAll: true }),
				apiKey,
			);
			expect(result.error).toBeUndefined();
			expect(sim.requestCount({ route: GET, key: apiKey })).toBe(1);
			expect(out.map((item) => item.json)).toEqual(
				['fund-a', 'fund-b'].map((clientId) => ({
					identifier: id(clientId),
					name: clientId === 'fund-a' ? 'Fund A' : 'Fund B',
					snapshots: QUARTERS.map((q) => q.quarterEnd),
					snapshot_count: 3,
					latest_snapshot: QUARTERS[2].quarterEnd,
					members: 3,
				})),
			);
			for (const item of out) expect(item.pairedItem).toEqual({ item: 0 });
		}
	});

	it('filters by name (contains, case ignored) and limits', async () => {
		await storeHistory();
		const filtered = await run(
			[{}],
			snapshotsNode('getMany', { returnAll: true, options: { nameContains: ' b' } }),
		);
		expect(filtered.out.map((item) => item.json.identifier)).toEqual([id('fund-b')]);
		const limited = await run([{}], snapshotsNode('getMany', { returnAll: false, limit: 1 }));
		expect(limited.out.map((item) => item.json.identifier)).toEqual([id('fund-a')]);
	});
});

describe('Portfolio Snapshots: Update', () => {
	it('renames and changes the currency per input item, sending only the fields set', async () => {
		await storeHistory();
		const { result, out } = await run(
			[
				{ identifier: id('fund-a'), new_name: 'Global Equity' },
				{ identifier: id('fund-b'), new_name: 'Nordic Credit' },
			],
			snapshotsNode('update', {
				portfolio: ITEM_PORTFOLIO,
				updateFields: {
					name: '={{ $json.new_name }}',
					currency: '={{ $itemIndex === 1 ? "sek" : "GBP" }}',
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: PUT })).toBe(2);
		const requests = sim.requests({ route: PUT });
		expect(requests[0].path).toBe(`/portfolios/${encodeURIComponent(id('fund-a'))}`);
		expect(requests.map((r) => r.body)).toEqual([
			{ name: 'Global Equity', currency: 'GBP' },
			{ name: 'Nordic Credit', currency: 'SEK' },
		]);
		expect(out.map((item) => item.json)).toEqual(
			[
				['fund-a', 'Global Equity', 'GBP'],
				['fund-b', 'Nordic Credit', 'SEK'],
			].map(([clientId, name, currency]) => ({
				identifier: id(clientId),
				message: `Fund metadata updated successfully with id: ${id(clientId)}`,
				name,
				currency,
			})),
		);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(state()[id('fund-a')]).toMatchObject({ name: 'Global Equity', currency: 'GBP' });
		expect(state()[id('fund-b')]).toMatchObject({ name: 'Nordic Credit', currency: 'SEK' });

		// Only the name: the currency is not sent.
		const fromList = { __rl: true, mode: 'list', value: id('fund-a') };
		await run(
			[{}],
			snapshotsNode('update', { portfolio: fromList, updateFields: { name: 'Only Name' } }),
		);
		expect(sim.requests({ route: PUT })[2].body).toEqual({ name: 'Only Name' });
		expect(state()[id('fund-a')]).toMatchObject({ name: 'Only Name', currency: 'GBP' });
	});

	it.each<[string, IDataObject, IDataObject, RegExp]>([
		[
			'an unknown currency code (the API would ignore it)',
			{ identifier: id('fund-a'), ccy: 'XYZ' },
			{ portfolio: ITEM_PORTFOLIO, updateFields: { name: 'N', currency: '={{ $json.ccy }}' } },
			/^Update Fields > Currency "XYZ" is not an ISO 4217 currency code/,
		],
		[
			// Typed as such, n8n itself refuses it (the mode's validation); from an expression, the node does.
			'a client identifier that is not the returned form',
			{ identifier: 'fund-a' },
			{ portfolio: ITEM_PORTFOLIO, updateFields: { name: 'N' } },
			/^Portfolio "fund-a" is not a portfolio identifier/,
		],
		[
			'an update with no field',
			{},
			{ portfolio: byIdentifier(id('fund-a')), updateFields: {} },
			/^Nothing to update/,
		],
	])('refuses %s locally: nothing sent', async (_, item, parameters, message) => {
		await storeHistory();
		const sentBefore = sim.requestCount();
		const { result } = await run([item], snapshotsNode('update', parameters));
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(message);
		expect(sim.requestCount()).toBe(sentBefore);
		expect(state()[id('fund-a')].name).toBe('Fund A');
	});
});

describe('Portfolio Snapshots: Delete Snapshot', () => {
	const deleteNode = (onError?: NodeSpec['onError']) =>
		snapshotsNode(
			'deleteSnapshot',
			{ portfolio: ITEM_PORTFOLIO, snapshotDate: '={{ $json.date }}' },
			onError,
		);

	it('deletes snapshots down to the portfolio, and says not_found for an unlisted quarter', async () => {
		await storeHistory();
		const day = (monthDay: string) => `${LAST_YEAR}-${monthDay}`;
		// Date sent, its quarter end, outcome, message.
		const deletes = [
			['02-10', '03-31', 'snapshot_deleted', 'Fund snapshot deleted successfully'],
			['06-30', '06-30', 'snapshot_deleted', 'Fund snapshot deleted successfully'],
			['12-31', '12-31', 'not_found', 'Fund snapshot not found'],
			['09-30', '09-30', 'portfolio_deleted', 'Fund deleted successfully with all snapshots'],
		];
		const { result, out } = await run(
			deletes.map(([date]) => ({ identifier: id('fund-b'), date: day(date) })),
			deleteNode(),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: DELETE })).toBe(4);
		expect(sim.requests({ route: DELETE }).map((r) => r.body)).toEqual(
			deletes.map(([date]) => ({ snapshot_at: day(date) })),
		);
		expect(out.map((item) => item.json)).toEqual(
			deletes.map(([date, quarterEnd, outcome, message]) => ({
				identifier: id('fund-b'),
				outcome,
				message,
				quarter_end: day(quarterEnd),
				snapshot_date: day(date),
			})),
		);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(Object.keys(state())).toEqual([id('fund-a')]);
	});

	it('reports portfolio_deleted for a portfolio whose snapshots are all too old to be listed', async () => {
		const old = `${THIS_YEAR - 7}-06-30`;
		const created = await run(holdingRows('old-fund', 'Old', old), createSnapshot());
		expect(created.out[0].json).toMatchObject({ outcome: 'created', quarter_end: old });
		const { out } = await run(
			[{ identifier: id('old-fund'), date: `${LAST_YEAR}-01-01` }],
			deleteNode(),
		);
		expect(out[0].json).toMatchObject({
			outcome: 'portfolio_deleted',
			message: 'Fund deleted successfully',
			quarter_end: `${LAST_YEAR}-03-31`,
		});
		expect(state()[id('old-fund')]).toBeUndefined();
	});

	it('with continueOnFail: a bad date becomes an error item, the other items go on', async () => {
		await storeHistory();
		const { result, out } = await run(
			[
				{ identifier: id('fund-a'), date: `${LAST_YEAR}-03-31` },
				{ identifier: id('fund-a'), date: `${THIS_YEAR + 1}-03-31` },
				{ identifier: id('fund-a'), date: `${LAST_YEAR}-06-30` },
			],
			deleteNode('continueRegularOutput'),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: DELETE })).toBe(2);
		expect(out).toHaveLength(3);
		expect(out[0].json.outcome).toBe('snapshot_deleted');
		expect(out[1].json.error).toMatch(/^Snapshot Date "\d{4}-03-31" is in a future year/);
		expect(out[1].json.identifier).toBe(id('fund-a'));
		expect(out[1].pairedItem).toEqual({ item: 1 });
		expect(out[2].json.outcome).toBe('snapshot_deleted');
	});
});

describe('Portfolio Snapshots: local checks, before any request', () => {
	/** A history of three groups whose middle group (items 3-5) gets `change`. */
	function withBadMiddleGroup(change: (row: IDataObject, index: number) => void): IDataObject[] {
		const rows = QUARTERS.flatMap(({ date }) => holdingRows('fund-a', 'Fund A', date));
		rows.slice(3, 6).forEach(change);
		return rows;
	}

	it.each<[string, (row: IDataObject, index: number) => void, RegExp]>([
		[
			'bad Portfolio ID characters',
			(row) => (row.portfolio_id = 'fund a/1'),
			/^Group portfolio_id = "fund a\/1", date = .*: Portfolio ID "fund a\/1" may only contain letters, digits, "-" and "_"/,
		],
		[
			'a future-year date',
			(row) => (row.date = `${THIS_YEAR + 1}-03-31`),
			/^Snapshot Date "\d{4}-03-31" is in a future year.*: group portfolio_id = "fund-a", date = "\d{4}-03-31"\. Correct the date/,
		],
		[
			'an unreadable date',
			(row) => (row.date = '31/06/2025'),
			/^Snapshot Date "31\/06\/2025" is not a date the API can read.*: group portfolio_id = "fund-a", date = "31\/06\/2025"\. Correct the date/,
		],
		[
			'a missing market value',
			(row, index) => index === 1 && delete row.market_value,
			/^The market value is missing/,
		],
		[
			'a zero market value',
			(row, index) => index === 2 && (row.market_value = '0,00'),
			/^The market value is 0/,
		],
	])(
		'%s in the middle group: error naming the item and field, nothing stored',
		async (_label, change, message) => {
			const { result } = await run(withBadMiddleGroup(change), createSnapshot());
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toMatch(message);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it.each<[string, IDataObject[], IDataObject, RegExp]>([
		[
			'an empty Snapshot Date',
			holdingRows('fund-a', 'A', ''),
			{ groupBy: 'portfolio_id' },
			/^Group portfolio_id = "fund-a": Snapshot Date is empty/,
		],
		[
			'an empty Portfolio ID',
			holdingRows('', 'A', `${LAST_YEAR}-01-01`),
			{ groupBy: '' },
			/^Portfolio ID is empty/,
		],
		[
			'a Portfolio ID over 200 characters',
			holdingRows('p'.repeat(201), 'Long', QUARTERS[0].date),
			{},
			/^Portfolio ID is 201 characters long \("p{40}…"\); at most 200 are accepted: group portfolio_id = "p+…", date = "\d{4}-\d\d-\d\d"\. The API returns/,
		],
		[
			'two groups that would land in the same quarter of the same portfolio (naming both)',
			[
				...holdingRows('fund-a', 'A', `${LAST_YEAR}-01-15`),
				...holdingRows('fund-a', 'A', `${LAST_YEAR}-04-01`),
				...holdingRows(' fund-a ', 'A', `${LAST_YEAR}-02-20`),
			],
			{},
			new RegExp(
				`^Group .* and Group .* would all store portfolio "fund-a" at the same quarter end ${LAST_YEAR}-03-31`,
			),
		],
	])('refuses %s: an input error, nothing sent', async (_, rows, extra, message) => {
		const { result } = await run(rows, createSnapshot(extra));
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(message);
		expect(sim.requestCount()).toBe(0);
	});

	it('with continueOnFail: the bad group becomes error items, the other groups are stored', async () => {
		const rows = withBadMiddleGroup((row) => (row.date = 'not a date'));
		const { result, out } = await run(rows, createSnapshot({}, 'continueRegularOutput'));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: POST })).toBe(2);
		expect(out).toHaveLength(5);
		expect(out[0].json).toMatchObject({ outcome: 'created', quarter_end: QUARTERS[0].quarterEnd });
		for (const [offset, item] of out.slice(1, 4).entries()) {
			expect(item.json.error).toMatch(/^Snapshot Date "not a date" is not a date/);
			expect(item.json.error_details).toMatch(
				/^Group portfolio_id = "fund-a", date = "not a date"\. Correct the date/,
			);
			expect(item.json.name).toBe(rows[3 + offset].name);
			expect(item.pairedItem).toEqual({ item: 3 + offset });
		}
		expect(out[4].json).toMatchObject({ outcome: 'updated', quarter_end: QUARTERS[2].quarterEnd });
		expect(state()[id('fund-a')].snapshots.map((s) => s.date)).toEqual([
			QUARTERS[0].quarterEnd,
			QUARTERS[2].quarterEnd,
		]);
	});

	it('an API failure mid-history says which groups were already stored', async () => {
		sim.setFaults(POST, { sequence: [null, '504'] });
		const rows = QUARTERS.flatMap(({ date }) => holdingRows('fund-a', 'Fund A', date));
		const { result } = await run(rows, createSnapshot());
		expect(result.status).toBe('error');
		expect(sim.requestCount({ route: POST })).toBe(2);
		expect(fullText(result.error)).toMatch(
			/Group .*: not stored\. 1 of 3 snapshots were stored before the run stopped \(fund-a at \d{4}-03-31\); running again is safe/,
		);
	});

	it('with continueOnFail: an API refusal of one item (unknown portfolio) does not stop the others', async () => {
		await storeHistory();
		const { result, out } = await run(
			[{ identifier: id('no-such-fund') }, { identifier: id('fund-b') }],
			snapshotsNode(
				'update',
				{ portfolio: ITEM_PORTFOLIO, updateFields: { name: 'Renamed' } },
				'continueRegularOutput',
			),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: PUT })).toBe(2);
		expect(out[0].json).toMatchObject({ identifier: id('no-such-fund'), http_code: '400' });
		expect(out[0].json.error).toMatch(/portfolio update/);
		expect(out[1].json).toMatchObject({ identifier: id('fund-b'), name: 'Renamed' });
	});
});

describe('over-long identifiers and ISINs are refused before any request', () => {
	const LONG_IDENTIFIER = `svc-portfolio:${ORG}_${'x'.repeat(20_000)}`;

	it.each([
		['update', { updateFields: { name: 'N' } }],
		['deleteSnapshot', { snapshotDate: `${LAST_YEAR}-03-31` }],
	])(
		'%s: a 20,000-character portfolio identifier is an input error naming the item and the field',
		async (operation, extra) => {
			const portfolio = byIdentifier('={{ $json.identifier ?? "svc-portfolio:org-a_short" }}');
			const { result } = await run(
				[{ ok: 1 }, { identifier: LONG_IDENTIFIER }],
				snapshotsNode(operation, { portfolio, ...extra }),
			);
			expect(fullText(result.error)).toMatch(
				/^Portfolio is 20\d{3} characters long \("svc-portfolio:org-a_x{20}…"\)/,
			);
			expect((result.error as { description?: string }).description).toMatch(/Nothing was sent/);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it('a 1 MB ISIN in a holding: refused even with Invalid ISINs "Send Anyway"; with "Skip" the row is reported by a short prefix', async () => {
		const rows = holdingRows('fund-l', 'Long ISIN', QUARTERS[0].date);
		rows[1] = { ...rows[1], isin: 'D'.repeat(1024 * 1024) };
		const sent = await run(rows, createSnapshot({ invalidIsins: 'send' }));
		expect(sent.result.error?.message).toMatch(
			/^Invalid ISIN: 1048576 characters \("D{20}…"\), far more than the 12 of an ISIN$/,
		);
		expect(fullText(sent.result.error)).toMatch(
			/never sent, even with "Invalid ISINs" set to Send Anyway/,
		);
		expect(sim.requestCount()).toBe(0);

		const skipped = await run(rows, createSnapshot({ invalidIsins: 'skip' }));
		expect(skipped.result.error).toBeUndefined();
		expect(JSON.stringify(sim.requests({ route: POST })[0].body)).not.toContain(
			'DDDDDDDDDDDDDDDDDDDDDDDDD',
		);
		expect(skipped.out[0].json).toMatchObject({ removed_count: 1, holdings_count: 2 });
		expect(skipped.out[0].json.removed_rows).toEqual([
			expect.objectContaining({
				item: 1,
				isin: `${'D'.repeat(40)}…`,
				reason: expect.stringMatching(/^invalid ISIN: 1048576 characters/),
			}),
		]);
	});
});

describe("Portfolio Snapshots: Snapshot Date in the workflow's time zone", () => {
	/** 1 October 2025, 00:00 in Berlin (CEST, UTC+2): 30 September in UTC. Built the same whatever jest's TZ is. */
	const BERLIN_MIDNIGHT = "={{ new Date('2025-09-30T22:00:00Z') }}";
	/** 00:30 in Berlin as a Luxon DateTime (n8n's expressions give it in the workflow's zone). */
	const LUXON_BERLIN = "={{ DateTime.fromISO('2025-10-01T00:30:00+02:00') }}";
	/** Midnight of 1 October in the workflow's zone, as n8n's DateTime.fromISO gives a date-only text. */
	const LUXON_MIDNIGHT = "={{ DateTime.fromISO('2025-10-01') }}";
	/** The notes above the output about Snapshot Dates (the node also notes the requests it sent). */
	const hintsOf = (result: WorkflowRunResult): string[] =>
		(
			(result.runData.Node?.[0] as (ITaskData & { hints?: Array<{ message: string }> }) | undefined)
				?.hints ?? []
		)
			.map((hint) => hint.message)
			.filter((message) => message.startsWith('Snapshot Date'));

	const runIn = (timezone: string, items: IDataObject[], spec: NodeSpec) =>
		run(items, spec, KEY, timezone);

	const inBerlin =
		"read as 2025-10-01 (Q4 2025): it is exactly midnight in the workflow's time zone Europe/Berlin";
	const [OCT_1, SEP_30, Q4] = ['2025-10-01', '2025-09-30', '2025-12-31'];
	// Time zone, Snapshot Date, what it is, the date sent, the quarter end stored, the note: null for none, undefined
	// where it depends on the process's time zone (in which n8n's expression gives a DateTime).
	it.each<[string, string, string, string, string, string | null | undefined]>([
		['Europe/Berlin', BERLIN_MIDNIGHT, 'a JS Date', OCT_1, Q4, inBerlin],
		['Europe/Berlin', LUXON_MIDNIGHT, 'a Luxon DateTime', OCT_1, Q4, inBerlin],
		['Europe/Berlin', '2025-10-01T00:00:00+02:00', 'a text with an offset', OCT_1, Q4, inBerlin],
		['Europe/Berlin', OCT_1, 'a date as text', OCT_1, Q4, null],
		['Europe/Berlin', '2025-10-01T00:00:00', "the date picker's value", OCT_1, Q4, null],
		['UTC', BERLIN_MIDNIGHT, 'a JS Date', SEP_30, SEP_30, null],
		['America/New_York', LUXON_BERLIN, 'a Luxon DateTime', SEP_30, SEP_30, undefined],
		[
			'Asia/Tokyo',
			"={{ new Date('2025-09-30T15:00:00Z') }}",
			'a JS Date',
			OCT_1,
			Q4,
			"Snapshot Date 2025-09-30T15:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the workflow's time zone Asia/Tokyo",
		],
		[
			'Asia/Tokyo',
			"={{ new Date('2025-11-14T16:00:00Z') }}",
			'a JS Date',
			'2025-11-15',
			Q4,
			"Snapshot Date 2025-11-14T16:00:00.000Z read as 2025-11-15 in the workflow's time zone Asia/Tokyo",
		],
		['America/New_York', OCT_1, 'a date as text', OCT_1, Q4, null],
	])(
		'%s: %s (%s) reaches the API as %s, stored at %s',
		async (timezone, snapshotDate, _kind, date, quarterEnd, note) => {
			const { result, out } = await runIn(
				timezone,
				holdingRows('fund-tz', 'Fund TZ', 'unused'),
				createSnapshot({ snapshotDate, groupBy: '' }),
			);
			expect(result.error).toBeUndefined();
			expect(sim.requests({ route: POST }).map((r) => (r.body as IDataObject).snapshot_at)).toEqual(
				[date],
			);
			expect(state()[id('fund-tz')].snapshots.map((snapshot) => snapshot.date)).toEqual([
				quarterEnd,
			]);
			expect(out).toHaveLength(1);
			expect(out[0].json).toMatchObject({
				outcome: 'created',
				quarter_end: quarterEnd,
				snapshot_date: date,
			});
			if (note) {
				expect(out[0].json.snapshot_date_note).toContain(note);
				expect(hintsOf(result)).toEqual([expect.stringContaining(`read as ${date}`)]);
			} else if (note === null) {
				expect(out[0].json).not.toHaveProperty('snapshot_date_note');
				expect(hintsOf(result)).toEqual([]);
			}
		},
	);

	it('Delete Snapshot: a Date at midnight in Berlin deletes the snapshot of its quarter in Berlin (Q4), noted once', async () => {
		await runIn(
			'Europe/Berlin',
			[
				...holdingRows('fund-tz', 'Fund TZ', '2025-09-30'),
				...holdingRows('fund-tz', 'Fund TZ', '2025-12-31'),
			],
			createSnapshot({ groupBy: 'date' }),
		);
		expect(state()[id('fund-tz')].snapshots.map((snapshot) => snapshot.date)).toEqual([
			'2025-09-30',
			'2025-12-31',
		]);
		const { result, out } = await runIn(
			'Europe/Berlin',
			[{ identifier: id('fund-tz') }, { identifier: id('fund-tz') }],
			snapshotsNode('deleteSnapshot', { portfolio: ITEM_PORTFOLIO, snapshotDate: BERLIN_MIDNIGHT }),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: DELETE }).map((r) => r.body)).toEqual([
			{ snapshot_at: '2025-10-01' },
			{ snapshot_at: '2025-10-01' },
		]);
		expect(out.map((item) => [item.json.outcome, item.json.quarter_end])).toEqual([
			['snapshot_deleted', '2025-12-31'],
			['not_found', '2025-12-31'],
		]);
		expect(state()[id('fund-tz')].snapshots.map((snapshot) => snapshot.date)).toEqual([
			'2025-09-30',
		]);
		const note =
			"Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the workflow's time zone Europe/Berlin; in UTC it is 2025-09-30 (Q3 2025)";
		// What follows "; in UTC" names the server's zone too when jest's TZ is not UTC or Berlin.
		expect(out.map((item) => item.json.snapshot_date_note)).toEqual([
			expect.stringContaining(note),
			expect.stringContaining(note),
		]);
		expect(hintsOf(result)).toEqual([
			'Snapshot Date read as 2025-10-01, Q4 2025 (midnight in Europe/Berlin), not Q3 2025 as in UTC',
		]);
	});
});

/**
 * Issue 35, case 1: a Q4 date that reaches the node as a moment (UTC midnight from `new Date('2025-10-01')` or a
 * database's `2025-10-01T00:00:00.000Z`) was read in the workflow's time zone: in n8n's default America/New_York that
 * is 30 September, and the Q4 holdings replaced the stored Q3 snapshot. Now a moment is read in UTC, the workflow's and
 * the server's zone and as written; the reading at midnight settles two quarters, and a moment midnight nowhere is
 * refused before any request.
 */
describe('Portfolio Snapshots: a Q4 date read as a moment never replaces the stored Q3 snapshot', () => {
	const Q3 = '2025-09-30';
	const Q4 = '2025-12-31';
	const hintsOf = (result: WorkflowRunResult): string[] =>
		(
			(result.runData.Node?.[0] as (ITaskData & { hints?: Array<{ message: string }> }) | undefined)
				?.hints ?? []
		)
			.map((hint) => hint.message)
			.filter((message) => message.startsWith('Snapshot Date'));

	/** The Q3 snapshot of fund-q, stored from a date-only text (Apple at 600). */
	async function storeQ3(timezone?: string) {
		const { result } = await run(
			holdingRows('fund-q', 'Fund Q', Q3),
			createSnapshot({ groupBy: '' }),
			KEY,
			timezone,
		);
		expect(result.error).toBeUndefined();
	}
	const appleValueAt = (quarterEnd: string) =>
		(
			state()[id('fund-q')].snapshots.find((snapshot) => snapshot.date === quarterEnd)?.holdings as
				| IDataObject[]
				| undefined
		)?.find((h) => String(h.isin ?? '').startsWith('US'))?.market_value;

	it.each<[string, string | undefined, string, string, string]>([
		// n8n's default time zone (no Timezone setting): America/New_York.
		['the default zone', undefined, '={{ new Date($json.date) }}', '2025-10-01', 'UTC'],
		['the default zone', undefined, '={{ $json.date }}', '2025-10-01T00:00:00.000Z', 'UTC'],
		['Europe/Berlin', 'Europe/Berlin', '={{ new Date($json.date) }}', '2025-10-01', 'UTC'],
		// Midnight of 1 October in Tokyo, as an API there writes it: 17:00 on 30 September in Berlin.
		[
			'Europe/Berlin',
			'Europe/Berlin',
			'={{ $json.date }}',
			'2025-10-01T00:00:00+09:00',
			'the offset it was written with (+09:00)',
		],
		[
			'Europe/Berlin',
			'Europe/Berlin',
			"={{ DateTime.fromISO($json.date, { zone: 'Asia/Tokyo' }) }}",
			'2025-10-01',
			'the offset it was written with (+09:00)',
		],
	])(
		'%s (Timezone setting %s): Snapshot Date %s with date %s stores Q4 beside Q3 (midnight in %s)',
		async (_zone, timezone, snapshotDate, date, midnightIn) => {
			await storeQ3(timezone);
			const { result, out } = await run(
				holdingRows('fund-q', 'Fund Q', date, 2),
				createSnapshot({ snapshotDate, groupBy: '' }),
				KEY,
				timezone,
			);
			expect(result.error).toBeUndefined();
			expect(
				sim.requests({ route: POST }).map((request) => (request.body as IDataObject).snapshot_at),
			).toEqual([Q3, '2025-10-01']);
			expect(state()[id('fund-q')].snapshots.map((snapshot) => snapshot.date)).toEqual([Q3, Q4]);
			expect(appleValueAt(Q3)).toBe(600);
			expect(appleValueAt(Q4)).toBe(1200);
			expect(out[0].json).toMatchObject({ quarter_end: Q4, snapshot_date: '2025-10-01' });
			if (timezone === undefined || midnightIn !== 'UTC') {
				// The readings part (New York's or Berlin's 30 September): the note and the hint say which decided.
				expect(out[0].json.snapshot_date_note).toContain(
					`read as 2025-10-01 (Q4 2025): it is exactly midnight in ${midnightIn}`,
				);
				expect(hintsOf(result)).toEqual([
					expect.stringMatching(
						/^Snapshot Date read as 2025-10-01, Q4 2025 \(midnight in .+\), not Q3 2025/,
					),
				]);
			}
			if (timezone === undefined)
				expect(out[0].json.snapshot_date_note).toContain(
					"in the workflow's time zone America/New_York",
				);
		},
	);

	it.each<[string, string | undefined, string]>([
		// 22:00 on 30 September in New York, 02:00 on 1 October in UTC: midnight in neither.
		['the default zone', undefined, '2025-10-01T02:00:00Z'],
		// 01:30 on 1 October in Berlin, 23:30 on 30 September in UTC.
		['Europe/Berlin', 'Europe/Berlin', '2025-09-30T23:30:00Z'],
	])(
		'%s (Timezone setting %s): %s, in two quarters and midnight in neither, is refused naming both; nothing is sent',
		async (_zone, timezone, date) => {
			await storeQ3(timezone);
			const { result } = await run(
				holdingRows('fund-q', 'Fund Q', date, 2),
				createSnapshot({ groupBy: '' }),
				KEY,
				timezone,
			);
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(
				/^Snapshot Date "2025-\S+" is a moment that falls in two quarters: Q3 2025 or Q4 2025, depending on the time zone\.$/,
			);
			expect(fullText(result.error)).toMatch(
				/^Snapshot Date "2025-\S+" is a moment that falls in two quarters: Q3 2025 or Q4 2025, depending on the time zone\. In .+ it is 2025-09-30 \(Q3 2025\); in .+ it is 2025-10-01 \(Q4 2025\)\. It is exactly midnight in none of them/,
			);
			expect((result.error as { description?: string }).description).toMatch(
				/YYYY-MM-DD text \(2025-09-30 for Q3 2025, 2025-10-01 for Q4 2025\).*toFormat\('yyyy-MM-dd'\)/,
			);
			expect(sim.requestCount({ route: POST })).toBe(1);
			expect(state()[id('fund-q')].snapshots.map((snapshot) => snapshot.date)).toEqual([Q3]);
			expect(appleValueAt(Q3)).toBe(600);
		},
	);

	it('Delete Snapshot: a moment in two quarters is refused before any request', async () => {
		await storeQ3();
		const { result } = await run(
			[{ identifier: id('fund-q') }],
			snapshotsNode('deleteSnapshot', {
				portfolio: ITEM_PORTFOLIO,
				snapshotDate: '2025-10-01T02:00:00Z',
			}),
		);
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(/falls in two quarters/);
		expect(sim.requestCount({ route: DELETE })).toBe(0);
		expect(state()[id('fund-q')].snapshots.map((snapshot) => snapshot.date)).toEqual([Q3]);
	});
});

import { NodeOperationError } from 'n8n-workflow';

import { describeGroupValues, groupItems } from '../../nodes/shared/input/grouping';
import { normalizeInstrumentType } from '../../nodes/shared/input/holdingFields';
import { noHoldingLeftError, readHoldings } from '../../nodes/shared/input/holdings';
import type { HoldingsReadOptions } from '../../nodes/shared/input/holdings';
import type { HoldingRow } from '../../nodes/shared/input/holdingRows';
import { ROUTES } from '../../nodes/shared/api/routes';
import { errorOf, unitNode } from '../helpers/unitInput';

const node = unitNode();
const rows = (...json: object[]): HoldingRow[] =>
	json.map((j, itemIndex) => ({ json: j as never, itemIndex }));
const apple = {
	isin: 'US0378331005',
	name: 'Apple',
	instrument_type: 'stock',
	currency: 'usd',
	weight: 50,
	market_value: 100,
};

describe('readHoldings', () => {
	it('reads spreadsheet headers case- and space-insensitively and coerces numbers', () => {
		const { holdings } = readHoldings(
			node,
			rows({
				ISIN: ' us0378331005',
				Name: 'Apple',
				Type: 'Stock',
				Currency: 'usd',
				Weight: '12.5%',
				'Market Value': '1 234,50',
			}),
			{ route: ROUTES.taxonomy },
		);
		expect(holdings).toEqual([
			{
				itemIndex: 0,
				holding: {
					isin: 'US0378331005',
					name: 'Apple',
					instrument_type: 'stock',
					currency: 'USD',
					weight: 12.5,
					market_value: 1234.5,
				},
			},
		]);
	});

	it('uses the field names the user set', () => {
		const { holdings } = readHoldings(
			node,
			rows({ code: 'US0378331005', title: 'Apple', kind: 'ETF', mv: 5 }),
			{
				route: ROUTES.temperature,
				fieldNames: { isin: 'code', name: 'Title', instrument_type: 'kind', market_value: 'MV' },
			},
		);
		expect(holdings[0].holding).toEqual({
			isin: 'US0378331005',
			name: 'Apple',
			instrument_type: 'etf',
			market_value: 5,
		});
	});

	it.each([
		['Mutual Fund', 'mutual-fund'],
		['SOVEREIGN BOND', 'sovereign-bond'],
		['Government Bond', 'sovereign-bond'],
		['Equity', 'stock'],
		['forward-contract', 'forward-contract'],
		['crypto', undefined],
	])('matches instrument type %p to %p', (input, expected) => {
		expect(normalizeInstrumentType(input)).toBe(expected);
	});

	it('removes and reports cash rows and rows without ISIN on taxonomy', () => {
		const { holdings, removed } = readHoldings(
			node,
			rows(
				apple,
				{ name: 'Cash EUR', instrument_type: 'cash', market_value: 10 },
				{ ...apple, isin: '', name: 'Unlisted' },
			),
			{ route: ROUTES.taxonomy },
		);
		expect(holdings.map((h) => h.itemIndex)).toEqual([0]);
		expect(removed).toEqual([
			{ isin: null, isin_normalised: null, reason: 'cash row', item: 1, name: 'Cash EUR' },
			{ isin: null, isin_normalised: null, reason: 'no ISIN', item: 2, name: 'Unlisted' },
		]);
	});

	it('keeps cash rows in portfolio snapshots (isin may be null)', () => {
		const { holdings, removed } = readHoldings(
			node,
			rows({ name: 'Cash', currency: 'EUR', market_value: 10, instrument_type: 'cash' }),
			{ route: ROUTES.createSnapshot },
		);
		expect(removed).toEqual([]);
		expect(holdings[0].holding.isin).toBeNull();
	});

	it('refuses cash rows when asked to', () => {
		const error = errorOf(() =>
			readHoldings(node, rows(apple, { name: 'Cash', instrument_type: 'cash', market_value: 1 }), {
				route: ROUTES.sustainableInvestments,
				cashRows: 'error',
			}),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^/);
	});

	it('names the item, the field and the fix when a required field is missing', () => {
		const withoutValue: Partial<typeof apple> = { ...apple };
		delete withoutValue.market_value;
		const error = errorOf(() =>
			readHoldings(node, rows(apple, withoutValue), {
				route: ROUTES.taxonomy,
			}),
		);
		// The usual headers as a sheet writes them, never their squashed forms ("marketvalue").
		expect(error.message).toBe(
			'The market value is missing (looked for a field named "Market Value", "MV", "Market Val", "Value")',
		);
		expect(error.description).toMatch(/Market Value Field/);
		expect(error.context.itemIndex).toBe(1);
	});

	it('names an empty cell by its column, with the fix of filling it in', () => {
		const error = errorOf(() =>
			readHoldings(node, rows(apple, { ...apple, market_value: undefined }), {
				route: ROUTES.taxonomy,
			}),
		);
		expect(error.message).toBe('The market_value cell is empty');
		expect(error.description).toMatch(/^Fill in the market value where it is empty/);
		expect(error.context.itemIndex).toBe(1);
	});

	it.each<[object, RegExp, HoldingsReadOptions['route']?]>([
		[{ weight: '150' }, /Weight 150 is outside 0 to 100/],
		[{ weight: -1 }, /outside 0 to 100/],
		[{ weight: 'lots' }, /Weight "lots" is not a number/],
		[{ market_value: 'NaN' }, /Market value "NaN" is not a number/],
		[{ currency: 'euro' }, /not a three-letter ISO 4217 code/],
		[{ instrument_type: 'crypto' }, /Instrument type "crypto" is not one the API knows/],
		[{ isin: 'US0378331006' }, /Invalid ISIN: "US0378331006" fails the ISIN check digit/],
		[{ market_value: 0 }, /market value is 0/, ROUTES.createSnapshot],
	])('refuses %p', (patch, message, route = ROUTES.reports) => {
		expect(
			errorOf(() => readHoldings(node, rows({ ...apple, ...patch }), { route })).message,
		).toMatch(message);
	});

	it('skips invalid ISINs and reports them, or sends them, as asked', () => {
		const bad = { ...apple, isin: 'US0378331006' };
		expect(
			readHoldings(node, rows(bad), { route: ROUTES.reports, invalidIsin: 'skip' }).removed[0]
				.reason,
		).toMatch(/check digit/);
		expect(
			readHoldings(node, rows(bad), { route: ROUTES.reports, invalidIsin: 'send' }).holdings,
		).toHaveLength(1);
	});

	it('passes unknown instrument types to the temperature route, which skips them itself', () => {
		const { holdings } = readHoldings(node, rows({ ...apple, instrument_type: 'Crypto' }), {
			route: ROUTES.temperature,
		});
		expect(holdings[0].holding.instrument_type).toBe('crypto');
	});
});

describe('groupItems', () => {
	const items = [
		{ json: { Portfolio: 'A', date: '2025-03-31' } },
		{ json: { Portfolio: 'B', date: '2025-03-31' } },
		{ json: { Portfolio: 'A', date: '2025-03-31' } },
		{ json: { Portfolio: 'A', date: '2025-06-30' } },
	];

	it('groups by one or more fields in first-seen order', () => {
		expect(groupItems(node, items, ['portfolio', 'date']).map((g) => g.itemIndices)).toEqual([
			[0, 2],
			[1],
			[3],
		]);
		expect(groupItems(node, items, []).map((g) => g.itemIndices)).toEqual([[0, 1, 2, 3]]);
	});

	it('refuses an item without a group value, naming it', () => {
		expect(() =>
			groupItems(node, [...items, { json: { date: 'x' } }] as never, ['Portfolio']),
		).toThrow(/^The Group By field "Portfolio" is empty or missing/);
	});
});

describe('noHoldingLeftError', () => {
	it("says what was left out and what the route's holdings rule needs of each holding", () => {
		const removed = [
			{ isin: null, reason: 'no ISIN', item: 0, name: 'A' },
			{ isin: 'X', reason: 'cash row', item: 1, name: 'B' },
			{ isin: 'Y', reason: 'cash row', item: 2, name: 'C' },
		];
		const error = noHoldingLeftError(node, 0, ROUTES.createSnapshot, removed, {
			where: 'Item 0 (fund-1)',
		});
		expect(error.message).toBe(
			'Item 0 (fund-1): no holding is left to send: 3 rows left out (no ISIN; cash row)',
		);
		expect(error.description).toContain(
			'The portfolio snapshot request needs at least one holding with a name, a currency and a non-zero market value.',
		);
		expect(noHoldingLeftError(node, 2, ROUTES.reports, []).message).toBe('There are no holdings');
	});
});

describe('describeGroupValues', () => {
	it('cuts a long text inside its quotes, so it still reads as one quoted value', () => {
		const long = 'Nordic Equity Fund, institutional share class B';
		expect(describeGroupValues({ portfolio_id: long }, 20)).toBe(
			`portfolio_id = "${long.slice(0, 20)}…"`,
		);
		expect(describeGroupValues({ portfolio_id: 'P1', year: 2025 }, 20)).toBe(
			'portfolio_id = "P1", year = 2025',
		);
	});
});

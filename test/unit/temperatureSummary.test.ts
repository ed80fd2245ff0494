import type { IDataObject } from 'n8n-workflow';

import { perHoldingItems } from '../../nodes/TemperatureScore/actions/summary';
import type { Calculation } from '../../nodes/TemperatureScore/actions/summary';
import type { Holding, RemovedRow, SourcedHolding } from '../../nodes/shared/input/holdings';

const APPLE = 'US0378331005';
const MICROSOFT = 'US5949181045';
const SAP = 'DE0007164600';
const FUND = 'IE00B4L5Y983';
const CRYPTO = 'XS2940466316';

const sent = (itemIndex: number, holding: Partial<Holding> & { isin: string }): SourcedHolding => ({
	itemIndex,
	holding: {
		name: `Holding ${itemIndex}`,
		instrument_type: 'stock',
		market_value: 100,
		...holding,
	},
});

function calculation(portfolio: IDataObject, locked = false): Calculation {
	return {
		data: { portfolio, job_metadata: { is_lock: locked } },
		locked,
		requests: 3,
		waitedMs: 31_250,
	};
}

const group = { values: { portfolio: 'Fund A' }, itemIndices: [0, 1, 2, 3, 4] };

describe('perHoldingItems (Temperature Score, output Per Holding)', () => {
	const holdings = [
		sent(0, { isin: APPLE }),
		sent(1, { isin: MICROSOFT }),
		sent(2, { isin: APPLE }),
		sent(3, { isin: FUND, instrument_type: 'etf' }),
		sent(4, { isin: SAP, currency: 'EUR' }),
	];
	const answer = calculation({
		companies: [
			{
				isin: APPLE,
				name: 'Apple',
				temperature_score: 2,
				market_value: 300,
				target: 'SBTi',
				esg_extra: 'kept',
			},
			{ isin: MICROSOFT, name: 'Microsoft', temperature_score: 1.5, market_value: 100 },
			{ isin: SAP, name: 'SAP', temperature_score: null, market_value: 50 },
		],
		funds: [
			{
				isin: 'LU0000000000',
				public_isin: FUND,
				name: 'World ETF',
				temperature_score: 3,
				market_value: 0,
			},
		],
		industries: [{ name: 'Technology', temperature_score: 1.8 }],
	});

	it('pairs each listed company and fund with the input items of its ISIN (a fund by its public ISIN)', () => {
		const rows = perHoldingItems(group, holdings, [], answer);
		expect(rows.map((row) => [row.json.type, row.json.isin, row.pairedItem])).toEqual([
			['company', APPLE, [{ item: 0 }, { item: 2 }]],
			['company', MICROSOFT, [{ item: 1 }]],
			['company', SAP, [{ item: 4 }]],
			['fund', FUND, [{ item: 3 }]],
			['portfolio', undefined, [0, 1, 2, 3, 4].map((item) => ({ item }))],
		]);
	});

	it('pairs an ISIN the API lists but was not sent with the whole group', () => {
		const rows = perHoldingItems(
			group,
			[sent(0, { isin: APPLE })],
			[],
			calculation({ companies: [{ isin: SAP }] }),
		);
		expect(rows[0].pairedItem).toEqual(group.itemIndices.map((item) => ({ item })));
	});

	it('shapes each holding: group values, the documented fields, then the fields the API added', () => {
		const [apple, , sap] = perHoldingItems(group, holdings, [], answer).map((row) => row.json);
		expect(Object.keys(apple)).toEqual([
			'portfolio',
			'isin',
			'name',
			'type',
			'temperature_score',
			'target',
			'base_year',
			'industry',
			'aum',
			'market_value',
			'esg_extra',
		]);
		expect(apple).toMatchObject({
			portfolio: 'Fund A',
			name: 'Apple',
			temperature_score: 2,
			target: 'SBTi',
			base_year: null,
		});
		expect(sap.temperature_score).toBeNull();
		const fund = perHoldingItems(group, holdings, [], answer)[3].json;
		expect(fund).not.toHaveProperty('public_isin');
	});

	it('weights the portfolio temperature by market value over the holdings with a score and a market value above 0', () => {
		const summary = perHoldingItems(group, holdings, [], answer).at(-1)!.json;
		// Apple 300 × 2 + Microsoft 100 × 1.5; SAP has no score, the fund a market value of 0.
		expect(summary).toMatchObject({
			portfolio: 'Fund A',
			type: 'portfolio',
			portfolio_temperature_score: 1.875,
			covered_market_value: 400,
			total_market_value: 450,
			covered_market_value_percent: 88.89,
			holdings_count: 5,
			companies_count: 3,
			funds_count: 1,
			scored_count: 3,
			unscored_count: 1,
			weighted_count: 2,
			industries: [{ name: 'Technology', temperature_score: 1.8 }],
			skipped_count: 0,
			requests: 3,
			waited_seconds: 31.3,
		});
		expect(summary).not.toHaveProperty('calculating');
	});

	it('rounds the portfolio temperature to 4 decimals and has none when no holding can be weighted', () => {
		const thirds = calculation({
			companies: [
				{ isin: APPLE, temperature_score: 1, market_value: 1 },
				{ isin: MICROSOFT, temperature_score: 2, market_value: 2 },
			],
		});
		expect(
			perHoldingItems(group, holdings, [], thirds).at(-1)!.json.portfolio_temperature_score,
		).toBe(1.6667);
		const unscored = calculation({
			companies: [{ isin: APPLE, temperature_score: null, market_value: 10 }],
		});
		expect(perHoldingItems(group, holdings, [], unscored).at(-1)!.json).toMatchObject({
			portfolio_temperature_score: null,
			covered_market_value_percent: 0,
		});
		// Nothing listed: the holdings are not in the answer, not checked, their market values still in the total.
		expect(perHoldingItems(group, holdings, [], calculation({})).at(-1)!.json).toMatchObject({
			portfolio_temperature_score: null,
			covered_market_value_percent: 0,
			total_market_value: 500,
			not_checked_count: holdings.length,
			not_checked_market_value: 500,
		});
	});

	it('while the API is still calculating, marks every item and gives no portfolio temperature', () => {
		const rows = perHoldingItems(
			group,
			holdings,
			[],
			calculation(answer.data.portfolio as IDataObject, true),
		);
		expect(rows.every((row) => row.json.calculating === true)).toBe(true);
		expect(rows.at(-1)!.json).toMatchObject({
			portfolio_temperature_score: null,
			covered_market_value_percent: null,
		});
	});

	it('lists the holdings sent that the API did not list, with the likely reason, and the rows removed before sending', () => {
		const removed: RemovedRow[] = [{ item: 6, name: 'Cash', isin: null, reason: 'cash row' }];
		const rows = perHoldingItems(
			{ values: {}, itemIndices: [0, 1, 2, 3, 6] },
			[
				sent(0, { isin: APPLE }),
				sent(1, { isin: CRYPTO, name: 'Bitcoin ETN', instrument_type: 'crypto' }),
				sent(2, { isin: FUND, instrument_type: 'mutual-fund', market_value: 0 }),
				sent(3, { isin: SAP }),
			],
			removed,
			calculation({ companies: [{ isin: APPLE, temperature_score: 2, market_value: 100 }] }),
		);
		const summary = rows.at(-1)!.json;
		expect(summary.skipped_count).toBe(3);
		expect(summary.skipped_rows).toEqual([
			{
				item: 1,
				name: 'Bitcoin ETN',
				isin: CRYPTO,
				reason: expect.stringContaining('instrument type "crypto"'),
			},
			{
				item: 2,
				name: 'Holding 2',
				isin: FUND,
				reason: 'skipped by the API: ETF or mutual fund with market value 0',
			},
			{
				item: 3,
				name: 'Holding 3',
				isin: SAP,
				reason: expect.stringMatching(/^not in the API's answer: .*an answer defect/),
			},
		]);
		expect(summary.not_checked_count).toBe(1);
		expect(summary).toMatchObject({ removed_count: 1, removed_rows: removed });
		expect(Object.keys(rows[0].json)[0]).toBe('isin');
	});

	it('names the currencies sent (EUR when none) and notes that several are weighted without conversion', () => {
		const eurOnly = perHoldingItems(group, [sent(0, { isin: APPLE })], [], answer).at(-1)!.json;
		expect(eurOnly.currencies).toEqual(['EUR']);
		expect(eurOnly).not.toHaveProperty('currency_note');
		const mixed = perHoldingItems(
			group,
			[sent(0, { isin: APPLE }), sent(1, { isin: MICROSOFT, currency: 'USD' })],
			[],
			answer,
		);
		expect(mixed.at(-1)!.json.currencies).toEqual(['EUR', 'USD']);
		expect(mixed.at(-1)!.json.currency_note).toMatch(/without conversion/);
	});
});

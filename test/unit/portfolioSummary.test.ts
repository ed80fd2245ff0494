import type { IDataObject } from 'n8n-workflow';

import {
	flattenSummary,
	removedRowsText,
	summarizeHoldings,
	summaryNames,
} from '../../nodes/SustainabilityInstruments/actions/portfolioSummary';

const measure = (value: number | null, unit?: string) => ({ value, unit });

describe('summarizeHoldings (pure)', () => {
	it('does not average an indicator given in different units, and says so; a missing unit is not another unit', () => {
		const summary = summarizeHoldings(
			'paiIndicators',
			[
				{ weight: 100, result: { found: true, scope_1_emissions: measure(10, 'tCO2e') } },
				{ weight: 300, result: { found: true, scope_1_emissions: measure(2, 'ktCO2e') } },
				{ weight: 100, result: { found: true, carbon_footprint: measure(50) } },
				{ weight: 100, result: { found: true, carbon_footprint: measure(80, 'tCO2e/EURm') } },
			],
			{ basis: 'marketValue' },
		);
		const indicators = summary.indicators as Record<string, IDataObject>;
		expect(indicators.scope_1_emissions).toMatchObject({
			weighted_average: null,
			unit: null,
			holdings_with_value: 2,
			coverage_percent: 66.67,
		});
		expect(indicators.scope_1_emissions.note).toMatch(
			/^Not averaged: the holdings give it in different units \(tCO2e, ktCO2e\)\. Weighted average of the companies' own emissions, NOT the financed/,
		);
		expect(indicators.carbon_footprint).toMatchObject({
			weighted_average: 65,
			unit: 'tCO2e/EURm',
			holdings_with_value: 2,
			coverage_percent: 33.33,
		});
	});

	it('gives null percents and averages when the holdings used weigh 0 in all, each saying why', () => {
		const summary = summarizeHoldings('sfdr', [{ weight: 0, result: { classification: 9 } }], {
			basis: 'weight',
		});
		const why = "No percent: every holding in the portfolio's total weighs 0 (total_weight is 0)";
		expect(summary).toEqual({
			holdings_count: 1,
			total_weight: 0,
			coverage_percent: null,
			coverage_note:
				"No coverage_percent: every holding in the portfolio's total weighs 0 (total_weight is 0)",
			articles: {
				article_9: { holdings_count: 1, portfolio_weight: 0, percent: null, note: why },
				article_8: { holdings_count: 0, portfolio_weight: 0, percent: null, note: why },
				article_6: { holdings_count: 0, portfolio_weight: 0, percent: null, note: why },
				no_data: { holdings_count: 0, portfolio_weight: 0, percent: null, note: why },
				not_checked: { holdings_count: 0, portfolio_weight: 0, percent: null, note: why },
			},
		});
		expect(flattenSummary(summary)).toMatchObject({
			coverage_note: expect.stringMatching(/^No coverage_percent: /),
			article_9_note: why,
			not_checked_note: why,
		});
	});

	it('says why each null of PAI, yes/no indicators and business involvements is null when the total is 0', () => {
		const zero = "every holding in the portfolio's total weighs 0 (total_market_value is 0)";
		const pai = summarizeHoldings(
			'paiIndicators',
			[
				{ weight: 0, result: { found: true, x: measure(2, 't'), fossil: { value: true } } },
				{ weight: 0, notChecked: true },
			],
			{ basis: 'marketValue' },
		);
		expect(pai.not_checked).toEqual({
			holdings_count: 1,
			market_value: 0,
			percent: null,
			note: `No percent: ${zero}`,
		});
		const indicators = pai.indicators as Record<string, IDataObject>;
		expect(indicators.x).toMatchObject({ weighted_average: null, coverage_percent: null });
		expect(indicators.x.note).toBe(
			`No average: the holdings with a value weigh 0 in all. No coverage_percent: ${zero}`,
		);
		expect(indicators.fossil).toMatchObject({ true_percent: null, coverage_percent: null });
		expect(indicators.fossil.note).toMatch(
			new RegExp(
				`No true_percent: the holdings with a value weigh 0 in all\\. No coverage_percent: ${zero.replace(/[()]/g, '\\$&')}$`,
			),
		);
		const involvements = summarizeHoldings('businessInvolvements', [], { basis: 'marketValue' });
		const none = "no holding is in the portfolio's total (total_market_value is 0)";
		expect(involvements).toMatchObject({
			coverage_percent: null,
			coverage_note: `No coverage_percent: ${none}`,
			not_checked: { percent: null, note: `No percent: ${none}` },
		});
	});

	it('gives no note where every share has a total to divide by', () => {
		const summary = summarizeHoldings('sfdr', [{ weight: 1, result: { classification: 9 } }], {
			basis: 'weight',
		});
		expect(JSON.stringify(summary)).not.toMatch(/note/);
	});

	it('books a holding marked not checked (not sent, or not in the answer) under not_checked, never no_data, and keeps it in the total', () => {
		const summary = summarizeHoldings(
			'sfdr',
			[
				{ weight: 5.5, result: { classification: 8 } },
				{ weight: 3, result: { classification: null } },
				{ weight: 1.5, notChecked: true },
			],
			{ basis: 'marketValue' },
		);
		expect(summary.total_market_value).toBe(10);
		expect(summary.articles).toMatchObject({
			article_8: { holdings_count: 1, market_value: 5.5, percent: 55 },
			no_data: { holdings_count: 1, market_value: 3, percent: 30 },
			not_checked: { holdings_count: 1, market_value: 1.5, percent: 15 },
		});
		expect(summary.coverage_percent).toBe(55);
		const pai = summarizeHoldings(
			'paiIndicators',
			[
				{ weight: 1, result: { found: true, x: { value: 2, unit: 't' } } },
				{ weight: 1, notChecked: true },
			],
			{ basis: 'marketValue' },
		);
		expect(pai.not_checked).toEqual({ holdings_count: 1, market_value: 1, percent: 50 });
		expect((pai.indicators as IDataObject).x).toMatchObject({ coverage_percent: 50 });
	});

	it('counts an SFDR class other than 9, 8, 6 and a holding without an answer as no data', () => {
		const summary = summarizeHoldings(
			'sfdr',
			[
				{ weight: 1, result: { classification: 7 } },
				{ weight: 1 },
				{ weight: 2, result: { classification: 8 } },
			],
			{ basis: 'marketValue' },
		);
		expect(summary.coverage_percent).toBe(50);
		expect((summary.articles as IDataObject).no_data).toEqual({
			holdings_count: 2,
			market_value: 2,
			percent: 50,
		});
	});

	it('counts an involvement only when its weight is above 0 and at least the Minimum Threshold', () => {
		const involved = (weight: number) => ({
			found: true,
			total_score: 50,
			business_involvements: { thermal_coal: { weight, count: 1 } },
		});
		const summary = summarizeHoldings(
			'businessInvolvements',
			[
				{ weight: 10, result: involved(0) },
				{ weight: 20, result: involved(4.99) },
				{ weight: 30, result: involved(5) },
				{ weight: 40, result: { found: false, total_score: null, business_involvements: {} } },
			],
			{ basis: 'marketValue', minimumThreshold: 5 },
		);
		expect(summary).toMatchObject({
			holdings_count: 4,
			total_market_value: 100,
			minimum_threshold: 5,
			coverage_percent: 60,
			involvements: { thermal_coal: { holdings_count: 1, market_value: 30, percent: 30 } },
			scores: {
				total_score: { weighted_average: 50, holdings_with_value: 3, coverage_percent: 60 },
			},
		});
		expect((summary.scores as Record<string, IDataObject>).total_score.unit).toBeUndefined();
	});

	it('rounds percents to 2 decimals, averages to 4, market values to 2 and weights to 4', () => {
		const summary = summarizeHoldings(
			'esgMetrics',
			[
				{ weight: 1.123456, result: { found: true, total_score: measure(1, 'score') } },
				{ weight: 2, result: { found: true, total_score: measure(2, 'score') } },
				{ weight: 0.5, result: { found: true } },
			],
			{ basis: 'weight' },
		);
		expect(summary.total_weight).toBe(3.6235);
		expect(summary.metrics).toEqual({
			total_score: {
				weighted_average: 1.6403,
				unit: 'score',
				holdings_with_value: 2,
				coverage_percent: 86.2,
			},
		});
	});
});

describe('summary helpers (pure)', () => {
	it('flattenSummary drops the container: article_9_percent, scope_1_emissions_unit', () => {
		expect(
			flattenSummary({
				holdings_count: 1,
				articles: { article_9: { percent: 10 } },
				indicators: { scope_1_emissions: { unit: 't', note: 'n' } },
			}),
		).toEqual({
			holdings_count: 1,
			article_9_percent: 10,
			scope_1_emissions_unit: 't',
			scope_1_emissions_note: 'n',
		});
	});

	it('removedRowsText writes one line per removed row', () => {
		expect(
			removedRowsText([
				{ item: 3, name: 'Cash EUR', isin: null, reason: 'cash row' },
				{ item: 5, name: null, isin: 'US0378331005', reason: 'no market value' },
				{ item: 6, name: null, isin: null, reason: 'no ISIN' },
			]),
		).toBe('Item 3 (Cash EUR): cash row\nItem 5 (US0378331005): no market value\nItem 6: no ISIN');
	});

	it('summaryNames lists every indicator or category of any result, in first-seen order', () => {
		expect(
			summaryNames('paiIndicators', [
				{ isin: 'A', found: true, is_fund: false, b: measure(1) },
				{ isin: 'B', found: true, is_fund: false, a: measure(1), b: measure(2) },
			]),
		).toEqual({ measures: ['b', 'a'], categories: [] });
		expect(
			summaryNames('businessInvolvements', [
				{ isin: 'A', total_score: 1, business_involvements: { coal: {} } },
				{ isin: 'B', social_score: null, business_involvements: { tobacco: {}, coal: {} } },
			]),
		).toEqual({ measures: ['total_score', 'social_score'], categories: ['coal', 'tobacco'] });
	});
});

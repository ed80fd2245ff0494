/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling reads the docs page from disk */
import { readFileSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { PAI_STATEMENT_ROWS } from '../../nodes/shared/api/routes';
import {
	quarterFigure,
	statementRows,
} from '../../nodes/SustainabilityInstruments/actions/paiStatementFigures';
import type {
	StatementInput,
	StatementPosition,
} from '../../nodes/SustainabilityInstruments/actions/paiStatementFigures';

const measure = (value: unknown, unit?: string) => ({ value, unit });
const holding = (isin: string, value: number, result?: IDataObject): StatementPosition => ({
	isin,
	value,
	result,
});
const cash = (value: number): StatementPosition => ({ value, denominatorOnly: 'cash row' });

describe('quarterFigure (pure)', () => {
	it('intensity divides by all investments: cash and holdings without data count in V, not in the sum', () => {
		const figure = quarterFigure(
			'intensity',
			['carbon_footprint'],
			[
				holding('A', 600, { carbon_footprint: measure(100, 'u') }),
				holding('B', 300, { carbon_footprint: measure(null) }),
				cash(100),
			],
		);
		expect(figure.value).toBeCloseTo(60, 10);
		expect(figure.total).toBe(1000);
		expect(figure.covered).toBe(600);
		expect(figure.withoutData).toEqual(['B']);
	});

	it('share counts true only, over all investments; a number is not a true/false answer', () => {
		const figure = quarterFigure(
			'share',
			['flag'],
			[
				holding('A', 200, { flag: measure(true) }),
				holding('B', 300, { flag: measure(false) }),
				holding('C', 500, { flag: measure(1) }),
			],
		);
		expect(figure.value).toBeCloseTo(20, 10);
		expect(figure.covered).toBe(500);
		expect(figure.withoutData).toEqual(['C']);
	});
});

describe('statementRows (pure)', () => {
	const quarters = (year: number, positions: () => StatementPosition[]) =>
		new Map(
			[`${year}-03-31`, `${year}-06-30`, `${year}-09-30`, `${year}-12-31`].map((end) => [
				end,
				positions(),
			]),
		);

	it('every Annex I metric row once, in order, then unknown indicators unmapped; mixed kinds give no figure', () => {
		const input: StatementInput = {
			yearN: 2025,
			quarters: quarters(2025, () => [
				holding('A', 1, { carbon_footprint: measure(1), odd: measure(true), new_one: measure(3) }),
				holding('B', 1, { odd: measure(2) }),
			]),
			answeredIndicators: ['carbon_footprint', 'odd', 'new_one'],
		};
		const rows = statementRows(input);
		expect(rows.slice(0, PAI_STATEMENT_ROWS.length).map((row) => row.metric)).toEqual(
			PAI_STATEMENT_ROWS.map((row) => row.metric),
		);
		const [odd, fresh] = rows.slice(PAI_STATEMENT_ROWS.length);
		expect(odd).toMatchObject({
			pai: null,
			mapped: false,
			api_indicator: 'odd',
			impact_year_n: null,
		});
		expect(odd.explanation).toMatch(/numbers for some holdings and true\/false for others/);
		expect(fresh).toMatchObject({ pai: null, mapped: false, impact_year_n: 1.5 });
	});

	it('different units give no figure, named; N-1 partly present is averaged over its quarter ends, said', () => {
		const input: StatementInput = {
			yearN: 2025,
			quarters: new Map([
				...quarters(2025, () => [
					holding('A', 1, { carbon_footprint: measure(1, 't/EURm') }),
					holding('B', 1, { carbon_footprint: measure(1, 'kg/EURm') }),
				]),
				['2024-12-31', [holding('A', 1, { carbon_footprint: measure(1, 't/EURm') })]],
			]),
			answeredIndicators: ['carbon_footprint'],
		};
		const row = statementRows(input).find((r) => r.pai === 2)!;
		expect(row.impact_year_n).toBeNull();
		expect(row.explanation).toMatch(/different units \(t\/EURm, kg\/EURm\)/);
		expect(row.explanation).toMatch(
			/Year N-1 \(2024\) averages the 1 quarter end present; without holdings: 2024-03-31, 2024-06-30, 2024-09-30/,
		);
	});
});

describe('docs: the PAI Statement worked example', () => {
	const page = readFileSync(
		join(__dirname, '..', '..', 'docs', 'nodes', 'sustainability-instruments.md'),
		'utf8',
	);
	const block = (marker: string): unknown => {
		const after = page.split(`<!-- pai-statement-example:${marker} -->`)[1];
		const json = /```json\n([\s\S]*?)\n```/.exec(after ?? '')?.[1];
		expect(json).toBeDefined();
		return JSON.parse(json!);
	};

	it('gives the numbers the page shows', () => {
		const given = block('input') as {
			A: Record<string, unknown>;
			quarters: Record<string, Record<string, number>>;
		};
		const resultA = Object.fromEntries(
			Object.entries(given.A).map(([name, value]) => [name, measure(value)]),
		);
		const input: StatementInput = {
			yearN: 2025,
			quarters: new Map(
				Object.entries(given.quarters).map(([end, values]) => [
					end,
					Object.entries(values).map(([name, value]) =>
						name === 'cash'
							? cash(value)
							: holding(name, value, name === 'A' ? resultA : { carbon_footprint: measure(null) }),
					),
				]),
			),
			answeredIndicators: Object.keys(given.A),
		};
		const rows = statementRows(input);
		for (const expected of block('output') as IDataObject[]) {
			const row = rows.find((r) => r.pai === expected.pai);
			expect(row).toMatchObject(expected);
		}
	});
});

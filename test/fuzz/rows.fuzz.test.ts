/**
 * Issue 36, "What to build" 5: the rows a person reads in n8n's table. Over generated sheets (rows with an ISIN column
 * holding known ISINs, ISINs the API has no data for, mistyped ISINs, and cash rows whose ISIN cell is empty, which a
 * spreadsheet import leaves out of the item altogether), the real nodes in n8n's engine against the simulator, on
 * every route that outputs rows (the four lookups in each output mode, with and without Simplify; Classify Holdings;
 * Temperature Score's holdings):
 *
 * 1. no value of an output row is undefined (n8n's table shows a red `undefined`), nested ones included;
 * 2. a result not found says why: `found` (or `<prefix>_found`) false always has a non-empty `reason`;
 * 3. Add to Input Items: every row has the sheet's ISIN column (an empty cell comes back as ""), so no cell of that
 *    column shows `undefined`;
 * 4. Portfolio Summary with Simplify (what example 10 shows in a table): no cell is a nested object or list.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from '../simulator';
import { useSimulator } from '../helpers/simulator';
import { instrumentsSpec, runNode } from '../helpers/lookupRuns';
import type { NodeSpec } from '../helpers/workflows';
import { FUZZ_SEED, runs } from './arbitraries';
import { rowViolations, shortJson } from './harness';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

const KNOWN = findIsins((data) => data.known && !data.isFund, 4, 'SE');
const UNKNOWN = findIsins((data) => !data.known, 3, 'DE');

type Cell = 'known' | 'unknown' | 'mistyped' | 'cash' | 'blank';

/** A sheet row: the ISIN cell (left out for a cash row, as a spreadsheet import leaves empty cells out) and the rest. */
function sheetRow(cell: Cell, index: number, isinColumn: string): IDataObject {
	const row: IDataObject = {};
	if (cell === 'known') row[isinColumn] = KNOWN[index % KNOWN.length];
	if (cell === 'unknown') row[isinColumn] = UNKNOWN[index % UNKNOWN.length];
	if (cell === 'mistyped') row[isinColumn] = 'US037833100';
	if (cell === 'blank') row[isinColumn] = '';
	return {
		...row,
		Name: cell === 'cash' ? 'Cash EUR' : `Holding ${index}`,
		Type: cell === 'cash' ? 'Cash' : 'Stock',
		Currency: 'EUR',
		'Weight %': 10,
		'Market Value': 1000,
	};
}

const sheet = fc
	.tuple(
		fc.array(fc.constantFrom<Cell>('known', 'known', 'unknown', 'mistyped', 'cash', 'blank'), {
			minLength: 1,
			maxLength: 8,
		}),
		fc.constantFrom('ISIN', 'isin', 'Isin Code'),
	)
	// At least one row with a known ISIN, so that every route has something to send.
	.map(([cells, column]) => ({
		rows: ['known' as Cell, ...cells].map((cell, index) => sheetRow(cell, index, column)),
		column,
	}));

interface RowsRoute {
	name: string;
	spec: (column: string) => NodeSpec;
	/** Add to Input Items: every row must carry the ISIN column. */
	keepsItems?: boolean;
	/** Simplify on a summary: every cell is a value n8n's table shows as it is (no nested object or list). */
	flat?: boolean;
}

const LOOKUPS = [
	'getSfdrClassification',
	'getPaiIndicators',
	'getBusinessInvolvements',
	'getEsgData',
];

const ROUTES: RowsRoute[] = [
	...LOOKUPS.flatMap((operation): RowsRoute[] => [
		{
			name: `${operation}, Add to Input Items`,
			keepsItems: true,
			spec: (column) =>
				instrumentsSpec(operation, {
					isinField: column,
					outputMode: 'addToItems',
					simplify: false,
					invalidIsins: 'skip',
				}),
		},
		{
			name: `${operation}, Add to Input Items, Simplify`,
			keepsItems: true,
			spec: (column) =>
				instrumentsSpec(operation, {
					isinField: column,
					outputMode: 'addToItems',
					simplify: true,
					invalidIsins: 'skip',
				}),
		},
		{
			name: `${operation}, One Item per Instrument`,
			spec: (column) =>
				instrumentsSpec(operation, {
					isinField: column,
					outputMode: 'perInstrument',
					invalidIsins: 'skip',
				}),
		},
	]),
	{
		name: 'getSfdrClassification, Portfolio Summary',
		spec: (column) =>
			instrumentsSpec('getSfdrClassification', {
				isinField: column,
				outputMode: 'portfolioSummary',
				weightBy: 'marketValue',
				invalidIsins: 'skip',
			}),
	},
	...['getSfdrClassification', 'getPaiIndicators', 'getBusinessInvolvements', 'getEsgData'].map(
		(operation): RowsRoute => ({
			name: `${operation}, Portfolio Summary, Simplify`,
			flat: true,
			spec: (column) =>
				instrumentsSpec(operation, {
					isinField: column,
					outputMode: 'portfolioSummary',
					weightBy: 'marketValue',
					simplify: true,
					invalidIsins: 'skip',
				}),
		}),
	),
	{
		name: 'Classify Holdings',
		spec: () => ({
			type: 'sustainableInvestments',
			parameters: {
				operation: 'classifyHoldings',
				methodology: { __rl: true, mode: 'list', value: 1 },
				options: { invalidIsins: 'skip' },
			},
		}),
	},
	{
		name: 'Temperature Score',
		spec: () => ({
			type: 'temperatureScore',
			parameters: { operation: 'getPortfolioTemperature', options: { invalidIsins: 'skip' } },
		}),
	},
];

describe('output rows: no undefined cell, every "not found" says why (issue 36)', () => {
	it.each(ROUTES.map((route, index) => [route.name, route, index] as const))(
		'%s',
		async (_name, route, index) => {
			await fc.assert(
				fc.asyncProperty(sheet, async ({ rows, column }) => {
					sim.reset();
					// Version 2: the form a new user gets.
					const spec = { ...route.spec(column), typeVersion: 2 };
					const { result, out } = await runNode(sim.url, rows, spec);
					const violations: string[] = [];
					if (result.error) violations.push(`the run failed: ${result.error.message}`);
					const inputKeys = new Set(rows.flatMap((row) => Object.keys(row)));
					for (const item of out) {
						violations.push(...rowViolations(item.json, inputKeys));
						if (route.flat)
							for (const [key, value] of Object.entries(item.json))
								if (value !== null && typeof value === 'object')
									violations.push(`cell "${key}" is nested: ${shortJson(value, 200)}`);
						if (route.keepsItems && !Object.hasOwn(item.json, column))
							violations.push(`a row has no "${column}" column: ${shortJson(item.json, 300)}`);
					}
					if (violations.length)
						throw new Error(`${violations.join('\n')}\nrows: ${shortJson(rows, 1500)}`);
				}),
				{ seed: FUZZ_SEED + index, numRuns: runs(10) },
			);
		},
		120_000,
	);
});

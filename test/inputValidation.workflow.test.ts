/**
 * Issue 36, items 1 and 2 (input side): one validation pass over the whole input before any request, every problem in
 * one error (per column when a column is missing or empty in every row, per row otherwise, columns named as the sheet
 * names them); report weights worked out from market values when the sheet gives none; EU Taxonomy with a sheet that
 * has no instrument type column. Real nodes in n8n's engine against the simulator.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from './simulator';
import type { RouteKey } from './simulator';
import { useSimulator } from './helpers/simulator';
import { HOLDINGS_NODES, descriptionOf, hintMessages, runNode } from './helpers/lookupRuns';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

const COMPANIES = findIsins((data) => data.known && !data.isFund, 5, 'SE');
const byLabel = (label: string) => HOLDINGS_NODES.find((node) => node.label === label)!;
const REPORTS = byLabel('Sustainability Reports');

/** Five holdings as a sheet gives them: a Weight % column whose cells are all empty, every market value there. */
const EMPTY_WEIGHTS: IDataObject[] = COMPANIES.map((isin, index) => ({
	ISIN: isin,
	Name: `Holding ${index}`,
	Type: 'Stock',
	Currency: 'SEK',
	'Weight %': '',
	'Market Value': (index + 1) * 1000,
}));

async function run(
	rows: IDataObject[],
	node: (typeof HOLDINGS_NODES)[number],
	parameters: IDataObject = {},
	typeVersion = 2,
) {
	const { result, out } = await runNode(sim.url, rows, {
		type: node.type,
		typeVersion,
		parameters: { ...node.parameters, ...parameters },
	});
	return { result, out, error: result.error };
}

/** The row without the column `key`. */
function without(row: IDataObject, key: string): IDataObject {
	const copy = { ...row };
	delete copy[key];
	return copy;
}

const bodies = (route: RouteKey) =>
	sim.requests({ route }).map((request) => request.body as IDataObject);

describe('Generate PDF Report: a sheet whose Weight % cells are all empty (issue 36, item 1)', () => {
	it.each([1, 2])(
		'version %i: the weights are worked out from the market values, and the output and hint say so',
		async (typeVersion) => {
			const { error, out, result } = await run(EMPTY_WEIGHTS, REPORTS, {}, typeVersion);
			expect(error).toBeUndefined();
			const [body] = bodies(REPORTS.route);
			const holdings = body.holdings as IDataObject[];
			// 1,000 ... 5,000 of 15,000.
			expect(holdings.map((holding) => holding.weight)).toEqual(
				[1, 2, 3, 4, 5].map((part) => Math.round((part / 15) * 100 * 1e6) / 1e6),
			);
			const notes = out[0].json.input_notes as string[];
			expect(notes.join(' ')).toContain(
				'Weights worked out from market values: the Weight % column is empty in all 5 rows (market value ÷ total × 100',
			);
			expect(hintMessages(result).join(' ')).toContain(
				'Weights worked out from market values: the Weight % column is empty in all 5 rows',
			);
		},
	);

	it('some rows with a weight and some without: refused naming those rows, nothing sent', async () => {
		const rows = EMPTY_WEIGHTS.map((row, index) => ({
			...row,
			'Weight %': index === 1 || index === 3 ? '' : 20,
		}));
		const { error } = await run(rows, REPORTS);
		expect(error?.message).toMatch(/Weight %/);
		expect(error?.message).not.toMatch(/^Item \d/);
		const description = descriptionOf(error) ?? '';
		expect(description).toContain('Item 1: the Weight % cell is empty');
		expect(description).toContain('Item 3: the Weight % cell is empty');
		expect(sim.requestCount()).toBe(0);
	});

	it('market values that cannot give weights (they add up to 0) are refused with the empty column, nothing sent', async () => {
		const rows = EMPTY_WEIGHTS.map((row) => ({ ...row, 'Market Value': 0 }));
		const { error } = await run(rows, REPORTS);
		expect(error?.message).toContain('The Weight % column is empty in all 5 rows');
		expect(descriptionOf(error)).toMatch(/market values add up to 0/);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('One validation pass: every problem of the input in one error, before any request', () => {
	it('problems in several rows and a column missing everywhere are all listed, the column once', async () => {
		const rows: IDataObject[] = EMPTY_WEIGHTS.map((row) => ({
			...without(row, 'Currency'),
			'Weight %': 20,
		}));
		rows[1] = { ...rows[1], ISIN: 'SE0000000000' };
		rows[3] = { ...rows[3], Name: '' };
		const { error } = await run(rows, REPORTS);
		expect(error).toBeDefined();
		const message = error!.message;
		expect(message.length).toBeLessThanOrEqual(150);
		// The item is said once, by n8n ([item N] from itemIndex): never "Item 0:" in the title as well.
		expect(message).not.toMatch(/^Item \d/);
		expect(message).toContain('3 problems');
		const description = descriptionOf(error) ?? '';
		expect(description).toContain('No currency column in any of the 5 rows');
		expect(description).toMatch(/Item 1: invalid ISIN/);
		expect(description).toMatch(/Item 3: the Name cell is empty/);
		// Named as the sheet names its columns, never our squashed internal forms.
		expect(description).not.toMatch(/"weightpercent"|"marketvalue"|"currencycode"/);
		expect(description.match(/currency/gi)!.length).toBeLessThan(6);
		expect(sim.requestCount()).toBe(0);
	});

	it('the same problems on version 1 (Holding Fields) are all listed too', async () => {
		const rows = EMPTY_WEIGHTS.map((row): IDataObject => ({ ...row, 'Weight %': 20 }));
		rows[0] = { ...rows[0], Currency: 'EURO' };
		rows[4] = { ...rows[4], 'Market Value': 'n/a' };
		const { error } = await run(rows, REPORTS, {}, 1);
		const description = descriptionOf(error) ?? '';
		expect(error?.message).toContain('2 problems');
		expect(description).toMatch(/Item 0: currency "EURO"/);
		expect(description).toMatch(/Item 4: .*market value/i);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('One validation pass over every group (Group By), before any request', () => {
	it.each(['EU Taxonomy', 'Sustainability Reports', 'Sustainable Investments'])(
		'%s: the problems of every portfolio in one error, a column naming its portfolio',
		async (label) => {
			const rows: IDataObject[] = EMPTY_WEIGHTS.map((row, index) => ({
				...row,
				'Weight %': 20,
				portfolio: index < 2 ? 'A' : 'B',
				...(index === 1 ? { Currency: 'EURO' } : {}),
				...(index >= 2 ? { Name: '' } : {}),
			}));
			const { error } = await run(rows, byLabel(label), { groupBy: 'portfolio' });
			expect(error?.message).toContain('2 problems');
			const description = descriptionOf(error) ?? '';
			expect(description).toContain('- Item 1: currency "EURO"');
			expect(description).toContain('- The Name column is empty in all 3 rows (portfolio = "B")');
			expect(sim.requestCount()).toBe(0);
		},
	);
});

describe.each(['EU Taxonomy', 'Sustainable Investments', 'Temperature Score'])(
	'%s: a sheet with no instrument type column (issue 36, item 2)',
	(label) => {
		const NODE = byLabel(label);
		const noType = () => EMPTY_WEIGHTS.map((row) => without(row, 'Type'));

		it.each([1, 2])(
			'version %i: runs by default, every holding sent as a stock, and the output and hint say which type was assumed',
			async (typeVersion) => {
				const { error, out, result } = await run(noType(), NODE, {}, typeVersion);
				expect(error).toBeUndefined();
				const [body] = bodies(NODE.route);
				expect((body.holdings as IDataObject[]).map((holding) => holding.instrument_type)).toEqual(
					Array(5).fill('stock'),
				);
				// Temperature Score: on its portfolio item, after one item per holding.
				const notes = (
					out.find((item) => item.json.input_notes)!.json.input_notes as string[]
				).join(' ');
				expect(notes).toContain(
					'Every holding sent as instrument type "stock" (Instrument Type When the Sheet Has None): no instrument type column in any of the 5 rows',
				);
				expect(hintMessages(result).join(' ')).toContain(
					'Every holding sent as instrument type "stock" (Instrument Type When the Sheet Has None)',
				);
			},
		);

		it('another type chosen under Instrument Type When the Sheet Has None is sent', async () => {
			const { error } = await run(noType(), NODE, { instrumentTypeWhenNone: 'etf' });
			expect(error).toBeUndefined();
			const [body] = bodies(NODE.route);
			expect((body.holdings as IDataObject[]).every((h) => h.instrument_type === 'etf')).toBe(true);
		});

		it('"Refuse" stops before any request, naming the column once', async () => {
			const { error } = await run(noType(), NODE, { instrumentTypeWhenNone: 'refuse' });
			expect(error?.message).toContain('No instrument type column in any of the 5 rows');
			expect(descriptionOf(error)).toContain('Instrument Type When the Sheet Has None');
			expect(sim.requestCount()).toBe(0);
		});

		it('some rows with a type and some without: refused naming the rows, never guessed', async () => {
			const rows = EMPTY_WEIGHTS.map((row, index) => ({
				...row,
				Type: index === 2 ? '' : 'Stock',
			}));
			const { error } = await run(rows, NODE);
			expect(`${error?.message} ${descriptionOf(error)}`).toMatch(/the Type cell is empty/i);
			expect(sim.requestCount()).toBe(0);
		});
	},
);

/**
 * Issue 36, item 1: every problem of the input is reported in one error, before any request, on every route that
 * reads holdings. Generated sheets of 2 to 7 rows (the usual headers: ISIN, Name, Type, Currency, Weight %, Market
 * Value) get random defects: a cell empty or its key absent, a bad value (an ISIN failing its check digit, currency
 * "EURO", type "crypto", weight "150", market value "n/a"), a whole column dropped or emptied. An oracle written
 * from the routes' documented rules (api-spec.md 2.1, docs/holdings-input.md) says which problems each sheet has;
 * the real node runs in n8n's engine against the simulator. Properties:
 * - a sheet with problems stops with one NodeOperationError and the simulator sees no request;
 * - that error names every problem: each row with one (its "Item N" line, or the title for a single one), each
 *   column missing or empty in every row once, and as many problems as the oracle counts;
 * - a sheet without problems is never refused for its input.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from '../simulator';
import { useSimulator } from '../helpers/simulator';
import { HOLDINGS_NODES, runNode } from '../helpers/lookupRuns';
import type { HoldingsNode } from '../helpers/lookupRuns';
import { FUZZ_SEED, runs } from './arbitraries';
import { problemList } from './harness';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

const COMPANIES = findIsins((data) => data.known && !data.isFund, 7, 'SE');

type Field = 'ISIN' | 'Name' | 'Type' | 'Currency' | 'Weight %' | 'Market Value';
const FIELDS: Field[] = ['ISIN', 'Name', 'Type', 'Currency', 'Weight %', 'Market Value'];
/** How messages name each field when no column of it is found. */
const LABELS: Record<Field, string> = {
	ISIN: 'ISIN',
	Name: 'name',
	Type: 'instrument type',
	Currency: 'currency',
	'Weight %': 'weight',
	'Market Value': 'market value',
};
/** A value every route refuses (Type: all but the temperature route, which sends unknown types as given). */
const BAD: Record<Field, string | undefined> = {
	ISIN: undefined, // made per row: the row's ISIN with a wrong check digit
	Name: undefined, // any text is a name
	Type: 'crypto',
	Currency: 'EURO',
	'Weight %': '150',
	'Market Value': 'n/a',
};

type Defect = 'none' | 'empty' | 'absent' | 'bad';
type ColumnDefect = 'none' | 'drop' | 'empty';

interface Sheet {
	/** Per row, per field: what was done to the cell. */
	cells: Array<Record<Field, Defect>>;
	columns: Record<Field, ColumnDefect>;
	/** Group By portfolio: rows before `split` are portfolio A, the others B; 0: no Group By. */
	split: number;
}

/** What each route requires of every holding (api-spec.md 2.1). */
interface RouteRules {
	required: Field[];
	/** No row gives a weight: worked out from the market values (the reports route). */
	derivesWeight?: boolean;
	/** No row gives a type: Instrument Type When the Sheet Has None sends the default. */
	assumesType?: boolean;
	/** An instrument type the API does not know is sent as given (the temperature route). */
	sendsUnknownTypes?: boolean;
}

const RULES: Record<string, RouteRules> = {
	'Sustainable Investments': {
		required: ['ISIN', 'Name', 'Type', 'Market Value'],
		assumesType: true,
	},
	'EU Taxonomy': { required: ['ISIN', 'Name', 'Type', 'Market Value'], assumesType: true },
	'Temperature Score': {
		required: ['ISIN', 'Name', 'Type', 'Market Value'],
		assumesType: true,
		sendsUnknownTypes: true,
	},
	'Sustainability Reports': {
		required: ['ISIN', 'Name', 'Currency', 'Weight %', 'Market Value'],
		derivesWeight: true,
	},
	'Portfolio Snapshots': { required: ['Name', 'Currency', 'Market Value'] },
};

/** A cell's defect: mostly none. ISINs are never empty (such a row is left out, not refused). */
const cellDefect = (field: Field) =>
	fc.oneof(
		{ weight: 6, arbitrary: fc.constant<Defect>('none') },
		...(field === 'ISIN'
			? [{ weight: 1, arbitrary: fc.constant<Defect>('bad') }]
			: [
					{ weight: 1, arbitrary: fc.constant<Defect>('empty') },
					{ weight: 1, arbitrary: fc.constant<Defect>('absent') },
					...(BAD[field] ? [{ weight: 1, arbitrary: fc.constant<Defect>('bad') }] : []),
				]),
	);

const columnDefect = (field: Field) =>
	field === 'ISIN'
		? fc.constant<ColumnDefect>('none')
		: fc.oneof(
				{ weight: 8, arbitrary: fc.constant<ColumnDefect>('none') },
				{ weight: 1, arbitrary: fc.constant<ColumnDefect>('drop') },
				{ weight: 1, arbitrary: fc.constant<ColumnDefect>('empty') },
			);

const rowDefects = fc.record(
	Object.fromEntries(FIELDS.map((field) => [field, cellDefect(field)])) as Record<
		Field,
		fc.Arbitrary<Defect>
	>,
);
const sheets: fc.Arbitrary<Sheet> = fc
	.record({
		cells: fc.array(rowDefects, { minLength: 2, maxLength: 7 }),
		columns: fc.record(
			Object.fromEntries(FIELDS.map((field) => [field, columnDefect(field)])) as Record<
				Field,
				fc.Arbitrary<ColumnDefect>
			>,
		),
	})
	.chain((sheet) =>
		fc
			.oneof(fc.constant(0), fc.integer({ min: 1, max: sheet.cells.length - 1 }))
			.map((split) => ({ ...sheet, split })),
	);

/** The rows of each portfolio (one without Group By). */
function groupsOf(sheet: Sheet): number[][] {
	const all = sheet.cells.map((_, row) => row);
	return sheet.split === 0 ? [all] : [all.slice(0, sheet.split), all.slice(sheet.split)];
}

/** The ISIN with its check digit changed: still ISIN-shaped, never valid. */
const wrongCheckDigit = (isin: string) =>
	`${isin.slice(0, 11)}${(Number(isin.slice(11)) + 1) % 10}`;

/** What each cell holds after the defects (a whole column's defect over the cell's). */
function defectOf(sheet: Sheet, row: number, field: Field): Defect {
	const column = sheet.columns[field];
	if (column === 'drop') return 'absent';
	if (column === 'empty') return 'empty';
	return sheet.cells[row][field];
}

function rowsOf(sheet: Sheet): IDataObject[] {
	return sheet.cells.map((_, row) => {
		const good: Record<Field, string | number> = {
			ISIN: COMPANIES[row],
			Name: `Holding ${row}`,
			Type: 'Stock',
			Currency: 'SEK',
			'Weight %': 20,
			'Market Value': (row + 1) * 1000,
		};
		const json: IDataObject = sheet.split ? { portfolio: row < sheet.split ? 'A' : 'B' } : {};
		for (const field of FIELDS) {
			const defect = defectOf(sheet, row, field);
			if (defect === 'absent') continue;
			json[field] =
				defect === 'none'
					? good[field]
					: defect === 'empty'
						? ''
						: field === 'ISIN'
							? wrongCheckDigit(COMPANIES[row])
							: BAD[field]!;
		}
		return json;
	});
}

interface Expected {
	/** Rows with at least one problem. */
	rows: Set<number>;
	/** Fields no row of a portfolio gives, said once for the column: the portfolio's rows and the field. */
	columns: Array<{ rows: number[]; field: Field }>;
	count: number;
}

/** The oracle: the problems a sheet has on a route, from the documented rules alone, each portfolio on its own. */
function expectedProblems(sheet: Sheet, rules: RouteRules): Expected {
	const expected: Expected = { rows: new Set(), columns: [], count: 0 };
	for (const rows of groupsOf(sheet)) {
		const group = expectedOfGroup(sheet, rows, rules);
		for (const row of group.rows) expected.rows.add(row);
		expected.columns.push(...group.columns);
		expected.count += group.count;
	}
	return expected;
}

function expectedOfGroup(sheet: Sheet, groupRows: number[], rules: RouteRules): Expected {
	const given = (field: Field) =>
		groupRows.some((row) => {
			const defect = defectOf(sheet, row, field);
			return defect === 'none' || defect === 'bad';
		});
	// A column is said once when the portfolio has more than one row; the only row's problem is the row's.
	const columns = rules.required.filter(
		(field) =>
			groupRows.length > 1 &&
			!given(field) &&
			!(field === 'Weight %' && rules.derivesWeight) &&
			!(field === 'Type' && rules.assumesType),
	);
	const rows = new Set<number>();
	let count = columns.length;
	for (const row of groupRows) {
		for (const field of FIELDS) {
			const defect = defectOf(sheet, row, field);
			const problem =
				defect === 'bad'
					? !(field === 'Type' && rules.sendsUnknownTypes)
					: defect !== 'none' &&
						rules.required.includes(field) &&
						!columns.includes(field) &&
						!(field === 'Weight %' && rules.derivesWeight && !given(field)) &&
						!(field === 'Type' && rules.assumesType && !given(field));
			if (problem) {
				rows.add(row);
				count++;
			}
		}
	}
	return { rows, columns: columns.map((field) => ({ rows: groupRows, field })), count };
}

/** How the error names a column no row of a portfolio gives: by its header when the column is there, else by the field. */
function columnWords(sheet: Sheet, rows: number[], field: Field): string {
	const present = rows.some((row) => defectOf(sheet, row, field) !== 'absent');
	return present
		? `The ${field} column is empty in all ${rows.length} rows`
		: `No ${LABELS[field]} column in any of the ${rows.length} rows`;
}

/** Group By portfolio; a snapshot per portfolio (two groups storing one portfolio's quarter are refused). */
function groupedBy(node: HoldingsNode): IDataObject {
	return node.route === 'POST /portfolios'
		? { groupBy: 'portfolio', portfolioId: '={{ $json.portfolio }}' }
		: { groupBy: 'portfolio' };
}

async function checkSheet(node: HoldingsNode, sheet: Sheet): Promise<void> {
	sim.reset();
	const rows = rowsOf(sheet);
	const expected = expectedProblems(sheet, RULES[node.label]);
	const { result } = await runNode(sim.url, rows, {
		type: node.type,
		typeVersion: 2,
		parameters: { ...node.parameters, ...(sheet.split ? groupedBy(node) : {}) },
	});
	const error = result.error as
		| (Error & { description?: string; context?: IDataObject })
		| undefined;
	const context = `${node.label}: ${JSON.stringify(rows)}\n${error?.message}\n${error?.description}`;
	if (expected.count === 0) {
		if (error?.name === 'NodeOperationError')
			throw new Error(`a sheet without problems was refused. ${context}`);
		return;
	}
	if (!error) throw new Error(`a sheet with ${expected.count} problems ran. ${context}`);
	expect({ name: error.name, requests: sim.requestCount() }).toEqual({
		name: 'NodeOperationError',
		requests: 0,
	});
	const lines = problemList(error);
	if (expected.count === 1 && expected.columns.length === 0) {
		// One problem of one row: the usual input error, its row as n8n's item index (n8n names it), a short title.
		const [row] = [...expected.rows];
		if (error.context?.itemIndex !== row || /^Item \d/.test(error.message) || lines)
			throw new Error(`not the row's error. ${context}`);
		expect(error.message.length).toBeLessThanOrEqual(150);
		return;
	}
	if (!lines) throw new Error(`no list of the problems. ${context}`);
	expect(error.message.length).toBeLessThanOrEqual(150);
	if (expected.count > 1) expect(error.message).toContain(`${expected.count} problems`);
	for (const row of expected.rows) {
		if (!lines.some((line) => line.startsWith(`- Item ${row}: `)))
			throw new Error(`row ${row} is not named. ${context}`);
	}
	for (const { rows: groupRows, field } of expected.columns) {
		const words = columnWords(sheet, groupRows, field);
		const portfolio = sheet.split
			? ` (portfolio = "${groupRows[0] < sheet.split ? 'A' : 'B'}")`
			: '';
		const said = lines.filter(
			(line) =>
				line.startsWith(`- ${words}`) &&
				(!portfolio || line.includes(portfolio) || expected.columns.length === 1),
		);
		if (said.length !== 1) throw new Error(`column ${field} is not said once. ${context}`);
	}
	expect(lines).toHaveLength(expected.count);
}

describe('One validation pass: every problem of a sheet in one error, before any request', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s',
		async (_label, node) => {
			await fc.assert(
				fc.asyncProperty(sheets, (sheet) => checkSheet(node, sheet)),
				{ seed: FUZZ_SEED, numRuns: runs(60) },
			);
		},
		120_000,
	);
});

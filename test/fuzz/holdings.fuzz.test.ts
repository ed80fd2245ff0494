/**
 * Property-based tests of the pure core every node uses: holdings mapping for every route, numbers,
 * ISINs, dates, Group By and the JSON holdings parameter. Many runs: these are fast.
 * Replay a failure with FUZZ_SEED=<seed printed by fast-check>; FUZZ_RUNS_SCALE=10 for a longer run.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../../nodes/shared/base/constants';
import { isIsoCurrency } from '../../nodes/shared/input/currencies';
import { describeDateProblem, readSnapshotDate } from '../../nodes/shared/input/dates';
import { groupItems } from '../../nodes/shared/input/grouping';
import { normalizeInstrumentType } from '../../nodes/shared/input/holdingFields';
import { holdingRowsFromJson } from '../../nodes/shared/input/holdingRows';
import { problemList } from './harness';
import { readHoldings } from '../../nodes/shared/input/holdings';
import type { HoldingRow } from '../../nodes/shared/input/holdingRows';
import type {
	CashRowPolicy,
	HoldingsReadOptions,
	InvalidIsinPolicy,
} from '../../nodes/shared/input/holdings';
import {
	describeInvalidIsin,
	isValidIsin,
	normalizeIsin,
	splitIsinList,
} from '../../nodes/shared/input/isin';
import { methodologyIdForRequest } from '../../nodes/shared/api/methodologies';
import { readNumber } from '../../nodes/shared/input/numbers';
import type { NumberFormat, WrittenFormat } from '../../nodes/shared/input/numbers';
import type { WeightScale } from '../../nodes/shared/input/holdingNumbers';
import { ROUTES as API_ROUTES } from '../../nodes/shared/api/routes';
import { showValue } from '../../nodes/shared/base/values';
import { withCheckDigit } from '../helpers/isins';
import { unitNode } from '../helpers/unitInput';
import { resolveSnapshot } from '../simulator/dates';
import { COMPUTED_HOLDING_SCHEMA } from '../simulator/routes/common';
import { validate } from '../simulator/validation';
import {
	FUZZ_SEED,
	HOSTILE_STRINGS,
	INVISIBLE_IN_ISINS,
	LOOK_ALIKE_LETTERS,
	dateLike,
	fieldNames,
	fullWidth,
	hostileString,
	mistyped,
	numberLike,
	objectOf,
	row,
	rows,
	runs,
} from './arbitraries';

const node = unitNode('Fuzz');
const HOLDINGS_ROUTES = {
	portfolios: API_ROUTES.createSnapshot,
	reports: API_ROUTES.reports,
	taxonomy: API_ROUTES.taxonomy,
	sustainableInvestments: API_ROUTES.sustainableInvestments,
	temperature: API_ROUTES.temperature,
};
type HoldingsRouteName = keyof typeof HOLDINGS_ROUTES;
const ROUTES = Object.keys(HOLDINGS_ROUTES) as HoldingsRouteName[];
const REQUIRED: Record<HoldingsRouteName, string[]> = {
	portfolios: ['name', 'currency', 'market_value'],
	reports: ['isin', 'name', 'currency', 'weight', 'market_value'],
	taxonomy: ['isin', 'name', 'instrument_type', 'market_value'],
	sustainableInvestments: ['isin', 'name', 'instrument_type', 'market_value'],
	temperature: ['isin', 'name', 'instrument_type', 'market_value'],
};
/** fc.property over `args`, run `numRuns` times (scaled by FUZZ_RUNS_SCALE) from the shared seed. */
function check<Ts extends [unknown, ...unknown[]]>(
	numRuns: number,
	...args: [
		...arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
		predicate: (...values: Ts) => boolean | void,
	]
): void {
	fc.assert(fc.property(...args), { seed: FUZZ_SEED, numRuns: runs(numRuns) });
}

function readAs(
	input: HoldingRow[],
	options: Omit<HoldingsReadOptions, 'route'> & { route: HoldingsRouteName },
) {
	return readHoldings(node, input, { ...options, route: HOLDINGS_ROUTES[options.route] });
}

/** Nothing may leak onto Object.prototype (the fuzzed rows carry `__proto__` and `constructor` keys). */
function expectNoPollution(): void {
	expect(({} as IDataObject).polluted).toBeUndefined();
	expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
}

/**
 * The error is a NodeOperationError that names its rows: one problem of one row has the row's itemIndex and a title
 * naming the place within that item; several problems (or a whole column) give a short title and one line per problem
 * in the description (expectProblemList).
 */
function expectNamesRow(error: unknown, rowsRead: HoldingRow[]): void {
	if (!(error instanceof NodeOperationError))
		throw new Error(`not a NodeOperationError: ${String((error as Error)?.stack ?? error)}`);
	if (problemList(error)) return expectProblemList(error, rowsRead);
	// n8n names the item (itemIndex); the title names the place within it, e.g. "2nd holding of Holdings (JSON)",
	// or, where the place would push the problem past 150 characters (the weights read two ways), a line of the
	// description starts with it (after the rest of a title that was split).
	const place = (candidate: HoldingRow) =>
		(candidate.where ?? '').replace(/^Item \d+(, |$)/, '').replace(/^./, (c) => c.toUpperCase());
	const description = String(error.description ?? '');
	const row = rowsRead.find(
		(candidate) =>
			candidate.itemIndex === error.context.itemIndex &&
			(!place(candidate) ||
				error.message.startsWith(`${place(candidate)}: `) ||
				description.split('\n').some((line) => line.startsWith(`${place(candidate)}. `))),
	);
	if (!row) throw new Error(`the error names no row: ${error.message}`);
	expect(error.message).not.toMatch(/^Item \d+/);
	expect(error.message.length).toBeLessThanOrEqual(150);
	expect(String(error.description ?? '').length).toBeLessThan(1500);
}

/** The error of inputProblemsError: every line of its list names a row of the input, or a column. */
function expectProblemList(error: NodeOperationError, rowsRead: HoldingRow[]): void {
	expect(error.message.length).toBeLessThanOrEqual(150);
	expect(error.message).not.toMatch(/^Item \d/);
	expect(rowsRead.map((candidate) => candidate.itemIndex)).toContain(error.context.itemIndex);
	const lines = String(error.description ?? '')
		.split('\n')
		.filter((line) => line.startsWith('- '));
	if (lines.length === 0) throw new Error(`the error names no row: ${error.message}`);
	expect(lines.length).toBeLessThanOrEqual(31);
	for (const line of lines) {
		expect(line.length).toBeLessThan(1200);
		const namesRow = rowsRead.some((candidate) =>
			line.startsWith(`- ${candidate.where ?? `Item ${candidate.itemIndex}`}: `),
		);
		const namesColumn = /^- (No |The |[A-Z][\w ]+ is (not )?mapped)/.test(line);
		const counted = /^- and [\d,]+ more problems? in items? /.test(line);
		if (!namesRow && !namesColumn && !counted)
			throw new Error(`a problem names no row nor column: ${line}`);
	}
}

/** The rows read, or undefined when they were refused with an error naming one of them. */
function readOrNamed(input: HoldingRow[], options: Parameters<typeof readAs>[1]) {
	try {
		return readAs(input, options);
	} catch (error) {
		expectNamesRow(error, input);
		return undefined;
	}
}

const policies = fc.record({
	route: fc.constantFrom(...ROUTES),
	invalidIsin: fc.constantFrom<InvalidIsinPolicy>('fail', 'skip', 'send'),
	cashRows: fc.constantFrom<CashRowPolicy>('remove', 'error'),
	fieldNames,
	numberFormat: fc.constantFrom<NumberFormat>('detect', 'dot', 'comma', 'space'),
	weightsAre: fc.constantFrom<WeightScale>('detect', 'percent', 'fraction'),
});

/** Holdings (JSON) as AI models write a list ($fromAI): each gives the list itself. */
const aiWriting = fc.constantFrom<(list: unknown[]) => string>(
	(list) => JSON.stringify({ holdings: list }),
	(list) => JSON.stringify({ portfolio: 'P', positions: list }),
	(list) => '```json\n' + JSON.stringify(list, null, 2) + '\n```',
	(list) => '```\n' + JSON.stringify({ Holdings: list }) + '\n```',
	(list) => JSON.stringify(JSON.stringify(list)),
	(list) => JSON.stringify('```json\n' + JSON.stringify(list) + '\n```'),
);

describe('readHoldings (every route)', () => {
	it('returns holdings the route accepts and accounts for every row, or fails naming the row', () => {
		check(600, rows(12), policies, (json, options) => {
			const input: HoldingRow[] = json.map((entry, itemIndex) => ({
				json: entry as IDataObject,
				itemIndex,
			}));
			const read = readOrNamed(input, options);
			if (!read) return expectNoPollution();
			const { holdings, removed } = read;
			// Every row once: as a holding or as a removed row, holdings in input order.
			expect(
				[...holdings.map((h) => h.itemIndex), ...removed.map((r) => r.item)].sort((a, b) => a - b),
			).toEqual(input.map((r) => r.itemIndex));
			expect(holdings.map((h) => h.itemIndex)).toEqual(
				[...holdings.map((h) => h.itemIndex)].sort((a, b) => a - b),
			);
			for (const removedRow of removed) expect(typeof removedRow.reason).toBe('string');

			for (const { holding } of holdings) {
				// What goes over the wire is what we built: no functions, NaN, undefined or prototype keys lost in JSON.
				expect(JSON.parse(JSON.stringify(holding))).toEqual(holding);
				expect(
					Object.keys(holding).every((key) =>
						['isin', 'name', 'instrument_type', 'currency', 'weight', 'market_value'].includes(key),
					),
				).toBe(true);
				for (const field of REQUIRED[options.route])
					expect((holding as unknown as IDataObject)[field] ?? null).not.toBeNull();
				if (holding.isin !== null) expect(typeof holding.isin).toBe('string');
				if (holding.isin !== null && options.invalidIsin !== 'send')
					expect(isValidIsin(holding.isin)).toBe(true);
				if (holding.name !== undefined)
					expect(
						typeof holding.name === 'string' &&
							holding.name.trim() === holding.name &&
							holding.name !== '',
					).toBe(true);
				if (holding.currency !== undefined) expect(isIsoCurrency(holding.currency)).toBe(true);
				if (holding.weight !== undefined)
					expect(
						Number.isFinite(holding.weight) && holding.weight >= 0 && holding.weight <= 100,
					).toBe(true);
				if (holding.market_value !== undefined)
					expect(Number.isFinite(holding.market_value)).toBe(true);
				if (holding.instrument_type !== undefined) {
					expect(typeof holding.instrument_type).toBe('string');
					if (options.route !== 'temperature')
						expect(INSTRUMENT_TYPES).toContain(holding.instrument_type);
				}
				if (options.route === 'portfolios') expect(holding.market_value).not.toBe(0);
				if (options.route === 'taxonomy' || options.route === 'sustainableInvestments') {
					expect(holding.instrument_type).not.toBe('cash');
					expect(validate(COMPUTED_HOLDING_SCHEMA, holding)).toEqual([]);
				}
			}
			// Deterministic: the same rows read again give the same holdings.
			expect(readAs(input, options)).toEqual(read);
			expectNoPollution();
		});
	});

	it('reads a single fuzzed row in every route without any other kind of error', () => {
		check(1500, row, policies, (json, options) => {
			const input: HoldingRow[] = [
				{ json: json as IDataObject, itemIndex: 3, where: 'Item 3, holding 7 of Holdings (JSON)' },
			];
			const read = readOrNamed(input, options);
			if (!read) return;
			expect(read.holdings.length + read.removed.length).toBe(1);
		});
	});

	it('reads a list of holdings wrapped, fenced or encoded twice as the list itself', () => {
		check(400, rows(5), aiWriting, fc.nat(5), (list, write, itemIndex) => {
			const plain = holdingRowsFromJson(node, JSON.stringify(list), itemIndex);
			const written = write(list);
			const read = holdingRowsFromJson(node, written, itemIndex);
			expect(read).toEqual(plain);
		});
	});

	it('names the entry of Holdings (JSON) for any JSON text, array entry or non-array', () => {
		const jsonText = fc.oneof(
			rows(5).map((list) => JSON.stringify(list)),
			fc
				.array(fc.oneof(row, mistyped, hostileString, fc.integer()), { maxLength: 5 })
				.map((list) => JSON.stringify(list)),
			fc.constantFrom(
				'',
				' ',
				'[',
				'{}',
				'null',
				'"[]"',
				'[1,2',
				'{"holdings": []}',
				'[null]',
				'[[]]',
				'[{"__proto__": {"polluted": 1}}]',
				'```json\n[1,2\n```',
				'```\n```',
				'"\\"[\\""',
				'{"a": [{}], "b": [{}]}',
				'{"holdings": "none"}',
				'{"isin": "US0378331005", "tags": [{}]}',
			),
			// As AI models write it ($fromAI): wrapped, fenced, one object, encoded twice.
			fc.tuple(rows(5), aiWriting).map(([list, write]) => write(list)),
			rows(2).map((list) => JSON.stringify(list[0])),
			rows(2).map((list) => JSON.stringify({ a: list, b: list })),
			hostileString,
		);
		check(600, jsonText, fc.nat(5), policies, (text, itemIndex, options) => {
			let input: HoldingRow[];
			try {
				input = holdingRowsFromJson(node, text, itemIndex);
			} catch (error) {
				expect(error).toBeInstanceOf(NodeOperationError);
				expect((error as NodeOperationError).message).toMatch(
					/^Holdings \(JSON\)|holding of Holdings \(JSON\)/,
				);
				expect((error as NodeOperationError).context.itemIndex).toBe(itemIndex);
				return;
			}
			const read = readOrNamed(input, options);
			if (read) expect(read.holdings.length + read.removed.length).toBe(input.length);
			expectNoPollution();
		});
	});

	it('finds the columns of rows whose other keys are __proto__, constructor and toString', () => {
		const json = objectOf([
			['__proto__', { polluted: true }],
			['constructor', 'x'],
			['toString', 'y'],
			['ISIN', 'US0378331005'],
			['Name', 'Apple'],
			['Type', 'constructor'],
			['Currency', 'usd'],
			['Market Value', '1,000'],
		]);
		const error = (() => {
			try {
				readHoldings(node, [{ json: json as IDataObject, itemIndex: 0 }], {
					route: API_ROUTES.taxonomy,
				});
			} catch (caught) {
				return caught as NodeOperationError;
			}
			return undefined;
		})();
		// Both problems of the row in one pass: the type, and the market value "1,000" that reads two ways.
		expect(error?.message).toBe(
			'2 problems in the input; the first: instrument type "constructor" is not one the API knows',
		);
		expect(problemList(error)).toEqual([
			expect.stringMatching(/^- Item 0: instrument type "constructor" is not one the API knows → /),
			expect.stringMatching(/^- Item 0: market value "1,000" reads two ways: /),
		]);
		expectNoPollution();
	});
});

describe('instrument types', () => {
	it('are one of the API enum values or undefined, whatever the text', () => {
		check(
			1000,
			fc.oneof(
				hostileString,
				fc.constantFrom(...HOSTILE_STRINGS, 'Constructor', '__Proto__', 'to String', 'valueOf'),
				mistyped,
			),
			(value) => {
				const type = normalizeInstrumentType(value);
				expect(type === undefined || (INSTRUMENT_TYPES as readonly string[]).includes(type)).toBe(
					true,
				);
			},
		);
	});
});

describe('readHoldings: numbers that read two ways', () => {
	const base = (index: number) => ({
		isin: 'US0378331005',
		name: `Holding ${index}`,
		instrument_type: 'Stock',
		currency: 'EUR',
	});
	const asRows = (entries: IDataObject[]): HoldingRow[] =>
		entries.map((json, itemIndex) => ({ json, itemIndex }));

	it('never sends a market value that reads two ways unless the column or Number Format settles it', () => {
		check(
			500,
			fc.array(
				fc.tuple(
					fc.integer({ min: 1, max: 999 }),
					fc.integer({ min: 0, max: 999 }),
					fc.constantFrom('.', ','),
				),
				{ minLength: 1, maxLength: 6 },
			),
			fc.constantFrom<NumberFormat>('detect', 'dot', 'comma'),
			(values, numberFormat) => {
				const texts = values.map(
					([head, tail, separator]) => `${head}${separator}${String(tail).padStart(3, '0')}`,
				);
				const rows = asRows(texts.map((market_value, index) => ({ ...base(index), market_value })));
				let read: ReturnType<typeof readAs>;
				try {
					read = readAs(rows, { route: 'taxonomy', numberFormat });
				} catch (error) {
					expectNamesRow(error, rows);
					// Only Detect, with nothing to settle it, refuses; the message gives both readings.
					expect(numberFormat).toBe('detect');
					expect((error as Error).message).toContain('reads two ways');
					return;
				}
				expect(numberFormat).not.toBe('detect');
				read.holdings.forEach(({ holding }, index) => {
					const [head, tail, separator] = values[index];
					const thousands = (separator === '.') === (numberFormat === 'comma');
					expect(holding.market_value).toBeCloseTo(
						thousands ? head * 1000 + tail : head + tail / 1000,
						9,
					);
				});
			},
		);
	});

	it('sends weights that are fractions of 1 adding up to 1 as percent, and says so; never as they are', () => {
		check(
			500,
			fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 8 }),
			(parts) => {
				const total = parts.reduce((sum, part) => sum + part, 0);
				const fractions = parts.map((part) => Number((part / total).toPrecision(6)));
				const rows = asRows(
					fractions.map((weight, index) => ({ ...base(index), weight, market_value: 100 })),
				);
				const read = readAs(rows, { route: 'reports' });
				read.holdings.forEach(({ holding }, index) => {
					expect(holding.weight).toBeCloseTo(fractions[index] * 100, 9);
				});
				expect(read.notes.join(' ')).toContain('read as fractions of 1');
			},
		);
	});
});

describe('readHoldings: a column in one locale, with scientific notation and numbers mixed in (every route)', () => {
	/** How sheets of each locale write a number: digit groups (or none) and the decimal mark. */
	const LOCALES = {
		en: { group: ',', decimal: '.', lakh: false },
		de: { group: '.', decimal: ',', lakh: false },
		fr: { group: '\u202f', decimal: ',', lakh: false },
		ch: { group: "'", decimal: '.', lakh: false },
		in: { group: ',', decimal: '.', lakh: true },
	} as const;
	type Locale = keyof typeof LOCALES;
	const writeIn = (locale: Locale, integer: number, fraction: string, grouped: boolean) => {
		const { group, decimal, lakh } = LOCALES[locale];
		const digits = String(integer);
		const head = !grouped
			? digits
			: lakh
				? digits.replace(/(\d)(?=(\d\d)*\d{3}$)/g, `$1${group}`)
				: digits.replace(/\B(?=(\d{3})+$)/g, group);
		return fraction ? `${head}${decimal}${fraction}` : head;
	};
	/** A value as written and the number it means. */
	type Written = { text: string | number; means: number; scientific: boolean };
	const inLocale = (locale: Locale): fc.Arbitrary<Written> =>
		fc
			.tuple(
				fc.integer({ min: 1, max: 99_999_999 }),
				fc.integer({ min: 0, max: 999 }),
				fc.integer({ min: 0, max: 3 }),
				fc.boolean(),
			)
			.map(([integer, fractionDigits, digits, grouped]) => {
				const fraction = String(fractionDigits).padStart(3, '0').slice(0, digits);
				return {
					text: writeIn(locale, integer, fraction, grouped),
					means: Number(`${integer}.${fraction || '0'}`),
					scientific: false,
				};
			});
	/** Scientific notation as programs write it (1.23E+05, 1.23e5) or a German sheet (1,23E+05). */
	const scientific: fc.Arbitrary<Written> = fc
		.tuple(
			fc.integer({ min: 1, max: 9 }),
			fc.integer({ min: 0, max: 9999 }),
			fc.integer({ min: -3, max: 9 }),
			fc.constantFrom('.', ','),
			fc.constantFrom('E+', 'e', 'E'),
		)
		.map(([whole, fraction, exponent, mark, e]) => {
			const mantissa = fraction === 0 ? `${whole}` : `${whole}${mark}${fraction}`;
			const power = exponent < 0 ? `${e.replace('+', '')}${exponent}` : `${e}${exponent}`;
			return {
				text: `${mantissa}${power}`,
				means: Number(`${whole}.${fraction}e${exponent}`),
				scientific: true,
			};
		});
	const plainNumber: fc.Arbitrary<Written> = fc
		.double({ min: 0.001, max: 1e9, noNaN: true })
		.map((value) => ({ text: value, means: value, scientific: false }));
	const column = fc
		.constantFrom(...(Object.keys(LOCALES) as Locale[]))
		.chain((locale) =>
			fc.array(
				fc.oneof(
					{ weight: 3, arbitrary: inLocale(locale) },
					{ weight: 2, arbitrary: scientific },
					{ weight: 1, arbitrary: plainNumber },
				),
				{ minLength: 1, maxLength: 6 },
			),
		);

	it('each market value is sent as the number written, or the run is refused for a value that reads two ways', () => {
		check(1500, column, fc.constantFrom(...ROUTES), (written, route) => {
			const rows: HoldingRow[] = written.map(({ text }, index) => ({
				json: {
					isin: 'US0378331005',
					name: `Holding ${index}`,
					instrument_type: 'Stock',
					currency: 'EUR',
					weight: 100 / written.length,
					market_value: text,
				},
				itemIndex: index,
			}));
			let read: ReturnType<typeof readAs>;
			try {
				read = readAs(rows, { route, numberFormat: 'detect' });
			} catch (error) {
				expectNamesRow(error, rows);
				// Only a value that reads two ways (1.234 alone) with nothing in its column to settle it is refused.
				expect((error as Error).message).toMatch(/market value "[^"]*" reads two ways/i);
				const refused = /market value "([^"]*)"/i.exec((error as Error).message)![1];
				expect(readNumber(refused)).toMatchObject({ problem: 'two-readings' });
				return;
			}
			expect(read.holdings.map(({ holding }) => holding.market_value)).toEqual(
				written.map(({ means }) => means),
			);
			// A value settled by its column is said so, and what settled it is a grouped or decimal value of the
			// sheet, never scientific notation (which says nothing about what . and , mean in 1.234).
			const settled = read.notes.find((note) => note.includes('read two ways'));
			if (settled)
				expect(/because the column writes numbers .* \("([^"]*)"/.exec(settled)![1]).not.toMatch(
					/e/i,
				);
		});
	});
});

describe('holding currencies (every route)', () => {
	it('any three letters that are not ISO 4217 are refused naming the row, with an ISO 4217 code suggested', () => {
		check(
			1500,
			fc.stringMatching(/^[A-Za-z]{3}$/).filter((code) => !isIsoCurrency(code.toUpperCase())),
			fc.constantFrom(...ROUTES),
			(code, route) => {
				const rows: HoldingRow[] = [
					{
						json: {
							isin: 'US0378331005',
							name: 'Holding',
							instrument_type: 'Stock',
							currency: code,
							weight: 100,
							market_value: 100,
						},
						itemIndex: 0,
					},
				];
				let error: unknown;
				try {
					readAs(rows, { route });
				} catch (caught) {
					error = caught;
				}
				expectNamesRow(error, rows);
				const { message, description } = error as NodeOperationError;
				expect(message.toLowerCase()).toContain(
					`currency "${code.toLowerCase()}" is not an iso 4217 currency code`,
				);
				const suggested =
					/^(?:Did you mean|The nearest ISO 4217 codes? (?:is|are)|Use) ([A-Z]{3}(?:(?:, | or )[A-Z]{3})*)/.exec(
						String(description),
					);
				expect(suggested).not.toBeNull();
				for (const suggestion of suggested![1].split(/, | or /))
					expect(isIsoCurrency(suggestion)).toBe(true);
			},
		);
	});
});

describe('numbers', () => {
	const valueOf = (
		value: unknown,
		format: 'detect' | WrittenFormat = 'detect',
		percent = false,
	) => {
		const read = readNumber(value, format, { percent });
		return 'value' in read ? read.value : undefined;
	};

	it('readNumber never throws and gives a finite number or a problem, with both readings when there are two', () => {
		check(
			3000,
			fc.oneof(numberLike, hostileString, mistyped),
			fc.constantFrom<'detect' | WrittenFormat>('detect', 'dot', 'comma', 'space'),
			fc.boolean(),
			(value, format, percent) => {
				const read = readNumber(value, format, { percent });
				if ('value' in read) expect(Number.isFinite(read.value)).toBe(true);
				else if (read.problem === 'two-readings') {
					expect(format).toBe('detect');
					expect(read.readings.dot).not.toBe(read.readings.comma);
					expect(Number.isFinite(read.readings.dot) && Number.isFinite(read.readings.comma)).toBe(
						true,
					);
				}
			},
		);
	});

	const formats = {
		en: { written: 'dot', group: ',', decimal: '.' },
		de: { written: 'comma', group: '.', decimal: ',' },
		fr: { written: 'space', group: '\u202f', decimal: ',' },
		ch: { written: 'dot', group: "'", decimal: '.' },
	} as const;
	const write = (format: keyof typeof formats, integer: number, fraction: string) =>
		`${String(integer).replace(/\B(?=(\d{3})+$)/g, formats[format].group)}${fraction ? formats[format].decimal + fraction : ''}`;
	const dress = fc.constantFrom(
		(text: string) => ({ text, negative: false }),
		(text: string) => ({ text: `-${text}`, negative: true }),
		(text: string) => ({ text: `(${text})`, negative: true }),
		(text: string) => ({ text: `€${text}`, negative: false }),
		(text: string) => ({ text: `-€ ${text}`, negative: true }),
		(text: string) => ({ text: `${text} EUR`, negative: false }),
		(text: string) => ({ text: `USD ${text}`, negative: false }),
	);

	it('reads back the same value in English, German, French and Swiss spellings, signs, brackets and currencies', () => {
		check(
			2000,
			fc.integer({ min: 0, max: 999_999_999 }),
			fc.integer({ min: 0, max: 999 }),
			fc.constantFrom(1, 2, 3),
			fc.constantFrom(...(Object.keys(formats) as Array<keyof typeof formats>)),
			dress,
			(integer, fractionDigits, digits, format, dressed) => {
				const fraction = String(fractionDigits).padStart(3, '0').slice(0, digits);
				const { text, negative } = dressed(write(format, integer, fraction));
				const expected = (negative ? -1 : 1) * Number(`${integer}.${fraction}`);
				// In its own format it always reads back.
				expect(valueOf(text, formats[format].written)).toBeCloseTo(expected, 6);
				// Detected, it reads back, or (only when it can be read in the other format too) is refused.
				const read = readNumber(text);
				if ('value' in read) expect(read.value).toBeCloseTo(expected, 6);
				else {
					expect(read.problem).toBe('two-readings');
					const readings =
						read.problem === 'two-readings' ? read.readings : { dot: NaN, comma: NaN };
					expect([readings.dot, readings.comma].some((r) => Math.abs(r - expected) < 1e-6)).toBe(
						true,
					);
				}
			},
		);
	});

	it('never reads 1.234 or 1,234 as a number without a format', () => {
		check(
			500,
			fc.integer({ min: 1, max: 999 }),
			fc.integer({ min: 0, max: 999 }),
			fc.constantFrom('.', ','),
			(head, tail, separator) => {
				const text = `${head}${separator}${String(tail).padStart(3, '0')}`;
				expect(readNumber(text)).toMatchObject({ problem: 'two-readings' });
			},
		);
	});
});

describe('ISINs', () => {
	const body = fc
		.tuple(
			fc.constantFrom('US', 'DE', 'FR', 'IE', 'XS', 'SE', 'CH'),
			fc.array(fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), {
				minLength: 9,
				maxLength: 9,
			}),
		)
		.map(([country, chars]) => `${country}${chars.join('')}`);

	it('accepts any ISIN with its check digit, also lower case and with spaces', () => {
		check(1000, body, fc.nat(11), (body11, cut) => {
			const isin = withCheckDigit(body11);
			expect(isValidIsin(isin)).toBe(true);
			expect(normalizeIsin(` ${isin.slice(0, cut).toLowerCase()} ${isin.slice(cut)}\t`)).toBe(isin);
		});
	});

	it('accepts any ISIN with invisible characters inside or typed full width; names a look-alike letter', () => {
		check(
			1000,
			body,
			fc.array(fc.tuple(fc.nat(12), fc.constantFrom(...INVISIBLE_IN_ISINS)), { maxLength: 3 }),
			fc.boolean(),
			fc.nat(11),
			fc.constantFrom(...LOOK_ALIKE_LETTERS),
			(body11, invisibles, wide, at, letter) => {
				const isin = withCheckDigit(body11);
				let pasted = wide ? fullWidth(isin) : isin;
				for (const [where, invisible] of invisibles)
					pasted = pasted.slice(0, where) + invisible + pasted.slice(where);
				expect(normalizeIsin(pasted)).toBe(isin);

				const mistyped = isin.slice(0, at) + letter + isin.slice(at + 1);
				expect(isValidIsin(normalizeIsin(mistyped))).toBe(false);
				expect(describeInvalidIsin(normalizeIsin(mistyped))).toContain(
					`letter "${letter}" (U+${letter.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) at position ${at + 1}, which looks like a Latin letter or digit; retype it`,
				);
			},
		);
	});

	it('splitIsinList reads a list of ISINs in any way it is written: each distinct ISIN once, in order', () => {
		const writings = fc.constantFrom<(isins: string[]) => unknown>(
			(isins) => isins.join(', '),
			(isins) => isins.join('\n'),
			(isins) => isins.join(' ; '),
			(isins) => isins.join('\t'),
			(isins) => JSON.stringify(isins),
			(isins) => JSON.stringify(isins).slice(0, -1),
			(isins) => '```json\n' + JSON.stringify(isins, null, 2) + '\n```',
			(isins) => JSON.stringify(JSON.stringify(isins)),
			(isins) => `[${isins.map((isin) => `'${isin}'`).join(', ')}]`,
			(isins) => isins.map((isin) => `"${isin}"`).join(',\n'),
			(isins) => isins,
			(isins) => isins.map((isin) => [isin]),
		);
		check(
			1000,
			fc.array(fc.tuple(body, fc.boolean()), { minLength: 1, maxLength: 8 }),
			fc.array(fc.nat(7), { maxLength: 4 }),
			writings,
			(drawn, repeats, write) => {
				const isins = drawn.map(([body11]) => withCheckDigit(body11));
				const written = drawn.map(([, lower], index) =>
					lower ? isins[index].toLowerCase() : isins[index],
				);
				for (const repeat of repeats) written.push(written[repeat % written.length]);
				const list = splitIsinList(write(written));
				expect(list.entries.map((entry) => entry.isin)).toEqual([...new Set(isins)]);
				expect(list.duplicates).toBe(written.length - new Set(isins).size);
			},
		);
	});

	it('splitIsinList never throws; each entry is a value to check (at most 64 characters) or a reason', () => {
		check(
			1000,
			fc.oneof(
				hostileString,
				mistyped,
				fc.array(fc.oneof(hostileString, mistyped), { maxLength: 5 }),
				fc.array(fc.oneof(hostileString, mistyped), { maxLength: 5 }).map((v) => JSON.stringify(v)),
			),
			(value) => {
				const { entries } = splitIsinList(value);
				for (const entry of entries) {
					if (entry.isin !== undefined) {
						expect(entry.isin.length).toBeGreaterThan(0);
						expect(entry.isin.length).toBeLessThanOrEqual(64);
						// Only ASCII letters are upper-cased: another script's letter stays as typed, to be named.
						expect(entry.isin).not.toMatch(/[a-z]/);
					} else expect(entry.problem).toMatch(/^invalid ISIN: /);
					expect(entry.position).toBeGreaterThan(0);
				}
			},
		);
	});

	it('refuses a wrong check digit', () => {
		check(500, body, fc.integer({ min: 1, max: 9 }), (body11, shift) => {
			const isin = withCheckDigit(body11);
			const wrong = isin.slice(0, 11) + String((Number(isin[11]) + shift) % 10);
			expect(isValidIsin(wrong)).toBe(false);
			expect(describeInvalidIsin(wrong)).toMatch(/check digit/);
		});
	});

	it('normalizeIsin / isValidIsin / describeInvalidIsin never throw and stay short', () => {
		check(
			1000,
			fc.oneof(
				hostileString,
				mistyped,
				fc.integer(),
				fc.string({ minLength: 1000, maxLength: 2000 }),
			),
			(value) => {
				const isin = normalizeIsin(value);
				expect(typeof isin).toBe('string');
				if (!isValidIsin(isin)) expect(describeInvalidIsin(isin).length).toBeLessThan(200);
			},
		);
	});
});

describe('snapshot dates', () => {
	it('a date the node accepts is one the API accepts, at the same quarter end; messages never throw', () => {
		const now = new Date();
		check(2000, dateLike, (value) => {
			const read = readSnapshotDate(value, now, 'UTC', 'UTC');
			if ('problem' in read) {
				expect(describeDateProblem(read.problem, value).length).toBeLessThan(300);
				return;
			}
			expect(read.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			expect(resolveSnapshot(read.date, now)).toEqual({ ok: true, quarterEnd: read.quarterEnd });
			expect(read.quarterEnd >= read.date).toBe(true);
		});
	});

	it('reads JS Dates and Luxon DateTimes as their UTC calendar date', () => {
		check(
			300,
			fc.date({ min: new Date('1990-01-01'), max: new Date(), noInvalidDate: true }),
			(date) => {
				const expected = date.toISOString().slice(0, 10);
				expect(readSnapshotDate(date, new Date(), 'UTC', 'UTC')).toMatchObject({ date: expected });
				expect(
					readSnapshotDate(DateTime.fromJSDate(date, { zone: 'utc' }), new Date(), 'UTC', 'UTC'),
				).toMatchObject({
					date: expected,
				});
			},
		);
	});
});

describe('Group By', () => {
	it('partitions the items in first-seen order, or names the item without a value', () => {
		const groupValue = fc.oneof(
			fc.constantFrom('a', 'b', 'A', ' a', 1, '1', true),
			hostileString,
			mistyped,
		);
		const item = fc
			.record({ portfolio: groupValue, date: groupValue }, { requiredKeys: [] })
			.chain((json) =>
				fc
					.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString'), groupValue), {
						maxLength: 2,
					})
					.map((noise) => objectOf([...noise, ...Object.entries(json)])),
			);
		const groupBy = fc.constantFrom(
			['portfolio'],
			['portfolio', 'date'],
			['Portfolio'],
			['constructor'],
			['toString'],
			['__proto__'],
			['missing'],
		);
		check(800, fc.array(item, { minLength: 1, maxLength: 10 }), groupBy, (jsons, fields) => {
			const items = jsons.map((json) => ({ json: json as IDataObject }));
			let groups: ReturnType<typeof groupItems>;
			try {
				groups = groupItems(node, items, [...fields]);
			} catch (error) {
				expect(error).toBeInstanceOf(NodeOperationError);
				const { message, context } = error as NodeOperationError;
				expect(message).toMatch(/^The Group By field/);
				expect(typeof context.itemIndex).toBe('number');
				return;
			}
			const all = groups.flatMap((group) => group.itemIndices);
			expect([...all].sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
			expect(groups.map((group) => group.itemIndices[0])).toEqual(
				[...groups.map((group) => group.itemIndices[0])].sort((a, b) => a - b),
			);
			for (const group of groups) {
				for (const field of fields)
					expect(Object.prototype.hasOwnProperty.call(group.values, field)).toBe(true);
				// A group's values are data of its items, never something inherited from Object.prototype.
				expect(Object.getPrototypeOf(group.values)).toBe(Object.prototype);
				expect(Object.keys(group.values).sort()).toEqual([...new Set(fields)].sort());
				for (const value of Object.values(group.values)) expect(typeof value).not.toBe('function');
			}
			expectNoPollution();
		});
	});
});

describe('values shown in messages', () => {
	it('showValue and methodologyIdForRequest never throw, whatever the value', () => {
		check(1000, fc.oneof(hostileString, mistyped, numberLike), (value) => {
			expect(typeof showValue(value)).toBe('string');
			expect(showValue(value).length).toBeLessThanOrEqual(41);
			const id = methodologyIdForRequest(value);
			expect(id === undefined || typeof id === 'string' || Number.isFinite(id)).toBe(true);
		});
	});
});

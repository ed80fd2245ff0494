/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * fast-check arbitraries for the fuzz suites: the values people and upstream nodes actually put in
 * holdings columns and node parameters, mixed with mistyped and hostile ones.
 *
 * Objects are built with `objectOf` (own data properties), so `__proto__` and `constructor` really are
 * keys of the row, as JSON.parse would make them, and never touch a prototype.
 */
import type { IDataObject } from 'n8n-workflow';
import fc from 'fast-check';

import { makeIsin, withCheckDigit } from '../helpers/isins';

/** Seed of every fuzz property; FUZZ_SEED=<n> replays another. fast-check prints seed and path on failure. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20251121);

/** numRuns scaled by FUZZ_RUNS_SCALE (e.g. 10 for a long local run). */
export function runs(base: number): number {
	const scale = Number(process.env.FUZZ_RUNS_SCALE ?? 1);
	return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export function objectOf(entries: Array<[string, unknown]>): Record<string, unknown> {
	const object: Record<string, unknown> = {};
	for (const [key, value] of entries) {
		if (value === undefined) continue;
		Object.defineProperty(object, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return object;
}

/** Real ISINs (the examples') and generated ones with a valid check digit; XX... is unknown to the API. */
export const KNOWN_ISINS = [
	'US0378331005',
	'US5949181045',
	'CH0038863350',
	'NL0010273215',
	'DE0007164600',
	'IE00B4L5Y983',
	'IE00BK5BQT80',
	'SE0000115446',
	'DE0001102580',
	makeIsin('US', 4711),
	makeIsin('FR', 815),
	makeIsin('XX', 42),
];

export const HOSTILE_STRINGS = [
	'',
	' ',
	'\t\n',
	'../',
	'../../etc/passwd',
	'..%2F..%2F',
	'?',
	'#',
	'a?b=c#d',
	'%2F',
	'%00',
	'%',
	'/',
	'\\',
	'\u0000',
	'a\u0000b',
	'\u202Eevil\u202C',
	'\u200F\u200E',
	'שלום',
	'مرحبا',
	'💶📈🚀',
	'👩‍👩‍👧‍👦',
	'e\u0301\u0301\u0301',
	'Z̴̡̛a̷l̸g̶o̵',
	'\uD800',
	'\uDC00x',
	'ﬀ',
	'ß',
	'İ',
	'null',
	'undefined',
	'NaN',
	'Infinity',
	'-Infinity',
	'1e400',
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'valueOf',
	'hasOwnProperty',
	'<script>alert(1)</script>',
	"'; DROP TABLE funds; --",
	'{{ $json.isin }}',
	'={{ 1 + 1 }}',
	'${process.exit()}',
];

const loneSurrogate = fc
	.integer({ min: 0xd800, max: 0xdfff })
	.map((code) => String.fromCharCode(code));

export const hostileString = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
	{ weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
	{ weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
	{
		weight: 1,
		arbitrary: fc.string({
			unit: fc.oneof(loneSurrogate, fc.constantFrom('a', '\u0301', '💶')),
			maxLength: 6,
		}),
	},
);

/** Long values, bounded so that a request stays far below the 10 MB body limit. */
const longString = fc.constantFrom(
	'x'.repeat(5_000),
	'💶'.repeat(2_000),
	'é'.repeat(20_000),
	' '.repeat(3_000) + 'A',
);

/** Objects and arrays where scalars are expected, including ones that break String(value). */
export const mistyped = fc.oneof(
	fc.boolean(),
	fc.constant(null),
	fc.constant({}),
	fc.constant([]),
	fc.constant(['US0378331005']),
	fc.constant([1, 2]),
	fc.constant({ value: 12 }),
	fc.constant(objectOf([['toString', 'x']])),
	fc.constant(
		objectOf([
			['valueOf', 1],
			['toString', 2],
		]),
	),
	fc.constant(objectOf([['__proto__', { polluted: true }]])),
	fc.constant(objectOf([['constructor', { prototype: { polluted: true } }]])),
	fc.constant({ toISODate: 'not a function' }),
);

/** Numbers as sheets and CSV exports write them, and as people mistype them. */
export const NUMBER_TEXTS = [
	'1,234.50',
	'1 234,50',
	'1.234,50',
	"1'234.50",
	'1\u00a0234,50',
	'1\u202f234,50',
	'12.5%',
	'12,5 %',
	'-5',
	'+7',
	'.5',
	'5.',
	'0',
	'-0',
	'0.0',
	'1e3',
	'1E-2',
	' 42 ',
	'1,2,3',
	'1,2345',
	'1..2',
	'0x10',
	'١٢٣',
	'１２３',
	'12.5.6',
	'€ 100',
	'100 EUR',
	'(100)',
	'1_000',
	'(1,234.50)',
	'€1,234.50',
	'-€ 1.234,50',
	'1.234,50 EUR',
	'1,234 USD',
	'EUR 1 234,50',
	'1.234',
	'1,234',
	'-1.234',
	'0.12',
	'0,38',
	'0.5',
	'(12)%',
	'$12',
	'XYZ 12',
	'12 EURO',
	'100%%',
	'%',
	'-',
	'99999999999999999999999999999999999999',
	'9'.repeat(41),
];

export const numberLike = fc.oneof(
	{ weight: 3, arbitrary: fc.double({ min: -1e9, max: 1e9, noNaN: true }) },
	{ weight: 2, arbitrary: fc.integer({ min: -1000, max: 10_000_000 }) },
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			Number.NaN,
			Infinity,
			-Infinity,
			-0,
			0,
			100,
			100.0001,
			-0.0001,
			1e308,
			Number.MIN_VALUE,
		),
	},
	{ weight: 3, arbitrary: fc.constantFrom(...NUMBER_TEXTS) },
	{
		weight: 1,
		arbitrary: fc.double({ min: 0, max: 100, noNaN: true }).map((n) => `${n.toFixed(2)}%`),
	},
);

export const weightLike = fc.oneof(
	{ weight: 4, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) },
	{
		weight: 2,
		arbitrary: fc.constantFrom('12.5%', '0%', '100%', '100.5%', '-1', '0', 101, -0.5, 250),
	},
	{ weight: 2, arbitrary: numberLike },
);

/** Characters that show nothing, as copies from web pages and PDFs bring them into an ISIN: removed, never refused. */
export const INVISIBLE_IN_ISINS = [
	'\u200B',
	'\u200C',
	'\u200D',
	'\u2060',
	'\uFEFF',
	'\u00AD',
	'\u200E',
	'\u200F',
	'\u202A',
	'\u202B',
	'\u202C',
	'\u202D',
	'\u202E',
	'\u2066',
	'\u2067',
	'\u2068',
	'\u2069',
];

/** Cyrillic and Greek letters that look like a Latin letter or digit: refused, naming them, never guessed. */
export const LOOK_ALIKE_LETTERS = Array.from('АВЕЗКМНОРСТХаеорсхΑΒΕΖΗΙΚΜΝΟΡΤΥΧο');

/** An ISIN typed with an East Asian input method: full-width letters and digits (Ｕ Ｓ ０), folded to ASCII. */
export const fullWidth = (isin: string) =>
	isin.replace(/[0-9A-Za-z]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));

/** Shapes of ISIN values: valid, valid but messy (also invisible characters, full width), invalid (also look-alike
 * letters of other scripts), duplicates, unknown, mistyped. */
export const isinLike = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...KNOWN_ISINS) },
	{
		weight: 2,
		arbitrary: fc
			.constantFrom(...KNOWN_ISINS)
			.map((isin) => ` ${isin.toLowerCase().slice(0, 4)} ${isin.slice(4)} `),
	},
	{
		weight: 2,
		arbitrary: fc
			.constantFrom(...KNOWN_ISINS)
			.map((isin) => isin.slice(0, 11) + String((Number(isin[11]) + 1) % 10)),
	},
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'US037833100',
			'US03783310055',
			'12345',
			'XXXXXXXXXXXX',
			'us-0378331005',
		),
	},
	{
		weight: 1,
		arbitrary: fc
			.integer({ min: 0, max: 999_999_999 })
			.map((n) => withCheckDigit(`XS${String(n).padStart(9, '0')}`)),
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(fc.constantFrom(...KNOWN_ISINS), fc.nat(12), fc.constantFrom(...INVISIBLE_IN_ISINS))
			.map(([isin, at, invisible]) => isin.slice(0, at) + invisible + isin.slice(at)),
	},
	{ weight: 1, arbitrary: fc.constantFrom(...KNOWN_ISINS).map(fullWidth) },
	{
		weight: 1,
		arbitrary: fc
			.tuple(fc.constantFrom(...KNOWN_ISINS), fc.nat(11), fc.constantFrom(...LOOK_ALIKE_LETTERS))
			.map(([isin, at, letter]) => isin.slice(0, at) + letter + isin.slice(at + 1)),
	},
	{ weight: 1, arbitrary: fc.constantFrom(12345, 0, 37833100.5) },
	{ weight: 1, arbitrary: hostileString },
	{ weight: 1, arbitrary: mistyped },
);

export const TYPE_TEXTS = [
	'stock',
	'Stock',
	'EQUITY',
	'ETF',
	'Mutual Fund',
	'mutual-fund',
	'bond',
	'Sovereign Bond',
	'government bond',
	'cash',
	'Cash',
	'Cash & Equivalents',
	'money market',
	'option',
	'future',
	'FX Forward',
	'lending',
	'warrant',
	'other',
	'crypto',
	'real estate',
];

export const typeLike = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...TYPE_TEXTS) },
	{ weight: 1, arbitrary: hostileString },
	{ weight: 1, arbitrary: mistyped },
	{ weight: 1, arbitrary: fc.integer() },
);

export const currencyLike = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom('EUR', 'usd', ' SEK ', 'CHF', 'GBP', 'DKK') },
	{
		weight: 1,
		arbitrary: fc.constantFrom('EURO', 'E', '€', '$', 'XXX', 'ßx', 'ﬀa', '123', 'eu r'),
	},
	// Three letters that are not ISO 4217: a typo, and codes in use that ISO writes otherwise (refused, never sent).
	{ weight: 1, arbitrary: fc.constantFrom('EUE', 'usb', 'RMB', 'GBX', 'CNH') },
	{ weight: 1, arbitrary: hostileString },
	{ weight: 1, arbitrary: mistyped },
);

export const nameLike = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.constantFrom(
			'Apple Inc.',
			'Nestlé SA',
			'Novo Nordisk A/S',
			'Bund 0% 2032',
			'Cash EUR',
			'ACME & Söhne "Holding"',
		),
	},
	{ weight: 2, arbitrary: hostileString },
	{ weight: 1, arbitrary: longString },
	{ weight: 1, arbitrary: fc.integer() },
	{ weight: 1, arbitrary: mistyped },
);

/** Column names per holding field: the canonical one, spreadsheet spellings, and none. */
const COLUMN_NAMES: Record<string, string[]> = {
	isin: ['isin', 'ISIN', 'Isin Code', 'security_isin'],
	name: ['name', 'Name', 'Security Name', 'description'],
	instrument_type: ['instrument_type', 'Type', 'Asset Class', 'instrumentType'],
	currency: ['currency', 'Currency', 'CCY', 'currency code'],
	weight: ['weight', 'Weight %', 'Weight', 'allocation'],
	market_value: ['market_value', 'Market Value', 'MV', 'amount'],
};

const VALUE_OF: Record<string, fc.Arbitrary<unknown>> = {
	isin: isinLike,
	name: nameLike,
	instrument_type: typeLike,
	currency: currencyLike,
	weight: weightLike,
	market_value: numberLike,
};

const NOISE_KEYS = [
	'__proto__',
	'constructor',
	'toString',
	'prototype',
	'hasOwnProperty',
	'notes',
	'portfolio',
	'',
];

function fieldEntry(field: string, presence: number): fc.Arbitrary<Array<[string, unknown]>> {
	return fc.oneof(
		{
			weight: presence,
			arbitrary: fc
				.tuple(fc.constantFrom(...COLUMN_NAMES[field]), VALUE_OF[field])
				.map(([key, value]) => [[key, value]] as Array<[string, unknown]>),
		},
		{ weight: 1, arbitrary: fc.constant([] as Array<[string, unknown]>) },
		{
			weight: 1,
			arbitrary: fc
				.constantFrom(null, '', '  ')
				.map((value) => [[COLUMN_NAMES[field][0], value]] as Array<[string, unknown]>),
		},
	);
}

/** Entries of one holding row: mostly complete, sometimes with missing fields and noise keys. */
export const rowEntries = fc
	.tuple(
		fieldEntry('isin', 8),
		fieldEntry('name', 8),
		fieldEntry('instrument_type', 8),
		fieldEntry('currency', 8),
		fieldEntry('weight', 6),
		fieldEntry('market_value', 8),
		fc.array(
			fc.tuple(
				fc.oneof(fc.constantFrom(...NOISE_KEYS), hostileString),
				fc.oneof(hostileString, mistyped, fc.integer()),
			),
			{ maxLength: 2 },
		),
	)
	.map((parts) => parts.flat() as Array<[string, unknown]>);

export const row = rowEntries.map(objectOf);

/** A mostly sound row (what a clean sheet gives): valid known ISIN, name, type, currency, weight, market value. */
export const cleanRow = fc
	.record({
		isin: fc.constantFrom(...KNOWN_ISINS),
		name: fc.constantFrom('Apple Inc.', 'Nestlé SA', 'SAP SE', 'Bund 2032'),
		instrument_type: fc.constantFrom('stock', 'etf', 'sovereign-bond', 'Mutual Fund', 'bond'),
		// Now and then a currency that is not ISO 4217 (a typo, or a code ISO writes otherwise): refused, never sent.
		currency: fc.oneof(
			{ weight: 12, arbitrary: fc.constantFrom('EUR', 'USD', 'SEK') },
			{ weight: 1, arbitrary: fc.constantFrom('EUE', 'RMB', 'GBX') },
		),
		weight: fc.double({ min: 0.01, max: 100, noNaN: true }),
		market_value: fc.double({ min: 1, max: 1e7, noNaN: true }),
	})
	.map((record) => objectOf(Object.entries(record)));

/** Rows for one run: clean and fuzzed mixed, some duplicated, plus cash rows. */
export const rows = (maxLength = 8) =>
	fc
		.array(
			fc.oneof(
				{ weight: 3, arbitrary: cleanRow },
				{ weight: 4, arbitrary: row },
				{
					weight: 1,
					arbitrary: fc.constantFrom(
						objectOf([
							['isin', ''],
							['name', 'Cash EUR'],
							['instrument_type', 'Cash'],
							['currency', 'EUR'],
							['weight', 5],
							['market_value', 5000],
						]),
					),
				},
			),
			{ minLength: 1, maxLength },
		)
		.chain((list) =>
			fc
				.boolean()
				.map((duplicate) =>
					duplicate && list.length > 0 ? [...list, structuredCloneRow(list[0])] : list,
				),
		);

function structuredCloneRow(value: Record<string, unknown>): Record<string, unknown> {
	return objectOf(Object.entries(value));
}

/** Holding Fields parameter: empty, pointing at a present column, or at nonsense. */
export const fieldNames = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({}) },
	{
		weight: 1,
		arbitrary: fc
			.record(
				{
					isin: fc.constantFrom('ISIN', 'isin code', 'code', '__proto__', 'constructor', ' '),
					name: fc.constantFrom('Name', 'title', 'toString', ''),
					market_value: fc.constantFrom('MV', 'Market Value', 'value', 'hasOwnProperty'),
				},
				{ requiredKeys: [] },
			)
			.map((record) => record as Record<string, string>),
	},
);

/** Dates as parameters or columns give them. */
export const dateLike = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.constantFrom(
			'2025-03-31',
			'2024-12-31',
			'2025-05-02T10:00:00Z',
			'2023-02-15',
			'2025-01-01T00:00:00.000+02:00',
		),
	},
	{
		weight: 2,
		arbitrary: fc
			.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
			.map((d) => d.toISOString().slice(0, 10)),
	},
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			'2025-02-30',
			'2025-13-01',
			'31/03/2025',
			'03/31/2025',
			'2025-3-31',
			'2099-01-01',
			'0000-01-01',
			'9999-12-31',
			'2025-05-02T25:61',
			'2025-05-02T10:00+02',
			'yesterday',
			'',
		),
	},
	{ weight: 1, arbitrary: hostileString },
	{ weight: 1, arbitrary: mistyped },
	{ weight: 1, arbitrary: fc.integer({ min: -1e12, max: 4e12 }) },
);

/**
 * `items` as a sheet or an upstream node hands them over: through JSON (undefined and functions dropped, dates as
 * text), keeping NaN, Infinity, -0, own `__proto__` keys and lone surrogates. The Input node's pinned data.
 */
const SPECIAL = '\u0000fuzz:';
const SPECIAL_NUMBERS: Record<string, number> = {
	NaN: Number.NaN,
	Infinity,
	'-Infinity': -Infinity,
	'-0': -0,
};
export function fuzzInputItems(items: unknown[]): IDataObject[] {
	const encoded = JSON.stringify(items, (_key, inner: unknown) => {
		if (typeof inner === 'number' && !Number.isFinite(inner)) return `${SPECIAL}${String(inner)}`;
		if (typeof inner === 'number' && Object.is(inner, -0)) return `${SPECIAL}-0`;
		return inner;
	});
	return JSON.parse(encoded, (_key, value: unknown) =>
		typeof value === 'string' && value.startsWith(SPECIAL)
			? SPECIAL_NUMBERS[value.slice(SPECIAL.length)]
			: value,
	) as IDataObject[];
}

import { isIsoCurrency } from './currencies';

/**
 * Numbers as spreadsheets, CSV exports and people write them: `1,234.50`, `1.234,50`, `1 234,50`, `1'234.50`,
 * `(1,234)`, `€1,234`, `1,234 EUR`, `12.5%`, `12,34,567.00` (lakh groups), `1.23E+05` and `1,23E+05`. A text such
 * as `1.234` reads two ways (1234 in a German sheet, 1.234 in an English one); it is never guessed: the column's other
 * values (never one in scientific notation), or the Number Format option, decide it.
 */

/** How a sheet writes numbers: `dot` 1,234.56; `comma` 1.234,56; `space` 1 234,56. */
export type WrittenFormat = 'dot' | 'comma' | 'space';
/** The Number Format option: one of the written formats, or `detect` from each column's values. */
export type NumberFormat = 'detect' | WrittenFormat;

export const NUMBER_FORMAT_NAMES: Record<WrittenFormat, string> = {
	dot: '1,234.56',
	comma: '1.234,56',
	space: '1 234,56',
};

const SEPARATORS: Record<WrittenFormat, { decimal: string; groups: string }> = {
	dot: { decimal: '.', groups: ", '" },
	comma: { decimal: ',', groups: ". '" },
	space: { decimal: ',', groups: " '" },
};

/** Currency symbols read in front of or after a number; the ones that name a single currency give its code. */
const CURRENCY_SYMBOLS: Record<string, string | undefined> = {
	'€': 'EUR',
	'£': 'GBP',
	$: undefined,
	'¥': undefined,
	'₹': 'INR',
	'₩': 'KRW',
	'₽': 'RUB',
	'₺': 'TRY',
	'₪': 'ILS',
	'฿': 'THB',
};
const SYMBOL = '[€£$¥₹₩₽₺₪฿]';
const PREFIX_CURRENCY = new RegExp(`^(?:(${SYMBOL})|([A-Za-z]{3})(?=[\\s\\d.,(+\\-−])|US\\$)\\s*`);
const SUFFIX_CURRENCY = new RegExp(`\\s*(?:(${SYMBOL})|(?<=[\\d\\s.,)])([A-Za-z]{3}))$`);

/** A number text taken apart: sign, currency and percent sign read, the digits and separators left. */
interface NumberText {
	body: string;
	negative: boolean;
	percent: boolean;
	currency?: string;
	/** A currency symbol that names no single currency ($, ¥). */
	symbol?: string;
}

export type NumberReading =
	| {
			value: number;
			/** Written with a percent sign. */
			percent: boolean;
			/** The currency written with it (a code, or € and £ as EUR and GBP). */
			currency?: string;
			/** Detect: the format the text can only be written in (`1.234,50` → comma, `12.5` → dot), if it tells. */
			only?: FormatEvidence;
	  }
	/** `seen`: for a text written like a number, what about it no number format writes. */
	| { problem: 'not-a-number'; seen?: string }
	| { problem: 'percent' }
	| { problem: 'not-in-format'; format: WrittenFormat; otherReading?: number }
	| { problem: 'two-readings'; readings: Record<'dot' | 'comma', number> };

/** What a value says about its column's format: which format it can only be written in. */
export type FormatEvidence = 'dot' | 'comma' | undefined;

function takeApart(text: string): NumberText | undefined {
	let rest = text.replace(/[\s\u00a0\u202f\u2007]+/g, ' ').trim();
	if (rest === '' || rest.length > 60) return undefined;
	// Most values are digits and separators only: no sign, currency or percent to take apart.
	if (/^\d[\d.,' ]*$/.test(rest)) return { body: rest, negative: false, percent: false };
	let negative = false;
	let percent = false;
	let currency: string | undefined;
	let symbol: string | undefined;
	const parens = /^\((.*)\)$/.exec(rest);
	if (parens) {
		negative = true;
		rest = parens[1].trim();
	}
	const sign = () => {
		const match = /^[+\-−]\s*/.exec(rest);
		if (!match) return;
		if (match[0].startsWith('+')) {
			rest = rest.slice(match[0].length);
			return;
		}
		if (negative) return; // "(-12)" stays unreadable
		negative = true;
		rest = rest.slice(match[0].length);
	};
	const noteCurrency = (symbolMatch: string | undefined, code: string | undefined) => {
		if (symbolMatch !== undefined) {
			if (Object.prototype.hasOwnProperty.call(CURRENCY_SYMBOLS, symbolMatch))
				currency = CURRENCY_SYMBOLS[symbolMatch];
			symbol = symbolMatch;
		} else if (code !== undefined) currency = code.toUpperCase();
		else symbol = 'US$';
	};
	const isCode = (match: RegExpExecArray | null) =>
		!match || match[2] === undefined || isIsoCurrency(match[2].toUpperCase());
	sign();
	const prefix = PREFIX_CURRENCY.exec(rest);
	if (!isCode(prefix)) return undefined;
	if (prefix) {
		noteCurrency(prefix[1], prefix[2]);
		rest = rest.slice(prefix[0].length);
		sign();
	}
	if (rest.endsWith('%')) {
		percent = true;
		rest = rest.slice(0, -1).trimEnd();
	}
	const suffix = !prefix && !percent ? SUFFIX_CURRENCY.exec(rest) : null;
	if (!isCode(suffix)) return undefined;
	if (suffix) {
		noteCurrency(suffix[1], suffix[2]);
		rest = rest.slice(0, suffix.index).trimEnd();
	}
	if (!/^[\d.,' ’]*\d[\d.,' ’]*(?:e[+-]?\d+)?$/i.test(rest)) return undefined;
	return {
		body: rest.replace(/’/g, "'"),
		negative,
		percent,
		...(currency ? { currency } : {}),
		...(symbol && !currency ? { symbol } : {}),
	};
}

const GROUPED = new Map<string, RegExp>();
/** Digits in groups of three with `group` between them, the first group starting 1-9: `1,234,567`. */
function groupedPattern(group: string): RegExp {
	let pattern = GROUPED.get(group);
	if (!pattern) {
		pattern = new RegExp(`^[1-9]\\d{0,2}(?:${group === '.' ? '\\.' : group}\\d{3})+$`);
		GROUPED.set(group, pattern);
	}
	return pattern;
}

/** Digits in lakh and crore groups, as Indian sheets write them: `12,34,567`. */
const INDIAN_GROUPED = /^[1-9]\d?(?:,\d\d)*,\d{3}$/;

/**
 * Scientific notation (`1.23E+05`, `1,23E+05` as a German sheet writes it): the part before the E never holds digit
 * groups, so its one separator is the decimal mark.
 */
const SCIENTIFIC = /^(\d+)(?:([.,])(\d+))?e([+-]?\d+)$/i;

/** The digits and separators read in one format; undefined when they are not written that way. */
function readBody(body: string, format: WrittenFormat): number | undefined {
	const { decimal, groups } = SEPARATORS[format];
	const scientific = SCIENTIFIC.exec(body);
	if (scientific) {
		const [, whole, mark, fraction, exponent] = scientific;
		if (mark !== undefined && mark !== decimal) return undefined;
		const value = Number(`${whole}${fraction === undefined ? '' : `.${fraction}`}e${exponent}`);
		return Number.isFinite(value) ? value : undefined;
	}
	const cut = body.lastIndexOf(decimal);
	const integer = cut >= 0 ? body.slice(0, cut) : body;
	const fraction = cut >= 0 ? body.slice(cut + 1) : '';
	if (!/^\d*$/.test(fraction) || (integer === '' && fraction === '')) return undefined;
	let digits: string;
	if (/^\d*$/.test(integer)) digits = integer;
	else {
		const group = /\D/.exec(integer)![0];
		if (!groups.includes(group)) return undefined;
		const indian = format === 'dot' && group === ',' && INDIAN_GROUPED.test(integer);
		if (!indian && !groupedPattern(group).test(integer)) return undefined;
		digits = integer.split(group).join('');
	}
	const value = Number(`${digits || '0'}.${fraction || '0'}`);
	return Number.isFinite(value) ? value : undefined;
}

/** Why digits and separators that no format reads are not a number, in plain words (the fix gives forms that are). */
function unreadableBody(body: string): string {
	const scientific = /^([\d.,' ]*)e([+-]?\d+)$/i.exec(body);
	if (scientific) {
		if (SCIENTIFIC.test(body)) return 'it is too large for a number';
		return `the part before the E ("${scientific[1]}") is not one number with at most one decimal mark, as in 1.23E+05 or 1,23E+05`;
	}
	const kinds = new Set(body.replace(/\d/g, ''));
	if (kinds.size > 1)
		return `it mixes ${[...kinds].map((mark) => (mark === ' ' ? 'spaces' : `"${mark}"`)).join(' and ')} between its digits in a way no number format writes`;
	return 'its digits are not in groups of three (1,234,567 or 1.234.567) or, with commas, in lakh groups (12,34,567)';
}

function signed(value: number, parts: NumberText): number {
	return parts.negative && value !== 0 ? -value : value;
}

/**
 * Reads one value: a finite JS number as it is; a text in the given format, or (`detect`) in whichever format it can
 * only be written in. A text that reads as two different numbers under `detect` is a problem with both readings,
 * for the caller to settle by the column or to refuse.
 */
export function readNumber(
	value: unknown,
	format: NumberFormat = 'detect',
	{ percent: percentAllowed = false } = {},
): NumberReading {
	// -0 is 0: JSON sends it as 0 anyway.
	if (typeof value === 'number')
		return Number.isFinite(value)
			? { value: value === 0 ? 0 : value, percent: false }
			: { problem: 'not-a-number' };
	if (typeof value !== 'string') return { problem: 'not-a-number' };
	const parts = takeApart(value);
	if (!parts) return { problem: 'not-a-number' };
	if (parts.percent && !percentAllowed) return { problem: 'percent' };
	const done = (number: number): NumberReading => ({
		value: signed(number, parts),
		percent: parts.percent,
		...(parts.currency ? { currency: parts.currency } : {}),
	});
	if (format !== 'detect') {
		const read = readBody(parts.body, format);
		if (read !== undefined) return done(read);
		const other = readBody(parts.body, format === 'dot' ? 'comma' : 'dot');
		return {
			problem: 'not-in-format',
			format,
			...(other !== undefined ? { otherReading: signed(other, parts) } : {}),
		};
	}
	const dot = readBody(parts.body, 'dot');
	const comma = readBody(parts.body, 'comma');
	if (dot === undefined && comma === undefined)
		return { problem: 'not-a-number', seen: unreadableBody(parts.body) };
	if (dot !== undefined && comma !== undefined && dot !== comma)
		return {
			problem: 'two-readings',
			readings: { dot: signed(dot, parts), comma: signed(comma, parts) },
		};
	const read = done((dot ?? comma)!);
	// Scientific notation is what programs write, whatever the sheet's format, and it never groups digits: it says
	// nothing about what a `.` or `,` means in the column's other values (`2.500`).
	if (
		(dot === undefined) !== (comma === undefined) &&
		/[.,]/.test(parts.body) &&
		!SCIENTIFIC.test(parts.body)
	)
		return { ...read, only: dot === undefined ? 'comma' : 'dot' } as NumberReading;
	return read;
}

/** Which format a value can only be written in (`1.234,50` → comma, `12.5` → dot), if it tells. */
export function formatEvidence(value: unknown): FormatEvidence {
	if (typeof value !== 'string') return undefined;
	const read = readNumber(value, 'detect', { percent: true });
	return 'value' in read ? read.only : undefined;
}

/** How a column of values is read: the chosen format, or the one its values settle. */
export interface ColumnFormat {
	/** The format texts are read in; undefined while nothing settles it (`detect`). */
	format?: WrittenFormat;
	/** The Number Format option chose it (as opposed to the column's values). */
	chosen: boolean;
	/** `detect`: the first value that settled the format, and where it is. */
	settledBy?: PlacedValue;
	/** `detect`: a value that can only be read in one format and one that can only be read in the other. */
	mixed?: { dot: PlacedValue; comma: PlacedValue };
}

/** A value and where it is, as messages name it (e.g. "item 3"). */
export interface PlacedValue {
	value: string;
	where: string;
}

/**
 * Decides a column's format from all its values. `detected`, when given, is the value's reading under `detect`
 * (readNumber), so that a caller that reads each value anyway does not read it twice.
 */
export function columnFormat(
	values: Iterable<{ value: unknown; where: string; detected?: NumberReading }>,
	option: NumberFormat,
): ColumnFormat {
	if (option !== 'detect') return { format: option, chosen: true };
	let dot: PlacedValue | undefined;
	let comma: PlacedValue | undefined;
	for (const { value, where, detected } of values) {
		const evidence =
			detected === undefined
				? formatEvidence(value)
				: typeof value === 'string' && 'value' in detected
					? detected.only
					: undefined;
		if (evidence === 'dot') dot ??= { value: value as string, where };
		else if (evidence === 'comma') comma ??= { value: value as string, where };
		if (dot && comma) return { chosen: false, mixed: { dot, comma } };
	}
	if (dot) return { format: 'dot', chosen: false, settledBy: dot };
	if (comma) return { format: 'comma', chosen: false, settledBy: comma };
	return { chosen: false };
}

/**
 * Reads a value of a column: a text that reads two ways takes the column's format; in a column that never settles
 * it (or that mixes both), it stays a `two-readings` problem.
 */
export function readInColumn(
	value: unknown,
	column: ColumnFormat,
	options: { percent?: boolean } = {},
	detected?: NumberReading,
): NumberReading & { byColumn?: boolean } {
	if (column.chosen) return readNumber(value, column.format, options);
	const read = detected ?? readNumber(value, 'detect', options);
	if ('problem' in read && read.problem === 'two-readings' && column.format) {
		return { ...readNumber(value, column.format, options), byColumn: true };
	}
	return read;
}

/** A number for messages, without float noise: 1234.5, 0.12. */
export function showNumber(value: number): string {
	return String(Number(value.toPrecision(12)));
}

/** Why a value is not a number, for messages: `reads two ways: 1234 (…) or 1.234 (…)`, ... */
export function describeNumberProblem(read: Exclude<NumberReading, { value: number }>): string {
	switch (read.problem) {
		case 'two-readings':
			return `reads two ways: ${showNumber(read.readings.comma)} (written ${NUMBER_FORMAT_NAMES.comma}) or ${showNumber(read.readings.dot)} (written ${NUMBER_FORMAT_NAMES.dot})`;
		case 'not-in-format':
			return `is not a number written ${NUMBER_FORMAT_NAMES[read.format]} (the Number Format option)${read.otherReading !== undefined ? `; written ${read.format === 'dot' ? NUMBER_FORMAT_NAMES.comma : NUMBER_FORMAT_NAMES.dot} it would be ${showNumber(read.otherReading)}` : ''}`;
		case 'percent':
			return 'is a percentage, not an amount';
		default:
			return read.problem === 'not-a-number' && read.seen
				? `is not a number: ${read.seen}`
				: 'is not a number';
	}
}

/**
 * Cell and parameter values as text, safely: input items may hold anything JSON can, and objects may carry
 * keys such as `toString` or `valueOf` that are not functions, which makes `String(value)` throw.
 */

/** A value as text for messages, cut to `max` characters; never throws. */
export function showValue(value: unknown, max = 40): string {
	let text: string;
	if (typeof value === 'string') text = value;
	else if (value === undefined) text = 'undefined';
	else if (
		value === null ||
		typeof value === 'number' ||
		typeof value === 'boolean' ||
		typeof value === 'bigint'
	)
		text = String(value);
	else {
		try {
			text = JSON.stringify(value) ?? Object.prototype.toString.call(value);
		} catch {
			text = Object.prototype.toString.call(value);
		}
	}
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A scalar as text: strings as they are, finite numbers and booleans written out, dates (JS Date, Luxon
 * DateTime) in ISO form; undefined for plain objects, lists, NaN and anything else.
 */
export function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		// Class instances with their own toString (Luxon DateTime from $now / $today), never plain objects.
		const prototype = Object.getPrototypeOf(value) as object | null;
		if (prototype === null || prototype === Object.prototype) return undefined;
		const { toString } = value as { toString?: unknown };
		if (typeof toString !== 'function' || toString === Object.prototype.toString) return undefined;
		try {
			return String(value);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** "an object", "a list", "a number (NaN)", ... for messages about a value of the wrong kind. */
export function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'number') return `a number (${String(value)})`;
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** Own property lookup: `constructor`, `toString`, `__proto__` of a record are never found on its prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets an own property whatever its name: `record.__proto__ = value` would replace the prototype instead. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
	if (key === '__proto__')
		Object.defineProperty(record, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	else record[key] = value;
}

/** True when the text has a lone UTF-16 surrogate (broken text, e.g. cut in the middle of an emoji): it cannot be URL-encoded. */
export function hasLoneSurrogate(text: string): boolean {
	return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** True for undefined, null and text that is empty or only spaces. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** A duration in milliseconds as seconds for messages, e.g. "12.5 s". */
export function formatSeconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** A place in a list counted from 1, as people count: 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(position: number): string {
	const lastTwo = position % 100;
	const suffix =
		lastTwo >= 11 && lastTwo <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][position % 10] ?? 'th');
	return `${position.toLocaleString('en-US')}${suffix}`;
}

/** A count and its noun, plural unless 1: "1 request", "10,000 requests". */
export function countOf(value: number, noun: string): string {
	return `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;
}

/** Whether `record` has `key` as its own member (never one inherited, such as `__proto__` or `constructor`). */
export const hasOwn = (record: object, key: string): boolean =>
	Object.prototype.hasOwnProperty.call(record, key);

/** A plain object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` rounded to `decimals` places (half away from zero for positives, as Math.round). */
export function roundTo(value: number, decimals: number): number {
	const factor = 10 ** decimals;
	return Math.round(value * factor) / factor;
}

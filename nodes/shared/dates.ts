import { showValue } from './values';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export interface SnapshotDate {
	/** The date as given, YYYY-MM-DD. */
	date: string;
	/** The end of its quarter: the API moves every snapshot date there. */
	quarterEnd: string;
}

export type SnapshotDateProblem = 'unreadable' | 'future-year';

/**
 * Reads a snapshot date the way the API does: a calendar date, in a year not after the current one.
 * Accepts YYYY-MM-DD (with or without a time), JS Dates and Luxon DateTimes (what n8n's date picker and
 * expressions produce). Returns the problem instead of throwing so callers can name the item and field.
 */
export function readSnapshotDate(
	value: unknown,
	today: Date = new Date(),
): SnapshotDate | { problem: SnapshotDateProblem } {
	const ymd = toYmd(value);
	if (!ymd) return { problem: 'unreadable' };
	const [year, month, day] = ymd;
	if (year > today.getUTCFullYear()) return { problem: 'future-year' };
	return { date: formatYmd(year, month, day), quarterEnd: quarterEnd(year, month) };
}

export function quarterEnd(year: number, month: number): string {
	const endMonth = Math.ceil(month / 3) * 3;
	const lastDay = new Date(Date.UTC(year, endMonth, 0)).getUTCDate();
	return formatYmd(year, endMonth, lastDay);
}

/** The last quarter end on or before `today`. */
export function lastCompletedQuarterEnd(today: Date = new Date()): string {
	const year = today.getUTCFullYear();
	const month = today.getUTCMonth() + 1;
	const currentEnd = quarterEnd(year, month);
	if (currentEnd === formatYmd(year, month, today.getUTCDate())) return currentEnd;
	const firstMonthOfQuarter = Math.floor((month - 1) / 3) * 3 + 1;
	return firstMonthOfQuarter === 1
		? formatYmd(year - 1, 12, 31)
		: quarterEnd(year, firstMonthOfQuarter - 1);
}

export function describeDateProblem(problem: SnapshotDateProblem, value: unknown): string {
	const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : showValue(value);
	return problem === 'unreadable'
		? `${shown} is not a date the API can read; use the form YYYY-MM-DD, for example 2025-12-31`
		: `${shown} is in a future year; the API only accepts snapshot dates up to the end of the current year`;
}

function toYmd(value: unknown): [number, number, number] | undefined {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime())
			? undefined
			: [value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate()];
	}
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISODate?: unknown }).toISODate === 'function'
	) {
		return toYmd((value as { toISODate: () => string | null }).toISODate());
	}
	if (typeof value !== 'string') return undefined;
	const match = ISO_DATE.exec(value.trim());
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	if (month < 1 || month > 12 || day < 1) return undefined;
	if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
	return [year, month, day];
}

function formatYmd(year: number, month: number, day: number): string {
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

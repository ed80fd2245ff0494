/**
 * snapshot_at handling: parse, future-year check, move to the end of the quarter.
 */

export const INVALID_DATE_MESSAGE = 'You are not using a valid date as snapshot parameter';
export const FUTURE_DATE_MESSAGE = 'Snapshot date cannot be higher than actual date';

/** YYYY-MM-DD, optionally followed by an ISO 8601 time (THH:MM[:SS[.fff]]) and zone (Z, ±HH:MM or ±HHMM). */
const DATE_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export interface CalendarDate {
	year: number;
	month: number;
	day: number;
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar date written in the string (the time and zone are ignored), or null when unreadable. */
export function parseSnapshotDate(value: string): CalendarDate | null {
	const match = DATE_PATTERN.exec(value.trim());
	if (!match) return null;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
	if (
		match[4] !== undefined &&
		(Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59)
	)
		return null;
	return { year, month, day };
}

export function formatDate(date: CalendarDate): string {
	return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

export function quarterEnd(date: CalendarDate): string {
	const month = Math.ceil(date.month / 3) * 3;
	return formatDate({ year: date.year, month, day: daysInMonth(date.year, month) });
}

export type SnapshotResult = { ok: true; quarterEnd: string } | { ok: false; message: string };

/** Applies the date rules of POST /portfolios, DELETE /portfolios/{identifier} and POST /reports. */
export function resolveSnapshot(value: string, now: Date): SnapshotResult {
	const date = parseSnapshotDate(value);
	if (!date) return { ok: false, message: INVALID_DATE_MESSAGE };
	if (date.year > now.getUTCFullYear()) return { ok: false, message: FUTURE_DATE_MESSAGE };
	return { ok: true, quarterEnd: quarterEnd(date) };
}

/** Snapshots dated before this (YYYY-MM-DD, five years before `now`) are not listed. */
export function listingCutoff(now: Date): string {
	return formatDate({
		year: now.getUTCFullYear() - 5,
		month: now.getUTCMonth() + 1,
		day: now.getUTCDate(),
	});
}

/** Calendar month of `now` (UTC), e.g. 2025-03, used as the quota period. */
export function monthKey(now: Date): string {
	return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

import type { IExecuteFunctions } from 'n8n-workflow';

import { addRunNote } from '../base/hints';
import { showValue } from '../base/values';
import { sentenceStart } from '../api/errors';

/** YYYY-MM-DD, optionally with a time (`T` or a space) and optionally then a UTC offset (`Z`, `+02:00`, `-0500`). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([0-9:.]+)(Z|[+-]\d{2}:?\d{2})?)?$/;
/** The time of a text with an offset: HH:MM, HH:MM:SS or HH:MM:SS.fff. */
const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

export interface SnapshotDate {
	/** The date used, YYYY-MM-DD. */
	date: string;
	/** The end of its quarter: the API moves every snapshot date there. */
	quarterEnd: string;
	/**
	 * Set when the value was a moment (a JS Date, a Luxon DateTime, a text with a time and a UTC offset) whose date used
	 * is not the date it shows (its UTC date, or the date written in it), or whose readings fell in two quarters and
	 * were settled by the one at midnight; and for an Excel date serial.
	 */
	note?: string;
	/** The note in at most 120 characters, for the hint above the output, when the note is longer. */
	hint?: string;
}

export type SnapshotDateProblem = 'unreadable' | 'future-year' | 'two-quarters';

/** A moment read in one time zone: its calendar date there, and whether the moment is the first of that day. */
export interface DateReading {
	/** Where it was read, for messages: "UTC", "the workflow's time zone Europe/Berlin", … */
	where: string;
	/** The same in a few words, for hints. */
	zone: string;
	date: string;
	quarterEnd: string;
	/** The moment is the first of its day there: midnight (or the first moment after a clock change at midnight). */
	startOfDay: boolean;
}

/** Why a Snapshot Date is refused; `two-quarters` with the readings that disagree. */
export type SnapshotDateRefusal =
	| { problem: 'unreadable' | 'future-year' }
	| { problem: 'two-quarters'; shown: string; readings: DateReading[]; timeZone: string };

type Ymd = [number, number, number];

/**
 * Excel date serials read as dates: 61 is 1900-03-01 (serials below it count Excel's 29 February 1900, a day that
 * never was) and 73415 is 2100-12-31. A number outside that range in a date field is not read as a date at all.
 */
export const EXCEL_SERIAL_RANGE = { first: 61, last: 73415 } as const;

/**
 * What a value says: a calendar date as written (`serial` when it was an Excel date serial), or a moment (with how to
 * show it in a note).
 */
type DateValue = { ymd: Ymd; serial?: number } | { moment: Date; shown: string; written?: Written };

/** The wall clock a moment was written with: a text's offset, or a Luxon DateTime's own zone. */
interface Written {
	ymd: Ymd;
	/** The offset as written, e.g. +09:00 or Z. */
	offset: string;
	/** 00:00:00.000 as written. */
	midnight: boolean;
}

/**
 * A time zone the system knows, as n8n gives it (`this.getTimezone()`: the workflow's setting, else the instance's
 * GENERIC_TIMEZONE); an empty or unknown one is UTC (`known` says which).
 */
export function usableTimeZone(timeZone: unknown): { timeZone: string; known: boolean } {
	if (typeof timeZone === 'string' && timeZone.trim() && formatterFor(timeZone.trim()))
		return { timeZone: timeZone.trim(), known: true };
	return { timeZone: 'UTC', known: false };
}

/**
 * Reads a snapshot date the way the API does: a calendar date, in a year not after the current one. What counts is
 * its quarter: the API stores every snapshot at the end of the quarter of its date.
 *
 * - A moment — a JS Date, a Luxon DateTime (what n8n's expressions give, e.g. `{{ $now }}`) or a text with a time and
 *   a UTC offset (`2025-09-30T22:00:00Z`, `2025-10-01T00:30:00+02:00`) — has no calendar date of its own, so it is
 *   read in UTC, in `timeZone` (the workflow's time zone), in `processZone` (the n8n server's, in which a JS Date such
 *   as `new Date(2025, 9, 1)` was built) and with the offset or zone it was written with. When every reading falls in
 *   one quarter, the date is the one in the workflow's time zone (a note says so when it is not the date the value
 *   shows). When they fall in two quarters, the reading in which the moment is exactly midnight decides (a date-only
 *   text parsed into a moment is midnight in UTC, `DateTime.fromISO('2025-10-01')` midnight in the workflow's zone),
 *   with a note; when none or several do, the value is refused (`two-quarters`) rather than stored in a quarter
 *   picked by guess.
 * - A text with a date only (`2025-10-01`) or with a time but no offset (`2025-10-01T00:00:00`, what n8n's date
 *   picker gives) is taken as written.
 * - A number is an Excel date serial (what Extract From File gives for a date cell: 45657 is 2024-12-31), read only
 *   from 61 (1900-03-01) to 73415 (2100-12-31); a fraction is a time of that day. Any other number is unreadable.
 *
 * "Current year" is the year of `today` in `timeZone`. An unknown time zone is read as UTC. Returns the problem
 * instead of throwing so callers can name the item and field.
 */
export function readSnapshotDate(
	value: unknown,
	today: Date = new Date(),
	timeZone = 'UTC',
	processZone: string | undefined = processTimeZone(),
): SnapshotDate | SnapshotDateRefusal {
	const { timeZone: zone, known } = usableTimeZone(timeZone);
	const read = toDateValue(value);
	if (!read) return { problem: 'unreadable' };
	let ymd: Ymd;
	let note: string | undefined;
	let hint: string | undefined;
	if ('ymd' in read) {
		ymd = read.ymd;
		if (read.serial !== undefined)
			note = `Snapshot Date ${read.serial} read as the Excel date ${formatYmd(...ymd)}`;
	} else {
		const readings = readingsOf(read.moment, read.written, known ? zone : undefined, processZone);
		if (!readings) return { problem: 'unreadable' };
		const [primary] = readings;
		const quarters = new Set(readings.map((reading) => reading.quarterEnd));
		const unknownZone = `the workflow's time zone "${showValue(timeZone)}" is not one this system knows`;
		let chosen = primary;
		if (quarters.size > 1) {
			const atMidnight = readings.filter((reading) => reading.startOfDay);
			if (new Set(atMidnight.map((reading) => reading.quarterEnd)).size !== 1)
				return { problem: 'two-quarters', shown: read.shown, readings, timeZone: zone };
			chosen = atMidnight[0];
			const others = readings.filter((reading) => reading.quarterEnd !== chosen.quarterEnd);
			note = `Snapshot Date ${read.shown} read as ${chosen.date} (${quarterName(chosen.quarterEnd)}): it is exactly midnight in ${joinWhere(atMidnight)}; ${groupByDate(others)}${known ? '' : ` (${unknownZone})`}`;
			hint = `Snapshot Date read as ${chosen.date}, ${quarterName(chosen.quarterEnd)} (midnight in ${chosen.zone}), not ${quarterName(others[0].quarterEnd)} as in ${others[0].zone}`;
		} else if (!known) {
			note = `Snapshot Date ${read.shown} read as ${primary.date} in UTC: ${unknownZone}`;
		} else if (
			primary.date !== read.moment.toISOString().slice(0, 10) ||
			(read.written && formatYmd(...read.written.ymd) !== primary.date)
		) {
			note = `Snapshot Date ${read.shown} read as ${primary.date} in the workflow's time zone ${zone}`;
		}
		ymd = chosen.date.split('-').map(Number) as Ymd;
	}
	const [year, month, day] = ymd;
	const thisYear = calendarDateIn(today, zone)?.[0] ?? today.getUTCFullYear();
	if (year > thisYear) return { problem: 'future-year' };
	return {
		date: formatYmd(year, month, day),
		quarterEnd: quarterEnd(year, month),
		...(note ? { note } : {}),
		...(hint && note && hint.length < note.length ? { hint } : {}),
	};
}

/**
 * The time zone of the process n8n runs in (the server's TZ), in which a JS Date built from a date and a time
 * (`new Date(2025, 9, 1)`) is local; undefined when the system does not say.
 */
export function processTimeZone(): string | undefined {
	try {
		const timeZone: unknown = new Intl.DateTimeFormat().resolvedOptions().timeZone;
		return typeof timeZone === 'string' && timeZone ? timeZone : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A moment read in UTC, in the workflow's time zone (first when known, else UTC is), in the process's time zone and
 * as written; the same zone once. Undefined when the moment has no date the system can show.
 */
function readingsOf(
	moment: Date,
	written: Written | undefined,
	workflowZone: string | undefined,
	processZone: string | undefined,
): DateReading[] | undefined {
	const zones: Array<[string, string, string]> = [];
	if (workflowZone)
		zones.push([workflowZone, `the workflow's time zone ${workflowZone}`, workflowZone]);
	zones.push(['UTC', 'UTC', 'UTC']);
	if (processZone && formatterFor(processZone))
		zones.push([
			processZone,
			`the n8n server's time zone ${processZone}`,
			`server zone ${processZone}`,
		]);
	const seen = new Set<string>();
	const readings: DateReading[] = [];
	for (const [timeZone, where, zone] of zones) {
		const canonical = formatterFor(timeZone)?.resolvedOptions().timeZone ?? timeZone;
		if (seen.has(canonical)) continue;
		seen.add(canonical);
		const ymd = calendarDateIn(moment, timeZone);
		if (!ymd) return undefined;
		const before = calendarDateIn(new Date(moment.getTime() - 1), timeZone);
		const date = formatYmd(...ymd);
		readings.push({
			where,
			zone,
			date,
			quarterEnd: quarterEnd(ymd[0], ymd[1]),
			startOfDay: !before || formatYmd(...before) !== date,
		});
	}
	if (written && !/^(Z|[+-]00:?00)$/.test(written.offset)) {
		const date = formatYmd(...written.ymd);
		if (!readings.some((r) => r.date === date && r.startOfDay === written.midnight))
			readings.push({
				where: `the offset it was written with (${written.offset})`,
				zone: `offset ${written.offset}`,
				date,
				quarterEnd: quarterEnd(written.ymd[0], written.ymd[1]),
				startOfDay: written.midnight,
			});
	}
	return readings;
}

/** "Q4 2025" for the quarter ending on `end` (YYYY-MM-DD). */
function quarterName(end: string): string {
	return `Q${Number(end.slice(5, 7)) / 3} ${end.slice(0, 4)}`;
}

function joinWhere(readings: DateReading[]): string {
	return readings.map((reading) => reading.where).join(' and ');
}

/** "in UTC and … it is 2025-09-30 (Q3 2025)", one clause per date. */
function groupByDate(readings: DateReading[]): string {
	const dates = [...new Set(readings.map((reading) => reading.date))];
	return dates
		.map((date) => {
			const at = readings.filter((reading) => reading.date === date);
			return `in ${joinWhere(at)} it is ${date} (${quarterName(at[0].quarterEnd)})`;
		})
		.join('; ');
}

/**
 * The workflow's time zone as n8n gives it to nodes: the workflow's Timezone setting, else the instance's
 * GENERIC_TIMEZONE. 'UTC' when the context cannot say (a context without `getTimezone`, or one that throws).
 */
export function workflowTimeZone(context: Pick<IExecuteFunctions, 'getTimezone'>): string {
	try {
		const timeZone: unknown =
			typeof context.getTimezone === 'function' ? context.getTimezone() : undefined;
		return typeof timeZone === 'string' && timeZone ? timeZone : 'UTC';
	} catch {
		return 'UTC';
	}
}

const notedDates = new WeakMap<object, Set<string>>();

/**
 * A note above the node's output (and in the log) on how a Snapshot Date was read, once per node run and note
 * (Delete Snapshot reads the date of every item).
 */
export function noteSnapshotDate(
	context: Pick<IExecuteFunctions, 'addExecutionHints' | 'logger'>,
	note: string,
	hint?: string,
): void {
	const noted = notedDates.get(context) ?? new Set<string>();
	notedDates.set(context, noted);
	if (noted.has(note)) return;
	noted.add(note);
	addRunNote(context, note, 'info', hint ? { short: hint } : {});
}

export function quarterEnd(year: number, month: number): string {
	const endMonth = Math.ceil(month / 3) * 3;
	const lastDay = new Date(Date.UTC(year, endMonth, 0)).getUTCDate();
	return formatYmd(year, endMonth, lastDay);
}

/** The last quarter end on or before `today`'s date in `timeZone` (the workflow's time zone; unknown: UTC). */
export function lastCompletedQuarterEnd(today: Date = new Date(), timeZone = 'UTC'): string {
	const [year, month, day] = calendarDateIn(today, usableTimeZone(timeZone).timeZone) ?? [
		today.getUTCFullYear(),
		today.getUTCMonth() + 1,
		today.getUTCDate(),
	];
	const currentEnd = quarterEnd(year, month);
	if (currentEnd === formatYmd(year, month, day)) return currentEnd;
	const firstMonthOfQuarter = Math.floor((month - 1) / 3) * 3 + 1;
	return firstMonthOfQuarter === 1
		? formatYmd(year - 1, 12, 31)
		: quarterEnd(year, firstMonthOfQuarter - 1);
}

export function describeDateProblem(
	refusal: SnapshotDateProblem | SnapshotDateRefusal,
	value: unknown,
): string {
	const problem = typeof refusal === 'string' ? refusal : refusal.problem;
	const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : showValue(value);
	if (typeof refusal === 'object' && refusal.problem === 'two-quarters') {
		const readings = [...refusal.readings].sort((a, b) => a.date.localeCompare(b.date));
		const quarters = [...new Set(readings.map((reading) => reading.quarterEnd))];
		const midnight = readings.some((reading) => reading.startOfDay);
		// The quarters first (the title), then where each is read.
		return `${refusal.shown} is a moment that falls in ${quarters.length === 2 ? 'two' : quarters.length} quarters: ${quarters.map(quarterName).join(' or ')}, depending on the time zone. ${sentenceStart(groupByDate(readings))}. It is exactly midnight in ${midnight ? 'more than one of them' : 'none of them'}, so nothing says which quarter (stored at ${quarters.join(' or ')}) is meant`;
	}
	if (problem === 'two-quarters')
		return `${shown} is a moment that falls in two quarters depending on the time zone it is read in`;
	if (problem === 'future-year')
		return `${shown} is in a future year; the API only accepts snapshot dates up to the end of the current year`;
	if (typeof value === 'number')
		return `${shown} is not a date: a number is read as an Excel date serial only from ${EXCEL_SERIAL_RANGE.first} (1900-03-01) to ${EXCEL_SERIAL_RANGE.last} (2100-12-31); use the form YYYY-MM-DD, for example 2025-12-31`;
	return `${shown} is not a date the API can read; use the form YYYY-MM-DD, for example 2025-12-31`;
}

/**
 * The fix for a Snapshot Date that falls in two quarters: the date meant as a text, or the value formatted in one time
 * zone. Undefined for other refusals.
 */
export function twoQuartersFix(refusal: SnapshotDateRefusal): string | undefined {
	if (refusal.problem !== 'two-quarters') return undefined;
	const byQuarter = new Map(refusal.readings.map((reading) => [reading.quarterEnd, reading.date]));
	const dates = [...byQuarter]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([end, date]) => `${date} for ${quarterName(end)}`)
		.join(', ');
	return `Map the date you mean as a YYYY-MM-DD text (${dates}), or format the value in the time zone you mean, e.g. {{ $json.date.toDateTime().setZone('${refusal.timeZone}').toFormat('yyyy-MM-dd') }} (with your field).`;
}

/** The calendar date of an Excel date serial in EXCEL_SERIAL_RANGE (a fraction is a time of that day). */
export function excelSerialDate(value: number): Ymd | undefined {
	if (
		!Number.isFinite(value) ||
		value < EXCEL_SERIAL_RANGE.first ||
		value >= EXCEL_SERIAL_RANGE.last + 1
	)
		return undefined;
	// Day 0 of Excel's count is 1899-12-30 from serial 61 on (Excel counts a 29 February 1900 before it).
	const date = new Date(Date.UTC(1899, 11, 30) + Math.floor(value) * 86_400_000);
	return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

/** The calendar date of a moment in a time zone; undefined for an invalid Date or one the zone cannot show. */
export function calendarDateIn(moment: Date, timeZone: string): Ymd | undefined {
	// Years before 2 could cross into 1 BC in a time zone west of UTC, which Intl shows as year 1.
	if (Number.isNaN(moment.getTime()) || moment.getUTCFullYear() < 2) return undefined;
	const formatter = formatterFor(timeZone);
	if (!formatter) return undefined;
	const parts: Record<string, string> = {};
	for (const part of formatter.formatToParts(moment)) parts[part.type] = part.value;
	const ymd: Ymd = [Number(parts.year), Number(parts.month), Number(parts.day)];
	return ymd.every(Number.isInteger) ? ymd : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
	if (!formatters.has(timeZone)) {
		let formatter: Intl.DateTimeFormat | null;
		try {
			formatter = new Intl.DateTimeFormat('en-CA', {
				timeZone,
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
			});
		} catch {
			formatter = null; // RangeError: a time zone this system does not know
		}
		if (formatters.size > 100) formatters.clear();
		formatters.set(timeZone, formatter);
	}
	return formatters.get(timeZone) ?? undefined;
}

function toDateValue(value: unknown): DateValue | undefined {
	if (isDate(value)) {
		return Number.isNaN(value.getTime())
			? undefined
			: { moment: value, shown: value.toISOString() };
	}
	if (value && typeof value === 'object') return fromLuxonLike(value);
	if (typeof value === 'number') {
		const ymd = excelSerialDate(value);
		return ymd ? { ymd, serial: value } : undefined;
	}
	if (typeof value !== 'string') return undefined;
	const match = ISO_DATE.exec(value.trim());
	if (!match) return undefined;
	const ymd: Ymd = [Number(match[1]), Number(match[2]), Number(match[3])];
	const [year, month, day] = ymd;
	if (month < 1 || month > 12 || day < 1) return undefined;
	if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
	const [, , , , time, offset] = match;
	if (!offset) return { ymd };
	const moment = momentOf(ymd, time, offset);
	if (!moment) return undefined;
	const midnight = /^00:00(:00(\.0+)?)?$/.test(time);
	return { moment, shown: `"${value.trim()}"`, written: { ymd, offset, midnight } };
}

/**
 * A Luxon DateTime, duck-typed (the package does not depend on Luxon; n8n's expressions give its DateTimes): read as
 * the moment of `toJSDate()`. An object with only `toISODate()` is read as the date it gives.
 */
function fromLuxonLike(value: object): DateValue | undefined {
	const luxon = value as { toJSDate?: unknown; toISO?: unknown; toISODate?: unknown };
	try {
		if (typeof luxon.toJSDate === 'function') {
			const moment: unknown = luxon.toJSDate();
			if (!isDate(moment) || Number.isNaN(moment.getTime())) return undefined;
			const iso: unknown = typeof luxon.toISO === 'function' ? luxon.toISO() : undefined;
			const shown = typeof iso === 'string' ? iso.slice(0, 60) : moment.toISOString();
			const asText = typeof iso === 'string' ? toDateValue(iso) : undefined;
			// The wall clock of its own zone, when toISO() shows the same moment.
			const written =
				asText && 'moment' in asText && asText.moment.getTime() === moment.getTime()
					? asText.written
					: undefined;
			return { moment, shown, ...(written ? { written } : {}) };
		}
		if (typeof luxon.toISODate === 'function') {
			const date: unknown = luxon.toISODate();
			const read = typeof date === 'string' ? toDateValue(date) : undefined;
			return read && 'ymd' in read ? read : undefined;
		}
	} catch {
		return undefined;
	}
	return undefined;
}

/** The moment of a date, a time (HH:MM[:SS[.fff]]) and a UTC offset; undefined if the time is not one. */
function momentOf([year, month, day]: Ymd, time: string, offset: string): Date | undefined {
	const parts = ISO_TIME.exec(time);
	if (!parts) return undefined;
	const [hours, minutes, seconds] = [Number(parts[1]), Number(parts[2]), Number(parts[3] ?? 0)];
	if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
	const millis = Number((parts[4] ?? '0').padEnd(3, '0').slice(0, 3));
	let offsetMinutes = 0;
	if (offset !== 'Z') {
		const digits = offset.slice(1).replace(':', '');
		const [offsetHours, offsetMins] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
		if (offsetHours > 23 || offsetMins > 59) return undefined;
		offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
	}
	const moment = new Date(0);
	// setUTCFullYear: Date.UTC would read the years 0-99 as 1900-1999.
	moment.setUTCFullYear(year, month - 1, day);
	moment.setUTCHours(hours, minutes - offsetMinutes, seconds, millis);
	return moment;
}

/** A JS Date, also one from another realm (n8n may evaluate expressions in a separate context). */
function isDate(value: unknown): value is Date {
	return value instanceof Date || Object.prototype.toString.call(value) === '[object Date]';
}

function formatYmd(year: number, month: number, day: number): string {
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

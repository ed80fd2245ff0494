/**
 * Snapshot dates read in the workflow's time zone (GitHub issue 27): a JS Date, a Luxon DateTime and a text with an
 * offset are the calendar date of their moment in the zone; dates without an offset are taken as written. Since issue
 * 35 a moment is also read in UTC, in the server's time zone (passed here as SERVER, UTC, whatever jest's TZ is) and
 * as written: when the readings fall in two quarters, the one where it is exactly midnight decides, else it is refused
 * (test/fuzz/dates.fuzz.test.ts checks the rule over generated moments and zones).
 */
import { DateTime } from 'luxon';

import {
	calendarDateIn,
	lastCompletedQuarterEnd,
	readSnapshotDate,
	usableTimeZone,
	workflowTimeZone,
} from '../../nodes/shared/input/dates';

const SERVER = 'UTC';
const TWO_QUARTERS = { problem: 'two-quarters' };

describe("snapshot dates in the workflow's time zone", () => {
	const today = new Date('2026-11-21T10:00:00Z');
	/** 1 October 2025, midnight in Berlin (CEST, UTC+2): still 30 September in UTC. */
	const berlinMidnight = new Date('2025-09-30T22:00:00Z');
	const october1 = { date: '2025-10-01', quarterEnd: '2025-12-31' };
	const september30 = { date: '2025-09-30', quarterEnd: '2025-09-30' };

	it.each([
		// 1 October 2025, midnight in Berlin (CEST, UTC+2): still 30 September in UTC.
		['2025-09-30T22:00:00Z', 'Europe/Berlin', '2025-10-01', '2025-12-31'],
		// 07:00 on 1 October in Tokyo, 22:00 on 30 September in UTC: midnight in neither, so refused.
		['2025-09-30T22:00:00Z', 'Asia/Tokyo', '2025-10-01', null],
		['2025-09-30T22:00:00Z', 'UTC', '2025-09-30', '2025-09-30'],
		['2025-09-30T22:00:00Z', 'America/New_York', '2025-09-30', '2025-09-30'],
		// Late in the UTC day: the next day east of UTC, the same day west of it; early: the day before in New York.
		['2025-12-31T20:00:00Z', 'Asia/Tokyo', '2026-01-01', null],
		['2025-12-31T20:00:00Z', 'America/New_York', '2025-12-31', '2025-12-31'],
		['2025-07-01T03:00:00Z', 'America/New_York', '2025-06-30', null],
		// Midnight in UTC (a date-only value parsed as UTC) decides against New York's 30 September.
		['2025-10-01T00:00:00Z', 'America/New_York', '2025-09-30', '2025-12-31'],
		// Daylight saving time, Berlin (UTC+1 in winter, UTC+2 in summer). 30 March 2025: clocks go from 02:00 to
		// 03:00, so 31 March 00:30 CEST is 30 March 22:30 UTC; 1 April 00:00 CEST is 31 March 22:00 UTC.
		['2025-03-30T22:30:00Z', 'Europe/Berlin', '2025-03-31', '2025-03-31'],
		['2025-03-31T22:00:00Z', 'Europe/Berlin', '2025-04-01', '2025-06-30'],
		// 1 January 00:00 CET (winter, UTC+1) is 31 December 23:00 UTC; 22:59 UTC is still 31 December.
		['2024-12-31T23:00:00Z', 'Europe/Berlin', '2025-01-01', '2025-03-31'],
		['2024-12-31T22:59:59Z', 'Europe/Berlin', '2024-12-31', '2024-12-31'],
		// New York, 2 November 2025 (EDT ends): midnight of 3 November is 05:00 UTC, not 04:00.
		['2025-11-03T04:30:00Z', 'America/New_York', '2025-11-02', '2025-12-31'],
		['2025-11-03T05:00:00Z', 'America/New_York', '2025-11-03', '2025-12-31'],
	])(
		'a JS Date %s in %s is %s there (stored at %s; null: refused)',
		(moment, timeZone, date, quarterEnd) => {
			const read = readSnapshotDate(new Date(moment), today, timeZone, SERVER);
			if (quarterEnd === null) expect(read).toMatchObject(TWO_QUARTERS);
			else expect(read).toMatchObject({ quarterEnd });
			expect(calendarDateIn(new Date(moment), timeZone)).toEqual(date.split('-').map(Number));
		},
	);

	it('reads a Luxon DateTime as its moment, whatever zone it is in, and with its own zone', () => {
		// Midnight in Berlin: Q4 in Berlin, Q3 in UTC; midnight decides.
		const berlinMidnightLuxon = DateTime.fromISO('2025-10-01T00:00:00+02:00');
		expect(berlinMidnightLuxon.isValid).toBe(true);
		for (const zone of ['utc', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'])
			expect(
				readSnapshotDate(berlinMidnightLuxon.setZone(zone), today, 'Europe/Berlin', SERVER),
			).toMatchObject(october1);
		// In a UTC workflow: shown in Berlin it is midnight there (its own zone decides); shown in UTC or New York every
		// reading is 30 September; shown in Tokyo (07:00 on 1 October) midnight nowhere, so refused.
		const inUtc = (zone: string) =>
			readSnapshotDate(berlinMidnightLuxon.setZone(zone), today, 'UTC', SERVER);
		expect(inUtc('Europe/Berlin')).toMatchObject(october1);
		expect(inUtc('utc')).toMatchObject(september30);
		expect(inUtc('America/New_York')).toMatchObject(september30);
		expect(inUtc('Asia/Tokyo')).toMatchObject(TWO_QUARTERS);
		// 00:30 in Berlin is midnight nowhere: refused in Berlin, whatever zone the DateTime is shown in.
		const halfPast = DateTime.fromISO('2025-10-01T00:30:00+02:00');
		for (const zone of ['utc', 'Europe/Berlin', 'Asia/Tokyo'])
			expect(
				readSnapshotDate(halfPast.setZone(zone), today, 'Europe/Berlin', SERVER),
			).toMatchObject(TWO_QUARTERS);
		expect(readSnapshotDate(DateTime.invalid('test'), today, 'Europe/Berlin')).toEqual({
			problem: 'unreadable',
		});
	});

	it('reads a text with a time and Z or an offset as its moment, and as written', () => {
		for (const text of [
			'2025-10-01T00:00:00+02:00',
			'2025-10-01T00:00+0200',
			'2025-09-30T22:00:00Z',
			'2025-09-30 22:00:00.000Z',
			'2025-09-30T17:00:00-05:00',
			// Midnight as written in Tokyo: 17:00 on 30 September in Berlin, yet the text says 1 October.
			'2025-10-01T00:00:00+09:00',
		]) {
			expect(readSnapshotDate(text, today, 'Europe/Berlin', SERVER)).toMatchObject(october1);
		}
		for (const text of ['2025-10-01T00:30:00+02:00', '2025-09-30T23:30:00Z'])
			expect(readSnapshotDate(text, today, 'Europe/Berlin', SERVER)).toMatchObject(TWO_QUARTERS);
		for (const timeZone of ['UTC', 'America/New_York'])
			expect(readSnapshotDate('2025-10-01T00:00:00+02:00', today, timeZone, SERVER)).toMatchObject(
				october1,
			);
		for (const text of ['2025-10-01T25:00:00Z', '2025-10-01T1:2Z', '2025-10-01T00:00+24:00'])
			expect(readSnapshotDate(text, today, 'UTC')).toEqual({ problem: 'unreadable' });
	});

	it("reads a moment in the server's time zone too: a JS Date at midnight there", () => {
		// new Date(2025, 9, 1) on a server in Berlin, in a workflow in New York.
		expect(readSnapshotDate(berlinMidnight, today, 'America/New_York', 'Europe/Berlin')).toEqual({
			...october1,
			note: "Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the n8n server's time zone Europe/Berlin; in the workflow's time zone America/New_York and UTC it is 2025-09-30 (Q3 2025)",
			hint: 'Snapshot Date read as 2025-10-01, Q4 2025 (midnight in server zone Europe/Berlin), not Q3 2025 as in America/New_York',
		});
		expect(readSnapshotDate(berlinMidnight, today, 'America/New_York', 'UTC')).toMatchObject(
			september30,
		);
		// 23:30 UTC on 30 September, 01:30 in Berlin: two quarters, midnight in neither.
		const lateSeptember = new Date('2025-09-30T23:30:00Z');
		expect(readSnapshotDate(lateSeptember, today, 'UTC', 'UTC')).toMatchObject(september30);
		expect(readSnapshotDate(lateSeptember, today, 'UTC', 'Europe/Berlin')).toMatchObject(
			TWO_QUARTERS,
		);
	});

	it('takes a date without a time, or a time without an offset (the date picker), as written', () => {
		for (const timeZone of ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC']) {
			for (const text of ['2025-10-01', '2025-10-01T00:00:00', '2025-10-01 23:59:59']) {
				const read = readSnapshotDate(text, today, timeZone, 'Asia/Tokyo');
				expect(read).toEqual(october1);
			}
		}
	});

	it('notes a moment read as another date than it shows, and only then', () => {
		expect(readSnapshotDate(berlinMidnight, today, 'Europe/Berlin', SERVER)).toMatchObject({
			note: "Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the workflow's time zone Europe/Berlin; in UTC it is 2025-09-30 (Q3 2025)",
			hint: 'Snapshot Date read as 2025-10-01, Q4 2025 (midnight in Europe/Berlin), not Q3 2025 as in UTC',
		});
		expect(
			readSnapshotDate('2025-10-01T00:00:00.000Z', today, 'America/New_York', SERVER),
		).toMatchObject({
			note: 'Snapshot Date "2025-10-01T00:00:00.000Z" read as 2025-10-01 (Q4 2025): it is exactly midnight in UTC; in the workflow\'s time zone America/New_York it is 2025-09-30 (Q3 2025)',
		});
		// One quarter in every reading, another date than the value shows: the old note.
		expect(
			readSnapshotDate(new Date('2025-11-14T23:00:00Z'), today, 'Europe/Berlin', SERVER),
		).toEqual({
			date: '2025-11-15',
			quarterEnd: '2025-12-31',
			note: "Snapshot Date 2025-11-14T23:00:00.000Z read as 2025-11-15 in the workflow's time zone Europe/Berlin",
		});
		expect(
			readSnapshotDate('2025-11-15T00:30:00+02:00', today, 'America/New_York', SERVER),
		).toEqual({
			date: '2025-11-14',
			quarterEnd: '2025-12-31',
			note: 'Snapshot Date "2025-11-15T00:30:00+02:00" read as 2025-11-14 in the workflow\'s time zone America/New_York',
		});
		const luxon = DateTime.fromISO('2025-11-14T23:00:00Z', { zone: 'utc' });
		expect(readSnapshotDate(luxon, today, 'Europe/Berlin', SERVER)).toMatchObject({
			note: "Snapshot Date 2025-11-14T23:00:00.000Z read as 2025-11-15 in the workflow's time zone Europe/Berlin",
		});
		// Same date everywhere: no note.
		for (const [value, timeZone] of [
			[new Date('2025-10-01T10:00:00Z'), 'Europe/Berlin'],
			[berlinMidnight, 'UTC'],
			['2025-10-01T12:00:00+02:00', 'Europe/Berlin'],
			['2025-10-01T00:00:00', 'Europe/Berlin'],
		] as const)
			expect(readSnapshotDate(value, today, timeZone, SERVER)).not.toHaveProperty('note');
	});

	it('reads an unknown time zone as UTC, and says so for moments', () => {
		for (const unknown of ['Mars/Olympus_Mons', '', undefined])
			expect(usableTimeZone(unknown)).toEqual({ timeZone: 'UTC', known: false });
		expect(usableTimeZone('Europe/Berlin')).toEqual({ timeZone: 'Europe/Berlin', known: true });
		expect(readSnapshotDate(berlinMidnight, today, 'Mars/Olympus_Mons', SERVER)).toEqual({
			date: '2025-09-30',
			quarterEnd: '2025-09-30',
			note: 'Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-09-30 in UTC: the workflow\'s time zone "Mars/Olympus_Mons" is not one this system knows',
		});
		expect(readSnapshotDate('2025-10-01', today, 'Mars/Olympus_Mons')).toEqual(october1);
		expect(lastCompletedQuarterEnd(new Date('2025-09-30T23:00:00Z'), 'Mars/Olympus_Mons')).toBe(
			'2025-09-30',
		);
	});

	it("takes the current year and the last completed quarter from today's date in the time zone", () => {
		// 31 December 2025, 23:30 UTC: already 2026 in Berlin, still 2025 in New York.
		const newYearsEve = new Date('2025-12-31T23:30:00Z');
		expect(readSnapshotDate('2026-01-15', newYearsEve, 'Europe/Berlin')).toMatchObject({
			quarterEnd: '2026-03-31',
		});
		expect(readSnapshotDate('2026-01-15', newYearsEve, 'America/New_York')).toEqual({
			problem: 'future-year',
		});
		expect(readSnapshotDate('2026-01-15', newYearsEve, 'UTC')).toEqual({ problem: 'future-year' });
		// The last day of a quarter counts as completed, so the zone decides on the day before it.
		// 30 September 03:30 UTC is still 29 September, 23:30, in New York.
		const beforeQuarterEnd = new Date('2025-09-30T03:30:00Z');
		expect(lastCompletedQuarterEnd(beforeQuarterEnd, 'America/New_York')).toBe('2025-06-30');
		expect(lastCompletedQuarterEnd(beforeQuarterEnd, 'UTC')).toBe('2025-09-30');
		// 29 June 22:30 UTC is already 30 June, 00:30, in Berlin (CEST) and 07:30 in Tokyo.
		const lateJune29 = new Date('2025-06-29T22:30:00Z');
		expect(lastCompletedQuarterEnd(lateJune29, 'Europe/Berlin')).toBe('2025-06-30');
		expect(lastCompletedQuarterEnd(lateJune29, 'Asia/Tokyo')).toBe('2025-06-30');
		expect(lastCompletedQuarterEnd(lateJune29, 'UTC')).toBe('2025-03-31');
		// 1 January 2026, 00:30 in Berlin: the year's last quarter is complete everywhere.
		expect(lastCompletedQuarterEnd(newYearsEve, 'Europe/Berlin')).toBe('2025-12-31');
		expect(lastCompletedQuarterEnd(newYearsEve, 'America/New_York')).toBe('2025-12-31');
	});

	it("takes the time zone from n8n's getTimezone(), UTC when the context has none", () => {
		expect(workflowTimeZone({ getTimezone: () => 'Europe/Berlin' })).toBe('Europe/Berlin');
		expect(workflowTimeZone({} as never)).toBe('UTC');
		expect(
			workflowTimeZone({
				getTimezone: () => {
					throw new Error('no workflow');
				},
			}),
		).toBe('UTC');
	});
});

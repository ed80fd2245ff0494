/**
 * Snapshot dates read in the workflow's time zone (GitHub issue 27): a JS Date, a Luxon DateTime and a text with an
 * offset are the calendar date of their moment in the zone; dates without an offset are taken as written.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	calendarDateIn,
	lastCompletedQuarterEnd,
	readSnapshotDate,
	usableTimeZone,
	workflowTimeZone,
} from '../../nodes/shared/input/dates';

describe("snapshot dates in the workflow's time zone", () => {
	const today = new Date('2026-11-21T10:00:00Z');
	/** 1 October 2025, midnight in Berlin (CEST, UTC+2): still 30 September in UTC. */
	const berlinMidnight = new Date('2025-09-30T22:00:00Z');
	const october1 = { date: '2025-10-01', quarterEnd: '2025-12-31' };
	const september30 = { date: '2025-09-30', quarterEnd: '2025-09-30' };

	it.each([
		// 1 October 2025, midnight in Berlin (CEST, UTC+2): still 30 September in UTC.
		['2025-09-30T22:00:00Z', 'Europe/Berlin', '2025-10-01', '2025-12-31'],
		['2025-09-30T22:00:00Z', 'Asia/Tokyo', '2025-10-01', '2025-12-31'],
		['2025-09-30T22:00:00Z', 'UTC', '2025-09-30', '2025-09-30'],
		['2025-09-30T22:00:00Z', 'America/New_York', '2025-09-30', '2025-09-30'],
		// Late in the UTC day: the next day east of UTC, the same day west of it; early: the day before in New York.
		['2025-12-31T20:00:00Z', 'Asia/Tokyo', '2026-01-01', '2026-03-31'],
		['2025-12-31T20:00:00Z', 'America/New_York', '2025-12-31', '2025-12-31'],
		['2025-07-01T03:00:00Z', 'America/New_York', '2025-06-30', '2025-06-30'],
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
	])('a JS Date %s in %s is %s (quarter end %s)', (moment, timeZone, date, quarterEnd) => {
		expect(readSnapshotDate(new Date(moment), today, timeZone)).toMatchObject({ date, quarterEnd });
		expect(calendarDateIn(new Date(moment), timeZone)).toEqual(date.split('-').map(Number));
	});

	it('reads a Luxon DateTime as its moment, whatever zone it is in', () => {
		const instant = DateTime.fromISO('2025-10-01T00:30:00+02:00');
		expect(instant.isValid).toBe(true);
		for (const zone of ['utc', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo']) {
			expect(readSnapshotDate(instant.setZone(zone), today, 'Europe/Berlin')).toMatchObject(
				october1,
			);
			expect(readSnapshotDate(instant.setZone(zone), today, 'UTC')).toMatchObject(september30);
		}
		expect(readSnapshotDate(DateTime.invalid('test'), today, 'Europe/Berlin')).toEqual({
			problem: 'unreadable',
		});
	});

	it('reads a text with a time and Z or an offset as its moment', () => {
		for (const text of [
			'2025-10-01T00:30:00+02:00',
			'2025-10-01T00:30+0200',
			'2025-09-30T22:00:00Z',
			'2025-09-30 22:00:00.000Z',
			'2025-09-30T17:00:00-05:00',
		]) {
			expect(readSnapshotDate(text, today, 'Europe/Berlin')).toMatchObject(october1);
		}
		for (const timeZone of ['UTC', 'America/New_York'])
			expect(readSnapshotDate('2025-10-01T00:30:00+02:00', today, timeZone)).toMatchObject({
				date: '2025-09-30',
			});
		for (const text of ['2025-10-01T25:00:00Z', '2025-10-01T1:2Z', '2025-10-01T00:00+24:00'])
			expect(readSnapshotDate(text, today, 'UTC')).toEqual({ problem: 'unreadable' });
	});

	it('takes a date without a time, or a time without an offset (the date picker), as written', () => {
		for (const timeZone of ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC']) {
			for (const text of ['2025-10-01', '2025-10-01T00:00:00', '2025-10-01 23:59:59']) {
				const read = readSnapshotDate(text, today, timeZone);
				expect(read).toEqual(october1);
			}
		}
	});

	it('notes a moment read as another date than it shows, and only then', () => {
		expect(readSnapshotDate(berlinMidnight, today, 'Europe/Berlin')).toMatchObject({
			note: "Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 in the workflow's time zone Europe/Berlin",
		});
		// The text shows 1 October but is 30 September in UTC: noted, naming the text.
		expect(readSnapshotDate('2025-10-01T00:30:00+02:00', today, 'Europe/Berlin')).toMatchObject({
			note: 'Snapshot Date "2025-10-01T00:30:00+02:00" read as 2025-10-01 in the workflow\'s time zone Europe/Berlin',
		});
		// The text shows 1 October, its UTC date is 30 September, New York's too: noted.
		expect(readSnapshotDate('2025-10-01T00:30:00+02:00', today, 'America/New_York')).toHaveProperty(
			'note',
		);
		const luxon = DateTime.fromISO('2025-09-30T22:00:00Z', { zone: 'utc' });
		expect(readSnapshotDate(luxon, today, 'Europe/Berlin')).toMatchObject({
			note: "Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 in the workflow's time zone Europe/Berlin",
		});
		// Same date everywhere: no note.
		for (const [value, timeZone] of [
			[new Date('2025-10-01T10:00:00Z'), 'Europe/Berlin'],
			[berlinMidnight, 'UTC'],
			['2025-10-01T12:00:00+02:00', 'Europe/Berlin'],
			['2025-10-01T00:00:00', 'Europe/Berlin'],
		] as const)
			expect(readSnapshotDate(value, today, timeZone)).not.toHaveProperty('note');
	});

	it('reads an unknown time zone as UTC, and says so for moments', () => {
		for (const unknown of ['Mars/Olympus_Mons', '', undefined])
			expect(usableTimeZone(unknown)).toEqual({ timeZone: 'UTC', known: false });
		expect(usableTimeZone('Europe/Berlin')).toEqual({ timeZone: 'Europe/Berlin', known: true });
		expect(readSnapshotDate(berlinMidnight, today, 'Mars/Olympus_Mons')).toEqual({
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

describe('snapshot dates in a time zone, against Luxon', () => {
	const ZONES = [
		'UTC',
		'Europe/Berlin',
		'America/New_York',
		'Asia/Tokyo',
		'Asia/Kolkata',
		'Australia/Lord_Howe',
		'Pacific/Kiritimati',
		'Pacific/Pago_Pago',
		'America/St_Johns',
	];
	const today = new Date('2026-11-21T10:00:00Z');

	it("a Date, the same moment as a DateTime in any zone, and as a text with any offset all give Luxon's date in the zone", () => {
		fc.assert(
			fc.property(
				fc.date({
					min: new Date('1990-01-01T00:00:00Z'),
					max: new Date('2025-12-31T00:00:00Z'),
					noInvalidDate: true,
				}),
				fc.constantFrom(...ZONES),
				fc.constantFrom(...ZONES),
				(moment, zone, shownIn) => {
					const expected = DateTime.fromJSDate(moment, { zone }).toISODate();
					const asDateTime = DateTime.fromJSDate(moment, { zone: shownIn });
					for (const value of [moment, asDateTime, asDateTime.toISO()]) {
						const read = readSnapshotDate(value, today, zone);
						expect(read).toMatchObject({ date: expected });
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});

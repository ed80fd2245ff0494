/**
 * Readings of a Snapshot Date (issue 35, "What to build" 3): a moment has no calendar date of its own, and the API
 * stores it at the end of the quarter of the date it is given. A moment is read in UTC, in the workflow's time zone,
 * in the n8n server's time zone and with the offset or zone it was written with; the quarter used must be one every
 * reading agrees on, or — when they straddle a quarter end — the one in which the moment is exactly midnight, or the
 * value is refused. Never a quarter no reading supports, never a guess between two.
 *
 * The readings are worked out here with Luxon, independently of the node's Intl arithmetic. The zones are injected
 * into the pure function (the workflow's zone and the process's zone); test/dates.workflow.test.ts runs the node in
 * n8n's engine, once with the process's zone set through TZ of a child process.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	describeDateProblem,
	readSnapshotDate,
	twoQuartersFix,
} from '../../nodes/shared/input/dates';
import { FUZZ_SEED, runs } from './arbitraries';

/** Zones with every kind of offset: whole hours both sides, half and quarter hours, +14 and -11, DST north and south. */
const ZONES = [
	'UTC',
	'Europe/Berlin',
	'Europe/London',
	'America/New_York',
	'America/Los_Angeles',
	'America/St_Johns',
	'America/Sao_Paulo',
	'Asia/Tokyo',
	'Asia/Kolkata',
	'Asia/Kathmandu',
	'Australia/Lord_Howe',
	'Pacific/Auckland',
	'Pacific/Kiritimati',
	'Pacific/Pago_Pago',
];

/** After every generated date: no value is refused for its year here. */
const TODAY = new Date('2100-06-01T00:00:00Z');

/** The first day of a quarter, 2000-2030. */
const quarterStart = fc.record({
	year: fc.integer({ min: 2000, max: 2030 }),
	quarter: fc.integer({ min: 1, max: 4 }),
});

/**
 * Moments near quarter ends, where the readings part: midnight in some zone of the first day of a quarter (what a
 * date-only value becomes), minutes to a day and a half either side of it, and now and then any moment.
 */
const moment = fc.oneof(
	{
		weight: 3,
		arbitrary: fc
			.tuple(quarterStart, fc.constantFrom(...ZONES), fc.constantFrom(0, 0, 1, -1))
			.map(([{ year, quarter }, zone, dayShift]) =>
				DateTime.fromObject({ year, month: quarter * 3 - 2, day: 1 }, { zone })
					.plus({ days: dayShift })
					.toJSDate(),
			),
	},
	{
		weight: 3,
		arbitrary: fc
			.tuple(
				quarterStart,
				fc.integer({ min: -36 * 60, max: 36 * 60 }),
				fc.constantFrom(0, 0, 0, 1, 30_000, 999),
			)
			.map(
				([{ year, quarter }, minutes, millis]) =>
					new Date(Date.UTC(year, quarter * 3 - 3, 1) + minutes * 60_000 + millis),
			),
	},
	{
		weight: 1,
		arbitrary: fc.date({
			min: new Date('2000-01-01T00:00:00Z'),
			max: new Date('2030-12-31T00:00:00Z'),
			noInvalidDate: true,
		}),
	},
);

type Kind = 'JS Date' | 'Luxon DateTime' | 'text with Z' | 'text with an offset';

/** The value as it reaches the node, and the zone it was written in (undefined: a JS Date, which has none). */
function asValue(instant: Date, kind: Kind, shownIn: string): { value: unknown; ownZone?: string } {
	const inZone = DateTime.fromJSDate(instant, { zone: shownIn });
	switch (kind) {
		case 'JS Date':
			return { value: instant };
		case 'Luxon DateTime':
			return { value: inZone, ownZone: shownIn };
		case 'text with Z':
			return { value: instant.toISOString(), ownZone: 'UTC' };
		case 'text with an offset':
			return {
				value: inZone.toISO({ suppressMilliseconds: true, includeOffset: true }),
				ownZone: shownIn,
			};
	}
}

interface Reading {
	zone: string;
	quarter: string;
	midnight: boolean;
}

/** The moment in a zone, by Luxon: its quarter, and whether it is the start of its day there. */
function readingIn(instant: Date, zone: string): Reading {
	const local = DateTime.fromJSDate(instant, { zone });
	return {
		zone,
		quarter: `${local.year}-Q${local.quarter}`,
		midnight: local.toMillis() === local.startOf('day').toMillis(),
	};
}

const quarterOf = (date: string) =>
	`${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;

describe('Snapshot Date readings: the quarter is one every reading supports, or the value is refused', () => {
	it('a JS Date, a Luxon DateTime and texts with Z or an offset, in any workflow and server time zone', () => {
		fc.assert(
			fc.property(
				moment,
				fc.constantFrom<Kind>('JS Date', 'Luxon DateTime', 'text with Z', 'text with an offset'),
				fc.constantFrom(...ZONES),
				fc.constantFrom(...ZONES),
				fc.constantFrom(...ZONES),
				(instant, kind, workflowZone, processZone, shownIn) => {
					const { value, ownZone } = asValue(instant, kind, shownIn);
					const readings = [
						readingIn(instant, 'UTC'),
						readingIn(instant, workflowZone),
						readingIn(instant, processZone),
						...(ownZone ? [readingIn(instant, ownZone)] : []),
					];
					const quarters = new Set(readings.map((reading) => reading.quarter));
					const midnightQuarters = new Set(
						readings.filter((reading) => reading.midnight).map((reading) => reading.quarter),
					);
					const read = readSnapshotDate(value, TODAY, workflowZone, processZone);

					if ('problem' in read) {
						// Refused only when the readings part and no single midnight settles them; never unreadable.
						expect(read.problem).toBe('two-quarters');
						expect(quarters.size).toBeGreaterThan(1);
						expect(midnightQuarters.size).not.toBe(1);
						const message = describeDateProblem(read, value);
						for (const quarter of quarters)
							expect(message).toContain(`Q${quarter.slice(-1)} ${quarter.slice(0, 4)}`);
						expect(twoQuartersFix(read)).toMatch(
							/YYYY-MM-DD text \(.+\).*toFormat\('yyyy-MM-dd'\)/,
						);
						return;
					}
					const used = quarterOf(read.date);
					expect(quarterOf(read.quarterEnd)).toBe(used);
					expect(quarters).toContain(used);
					if (quarters.size === 1) {
						// All agree: the date in the workflow's time zone.
						expect(read.date).toBe(
							DateTime.fromJSDate(instant, { zone: workflowZone }).toISODate(),
						);
					} else {
						// They part: the midnight one decides, and a note says so.
						expect([...midnightQuarters]).toEqual([used]);
						expect(read.note).toMatch(
							/exactly midnight in .+; in .+ it is \d{4}-\d{2}-\d{2} \(Q\d \d{4}\)/,
						);
						expect((read.hint ?? read.note)!.length).toBeLessThanOrEqual(120 + 40);
					}
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(1500) },
		);
	});

	it('a date written without a time or without an offset is taken as written, in any zones', () => {
		fc.assert(
			fc.property(
				fc.date({
					min: new Date('2000-01-01T00:00:00Z'),
					max: new Date('2030-12-31T00:00:00Z'),
					noInvalidDate: true,
				}),
				fc.constantFrom('', 'T00:00:00', ' 23:59:59', 'T00:30'),
				fc.constantFrom(...ZONES),
				fc.constantFrom(...ZONES),
				(instant, time, workflowZone, processZone) => {
					const date = instant.toISOString().slice(0, 10);
					expect(readSnapshotDate(`${date}${time}`, TODAY, workflowZone, processZone)).toEqual({
						date,
						quarterEnd: expect.stringMatching(new RegExp(`^${date.slice(0, 4)}-`)),
					});
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(500) },
		);
	});

	it('an Excel date serial is the same date in any zones', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 36526, max: 47848 }),
				fc.constantFrom(...ZONES),
				fc.constantFrom(...ZONES),
				(serial, workflowZone, processZone) => {
					const expected = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000)
						.toISOString()
						.slice(0, 10);
					expect(readSnapshotDate(serial, TODAY, workflowZone, processZone)).toMatchObject({
						date: expected,
					});
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(300) },
		);
	});
});

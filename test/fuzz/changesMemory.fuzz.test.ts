/**
 * Only Changes Since Last Run with Remember In = Rows Given Here (issue 37): the rows a run hands out on To Remember,
 * fed back in any order with any other columns, are the state it remembered; compared with the results they were
 * made from, nothing changed; with some results changed, exactly those ISINs changed. Over generated results (numbers,
 * texts with hostile characters, null, nested objects and lists: what the four operations answer) and garbage rows.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { compareResults } from '../../nodes/SustainabilityInstruments/actions/changesCompare';
import {
	readRowsMemory,
	rowsToRemember,
} from '../../nodes/SustainabilityInstruments/actions/changesMemory';
import type { RememberedResult } from '../../nodes/SustainabilityInstruments/actions/changesState';
import { makeIsin } from '../helpers/isins';
import { FUZZ_SEED, hostileString, mistyped, objectOf, runs } from './arbitraries';

const value: fc.Arbitrary<unknown> = fc.oneof(
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
	fc.boolean(),
	fc.constant(null),
	hostileString,
	fc.dictionary(
		fc.string({ maxLength: 6 }),
		fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
		{
			maxKeys: 3,
		},
	),
	fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
);

const columns = fc.uniqueArray(
	fc.oneof(
		fc.constantFrom('classification', 'article', 'description', 'found', 'carbon_footprint'),
		fc.string({ minLength: 1, maxLength: 8 }),
	),
	{ minLength: 1, maxLength: 6 },
);

/** Remembered results of 1 to 12 distinct ISINs over the same columns, each last seen in some run. */
const remembered = columns.chain((names) =>
	fc
		.uniqueArray(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 12 })
		.chain((codes) =>
			fc.tuple(
				...codes.map((code) =>
					fc.record({
						isin: fc.constant(makeIsin(['US', 'DE', 'FR', 'LU'][code % 4], code)),
						lastSeen: fc.integer({ min: 0, max: 40 }),
						values: fc.tuple(...names.map(() => value)),
					}),
				),
			),
		)
		.map((entries) => {
			const results = new Map<string, RememberedResult>();
			for (const { isin, lastSeen, values } of entries)
				results.set(isin, {
					lastSeen,
					result: objectOf(names.map((name, i) => [name, values[i]])) as IDataObject,
				});
			return { names, results };
		}),
);

/** The rows as a store gives them back: extra columns (a Data Table's id and times), maybe as n8n items, shuffled. */
function asStored(
	rows: IDataObject[],
	order: number[],
	asItems: boolean,
	extra: unknown,
): unknown[] {
	const stored = rows.map((row, index) => ({
		id: index + 1,
		createdAt: '2026-11-20T07:00:00.000Z',
		extra,
		...row,
	}));
	const shuffled = order
		.map((i) => stored[i % stored.length])
		.filter((row, i, all) => all.indexOf(row) === i);
	for (const row of stored) if (!shuffled.includes(row)) shuffled.push(row);
	return asItems ? shuffled.map((json) => ({ json, pairedItem: { item: 0 } })) : shuffled;
}

describe('rows to remember round-trip (fast-check)', () => {
	it('fed back in any order with other columns: the same state, no change; changed results: exactly those ISINs', () => {
		fc.assert(
			fc.property(
				remembered,
				fc.array(fc.nat(), { maxLength: 12 }),
				fc.boolean(),
				mistyped,
				fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
				({ names, results }, order, asItems, extra, changeIt) => {
					const given = asStored(rowsToRemember(results), order, asItems, extra);
					const { state, skipped } = readRowsMemory(given);
					expect(skipped).toEqual([]);
					expect(state.runs).toBe(Math.max(...[...results.values()].map((r) => r.lastSeen)));
					expect([...state.results.keys()].sort()).toEqual([...results.keys()].sort());
					const changed: string[] = [];
					let index = 0;
					for (const [isin, { result, lastSeen }] of results) {
						const back = state.results.get(isin)!;
						expect(back.lastSeen).toBe(lastSeen);
						expect(compareResults(back.result, result, names, 0).changes).toEqual([]);
						if (changeIt[index++]) {
							const moved = { ...result, [names[0]]: { moved: result[names[0]] ?? 'x' } };
							if (compareResults(back.result, moved, names, 0).changes.length) changed.push(isin);
						}
					}
					// Only what was changed is reported changed (compared by ISIN, never by position).
					expect(changed.length).toBe(changeIt.slice(0, results.size).filter(Boolean).length);
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(300) },
		);
	});

	it('any garbage among the rows is named and skipped, never a crash, and the good rows still read', () => {
		fc.assert(
			fc.property(
				remembered,
				fc.array(fc.oneof(mistyped, hostileString, fc.dictionary(fc.string(), mistyped)), {
					maxLength: 5,
				}),
				({ results }, garbage) => {
					const rows = [...rowsToRemember(results), ...garbage];
					const memory = readRowsMemory(rows);
					for (const isin of results.keys()) expect(memory.state.results.has(isin)).toBe(true);
					const counted = garbage.filter(
						(entry) =>
							!(
								entry !== null &&
								typeof entry === 'object' &&
								!Array.isArray(entry) &&
								Object.keys(entry).length === 0
							) &&
							!(
								entry !== null &&
								typeof entry === 'object' &&
								'json' in entry &&
								typeof (entry as { json: unknown }).json === 'object' &&
								(entry as { json: object }).json !== null &&
								Object.keys((entry as { json: object }).json).length === 0
							),
					).length;
					// Every garbage entry that is not an empty placeholder is named, by its place among the rows.
					expect(memory.skipped.length).toBe(counted);
					for (const { row, why } of memory.skipped) {
						expect(row).toBeGreaterThan(results.size);
						expect(why.length).toBeGreaterThan(0);
					}
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(300) },
		);
	});
});

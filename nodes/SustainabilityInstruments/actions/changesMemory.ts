import type { IDataObject } from 'n8n-workflow';

import { isValidIsin, normalizeIsin } from '../../shared/input/isin';
import { hasOwn, kindOf, showValue } from '../../shared/base/values';
import type { ChangesState, RememberedResult } from './changesState';

// The remembered results as rows the user keeps (Remember In = Rows Given Here): each run reads them from the
// Remembered Rows parameter (e.g. {{ $('Get Remembered Rows').all() }} of a Data Table node) and hands the new ones
// out on its second output, to be written back (Data Table Upsert on isin). One row per ISIN, three columns that
// every store can hold (a Data Table, a sheet): the ISIN, the result as JSON text, the run it was last in the input.

/** The columns of a remembered row: what a Data Table used as memory must have (other columns are ignored). */
export const MEMORY_COLUMNS = {
	isin: 'isin',
	result: 'result',
	lastSeenRun: 'last_seen_run',
} as const;

/** A remembered row that could not be used: where it stood among the rows given, and why. */
export interface SkippedRow {
	row: number;
	isin: string | null;
	why: string;
}

export interface RowsMemory {
	state: ChangesState;
	/** Rows given (empty placeholders, such as Always Output Data's empty item, not counted). */
	given: number;
	skipped: SkippedRow[];
}

/** The rows of the parameter's value: a list, a list of n8n items ({ json }), one row, or that as JSON text. */
function rowList(value: unknown): unknown[] | undefined {
	if (value === undefined || value === null || value === '') return [];
	if (typeof value === 'string') {
		try {
			return rowList(JSON.parse(value) as unknown);
		} catch {
			return undefined;
		}
	}
	if (Array.isArray(value)) return value;
	if (typeof value === 'object') return [value];
	return undefined;
}

/** Why the value of Remembered Rows is no list of rows at all (undefined: it is one). */
export function unreadableRows(value: unknown): string | undefined {
	return rowList(value) === undefined
		? `Remembered Rows must be a list of rows, got ${kindOf(value)}: ${showValue(value)}`
		: undefined;
}

/** A row's own fields: an n8n item ({ json, pairedItem }) is read by its json. */
function rowFields(entry: unknown): IDataObject | undefined {
	if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const record = entry as IDataObject;
	if (hasOwn(record, 'json') && record.json !== null && typeof record.json === 'object')
		return record.json as IDataObject;
	return record;
}

/** The result column: JSON text of an object (what the node hands out), or the object itself. */
function readResult(value: unknown): IDataObject | string {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value) as unknown;
		} catch {
			return `its "result" is not JSON text: ${showValue(value)}`;
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		return `its "result" is not a JSON object: ${showValue(value)}`;
	return parsed as IDataObject;
}

/** The run number of the column: a whole number >= 0, also as text (a sheet gives text). */
function readRun(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : undefined;
}

/**
 * The remembered state from the rows given: any order, other columns ignored; a row that cannot be used (not an
 * object, no valid ISIN, a result that is not a JSON object, no run number, the same ISIN again) is skipped and named.
 * The runs so far are the highest run a row was last seen in.
 */
export function readRowsMemory(value: unknown): RowsMemory {
	const results = new Map<string, RememberedResult>();
	const skipped: SkippedRow[] = [];
	const rowOf = new Map<string, number>();
	let given = 0;
	let runs = 0;
	const list = rowList(value) ?? [];
	for (let index = 0; index < list.length; index++) {
		const row = index + 1;
		const fields = rowFields(list[index]);
		if (fields && Object.keys(fields).length === 0) continue;
		given++;
		if (!fields) {
			skipped.push({ row, isin: null, why: `it is ${kindOf(list[index])}, not a row` });
			continue;
		}
		const raw = fields[MEMORY_COLUMNS.isin];
		const isin = normalizeIsin(raw);
		if (!isin || !isValidIsin(isin)) {
			skipped.push({
				row,
				isin: typeof raw === 'string' ? raw : null,
				why:
					raw === undefined
						? 'it has no "isin" column'
						: `its "isin" is no ISIN: ${showValue(raw)}`,
			});
			continue;
		}
		const result = readResult(fields[MEMORY_COLUMNS.result]);
		if (typeof result === 'string') {
			skipped.push({ row, isin, why: result });
			continue;
		}
		const lastSeen = readRun(fields[MEMORY_COLUMNS.lastSeenRun]);
		if (lastSeen === undefined) {
			skipped.push({
				row,
				isin,
				why: `its "last_seen_run" is not a whole number: ${showValue(fields[MEMORY_COLUMNS.lastSeenRun])}`,
			});
			continue;
		}
		const earlier = results.get(isin);
		if (earlier) {
			// Two rows of one ISIN (a sheet appended to, not updated): the later run's is the one to compare with.
			const keepEarlier = earlier.lastSeen >= lastSeen;
			skipped.push({
				row: keepEarlier ? row : rowOf.get(isin)!,
				isin,
				why: `another row has the same ISIN (row ${keepEarlier ? rowOf.get(isin) : row}, of a ${keepEarlier ? 'later or the same' : 'later'} run, is used)`,
			});
			if (keepEarlier) continue;
		}
		results.set(isin, { lastSeen, result });
		rowOf.set(isin, row);
		runs = Math.max(runs, lastSeen);
	}
	skipped.sort((a, b) => a.row - b.row);
	return { state: { runs, execution: '', results }, given, skipped };
}

/** The rows to write back: one per ISIN remembered after this run, in the columns readRowsMemory reads. */
export function rowsToRemember(results: Map<string, RememberedResult>): IDataObject[] {
	const rows: IDataObject[] = [];
	for (const [isin, { lastSeen, result }] of results)
		rows.push({
			[MEMORY_COLUMNS.isin]: isin,
			[MEMORY_COLUMNS.result]: JSON.stringify(result),
			[MEMORY_COLUMNS.lastSeenRun]: lastSeen,
		});
	return rows;
}

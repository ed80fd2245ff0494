import type { IDataObject } from 'n8n-workflow';

import { setOwn } from '../base/values';

/**
 * The rows of one output with the same columns in the same order, as n8n's table shows the first row's columns and
 * `undefined` in a cell whose key a row lacks: the `first` columns (those any row has), then every other column in
 * first-seen order; a column a row lacks is null on it. With `rowsAreFresh` (rows made for this output, shared with
 * nothing) a row that already has exactly those columns in that order is kept rather than copied.
 */
export function uniformRows(
	rows: IDataObject[],
	first: readonly string[],
	{ rowsAreFresh = false }: { rowsAreFresh?: boolean } = {},
): IDataObject[] {
	const hasOwn = (row: IDataObject, key: string) => Object.prototype.hasOwnProperty.call(row, key);
	const columns = new Set<string>(first.filter((key) => rows.some((row) => hasOwn(row, key))));
	for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
	const order = [...columns];
	return rows.map((row) => {
		if (rowsAreFresh && hasColumns(row, order)) return row;
		const out: IDataObject = {};
		for (const key of order) setOwn(out, key, hasOwn(row, key) ? row[key] : null);
		return out;
	});
}

/** The row's own keys are exactly `columns`, in that order. */
function hasColumns(row: IDataObject, columns: string[]): boolean {
	let index = 0;
	for (const key in row) {
		if (!Object.prototype.hasOwnProperty.call(row, key)) continue;
		if (key !== columns[index++]) return false;
	}
	return index === columns.length;
}

/** The identity columns of a result row, before its values. */
export const IDENTITY_COLUMNS = ['isin', 'isin_normalised', 'found', 'reason'] as const;

/** The identity columns of a row left out of a request (removed_rows), before where it came from. */
export const REMOVED_ROW_COLUMNS = ['isin', 'isin_normalised', 'reason'] as const;

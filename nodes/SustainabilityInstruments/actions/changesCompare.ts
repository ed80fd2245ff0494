import type { IDataObject } from 'n8n-workflow';

import { ownValue, setOwn } from '../../shared/base/values';

export interface FieldChange {
	field: string;
	from: unknown;
	to: unknown;
}

export type SfdrDirection = 'downgrade' | 'upgrade' | 'lost_data' | 'new_data';

/** Columns that are never a tolerance's business: a class code moves in steps, never by "a little". */
const EXACT_COLUMNS = new Set(['classification']);

/** True when `to` differs from `from` by more than the tolerance (numbers) or at all (anything else). */
export function valueChanged(from: unknown, to: unknown, tolerance = 0): boolean {
	const a = from ?? null;
	const b = to ?? null;
	if (typeof a === 'number' && typeof b === 'number') return Math.abs(b - a) > tolerance;
	if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null)
		return JSON.stringify(a) !== JSON.stringify(b);
	return a !== b;
}

/** The SFDR class's move: down (9 to 8 or 6, 8 to 6), up, lost (class to none), new (none to class); null when the same. */
export function sfdrDirection(from: unknown, to: unknown): SfdrDirection | null {
	const a = typeof from === 'number' ? from : null;
	const b = typeof to === 'number' ? to : null;
	if (a === b) return null;
	if (b === null) return 'lost_data';
	if (a === null) return 'new_data';
	return b < a ? 'downgrade' : 'upgrade';
}

/**
 * The compared fields that changed from `previous` to `current`, and the result to remember: the current one, except
 * that a number that moved within the tolerance keeps its remembered value so that small moves add up.
 */
export function compareResults(
	previous: IDataObject,
	current: IDataObject,
	fields: string[],
	tolerance: number,
): { changes: FieldChange[]; remember: IDataObject } {
	const remember: IDataObject = { ...current };
	const changes: FieldChange[] = [];
	for (const field of fields) {
		const from = ownValue(previous, field) ?? null;
		const to = ownValue(current, field) ?? null;
		const allowed = EXACT_COLUMNS.has(field) ? 0 : tolerance;
		if (valueChanged(from, to, allowed)) changes.push({ field, from, to });
		else if (Object.prototype.hasOwnProperty.call(previous, field)) setOwn(remember, field, from);
	}
	return { changes, remember };
}

/** A result without its isin column: what is remembered under the ISIN. */
export function withoutIsin(result: IDataObject): IDataObject {
	const rest: IDataObject = {};
	// for...in over own keys: the same keys in the same order as Object.entries, without an array per key.
	for (const key in result)
		if (key !== 'isin' && Object.prototype.hasOwnProperty.call(result, key))
			setOwn(rest, key, result[key]);
	return rest;
}

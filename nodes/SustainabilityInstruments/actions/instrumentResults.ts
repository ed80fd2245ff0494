import type { IDataObject } from 'n8n-workflow';

import { hasOwn, setOwn } from '../../shared/base/values';

/** Columns the node itself writes on an instrument's result: an answered indicator never takes their place. */
export const OWN_RESULT_COLUMNS: ReadonlySet<string> = new Set([
	'isin',
	'found',
	'is_fund',
	'answer_note',
	'domain_note',
	'reason',
	'business_involvements',
]);

/** Prefix of an answered indicator, metric or score whose name is one of the node's own columns. */
export const CLASHING_NAME_PREFIX = 'indicator_';

/**
 * The name an answered indicator comes out under: its own, or `indicator_<name>` when the node writes a column of
 * that name (isin, found, is_fund, answer_note, ...), so the node's columns always win and the indicator is kept.
 */
export function answeredName(name: string, answered: object): string {
	let out = name;
	while (OWN_RESULT_COLUMNS.has(out) || (out !== name && hasOwn(answered, out)))
		out = `${CLASHING_NAME_PREFIX}${out}`;
	return out;
}

/**
 * The node's own columns, then the answered members (indicators, metrics, scores) beside them: one named like an
 * own column comes under `indicator_<name>` (answeredName), never over it.
 */
export function withOwnColumns(own: IDataObject, answered: IDataObject): IDataObject {
	const result: IDataObject = { ...own };
	for (const [name, value] of Object.entries(answered))
		setOwn(result, answeredName(name, answered), value);
	return result;
}

/**
 * `{value, unit}` pairs as `name: value` and `name_unit: unit` when simplifying. A name the node writes itself
 * (isin, found, ...) comes under `indicator_<name>` (answeredName).
 */
export function flattenMeasures(
	data: IDataObject | null | undefined,
	simplify: boolean,
): IDataObject {
	const result: IDataObject = {};
	const answered = data ?? {};
	for (const [answeredAs, measure] of Object.entries(answered)) {
		const name = answeredName(answeredAs, answered);
		if (
			simplify &&
			measure &&
			typeof measure === 'object' &&
			!Array.isArray(measure) &&
			'value' in measure
		) {
			const { value, unit } = measure as { value: unknown; unit?: unknown };
			setOwn(result, name, value as IDataObject[string]);
			result[`${name}_unit`] = (unit ?? null) as IDataObject[string];
		} else {
			setOwn(result, name, measure);
		}
	}
	return result;
}

/** True when at least one value in the result is not null: an unknown ISIN comes back all nulls. */
export function hasAnyValue(data: unknown): boolean {
	if (data === null || data === undefined) return false;
	if (typeof data !== 'object') return true;
	if (Array.isArray(data)) return data.some(hasAnyValue);
	const record = data as IDataObject;
	if ('value' in record) return record.value !== null && record.value !== undefined;
	return Object.values(record).some(hasAnyValue);
}

/**
 * Simplify: every cell a value n8n's table shows as it is. What flattenSummary leaves nested comes out flat, the data
 * kept: an object as `<key>_<field>` columns, a list of values as one text ("a; b"), a list of objects as JSON text.
 */
export function flatCells(json: IDataObject): IDataObject {
	const flat: IDataObject = {};
	const put = (key: string, value: unknown) => {
		if (Array.isArray(value)) {
			const scalars = value.every((entry) => entry === null || typeof entry !== 'object');
			setOwn(flat, key, scalars ? value.map(String).join('; ') : JSON.stringify(value));
		} else if (value !== null && typeof value === 'object') {
			for (const [field, inner] of Object.entries(value)) put(`${key}_${field}`, inner);
		} else {
			setOwn(flat, key, value as IDataObject[string]);
		}
	};
	for (const [key, value] of Object.entries(json)) put(key, value);
	return flat;
}

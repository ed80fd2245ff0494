import type { IDataObject } from 'n8n-workflow';

import { scalarText, showValue } from './values';

export interface Methodology {
	id: number | string;
	name: string;
	description?: string;
	record: IDataObject;
}

const ID_KEYS = ['id', 'methodology_id', 'methodologyId', 'value', 'key'];
const NAME_KEYS = ['name', 'title', 'label', 'display_name', 'displayName', 'methodology_name', 'description'];

function firstArray(body: unknown, depth = 0): unknown[] | undefined {
	if (Array.isArray(body)) return body;
	if (!body || typeof body !== 'object' || depth > 2) return undefined;
	const record = body as Record<string, unknown>;
	for (const key of ['data', 'methodologies', 'items', 'results']) {
		const found = firstArray(record[key], depth + 1);
		if (found) return found;
	}
	return undefined;
}

/**
 * The spec does not show the record shape of GET /sustainable-investments/methodologies, so this reads any
 * reasonable one: a bare array or one under data / methodologies / items; ids under id, methodology_id, ...
 */
export function parseMethodologies(body: unknown): Methodology[] {
	const list = firstArray(body) ?? [];
	const methodologies: Methodology[] = [];
	for (const entry of list) {
		if (typeof entry === 'number' || typeof entry === 'string') {
			methodologies.push({ id: entry, name: String(entry), record: { id: entry } });
			continue;
		}
		if (!entry || typeof entry !== 'object') continue;
		const record = entry as IDataObject;
		const idKey = ID_KEYS.find((key) => typeof record[key] === 'number' || typeof record[key] === 'string');
		if (!idKey) continue;
		const id = record[idKey] as number | string;
		const nameKey = NAME_KEYS.find((key) => typeof record[key] === 'string' && record[key] !== '');
		const description = typeof record.description === 'string' && nameKey !== 'description' ? record.description : undefined;
		methodologies.push({ id, name: nameKey ? String(record[nameKey]) : `Methodology ${id}`, description, record });
	}
	return methodologies;
}

/**
 * The API wants a number (spec 4.9); ids that look numeric are sent as numbers. Anything else comes back as
 * text for the caller to refuse by name (NaN and Infinity too: JSON would send them as null).
 */
export function methodologyIdForRequest(value: unknown): number | string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
	const text = scalarText(value)?.trim() ?? showValue(value);
	return /^\d+$/.test(text) ? Number(text) : text;
}

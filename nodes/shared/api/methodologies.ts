import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { kindOf, scalarText, showValue } from '../base/values';

export interface Methodology {
	id: number | string;
	name: string;
	description?: string;
	record: IDataObject;
}

const ID_KEYS = ['id', 'methodology_id', 'methodologyId', 'value', 'key'];
const NAME_KEYS = [
	'name',
	'title',
	'label',
	'display_name',
	'displayName',
	'methodology_name',
	'methodologyName',
	'description',
];
const WRAPPER_KEYS = ['data', 'methodologies', 'items', 'results'];

const isRecord = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);
const isScalarId = (value: unknown): value is number | string =>
	(typeof value === 'number' && Number.isFinite(value)) ||
	(typeof value === 'string' && value.trim() !== '');
const ownKeys = (record: IDataObject) =>
	Object.keys(record).filter((key) => Object.prototype.hasOwnProperty.call(record, key));

/** An object key that is a numeric id as a number (the API takes `methodology_id` as a number), else as it is. */
const idOf = (value: number | string): number | string =>
	typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/** One record: its id under one of ID_KEYS (or the key it was listed under), its name under one of NAME_KEYS. */
function fromRecord(record: IDataObject, listedUnder?: string): Methodology | undefined {
	const idKey = ID_KEYS.find((key) => isScalarId(record[key]));
	const id = idKey
		? (record[idKey] as number | string)
		: listedUnder === undefined
			? undefined
			: idOf(listedUnder);
	if (id === undefined) return undefined;
	const nameKey = NAME_KEYS.find((key) => typeof record[key] === 'string' && record[key] !== '');
	const description =
		typeof record.description === 'string' && nameKey !== 'description'
			? record.description
			: undefined;
	return { id, name: nameKey ? String(record[nameKey]) : `Methodology ${id}`, description, record };
}

/** A list entry: a bare id, or a record. */
function fromEntry(entry: unknown): Methodology | undefined {
	if (isScalarId(entry)) return { id: entry, name: String(entry), record: { id: entry } };
	return isRecord(entry) ? fromRecord(entry) : undefined;
}

/**
 * An object keyed by id: `{"7": "Article 2(17) strict"}` (the name as value) or `{"7": {"name": ...}}` (a record).
 * Only when every value is a name or a record, so that a wrapper such as `{data, metadata}` is never read as one.
 */
function fromIdKeyed(record: IDataObject): Methodology[] | undefined {
	const keys = ownKeys(record);
	if (keys.length === 0) return [];
	if (keys.every((key) => typeof record[key] === 'string')) {
		return keys.map((key) => ({
			id: idOf(key),
			name: String(record[key]) || `Methodology ${key}`,
			record: { id: idOf(key) },
		}));
	}
	if (keys.every((key) => isRecord(record[key]))) {
		const methodologies = keys.map((key) => fromRecord(record[key] as IDataObject, key));
		return methodologies.every(Boolean) ? (methodologies as Methodology[]) : undefined;
	}
	return undefined;
}

function findMethodologies(body: unknown, depth: number): Methodology[] | undefined {
	if (Array.isArray(body)) {
		const read = body.map(fromEntry);
		// A list whose entries are all unreadable is a shape this code does not know, not an empty list.
		if (body.length > 0 && read.every((entry) => entry === undefined)) return undefined;
		return read.filter((entry): entry is Methodology => entry !== undefined);
	}
	if (!isRecord(body) || depth > 2) return undefined;
	for (const key of WRAPPER_KEYS) {
		if (body[key] === undefined || body[key] === null) continue;
		const found = findMethodologies(body[key], depth + 1);
		if (found) return found;
	}
	// At the top, only an object keyed by numeric ids: {"message": "ok"} is no list of methodologies.
	if (depth === 0) {
		const keys = ownKeys(body);
		return keys.length > 0 && keys.every((key) => /^\d+$/.test(key))
			? fromIdKeyed(body)
			: undefined;
	}
	// A single record under data, else an object keyed by id.
	if (
		ID_KEYS.some((key) => isScalarId(body[key])) &&
		NAME_KEYS.some((key) => typeof body[key] === 'string')
	) {
		const single = fromRecord(body);
		return single ? [single] : undefined;
	}
	return fromIdKeyed(body);
}

/** The kind of a value, never the value: the error names the answer's shape, not its content. */
const kindWithoutValue = (value: unknown): string =>
	typeof value === 'number' ? 'a number' : kindOf(value);

/** How the answer looks, for the error: its top-level keys and those under a wrapper key. */
function describeShape(body: unknown): string {
	const describeList = (list: unknown[]) =>
		list.length
			? `a list of ${list.length} entries, the first being ${kindWithoutValue(list[0])}`
			: 'an empty list';
	if (Array.isArray(body)) return describeList(body);
	if (!isRecord(body)) return kindWithoutValue(body);
	const keys = ownKeys(body);
	const parts = [`top-level keys: ${keys.length ? keys.slice(0, 10).join(', ') : '(none)'}`];
	for (const key of WRAPPER_KEYS) {
		const inner = body[key];
		if (isRecord(inner))
			parts.push(`keys under ${key}: ${ownKeys(inner).slice(0, 10).join(', ') || '(none)'}`);
		else if (Array.isArray(inner)) parts.push(`${key} is ${describeList(inner)}`);
		else if (inner !== undefined) parts.push(`${key} is ${kindWithoutValue(inner)}`);
	}
	return parts.join('; ');
}

/**
 * The vendor does not document the record shape of GET /sustainable-investments/methodologies, so any readable
 * one is read: a bare list or one under data / methodologies / items / results (ids, or records with the id under
 * id, methodology_id, ...), an object keyed by id whose values are names or records, or a single record. An
 * answer in none of these shapes is an error naming the keys found, never an empty list.
 */
export function readMethodologies(
	body: unknown,
): { methodologies: Methodology[] } | { unreadable: string } {
	const methodologies = findMethodologies(body, 0);
	return methodologies ? { methodologies } : { unreadable: describeShape(body) };
}

/** readMethodologies for a node: an unreadable answer is an error saying what was found. */
export function parseMethodologies(body: unknown, node: INode): Methodology[] {
	const read = readMethodologies(body);
	if ('methodologies' in read) return read.methodologies;
	const message = `The API answered the list of methodologies in a shape this node cannot read (${read.unreadable})`;
	const description =
		'Expected a list of methodologies (records with an id and a name) or an object keyed by methodology id. Nothing else was sent. Type the methodology ID instead of picking it from the list, and tell the package maintainers the keys named here.';
	throw new NodeOperationError(node, message, { description });
}

/**
 * The API takes `methodology_id` as a number; ids that look numeric are sent as numbers. Anything else comes back as
 * text for the caller to refuse by name (NaN and Infinity too: JSON would send them as null).
 */
export function methodologyIdForRequest(value: unknown): number | string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
	const text = scalarText(value)?.trim() ?? showValue(value);
	return /^\d+$/.test(text) ? Number(text) : text;
}

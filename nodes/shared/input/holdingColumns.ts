/**
 * Version 2 of the holdings nodes: the Holding Columns parameter (n8n's column mapper, `resourceMapper`). "Map
 * Automatically" finds the columns as version 1 does without Holding Fields (the usual headers); "Map Each Column
 * Manually" takes one value per field and item, which readHoldings then checks and converts as any other row.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	FieldResolver,
	HOLDING_FIELDS,
	HOLDING_KEYS,
	allOf,
	anyOf,
	sheetColumnWords,
} from './holdingFields';
import type { FieldMappingWords } from './holdingFields';
import type { HoldingRow } from './holdingRows';
import type { HoldingKey } from './holdings';
import { isBlank, ownValue, showValue } from '../base/values';

export const HOLDING_COLUMNS = 'holdingColumns';
/** The resourceMapping method of every holdings node (in each node's `methods.resourceMapping`). */
export const HOLDING_COLUMNS_METHOD = 'getHoldingColumns';
/**
 * A hidden parameter of version 2 whose value is the input's column headers, as the editor resolves its expression
 * against the node's input: read by getHoldingColumns to start Map Each Column Manually from the columns found. Never
 * read by a run.
 */
export const HOLDING_COLUMNS_SEEN = 'holdingColumnsSeen';

/** The editor shows the column mapper by n8n's own labels: "Mapping Column Mode", then "Values to Send". */
const where = 'under Values to Send';

/** Map Automatically: what was looked for, and the way to name the column when it is not found. */
export const AUTO_MAPPING_WORDS: FieldMappingWords = {
	missingBecause: (field, resolver) => `looked for a column named ${resolver.lookedFor(field)}`,
	pointAt: (field, target) =>
		`set Mapping Column Mode to "Map Each Column Manually" and map ${HOLDING_FIELDS[field].title} to ${target}`,
	...sheetColumnWords(
		(field, resolver) => `looked for a column named ${resolver.lookedFor(field)}`,
	),
};

/** Holdings (JSON) in version 2: entries are read by the API's field names (or the usual headers). */
export const JSON_ENTRY_WORDS: FieldMappingWords = {
	missingBecause: (field, resolver) => `looked for a field named ${resolver.lookedFor(field)}`,
	pointAt: (field) => `check the "${field}" field of each entry of Holdings (JSON)`,
	missingEverywhere: (field, key, count, resolver) =>
		key === undefined
			? `No ${HOLDING_FIELDS[field].label} in ${anyOf(count, 'holding')} of Holdings (JSON) (looked for a field named ${resolver.lookedFor(field)})`
			: `The "${key}" field is empty in ${allOf(count, 'holding')} of Holdings (JSON)`,
	emptyCell: (_field, key) => `the "${key}" field is empty`,
};

/** Map Each Column Manually: the messages say what the field is mapped to. */
function manualMappingWords(raw: Partial<Record<HoldingKey, unknown>>): FieldMappingWords {
	const words: FieldMappingWords = {
		missingBecause: (field) => {
			const mapped = raw[field];
			const title = HOLDING_FIELDS[field].title;
			return isBlank(mapped)
				? `${title} is not mapped ${where}`
				: `${title} is mapped to ${showValue(isExpression(mapped) ? (mapped as string).slice(1) : mapped, 80)}, which is empty for this item`;
		},
		pointAt: (field, target) => `map ${HOLDING_FIELDS[field].title} ${where} to ${target}`,
		missingEverywhere: (field, _key, count) => {
			const mapped = raw[field];
			const title = HOLDING_FIELDS[field].title;
			return isBlank(mapped)
				? `${title} is not mapped ${where}`
				: `${title} is mapped to ${showValue(isExpression(mapped) ? (mapped as string).slice(1) : mapped, 80)}, which is empty in ${allOf(count, 'item')}`;
		},
		emptyCell: (field) =>
			`the ${HOLDING_FIELDS[field].label} is missing (${words.missingBecause(field, new FieldResolver())})`,
	};
	return words;
}

/**
 * The input field a mapping reads when it is a plain reference to one, as the editor writes it when a column is
 * dragged in: `{{ $json.ISIN }}`, `{{ $json["Market Value"] }}`, `{{ $json['x'] }}`. Anything else (a
 * computation, another node's data, a path) gives undefined and is evaluated by n8n for each item.
 */
export function plainFieldReference(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const match =
		/^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}$/.exec(
			raw,
		);
	if (!match) return undefined;
	return match[1] ?? match[2] ?? match[3];
}

/** A mapped value that is an expression (n8n evaluates it per item), as opposed to a fixed value. */
const isExpression = (raw: unknown) => typeof raw === 'string' && raw.startsWith('=');

/** Rows read through the column mapper carry the API's field names. */
const MAPPED_FIELD_NAMES = Object.fromEntries(HOLDING_KEYS.map((key) => [key, key])) as Record<
	HoldingKey,
	string
>;

interface MappedRows {
	rows: HoldingRow[];
	fieldNames: Record<HoldingKey, string>;
	mappingWords: FieldMappingWords;
}

/**
 * Map Each Column Manually: one row per item with the API's field names. Plain field references are read from
 * the item's JSON (evaluating an expression per item and field is what made 10,000 holdings slow); other
 * expressions are evaluated by n8n, without its type check (`skipValidation`): readHoldings checks and converts
 * every value itself ("12.5%", "1,234.50", "Mutual Fund") with messages naming the item and the field.
 */
export function readManuallyMappedRows(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndices: number[],
): MappedRows {
	const first = itemIndices[0] ?? 0;
	const raw = (this.getNodeParameter(`${HOLDING_COLUMNS}.value`, first, null, {
		rawExpressions: true,
	}) ?? {}) as Partial<Record<HoldingKey, unknown>>;

	const fixed: IDataObject = {};
	const referenced: Array<[HoldingKey, string]> = [];
	const evaluated: HoldingKey[] = [];
	for (const field of HOLDING_KEYS) {
		if (!Object.prototype.hasOwnProperty.call(raw, field)) continue;
		const reference = plainFieldReference(raw[field]);
		if (reference !== undefined) referenced.push([field, reference]);
		else if (isExpression(raw[field])) evaluated.push(field);
		else fixed[field] = raw[field] as IDataObject[string];
	}

	const rows = itemIndices.map((itemIndex): HoldingRow => {
		const json: IDataObject = { ...fixed };
		const source = items[itemIndex]?.json ?? {};
		for (const [field, key] of referenced) {
			json[field] = ownValue(source, sheetHeader(source, key));
		}
		for (const field of evaluated) {
			json[field] = this.getNodeParameter(`${HOLDING_COLUMNS}.value.${field}`, itemIndex, null, {
				skipValidation: true,
			}) as IDataObject[string];
		}
		return { json, itemIndex };
	});
	return { rows, fieldNames: MAPPED_FIELD_NAMES, mappingWords: manualMappingWords(raw) };
}

/** A header as a sheet may write it: a byte-order mark (a CSV saved by Excel) and stray spaces are not part of it. */
const bareHeader = (header: string) => header.replace(/^\uFEFF/, '').trim();

/**
 * The key of `source` a plain field reference reads: the key itself, else the one key that is the same header but for
 * a byte-order mark or spaces around it (`{{ $json.ISIN }}` reads a column headed "\uFEFFISIN" or "ISIN ").
 */
function sheetHeader(source: IDataObject, key: string): string {
	if (Object.prototype.hasOwnProperty.call(source, key)) return key;
	const wanted = bareHeader(key);
	const matches = Object.keys(source).filter((candidate) => bareHeader(candidate) === wanted);
	return matches.length === 1 ? matches[0] : key;
}

/** Whether Holding Columns is set to Map Each Column Manually (read at the group's first item). */
export function usesManualMapping(this: IExecuteFunctions, itemIndex: number): boolean {
	return (
		this.getNodeParameter(`${HOLDING_COLUMNS}.mappingMode`, itemIndex, 'autoMapInputData') ===
		'defineBelow'
	);
}

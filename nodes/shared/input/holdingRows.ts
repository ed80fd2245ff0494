/** The rows holdings are read from: input items, or the holdings given in the Holdings (JSON) parameter. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { inputError } from '../api/errors';
import { compactKey } from './holdingFields';
import { kindOf, ordinal, showValue } from '../base/values';

/** One row of holdings input: an input item's JSON, or an entry of the JSON array parameter. */
export interface HoldingRow {
	json: IDataObject;
	itemIndex: number;
	/** How to name the row in messages, e.g. "Item 4" or "Item 0, holding 12 of the JSON array". */
	where?: string;
}

/** The rows to read holdings from: every input item, or the JSON array parameter read at item 0. */
export function holdingRowsFromItems(
	items: INodeExecutionData[],
	indices?: number[],
): HoldingRow[] {
	const chosen = indices ?? items.map((_, index) => index);
	return chosen.map((itemIndex) => ({ json: items[itemIndex].json, itemIndex }));
}

const JSON_EXAMPLE = '[{"isin": "US0378331005", "name": "Apple", "market_value": 1000}]';

/** A markdown code fence around the whole text, as AI models write JSON: ```json ... ``` */
const CODE_FENCE = /^```[\w-]*[^\S\r\n]*\r?\n?([\s\S]*?)\r?\n?```$/;

/**
 * The holdings of the Holdings (JSON) parameter, in the forms people and AI models give them: a JSON array; one
 * holding (an object) as a list of one; an object that wraps the list (`{"holdings": [...]}`, or the only list of
 * the object); JSON inside a markdown code fence; JSON encoded twice (a JSON string holding the JSON). An expression
 * may give the array or object itself.
 */
export function holdingRowsFromJson(node: INode, value: unknown, itemIndex: number): HoldingRow[] {
	let parsed = value;
	// A JSON text, possibly fenced, possibly holding JSON text again (encoded twice, or three times).
	for (let depth = 0; typeof parsed === 'string' && depth < 3; depth++) {
		let text = parsed.trim();
		const fenced = CODE_FENCE.exec(text);
		if (fenced) text = fenced[1].trim();
		if (depth > 0 && !/^[[{"]/.test(text)) break;
		try {
			parsed = JSON.parse(text);
		} catch (error) {
			throw inputError(
				node,
				itemIndex,
				`Holdings (JSON) is not valid JSON: ${(error as Error).message}`,
				`Give an array such as ${JSON_EXAMPLE} (one holding as an object, {"holdings": [...]} and JSON inside a \`\`\`json code fence are read too).`,
			);
		}
	}
	const list = holdingList(node, parsed, itemIndex);
	return list.map((json, entry) => ({
		json: json as IDataObject,
		itemIndex,
		// Counted from 1, as the ISINs of a typed list: n8n's item index stays as n8n shows it (from 0).
		where: `Item ${itemIndex}, ${ordinal(entry + 1)} holding of Holdings (JSON)`,
	}));
}

function holdingList(node: INode, parsed: unknown, itemIndex: number): unknown[] {
	if (Array.isArray(parsed)) return parsed;
	if (parsed !== null && typeof parsed === 'object') {
		const record = parsed as IDataObject;
		const keys = Object.keys(record);
		const named = keys.find((key) => compactKey(key) === 'holdings' && Array.isArray(record[key]));
		if (named !== undefined) return record[named] as unknown[];
		const lists = keys.filter(
			(key) =>
				Array.isArray(record[key]) &&
				(record[key] as unknown[]).every(
					(entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry),
				),
		);
		// The only list of an object that is not a holding itself (`{"positions": [...], "date": ...}`).
		if (lists.length === 1 && !keys.some((key) => compactKey(key) === 'isin'))
			return record[lists[0]] as unknown[];
		if (lists.length > 1) {
			throw inputError(
				node,
				itemIndex,
				`Holdings (JSON) is an object with several lists (${lists.map((key) => `"${showValue(key, 30)}"`).join(', ')}), not a list of holdings`,
				`Give the list of holdings itself, such as ${JSON_EXAMPLE}, or put it under "holdings".`,
			);
		}
		// One holding.
		return [record];
	}
	throw inputError(
		node,
		itemIndex,
		`Holdings (JSON) must be an array of holdings, got ${typeof parsed === 'string' ? `the text "${showValue(parsed)}"` : kindOf(parsed)}`,
		`Give the holdings as an array such as ${JSON_EXAMPLE}, or one holding as an object.`,
	);
}

/**
 * Holdings (JSON) on Sustainability Instruments: each input item's list of holdings becomes rows read exactly as
 * input items are, and every output item is paired back to the input item that held the list.
 */
import { NodeOperationError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPairedItemData,
} from 'n8n-workflow';

import { holdingRowsFromJson } from '../../shared/input/holdingRows';

/** The value of ISINs From / Holdings From that reads the Holdings (JSON) parameter. */
export const HOLDINGS_JSON_SOURCE = 'holdingsJson';

export const HOLDINGS_JSON_OPTION = {
	name: 'Holdings (JSON)',
	value: HOLDINGS_JSON_SOURCE,
	description:
		'A JSON list of holdings given in the Holdings (JSON) field, read for each input item (an expression may give each item its own list)',
};

/** The Holdings (JSON) parameter, shown when ISINs From (Holdings From) is Holdings (JSON). */
export const holdingsJsonParameter: INodeProperties = {
	displayName: 'Holdings (JSON)',
	name: 'holdingsJson',
	type: 'json',
	default:
		'[\n  {\n    "isin": "US0378331005",\n    "name": "Apple Inc.",\n    "currency": "USD",\n    "market_value": 1000000,\n    "date": "2025-12-31"\n  }\n]',
	description:
		'A JSON array with one object per holding, with the same fields as an input item would have (isin, market_value, date, currency, the Group By fields, ...). Also read: one holding as an object, an object wrapping the list ({"holdings": [...]}), JSON inside a markdown code fence, and JSON encoded as a JSON string. Read for each input item: an expression may give each item its own list.',
	displayOptions: { show: { isinSource: [HOLDINGS_JSON_SOURCE] } },
};

/** How each row built from Holdings (JSON) is named in messages, and its input item, by the rows' array. */
const ROW_NAMES = new WeakMap<INodeExecutionData[], string[]>();
const ROW_ORIGINS = new WeakMap<INodeExecutionData[], number[]>();

/** The input item row `index` of `items` comes from: itself, or the item whose Holdings (JSON) held it. */
export function inputItemOf(items: INodeExecutionData[], index: number): number {
	return ROW_ORIGINS.get(items)?.[index] ?? index;
}

/** How messages name row `index` of `items`: "Item 4", or "Item 0, 2nd holding of Holdings (JSON)". */
export function rowName(items: INodeExecutionData[], index: number): string {
	return ROW_NAMES.get(items)?.[index] ?? `Item ${index}`;
}

/**
 * Runs `run` on the holdings of every input item's Holdings (JSON) as if they were input items (read before any
 * request), then pairs each output item with the input item(s) whose list held its rows. An error about a row is
 * placed on the input item that held it.
 */
export async function withHoldingsJson(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	run: (rows: INodeExecutionData[]) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const rows: INodeExecutionData[] = [];
	const origin: number[] = [];
	const names: string[] = [];
	items.forEach((_, itemIndex) => {
		for (const row of holdingRowsFromJson(
			node,
			this.getNodeParameter('holdingsJson', itemIndex, '[]'),
			itemIndex,
		)) {
			rows.push({ json: row.json, pairedItem: { item: itemIndex } });
			origin.push(itemIndex);
			names.push(row.where ?? `Item ${itemIndex}`);
		}
	});
	ROW_NAMES.set(rows, names);
	ROW_ORIGINS.set(rows, origin);
	let out: INodeExecutionData[];
	try {
		out = await run(rows);
	} catch (error) {
		throw placedOnInput(error, origin, names);
	}
	return out.map((item) => ({ ...item, pairedItem: pairedToInput(item.pairedItem, origin) }));
}

/** The input items whose lists held the rows `paired` names, each once, in order. */
function pairedToInput(
	paired: INodeExecutionData['pairedItem'],
	origin: number[],
): IPairedItemData[] {
	const rows =
		paired === undefined
			? []
			: (Array.isArray(paired) ? paired : [paired]).map((entry) =>
					typeof entry === 'number' ? entry : entry.item,
				);
	const inputs = [...new Set(rows.map((row) => origin[row] ?? 0))].sort((a, b) => a - b);
	return (inputs.length ? inputs : [0]).map((item) => ({ item }));
}

/** An error n8n places on a row: placed on the input item that held it, the row named in its message. */
function placedOnInput(error: unknown, origin: number[], names: string[]): unknown {
	if (!(error instanceof NodeOperationError)) return error;
	const row = error.context.itemIndex;
	if (typeof row !== 'number' || row < 0 || row >= origin.length) {
		if (typeof row === 'number') error.context.itemIndex = 0;
		return error;
	}
	error.context.itemIndex = origin[row];
	const place = names[row].replace(/^Item \d+, /, '');
	if (!error.message.includes('Holdings (JSON)'))
		error.message = `${place.charAt(0).toUpperCase()}${place.slice(1)}: ${error.message}`;
	return error;
}

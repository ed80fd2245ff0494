/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/icon-validation,
	@n8n/community-nodes/require-node-description-fields, @n8n/community-nodes/missing-paired-item
	-- bench-only node, never shipped; a source node, so no pairedItem */
/**
 * BENCH-ONLY node: emits `count` items `{ row, isin }` built from `distinct` valid ISINs (makeIsins), as a sheet
 * mapped onto our node would. Lighter than 100,000 pinned items in the workflow JSON; no pairedItem (a source node).
 * Parameters: count, distinct, country, start, and optionally marketValue (adds a `market_value` column) and groups
 * (adds a `portfolio` column cycling through that many portfolios); both off by default, so the rows stay
 * `{ row, isin, name }`.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { makeIsins } from '../../test/helpers/isins';

export const GENERATE_ITEMS_TYPE = 'bench.generateItems';

export class GenerateItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Generate Items (bench)',
		name: 'generateItems',
		group: ['transform'],
		version: 1,
		description: 'Bench-only: emits rows with ISINs',
		defaults: { name: 'Generate Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Count', name: 'count', type: 'number', default: 1000 },
			{ displayName: 'Distinct', name: 'distinct', type: 'number', default: 1000 },
			{ displayName: 'Country', name: 'country', type: 'string', default: 'US' },
			{ displayName: 'Start', name: 'start', type: 'number', default: 0 },
			{ displayName: 'Market Value', name: 'marketValue', type: 'boolean', default: false },
			{ displayName: 'Groups', name: 'groups', type: 'number', default: 0 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = this.getNodeParameter('count', 0) as number;
		const distinct = this.getNodeParameter('distinct', 0) as number;
		const country = this.getNodeParameter('country', 0) as string;
		const start = this.getNodeParameter('start', 0) as number;
		const marketValue = this.getNodeParameter('marketValue', 0, false) as boolean;
		const groups = this.getNodeParameter('groups', 0, 0) as number;
		return [
			generateRows(count, distinct, country, start, { marketValue, groups }).map((json) => ({
				json,
			})),
		];
	}
}

export interface GenerateColumns {
	/** Adds `market_value`: a positive amount, different per row (1,000.00 to 999,999.99, deterministic). */
	marketValue?: boolean;
	/** Adds `portfolio`: `P1` … `P<groups>`, row by row in turn; 0 or absent: no column. */
	groups?: number;
}

/** A type, not an interface: assignable to IDataObject as a node's item json. */
export type GeneratedRow = {
	row: number;
	isin: string;
	name: string;
	market_value?: number;
	portfolio?: string;
};

/**
 * `count` rows `{ row, isin, name }` cycling through `distinct` ISINs, with `market_value` and `portfolio` columns
 * when asked for.
 */
export function generateRows(
	count: number,
	distinct: number,
	country = 'US',
	start = 0,
	columns: GenerateColumns = {},
): GeneratedRow[] {
	const isins = makeIsins(Math.max(1, Math.min(count, distinct)), start, country);
	// Flat strings, as parsed from a file or an API (makeIsins builds concatenations).
	const flat = JSON.parse(JSON.stringify(isins)) as string[];
	const groups = Math.max(0, Math.floor(columns.groups ?? 0));
	return Array.from({ length: count }, (_, row) => {
		const json: GeneratedRow = { row, isin: flat[row % flat.length], name: `Holding ${row}` };
		if (columns.marketValue) json.market_value = 1000 + ((row * 7919) % 99_900_000) / 100;
		if (groups > 0) json.portfolio = `P${(row % groups) + 1}`;
		return json;
	});
}

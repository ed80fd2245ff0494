/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/icon-validation,
	@n8n/community-nodes/require-node-description-fields, @n8n/community-nodes/missing-paired-item
	-- bench-only node, never shipped; a source node, so no pairedItem */
/**
 * BENCH-ONLY node: emits `count` items `{ row, isin }` built from `distinct` valid ISINs (makeIsins), as a sheet
 * mapped onto our node would. Lighter than 100,000 pinned items in the workflow JSON; no pairedItem (a source node).
 * Parameters: count, distinct, country, invalidEvery (every n-th item gets an invalid ISIN; 0 = none).
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
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = this.getNodeParameter('count', 0) as number;
		const distinct = this.getNodeParameter('distinct', 0) as number;
		const country = this.getNodeParameter('country', 0) as string;
		const start = this.getNodeParameter('start', 0) as number;
		return [generateRows(count, distinct, country, start).map((json) => ({ json }))];
	}
}

/** `count` rows `{ row, isin, name }` cycling through `distinct` ISINs. */
export function generateRows(count: number, distinct: number, country = 'US', start = 0) {
	const isins = makeIsins(Math.max(1, Math.min(count, distinct)), start, country);
	// Flat strings, as parsed from a file or an API (makeIsins builds concatenations).
	const flat = JSON.parse(JSON.stringify(isins)) as string[];
	return Array.from({ length: count }, (_, row) => ({
		row,
		isin: flat[row % flat.length],
		name: `Holding ${row}`,
	}));
}

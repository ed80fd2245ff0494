/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.dataTable` ("Data table", v1 / 1.1), always used by the
 * in-process harness: the real node needs n8n's data table service (a database), which only a running n8n has
 * (test/e2e/queue-mode.ts runs the real one). Implements the subset the examples use, on tables kept in this
 * process (by the Data table parameter's value, any mode), emptied by `resetDataTables()`:
 *   - resource row, operation get with Return All: every row, oldest first, with the columns n8n adds
 *     (id, createdAt, updatedAt); no conditions;
 *   - resource row, operation upsert, conditions `eq` only (Must Match: all), Columns = Map Automatically: per input
 *     item, the rows matching are updated with the item's fields, or one row is inserted; outputs the rows written.
 */
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];
const STAND_IN_TIME = '2026-01-05T07:00:00.000Z';

const tables = new Map<string, IDataObject[]>();

/** Empties every table (a fresh n8n). */
export function resetDataTables(): void {
	tables.clear();
}

/** The rows of a table, as stored. */
export function dataTableRows(name: string): IDataObject[] {
	return tables.get(name) ?? [];
}

function tableName(context: IExecuteFunctions): string {
	const locator = context.getNodeParameter('dataTableId', 0) as { value?: unknown } | string;
	const name = typeof locator === 'string' ? locator : String(locator?.value ?? '');
	if (!name) throw new NodeOperationError(context.getNode(), 'No data table chosen');
	return name;
}

export class DataTableStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Data table',
		name: 'dataTable',
		icon: 'fa:table',
		group: ['input', 'transform'],
		version: [1, 1.1],
		description: 'Permanently save data across workflow executions in a table (test-only stand-in)',
		defaults: { name: 'Data table' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Resource', name: 'resource', type: 'string', default: 'row' },
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'insert' },
			{ displayName: 'Data Table', name: 'dataTableId', type: 'json', default: {} },
			{ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false },
			{ displayName: 'Must Match', name: 'matchType', type: 'string', default: 'anyCondition' },
			{ displayName: 'Conditions', name: 'filters', type: 'json', default: {} },
			{ displayName: 'Columns', name: 'columns', type: 'json', default: {} },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		const name = tableName(this);
		const rows = tables.get(name) ?? [];
		tables.set(name, rows);
		if (operation === 'get') {
			return [rows.map((row) => ({ json: { ...row }, pairedItem: { item: 0 } }))];
		}
		if (operation !== 'upsert')
			throw new NodeOperationError(this.getNode(), `The stand-in has no operation "${operation}"`);
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const conditions = this.getNodeParameter('filters.conditions', itemIndex, []) as Array<{
				keyName: string;
				condition?: string;
				keyValue: unknown;
			}>;
			if (!conditions.length || conditions.some((c) => (c.condition ?? 'eq') !== 'eq'))
				throw new NodeOperationError(this.getNode(), 'The stand-in upserts on eq conditions only');
			const data: IDataObject = { ...item.json };
			for (const column of SYSTEM_COLUMNS) delete data[column];
			const matching = rows.filter((row) =>
				conditions.every((c) => String(row[c.keyName]) === String(c.keyValue)),
			);
			// One fixed time: runs of a workflow compare equal (the soak, the demo); n8n writes the real time.
			const now = STAND_IN_TIME;
			if (matching.length === 0) {
				const row = { id: rows.length + 1, createdAt: now, updatedAt: now, ...data };
				rows.push(row);
				matching.push(row);
			} else for (const row of matching) Object.assign(row, data, { updatedAt: now });
			for (const row of matching) out.push({ json: { ...row }, pairedItem: { item: itemIndex } });
		});
		return [out];
	}
}

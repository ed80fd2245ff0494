import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { asNodeError } from './errors';

/** An operation of one of our nodes: gets all input items at once (batching needs them together). */
export interface Operation {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

/**
 * A shallow copy of an item's JSON to add fields to: the same as `{ ...json }` (own enumerable keys; an own
 * `__proto__` key stays a plain key, hence the spread for that case), but several times faster in V8 for the usual
 * object (measured by bench/overhead.ts). For loops over every input item.
 */
export function copyJson(json: IDataObject): IDataObject {
	return Object.prototype.hasOwnProperty.call(json, '__proto__') ? { ...json } : Object.assign({}, json);
}

export function pairedTo(indices: number[]): IPairedItemData[] {
	return indices.map((item) => ({ item }));
}

export function errorJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError | NodeOperationError).description;
	if (description) json.error_details = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.http_code = httpCode;
	return json;
}

/** Under "Continue (using error output)" / "Continue": the error as one item per input item it concerns. */
export function errorItemsFor(error: Error, items: INodeExecutionData[], indices: number[]): INodeExecutionData[] {
	const json = errorJson(error);
	return indices.map((item) => ({ json: { ...items[item].json, ...json }, pairedItem: { item } }));
}

/** Dispatches to the chosen operation; with continueOnFail an error becomes error items instead of failing the run. */
export async function routeOperation(
	this: IExecuteFunctions,
	operations: Record<string, Operation>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operations[operation];
	if (!chosen) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
	}
	try {
		return [await chosen.execute.call(this, items)];
	} catch (error) {
		if (this.continueOnFail()) {
			return [errorItemsFor(error as Error, items, items.map((_, index) => index))];
		}
		throw asNodeError(this.getNode(), error);
	}
}

/**
 * Runs one portfolio-level request per group; with continueOnFail a failing group turns into error items
 * for its own input items while the other groups go on.
 */
export async function forEachGroup<TGroup extends { itemIndices: number[] }>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	groups: TGroup[],
	run: (group: TGroup) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (const group of groups) {
		try {
			output.push(...(await run(group)));
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error);
			output.push(...errorItemsFor(error as Error, items, group.itemIndices));
		}
	}
	return output;
}

export interface PreparedGroup<TGroup extends { itemIndices: number[] }, TInput> {
	group: TGroup;
	itemIndices: number[];
	input?: TInput;
	/** Only under continueOnFail: the group's bad input, thrown again when forEachGroup runs the group. */
	error?: Error;
}

/**
 * Reads every group's input before the first request is sent, so bad input anywhere fails the run with
 * nothing spent. Under continueOnFail a group with bad input keeps its error (forEachGroup turns it into
 * error items for that group) and the other groups go on.
 */
export function prepareGroups<TGroup extends { itemIndices: number[] }, TInput>(
	this: IExecuteFunctions,
	groups: TGroup[],
	read: (group: TGroup) => TInput,
): Array<PreparedGroup<TGroup, TInput>> {
	return groups.map((group) => {
		try {
			return { group, itemIndices: group.itemIndices, input: read(group) };
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error);
			return { group, itemIndices: group.itemIndices, error: error as Error };
		}
	});
}

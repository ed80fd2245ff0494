import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** An operation of one of our nodes: gets all input items at once (batching needs them together). */
export interface Operation {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	/** One request for the whole run, read from item 0's parameters: its output and its errors pair to item 0 only. */
	runsOnce?: boolean;
}

/** Outputs after the first that an operation handed out in this node run (its context object), by output index. */
const extraOutputs = new WeakMap<object, INodeExecutionData[][]>();

/**
 * Hands `items` out on output `index` (1 or more) of this node run: for an operation whose node shows more than one
 * output (e.g. Only Changes Since Last Run's To Remember); routeOperation puts them after the operation's own items.
 */
export function handOut(context: object, index: number, items: INodeExecutionData[]): void {
	const outputs = extraOutputs.get(context) ?? [];
	outputs[index - 1] = items;
	extraOutputs.set(context, outputs);
}

/** The outputs after the first handed out in this node run (handOut), each a list; taken once. */
export function takeExtraOutputs(context: object): INodeExecutionData[][] {
	const outputs = extraOutputs.get(context) ?? [];
	extraOutputs.delete(context);
	return Array.from(outputs, (items) => items ?? []);
}

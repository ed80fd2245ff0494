import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** An operation of one of our nodes: gets all input items at once (batching needs them together). */
export interface Operation {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	/** One request for the whole run, read from item 0's parameters: its output and its errors pair to item 0 only. */
	runsOnce?: boolean;
}

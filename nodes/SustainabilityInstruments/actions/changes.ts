import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { LookupOutcome } from './lookup';

/** Parameters shown with Output > Only Changes Since Last Run (displayOptions on outputMode). */
export const changesProperties: INodeProperties[] = [];

/**
 * Compares each ISIN's result with the one kept in the workflow's static data, outputs the ISINs that changed and
 * keeps the new results for the next run.
 */
export function outputChanges<TEntry>(
	this: IExecuteFunctions,
	_outcome: LookupOutcome<TEntry>,
): INodeExecutionData[] {
	throw new Error('Only Changes Since Last Run is not built yet');
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { InstrumentOperationSpec, ItemIsin, LookupOutcome } from './lookup';

/** What a Portfolio Summary computes: SFDR articles, {value, unit} measures (PAI, ESG), or business involvements. */
export type SummaryKind = 'sfdr' | 'paiIndicators' | 'esgMetrics' | 'businessInvolvements';

/** Parameters shown with Output > Portfolio Summary (displayOptions on outputMode). */
export const summaryProperties: INodeProperties[] = [];

/** The groups and the weight of each usable row, read before anything is sent. */
export interface PreparedSummary {
	placeholder?: never;
}

/**
 * Reads each row's market value (or weight) and the groups; rows that cannot be weighted (no ISIN, cash, no market
 * value) get a `problem` in `perItem` so their ISIN is not sent for them, and are reported in the summary.
 */
export function prepareSummary<TEntry>(
	this: IExecuteFunctions,
	_items: INodeExecutionData[],
	_perItem: ItemIsin[],
	_spec: InstrumentOperationSpec<TEntry>,
): PreparedSummary {
	throw new Error('Portfolio Summary is not built yet');
}

/** One item per group, paired with the group's input items. */
export function buildSummaryItems<TEntry>(
	this: IExecuteFunctions,
	_prepared: PreparedSummary,
	_outcome: LookupOutcome<TEntry>,
): INodeExecutionData[] {
	throw new Error('Portfolio Summary is not built yet');
}

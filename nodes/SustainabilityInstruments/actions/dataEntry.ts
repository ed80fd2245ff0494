import type { IDataObject } from 'n8n-workflow';

import { flattenMeasures, hasAnyValue } from './instrumentResults';

/** Entry shape of sustainability-data, business-involvements and esg-data: `sustainability_data` and `metadata` (isin, is_fund). */
export interface InstrumentDataEntry {
	sustainability_data?: IDataObject | null;
	metadata?: { isin?: string; is_fund?: boolean };
}

export const isinOfDataEntry = (entry: InstrumentDataEntry) => entry.metadata?.isin;

/** The result of a route whose data maps names to `{value, unit}` (PAI indicators, ESG metrics). */
export function measuresResult(entry: InstrumentDataEntry, simplify: boolean): IDataObject {
	// The node's columns first and never overwritten: an indicator named isin, found or is_fund comes under
	// indicator_<name> (flattenMeasures).
	return {
		isin: entry.metadata?.isin ?? null,
		found: hasAnyValue(entry.sustainability_data),
		is_fund: entry.metadata?.is_fund ?? null,
		...flattenMeasures(entry.sustainability_data, simplify),
	};
}

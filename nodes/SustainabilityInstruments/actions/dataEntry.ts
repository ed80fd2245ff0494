import type { IDataObject } from 'n8n-workflow';

/** Entry shape of sustainability-data, business-involvements and esg-data (spec 2.3). */
export interface InstrumentDataEntry {
	sustainability_data?: IDataObject | null;
	metadata?: { isin?: string; is_fund?: boolean };
}

export const isinOfDataEntry = (entry: InstrumentDataEntry) => entry.metadata?.isin;

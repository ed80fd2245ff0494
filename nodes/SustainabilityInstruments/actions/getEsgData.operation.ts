import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/routes';
import { isinOfDataEntry } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, flattenMeasures, hasAnyValue, instrumentProperties } from './lookup';

export const description: INodeProperties[] = instrumentProperties('getEsgData');

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		operation: 'getEsgData',
		route: ROUTES.esgData,
		resultKey: 'esg',
		emptyIsAllowed: false,
		isinOf: isinOfDataEntry,
		toResult: (entry: InstrumentDataEntry, simplify) => ({
			isin: entry.metadata?.isin ?? null,
			found: hasAnyValue(entry.sustainability_data),
			is_fund: entry.metadata?.is_fund ?? null,
			...flattenMeasures(entry.sustainability_data, simplify),
		}),
	});
}

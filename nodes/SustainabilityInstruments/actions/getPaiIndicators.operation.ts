import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/routes';
import { isinOfDataEntry } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, flattenMeasures, hasAnyValue, instrumentProperties } from './lookup';

export const description: INodeProperties[] = instrumentProperties('getPaiIndicators');

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		operation: 'getPaiIndicators',
		route: ROUTES.paiIndicators,
		resultKey: 'pai',
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

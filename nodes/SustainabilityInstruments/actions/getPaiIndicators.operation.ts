import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/routes';
import { isinOfDataEntry, measuresResult } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, instrumentProperties } from './lookup';

export const description: INodeProperties[] = instrumentProperties('getPaiIndicators');

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		route: ROUTES.paiIndicators,
		resultKey: 'pai',
		emptyIsAllowed: false,
		isinOf: isinOfDataEntry,
		toResult: measuresResult,
	});
}

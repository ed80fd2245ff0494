import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/routes';
import { isinOfDataEntry, measuresResult } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, instrumentProperties } from './lookup';

export const description: INodeProperties[] = instrumentProperties('getEsgData');

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		route: ROUTES.esgData,
		resultKey: 'esg',
		emptyIsAllowed: false,
		isinOf: isinOfDataEntry,
		toResult: measuresResult,
	});
}

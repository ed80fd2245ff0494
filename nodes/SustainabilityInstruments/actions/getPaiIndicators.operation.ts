import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/api/routes';
import { isinOfDataEntry, measuresResult } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, instrumentOptions, paiInstrumentProperties } from './lookup';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['getPaiIndicators'] } },
	[...paiInstrumentProperties, ...instrumentOptions],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		route: ROUTES.paiIndicators,
		resultKey: 'pai',
		emptyIsAllowed: false,
		summaryKind: 'paiIndicators',
		isinOf: isinOfDataEntry,
		toResult: measuresResult,
	});
}

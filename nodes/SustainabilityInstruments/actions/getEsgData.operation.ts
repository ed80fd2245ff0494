import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { ROUTES } from '../../shared/api/routes';
import { isinOfDataEntry, measuresResult } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { executeInstrumentOperation, instrumentOptions, instrumentProperties } from './lookup';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['getEsgData'] } },
	[...instrumentProperties, ...instrumentOptions],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		route: ROUTES.esgData,
		resultKey: 'esg',
		emptyIsAllowed: false,
		summaryKind: 'esgMetrics',
		isinOf: isinOfDataEntry,
		toResult: measuresResult,
	});
}

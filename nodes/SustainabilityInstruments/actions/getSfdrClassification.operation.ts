import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ROUTES } from '../../shared/routes';
import { executeInstrumentOperation, instrumentOptions, instrumentProperties } from './lookup';

interface SfdrEntry {
	isin?: string;
	sustainability_profile?: {
		classification?: number | null;
		description?: string | null;
		metadata?: unknown;
	};
}

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['getSfdrClassification'] } },
	[...instrumentProperties, instrumentOptions],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<SfdrEntry>).call(this, items, {
		route: ROUTES.sfdrClassification,
		resultKey: 'sfdr',
		emptyIsAllowed: true,
		summaryKind: 'sfdr',
		isinOf: (entry: SfdrEntry) => entry.isin,
		toResult: (entry: SfdrEntry): IDataObject => {
			const classification = entry.sustainability_profile?.classification ?? null;
			return {
				isin: entry.isin ?? null,
				found: classification !== null,
				classification,
				article: classification === null ? null : `Article ${classification}`,
				description: entry.sustainability_profile?.description ?? null,
			};
		},
	});
}

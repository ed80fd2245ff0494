import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { readClassification } from '../../shared/api/answers';
import { ROUTES } from '../../shared/api/routes';
import { executeInstrumentOperation, instrumentOptions, instrumentProperties } from './lookup';

interface SfdrEntry {
	isin?: string;
	sustainability_profile?: {
		classification?: number | string | null;
		description?: string | null;
		metadata?: unknown;
	};
}

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['getSfdrClassification'] } },
	[...instrumentProperties, ...instrumentOptions],
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// Version 1 also writes `article` ("Article 8"), which says what `classification` says; version 2 does not.
	const withArticle = this.getNode().typeVersion < 2;
	return await (executeInstrumentOperation<SfdrEntry>).call(this, items, {
		route: ROUTES.sfdrClassification,
		resultKey: 'sfdr',
		emptyIsAllowed: true,
		summaryKind: 'sfdr',
		isinOf: (entry: SfdrEntry) => entry.isin,
		toResult: (entry: SfdrEntry): IDataObject => {
			// "8" as text reads as 8, here and so in the Portfolio Summary (which reads this result).
			const classification = readClassification(entry.sustainability_profile?.classification);
			const result: IDataObject = {
				isin: entry.isin ?? null,
				found: classification !== null,
				classification,
			};
			if (withArticle)
				result.article = classification === null ? null : `Article ${classification}`;
			// The long text last, so that the short columns stay readable in n8n's table.
			result.description = entry.sustainability_profile?.description ?? null;
			return result;
		},
	});
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { parseMethodologies } from '../../shared/api/methodologies';
import { ROUTES } from '../../shared/api/routes';
import { apiRequest } from '../../shared/api/transport';

export const runsOnce = true;

export const description: INodeProperties[] = [];

/** One item per methodology: id, name and description read from whatever shape the API uses, then the raw record. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const body = await apiRequest.call(this, ROUTES.methodologies, { itemIndex: 0 });
	return parseMethodologies(body, this.getNode()).map((methodology) => {
		const rawDescription = methodology.record.description;
		const json: IDataObject = {
			...methodology.record,
			id: methodology.id,
			name: methodology.name,
			description:
				methodology.description ?? (typeof rawDescription === 'string' ? rawDescription : null),
		};
		return { json, pairedItem: { item: 0 } };
	});
}

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/execution';
import * as createOrUpdateSnapshot from './createOrUpdateSnapshot.operation';
import * as deleteSnapshot from './deleteSnapshot.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		createOrUpdateSnapshot,
		getMany,
		update,
		deleteSnapshot,
	});
}

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/run/execution';
import type { Operation } from '../../shared/base/operation';
import * as createOrUpdateSnapshot from './createOrUpdateSnapshot.operation';
import * as deleteSnapshot from './deleteSnapshot.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

/** The values of the node's Operation option: test/package.test.ts checks they are exactly the ones routed here. */
export type PortfolioSnapshotsOperation =
	| 'createOrUpdateSnapshot'
	| 'getMany'
	| 'update'
	| 'deleteSnapshot';

export const operations: Record<PortfolioSnapshotsOperation, Operation> = {
	createOrUpdateSnapshot,
	getMany,
	update,
	deleteSnapshot,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, operations);
}

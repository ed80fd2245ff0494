import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/execution';
import * as classifyHoldings from './classifyHoldings.operation';
import * as getMethodologies from './getMethodologies.operation';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		classifyHoldings,
		getMethodologies,
	});
}

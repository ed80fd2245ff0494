import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/execution';
import * as getPortfolioAlignment from './getPortfolioAlignment.operation';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		getPortfolioAlignment,
	});
}

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/execution';
import * as getBusinessInvolvements from './getBusinessInvolvements.operation';
import * as getEsgData from './getEsgData.operation';
import * as getPaiIndicators from './getPaiIndicators.operation';
import * as getSfdrClassification from './getSfdrClassification.operation';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		getSfdrClassification,
		getPaiIndicators,
		getBusinessInvolvements,
		getEsgData,
	});
}

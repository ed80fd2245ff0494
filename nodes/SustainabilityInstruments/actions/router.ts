import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/run/execution';
import type { Operation } from '../../shared/base/operation';
import * as getBusinessInvolvements from './getBusinessInvolvements.operation';
import * as getEsgData from './getEsgData.operation';
import * as getPaiIndicators from './getPaiIndicators.operation';
import * as getSfdrClassification from './getSfdrClassification.operation';
import * as screenHoldings from './screenHoldings.operation';

/** The values of the node's Operation option: test/package.test.ts checks they are exactly the ones routed here. */
export type SustainabilityInstrumentsOperation =
	| 'getSfdrClassification'
	| 'getPaiIndicators'
	| 'getBusinessInvolvements'
	| 'getEsgData'
	| 'screenHoldings';

export const operations: Record<SustainabilityInstrumentsOperation, Operation> = {
	getSfdrClassification,
	getPaiIndicators,
	getBusinessInvolvements,
	getEsgData,
	screenHoldings,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, operations);
}

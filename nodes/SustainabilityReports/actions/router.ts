import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/run/execution';
import type { Operation } from '../../shared/base/operation';
import * as generatePdfReport from './generatePdfReport.operation';

/** The values of the node's Operation option: test/package.test.ts checks they are exactly the ones routed here. */
export type SustainabilityReportsOperation = 'generatePdfReport';

export const operations: Record<SustainabilityReportsOperation, Operation> = {
	generatePdfReport,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, operations);
}

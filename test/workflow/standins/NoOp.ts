/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.noOp` ("No Operation, do nothing", v1).
 * Used by the workflow test harness (test/workflow/runner.ts) when no real n8n-nodes-base install is
 * available. Implements the whole real node: passes its input items through unchanged.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export class NoOpStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		icon: 'fa:arrow-right',
		group: ['organization'],
		version: 1,
		description: 'No Operation (test-only stand-in)',
		defaults: { name: 'No Operation, do nothing', color: '#b0b0b0' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

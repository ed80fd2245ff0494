/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.manualTrigger` (ManualTrigger v1).
 * Used by the workflow test harness (test/workflow/runner.ts) when no real n8n-nodes-base install is
 * available. Implements the whole (tiny) real node: when the workflow is executed manually it
 * emits one empty item `{ json: {} }`. It has no parameters, like the real node.
 */
import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export class ManualTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		icon: 'fa:mouse-pointer',
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n (test-only stand-in)',
		eventTriggerDescription: '',
		maxNodes: 1,
		defaults: { name: "When clicking 'Execute workflow'" },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName:
					'This node is where the workflow execution starts (when you click the ‘test’ button on the canvas).',
				name: 'notice',
				type: 'notice',
				default: '',
			},
		],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

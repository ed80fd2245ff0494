/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.splitOut` ("Split Out", v1).
 * Used by the workflow test harness when no real n8n-nodes-base install is available. Implements the subset the
 * examples use: `fieldToSplitOut` naming one array field of each item (dot paths allowed); each element becomes an
 * item (objects as they are, other values under the field's name), paired to its source item. `include`: noOtherFields.
 */
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export class SplitOutStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Split Out',
		name: 'splitOut',
		icon: 'fa:sign-out-alt',
		group: ['transform'],
		version: 1,
		description: 'Turn a list inside item(s) into separate items (test-only stand-in)',
		defaults: { name: 'Split Out' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Fields To Split Out', name: 'fieldToSplitOut', type: 'string', default: '' },
			{ displayName: 'Include', name: 'include', type: 'string', default: 'noOtherFields' },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const field = this.getNodeParameter('fieldToSplitOut', itemIndex) as string;
			let value: unknown = item.json;
			for (const part of field.split('.')) value = (value as IDataObject | undefined)?.[part];
			if (!Array.isArray(value)) {
				throw new NodeOperationError(
					this.getNode(),
					`The field '${field}' wasn't found or is not a list`,
					{ itemIndex },
				);
			}
			for (const element of value) {
				const json =
					element && typeof element === 'object' && !Array.isArray(element)
						? (element as IDataObject)
						: { [field]: element as IDataObject[string] };
				out.push({ json, pairedItem: { item: itemIndex } });
			}
		});
		return [out];
	}
}

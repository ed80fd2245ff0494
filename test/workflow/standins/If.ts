/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/require-node-api-error
	-- test stand-in, described as the n8n core node is; rethrows the engine's errors as the real node does */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.if` ("If" v2, 2.1, 2.2, 2.3). Used by the workflow test
 * harness when no real n8n-nodes-base install is available.
 *
 * Parameters are the real node's (packages/nodes-base/nodes/If/V2/IfV2.node.ts): `conditions` (type 'filter',
 * with the real node's typeOptions), `looseTypeValidation` (v2.1+) and `options` { ignoreCase, looseTypeValidation
 * (below v2.1) }. As in the real node the conditions are evaluated by n8n-workflow itself
 * (`getNodeParameter('conditions', i, false, { extractValue: true })`), so every operator n8n knows works the same.
 * Items that pass go to output 0 ("true"), the others to output 1 ("false"), unchanged; an item without pairedItem
 * gets `{ item: i }`. v1 (the old "conditions" collection) is refused.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

const looseTypeValidation = {
	displayName: 'Convert types where required',
	name: 'looseTypeValidation',
	type: 'boolean' as const,
	default: true,
};

/** The real node's typeValidation expression (If/V2/utils.ts getTypeValidationStrictness(2.1)). */
const typeValidationStrictness =
	'={{ ($nodeVersion < 2.1 ? $parameter.options.looseTypeValidation :  $parameter.looseTypeValidation) ? "loose" : "strict" }}';

export class IfStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'If',
		name: 'if',
		icon: 'fa:map-signs',
		group: ['transform'],
		version: [2, 2.1, 2.2, 2.3],
		description: 'Route items to different branches (true/false) (test-only stand-in)',
		defaults: { name: 'If', color: '#408000' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['true', 'false'],
		properties: [
			{
				displayName: 'Conditions',
				name: 'conditions',
				placeholder: 'Add Condition',
				type: 'filter',
				default: {},
				typeOptions: {
					filter: {
						caseSensitive: '={{!$parameter.options.ignoreCase}}',
						typeValidation: typeValidationStrictness,
						version: '={{ $nodeVersion >= 2.3 ? 3 : $nodeVersion >= 2.2 ? 2 : 1 }}',
					},
				},
			},
			{
				...looseTypeValidation,
				default: false,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 2.1 } }] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{ displayName: 'Ignore Case', name: 'ignoreCase', type: 'boolean', default: true },
					{
						...looseTypeValidation,
						displayOptions: { show: { '@version': [{ _cnd: { lt: 2.1 } }] } },
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const trueItems: INodeExecutionData[] = [];
		const falseItems: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			try {
				const pass = this.getNodeParameter('conditions', itemIndex, false, {
					extractValue: true,
				}) as boolean;
				if (item.pairedItem === undefined) item.pairedItem = { item: itemIndex };
				(pass ? trueItems : falseItems).push(item);
			} catch (error) {
				if (this.continueOnFail()) {
					falseItems.push(item);
					return;
				}
				if (error instanceof NodeOperationError) throw error;
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
		});
		return [trueItems, falseItems];
	}
}

import type { INode, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { TOOL_DESCRIPTIONS } from '../../nodes/shared/ui/toolDescriptions';
import type { ToolDescribedNode } from '../../nodes/shared/ui/toolDescriptions';
import { toolNodeType } from '../helpers/agents';
import { packageNodeTypes } from '../workflow/packageNodes';

const base = (name: string) =>
	packageNodeTypes.find((type) => (type as INodeType).description.name === name) as INodeType;

/** The node's parameters as n8n resolves them for a workflow node (defaults filled in). */
function resolved(type: INodeType, operation: string, given: INode['parameters'] = {}): INode {
	const node: INode = {
		id: '1',
		name: 'Tool',
		type: `n8n-nodes-sustainability-compliance.${type.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: { operation, ...given },
	};
	node.parameters = NodeHelpers.getNodeParameters(
		type.description.properties,
		node.parameters,
		true,
		false,
		node,
		type.description,
	)!;
	return node;
}

describe('tool descriptions sent to the model', () => {
	const cases = Object.entries(TOOL_DESCRIPTIONS).flatMap(([name, operations]) =>
		Object.entries(operations).map(([operation, text]) => [name, operation, text] as const),
	);

	it('the table has exactly the operations of each node (of every node version)', () => {
		for (const name of Object.keys(TOOL_DESCRIPTIONS) as ToolDescribedNode[]) {
			// A node version may have an Operation list of its own (Screen Holdings: version 2 only).
			const operations = new Set(
				base(name)
					.description.properties.filter((p) => p.name === 'operation')
					.flatMap((p) => (p.options as INodePropertyOptions[]).map((option) => option.value)),
			);
			expect(Object.keys(TOOL_DESCRIPTIONS[name]).sort()).toEqual([...operations].sort());
		}
	});

	it.each(cases)(
		'%s %s: what n8n sends the model (getToolDescriptionForNode)',
		(name, operation, text) => {
			const tool = toolNodeType(name);
			// n8n adds no Tool Description parameters of its own: the node has them.
			expect(tool.description.properties.some((p) => p.name === 'descriptionType')).toBe(false);
			const node = resolved(tool, operation);
			expect(node.parameters.toolDescription).toBe(text);
			expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toBe(text);
			// Says what to pass (or that nothing is needed).
			expect(text).toMatch(/Pass |Needs no input/);
		},
	);

	it('an edited description is what is sent; the plain node has no Tool Description', () => {
		const tool = toolNodeType('sustainabilityInstruments');
		const node = resolved(tool, 'getSfdrClassification', { toolDescription: 'My words' });
		expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toBe('My words');
		const plain = resolved(base('sustainabilityInstruments'), 'getSfdrClassification');
		expect(plain.parameters.toolDescription).toBeUndefined();
	});
});

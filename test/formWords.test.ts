/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Issue 36, "Why" 10: what a newcomer reads on the canvas, in the node search and on the form, checked on every node
 * of the package (not only the one the issue named):
 *
 * - the canvas subtitle reads as words: n8n evaluates it as it does on the canvas, for every operation of every node
 *   and version, and it gives the operation's name as the Operation list shows it, never its value;
 * - the node search finds every node by "portfolio" (each works on a portfolio's holdings or summarises one), by its
 *   codex aliases;
 * - a field that is found automatically when left empty says so in its placeholder (grey text that looks filled in
 *   otherwise).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { Workflow } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';

import packageJson from '../package.json';
import { HarnessNodeTypes } from './workflow/node-types';
import { packageNodeTypes } from './workflow/packageNodes';

/** Every version of every node: its description and its node type. */
const described = packageNodeTypes.flatMap((nodeType) => {
	const versioned = nodeType as IVersionedNodeType;
	const types: INodeType[] = versioned.nodeVersions
		? Object.values(versioned.nodeVersions)
		: [nodeType as INodeType];
	return types.flatMap((type) => {
		const { version } = type.description;
		return (Array.isArray(version) ? version : [version]).map((typeVersion) => ({
			type,
			description: type.description,
			typeVersion,
		}));
	});
});

const operationsOf = (description: INodeTypeDescription) =>
	(description.properties.find((property) => property.name === 'operation')?.options ??
		[]) as INodePropertyOptions[];

/** The subtitle as n8n's canvas shows it (the editor resolves it with getSimpleParameterValue). */
function canvasSubtitle(type: INodeType, typeVersion: number, operation: string): unknown {
	const node: INode = {
		id: 'n',
		name: 'Node',
		type: `${packageJson.name}.${type.description.name}`,
		typeVersion,
		position: [0, 0],
		parameters: { operation },
	};
	const nodeTypes = new HarnessNodeTypes().add(node.type, type);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		type.description.subtitle,
		'internal',
		{},
	);
}

describe('what a newcomer reads on the canvas and the form (issue 36)', () => {
	it('found every node and version', () => {
		expect(new Set(described.map(({ description }) => description.name)).size).toBe(6);
	});

	it.each(described.map((entry) => [entry.description.name, entry.typeVersion, entry] as const))(
		'%s v%s: the canvas subtitle is the operation as the list names it',
		(_name, _version, { type, typeVersion, description }) => {
			const operations = operationsOf(description);
			expect(operations.length).toBeGreaterThan(0);
			for (const option of operations)
				expect(canvasSubtitle(type, typeVersion, String(option.value))).toBe(option.name);
		},
	);

	it.each(packageJson.n8n.nodes.map((path) => [path.split('/')[2]] as const))(
		'%s: the node search finds it by "portfolio"',
		(node) => {
			const codex = JSON.parse(
				readFileSync(join(__dirname, '..', 'nodes', node, `${node}.node.json`), 'utf8'),
			) as { alias: string[] };
			expect(codex.alias.map((alias) => alias.toLowerCase())).toContain('portfolio');
		},
	);

	it('a field found automatically when left empty says so in its placeholder', () => {
		const fields: INodeProperties[] = [];
		const walk = (properties: INodeProperties[]) => {
			for (const property of properties) {
				fields.push(property);
				for (const option of (property.options ?? []) as Array<{ values?: INodeProperties[] }>)
					if (option && 'values' in option && Array.isArray(option.values)) walk(option.values);
				if (property.type === 'collection') walk(property.options as INodeProperties[]);
			}
		};
		for (const { description } of described) walk(description.properties);
		const foundWhenEmpty = fields.filter(
			(field) =>
				field.type === 'string' &&
				/Leave empty to (find|use) .*(usual header|headers)/.test(field.description ?? ''),
		);
		expect(foundWhenEmpty.map((field) => field.name)).toEqual(
			expect.arrayContaining(['marketValueField', 'weightField', 'isin']),
		);
		for (const field of foundWhenEmpty)
			expect(`${field.name}: ${field.placeholder}`).toMatch(/: Empty: found automatically/);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * n8n master's community-node rules not yet in the published lint plugin, and the package's rules for builderHint and
 * execution hints (test/helpers/nodeRules.ts says which is which). Each check is also shown to catch a broken sample.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';
// What n8n-core's DirectoryLoader runs on each description it loads; one throw and n8n skips the whole package.
import { validateNodeDescription } from 'n8n-core/dist/nodes-loader/validate-node-description';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import packageJson from '../package.json';
import {
	builderHintProblems,
	codexProblems,
	everyProperty,
	discriminatorBuilderHints,
	executeWithoutContinueOnFail,
	executionHintsTooLong,
	executionHintTexts,
	hintsTooLong,
	itemErrorsWithoutItemIndex,
	MAX_HINT_LENGTH,
} from './helpers/nodeRules';
import { packageNodeTypes } from './workflow/packageNodes';

const root = join(__dirname, '..');

/**
 * The parameters where a builder must choose: each carries a builderHint wherever it appears. The Operation
 * parameter cannot (n8n 2.41 refuses a builderHint on a discriminator): each of its options carries one instead.
 */
const BUILDER_CHOICES = [
	'isinSource',
	'outputMode',
	'output',
	'groupBy',
	'holdingsSource',
	'reportType',
	'rememberIn',
	'screenPreset',
];

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

const shippedSources = ['nodes', 'credentials'].flatMap((dir) =>
	sourceFiles(join(root, dir)).map((path) => ({
		file: relative(root, path),
		source: readFileSync(path, 'utf8'),
	})),
);

const nodeSources = packageJson.n8n.nodes.map((distPath) =>
	distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
);

const descriptions = packageNodeTypes.map((type) => type.description as INodeTypeDescription);

function builderHintFindings(description: INodeTypeDescription): string[] {
	const findings = builderHintProblems(description.builderHint, 'searchHint').map(
		(problem) => `${description.name}: ${problem}`,
	);
	for (const { path, property } of everyProperty(description.properties)) {
		const chosen = 'type' in property && BUILDER_CHOICES.includes(String(property.name));
		const option = path.startsWith('/operation/');
		if (chosen || option || 'builderHint' in property) {
			findings.push(
				...builderHintProblems(property.builderHint, 'propertyHint').map(
					(problem) => `${description.name}${path}: ${problem}`,
				),
			);
		}
	}
	return findings;
}

describe("n8n's community-node rules beyond the published lint", () => {
	it('codex files: known categories only, no subcategories, no AI category, every field n8n and a builder read', () => {
		expect(descriptions).toHaveLength(nodeSources.length);
		const findings = nodeSources.flatMap((source) => {
			const codexFile = source.replace(/\.ts$/, '.json');
			const codex = JSON.parse(readFileSync(join(root, codexFile), 'utf8')) as Record<
				string,
				unknown
			>;
			const description = descriptions.find((d) => codex.node === `${packageJson.name}.${d.name}`);
			if (!description) return [`${codexFile}: no node for codex ${String(codex.node)}`];
			// An inline codex would make n8n ignore the .node.json file altogether.
			const inline = 'codex' in description ? ['an inline description.codex'] : [];
			return [...inline, ...codexProblems(codex, codex.node as string)].map(
				(problem) => `${codexFile}: ${problem}`,
			);
		});
		expect(findings).toEqual([]);
	});

	it(`parameter hints are at most ${MAX_HINT_LENGTH} characters (hint-max-length)`, () => {
		expect(descriptions.flatMap((d) => hintsTooLong(d.properties))).toEqual([]);
	});

	it("every node's execute honours continueOnFail (require-continue-on-fail)", () => {
		expect(nodeSources).toHaveLength(6);
		const findings = nodeSources.flatMap((file) =>
			executeWithoutContinueOnFail(file, readFileSync(join(root, file), 'utf8')),
		);
		expect(findings).toEqual([]);
	});

	it('an error made in a loop over the input items names the item (node-operation-error-itemindex)', () => {
		expect(
			shippedSources.flatMap(({ file, source }) => itemErrorsWithoutItemIndex(file, source)),
		).toEqual([]);
	});
});

describe("the package's hints", () => {
	it('each node, its operations and the parameters a builder must choose carry a builderHint for n8n 2.20 and 2.41', () => {
		const findings = descriptions.flatMap(builderHintFindings);
		expect(findings).toEqual([]);
		const hinted = descriptions.flatMap((d) =>
			everyProperty(d.properties).filter(({ property }) => 'builderHint' in property),
		);
		for (const name of BUILDER_CHOICES)
			expect(hinted.some(({ property }) => 'type' in property && property.name === name)).toBe(
				true,
			);
	});

	it("n8n 2.41's node loader accepts every node description (no builderHint on a discriminator)", () => {
		for (const description of descriptions) {
			expect(discriminatorBuilderHints(description.properties)).toEqual([]);
			expect(() => validateNodeDescription(description)).not.toThrow();
		}
	});

	it(`execution hints written in the code are at most ${MAX_HINT_LENGTH} characters`, () => {
		const texts = shippedSources.flatMap(({ file, source }) => executionHintTexts(file, source));
		expect(texts.length).toBeGreaterThan(0);
		expect(
			shippedSources.flatMap(({ file, source }) => executionHintsTooLong(file, source)),
		).toEqual([]);
	});
});

describe('the checks catch what they are for', () => {
	const codex = {
		node: 'n8n-nodes-x.thing',
		nodeVersion: '1.0',
		codexVersion: '1.0',
		categories: ['Finance & Accounting'],
		alias: ['SFDR'],
		resources: {
			primaryDocumentation: [{ url: 'https://example.com' }],
			credentialDocumentation: [{ url: 'https://example.com' }],
		},
	};

	it('codex', () => {
		expect(codexProblems(codex, 'n8n-nodes-x.thing')).toEqual([]);
		expect(
			codexProblems(
				{ ...codex, subcategories: { 'Finance & Accounting': ['Compliance'] } },
				'n8n-nodes-x.thing',
			),
		).toEqual(['subcategories is set (no-codex-subcategories)']);
		expect(codexProblems({ ...codex, categories: ['Finance', 'AI'] }, 'n8n-nodes-x.thing')).toEqual(
			[
				'category "Finance" is not one n8n knows (valid-codex-categories)',
				'category "AI" (no-ai-codex-category)',
			],
		);
		const bare: Record<string, unknown> = { ...codex };
		delete bare.alias;
		delete bare.resources;
		expect(codexProblems(bare, 'n8n-nodes-x.other')).toEqual([
			'node is "n8n-nodes-x.thing", not "n8n-nodes-x.other"',
			'alias is missing, empty or holds a non-text entry',
			'resources.primaryDocumentation has no url',
			'resources.credentialDocumentation has no url',
		]);
		expect(codexProblems({ ...codex, alias: ['ESG', 'esg'] }, 'n8n-nodes-x.thing')).toEqual([
			'alias holds an entry twice',
		]);
	});

	it('parameter hints and builderHints', () => {
		const properties: INodeProperties[] = [
			{
				displayName: 'A',
				name: 'a',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'B', name: 'b', type: 'string', default: '', hint: 'x'.repeat(121) },
				],
			},
		];
		expect(hintsTooLong(properties)).toEqual(['/a/b: hint is 121 characters, over 120']);
		expect(builderHintProblems(undefined, 'searchHint')).toEqual(['no builderHint.searchHint']);
		expect(builderHintProblems({ propertyHint: 'Pick one' }, 'propertyHint')).toEqual([
			'builderHint.message differs from builderHint.propertyHint',
		]);
		const operation: INodeProperties = {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			default: 'get',
			options: [{ name: 'Get', value: 'get', builderHint: { propertyHint: 'Fine here' } }],
		};
		expect(discriminatorBuilderHints([operation])).toEqual([]);
		expect(
			discriminatorBuilderHints([{ ...operation, builderHint: { propertyHint: 'Not here' } }]),
		).toEqual([
			'/operation: builderHint on a discriminator parameter (n8n 2.41 does not load the node)',
		]);
		const text = 'Use {{ $json.isin }} and connect ai_tool';
		expect(builderHintProblems({ searchHint: text, message: text }, 'searchHint')).toEqual([
			'builderHint holds an expression ({{ }})',
			'builderHint names an ai_ connection type',
		]);
	});

	it('continueOnFail, itemIndex and execution hints in source', () => {
		const node = `class X implements INodeType {
	async execute(this: IExecuteFunctions) { return await router.call(this); }
}`;
		expect(executeWithoutContinueOnFail('X.node.ts', node)).toEqual(['X.node.ts: X.execute']);
		expect(
			executeWithoutContinueOnFail(
				'X.node.ts',
				node.replace('return await', 'if (this.continueOnFail()) return []; return await'),
			),
		).toEqual([]);

		const loop = `export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	for (let i = 0; i < items.length; i++) {
		if (!ok) throw new NodeOperationError(this.getNode(), 'bad', { description: 'fix' });
		if (!ok) throw new NodeOperationError(this.getNode(), 'bad', { itemIndex: i });
	}
	for (const item of this.getInputData()) throw new NodeApiError(this.getNode(), {});
	throw new NodeOperationError(this.getNode(), 'not in a loop');
}`;
		expect(itemErrorsWithoutItemIndex('op.ts', loop)).toEqual([
			'op.ts:3: new NodeOperationError without itemIndex',
			'op.ts:6: new NodeApiError without itemIndex',
		]);

		const long = 'x'.repeat(MAX_HINT_LENGTH + 1);
		const hints = `addRunNote(this, 'short');
addRunNote(this, '${long}');
this.addExecutionHints({ message: \`Sent \${n} requests ${long}\`, location: 'outputPane' });
addRunNote(this, note);`;
		expect(executionHintTexts('h.ts', hints).map(({ line }) => line)).toEqual([1, 2, 3]);
		expect(executionHintsTooLong('h.ts', hints)).toEqual([
			'h.ts:2: execution hint of 121 characters, over 120',
			`h.ts:3: execution hint of at least ${long.length + 15} characters, over 120`,
		]);
	});
});

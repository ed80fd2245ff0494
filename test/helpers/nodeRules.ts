/**
 * n8n master's community-node rules that the published @n8n/eslint-plugin-community-nodes (0.32.0, what
 * `n8n-node lint` runs) does not have yet, checked on what the package ships. Mirrored from n8n-io/n8n
 * packages/@n8n/eslint-plugin-community-nodes: no-codex-subcategories, valid-codex-categories (utils/codex-taxonomy.ts),
 * no-ai-codex-category, require-continue-on-fail, node-operation-error-itemindex, hint-max-length and the text rules
 * of no-builder-hint-leakage. Where a rule only reads the literals of a `.node.ts` file, the check here reads what
 * the node really describes (our descriptions are composed from shared blocks) or every file under nodes/ (our
 * execute delegates to the operations). Plus the package's own rules: builderHint where a builder must choose, and
 * execution hints as short as parameter hints.
 */
import * as ts from 'typescript';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/** n8n's limit for a parameter `hint` (hint-max-length); the package holds its execution hints to it too. */
export const MAX_HINT_LENGTH = 120;

/** The package's own limit for a builderHint text: n8n sets none, the AI Builder reads every one of them. */
export const MAX_BUILDER_HINT_LENGTH = 400;

/** The top-level codex categories n8n's node panel knows (n8n master, eslint-plugin-community-nodes codex-taxonomy.ts). */
export const KNOWN_CODEX_CATEGORIES = new Set([
	'AI',
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Developer Tools',
	'Development',
	'ECM',
	'Finance & Accounting',
	'HITL',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
]);

/** What is wrong with a `.node.json` codex file of the node `nodeType` (package name + "." + description.name). */
export function codexProblems(codex: Record<string, unknown>, nodeType: string): string[] {
	const problems: string[] = [];
	if (codex.node !== nodeType)
		problems.push(`node is ${JSON.stringify(codex.node)}, not "${nodeType}"`);
	for (const field of ['nodeVersion', 'codexVersion']) {
		if (typeof codex[field] !== 'string') problems.push(`${field} is missing`);
	}
	if ('subcategories' in codex) problems.push('subcategories is set (no-codex-subcategories)');
	const categories = codex.categories;
	if (!Array.isArray(categories) || categories.length === 0) {
		problems.push('categories is missing or empty');
	} else {
		for (const category of categories) {
			if (category === 'AI') problems.push('category "AI" (no-ai-codex-category)');
			else if (!KNOWN_CODEX_CATEGORIES.has(String(category)))
				problems.push(
					`category ${JSON.stringify(category)} is not one n8n knows (valid-codex-categories)`,
				);
		}
	}
	const alias = codex.alias;
	if (
		!Array.isArray(alias) ||
		alias.length === 0 ||
		alias.some((a) => typeof a !== 'string' || !a.trim())
	) {
		problems.push('alias is missing, empty or holds a non-text entry');
	} else if (new Set(alias.map((a: string) => a.toLowerCase())).size !== alias.length) {
		problems.push('alias holds an entry twice');
	}
	const resources = codex.resources as Record<string, Array<{ url?: unknown }>> | undefined;
	for (const kind of ['primaryDocumentation', 'credentialDocumentation']) {
		const links = resources?.[kind];
		if (
			!Array.isArray(links) ||
			links.length === 0 ||
			links.some((link) => typeof link.url !== 'string')
		)
			problems.push(`resources.${kind} has no url`);
	}
	return problems;
}

type Property = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every parameter, option and collection entry of a description's properties, with its path for messages. */
export function everyProperty(
	properties: Property[],
	path = '',
): Array<{ path: string; property: Property }> {
	return properties.flatMap((property) => {
		const here = `${path}/${'name' in property ? String(property.name) : ''}`;
		const nested = [
			...('options' in property && Array.isArray(property.options) ? property.options : []),
			...('values' in property && Array.isArray(property.values) ? property.values : []),
		] as Property[];
		return [{ path: here, property }, ...everyProperty(nested, here)];
	});
}

/** Parameter hints over n8n's limit (hint-max-length), in every parameter the node really has. */
export function hintsTooLong(properties: INodeProperties[]): string[] {
	return everyProperty(properties).flatMap(({ path, property }) => {
		const hint = (property as INodeProperties).hint;
		return typeof hint === 'string' && hint.length > MAX_HINT_LENGTH
			? [`${path}: hint is ${hint.length} characters, over ${MAX_HINT_LENGTH}`]
			: [];
	});
}

/**
 * Discriminator parameters (operation, mode, resource of type options) that carry a builderHint: n8n 2.41's node
 * loader (n8n-core validateNodeDescription) refuses the whole package for one. The hint goes on their options.
 */
export function discriminatorBuilderHints(properties: INodeProperties[]): string[] {
	return everyProperty(properties)
		.filter(
			({ property }) =>
				'type' in property &&
				property.type === 'options' &&
				['operation', 'mode', 'resource'].includes(property.name) &&
				property.builderHint !== undefined,
		)
		.map(
			({ path }) =>
				`${path}: builderHint on a discriminator parameter (n8n 2.41 does not load the node)`,
		);
}

const CONNECTION_NAME =
	/\bai_(agent|chain|document|embedding|languageModel|memory|outputParser|retriever|reranker|textSplitter|tool|vectorStore)\b/;

/**
 * What is wrong with a builderHint text, given under both names (n8n 2.41: `searchHint` / `propertyHint`, n8n 2.20:
 * `message`): missing, the two differ, too long, or wire format a builder must not copy (no-builder-hint-leakage).
 */
export function builderHintProblems(hint: unknown, name: 'searchHint' | 'propertyHint'): string[] {
	const fields = (hint ?? {}) as Record<string, unknown>;
	const text = fields[name];
	if (typeof text !== 'string' || !text.trim()) return [`no builderHint.${name}`];
	const problems: string[] = [];
	if (fields.message !== text)
		problems.push(`builderHint.message differs from builderHint.${name}`);
	if (text.length > MAX_BUILDER_HINT_LENGTH)
		problems.push(`builderHint is ${text.length} characters, over ${MAX_BUILDER_HINT_LENGTH}`);
	if (text.includes('{{')) problems.push('builderHint holds an expression ({{ }})');
	if (CONNECTION_NAME.test(text)) problems.push('builderHint names an ai_ connection type');
	return problems;
}

function parse(file: string, source: string): ts.SourceFile {
	return ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
	visit(node);
	ts.forEachChild(node, (child) => walk(child, visit));
}

function isThisCall(node: ts.Node, method: string): boolean {
	return (
		ts.isCallExpression(node) &&
		ts.isPropertyAccessExpression(node.expression) &&
		node.expression.expression.kind === ts.SyntaxKind.ThisKeyword &&
		node.expression.name.text === method
	);
}

/**
 * Node classes (classes implementing INodeType) whose execute() never calls this.continueOnFail()
 * (require-continue-on-fail).
 */
export function executeWithoutContinueOnFail(file: string, source: string): string[] {
	const found: string[] = [];
	walk(parse(file, source), (node) => {
		if (!ts.isClassDeclaration(node)) return;
		const implementsNodeType = node.heritageClauses?.some((clause) =>
			clause.types.some((type) => type.expression.getText() === 'INodeType'),
		);
		if (!implementsNodeType) return;
		for (const member of node.members) {
			if (!ts.isMethodDeclaration(member) || member.name.getText() !== 'execute' || !member.body)
				continue;
			let honoured = false;
			walk(member.body, (inner) => {
				if (isThisCall(inner, 'continueOnFail')) honoured = true;
			});
			if (!honoured) found.push(`${file}: ${node.name?.text ?? 'class'}.execute`);
		}
	});
	return found;
}

/**
 * `new NodeOperationError(...)` / `new NodeApiError(...)` inside a loop over the input items without `itemIndex`
 * in its options (node-operation-error-itemindex). The items are what `this.getInputData()` gave or a parameter
 * named `items` (our operations get them from the router); options that are not an object literal, or spread
 * one, are given the benefit of the doubt, as n8n's rule does.
 */
export function itemErrorsWithoutItemIndex(file: string, source: string): string[] {
	const sourceFile = parse(file, source);
	const itemNames = new Set<string>(['items']);
	walk(sourceFile, (node) => {
		if (
			ts.isVariableDeclaration(node) &&
			ts.isIdentifier(node.name) &&
			node.initializer &&
			isThisCall(node.initializer, 'getInputData')
		)
			itemNames.add(node.name.text);
	});
	const isItems = (node: ts.Expression) =>
		(ts.isIdentifier(node) && itemNames.has(node.text)) || isThisCall(node, 'getInputData');
	const isItemLoop = (node: ts.Node) => {
		if (ts.isForOfStatement(node)) return isItems(node.expression);
		if (ts.isForStatement(node) && node.condition && ts.isBinaryExpression(node.condition)) {
			return [node.condition.left, node.condition.right].some(
				(side) =>
					ts.isPropertyAccessExpression(side) &&
					side.name.text === 'length' &&
					isItems(side.expression),
			);
		}
		return false;
	};
	const found: string[] = [];
	const visit = (node: ts.Node, inLoop: boolean): void => {
		if (
			inLoop &&
			ts.isNewExpression(node) &&
			ts.isIdentifier(node.expression) &&
			['NodeOperationError', 'NodeApiError'].includes(node.expression.text)
		) {
			const options = node.arguments?.[2];
			const hasItemIndex =
				options !== undefined &&
				(!ts.isObjectLiteralExpression(options) ||
					options.properties.some(
						(property) =>
							ts.isSpreadAssignment(property) || property.name?.getText() === 'itemIndex',
					));
			if (!hasItemIndex) {
				const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
				found.push(`${file}:${line + 1}: new ${node.expression.text} without itemIndex`);
			}
		}
		const loop = inLoop || isItemLoop(node);
		ts.forEachChild(node, (child) => visit(child, loop));
	};
	visit(sourceFile, false);
	return found;
}

/** A text as the source writes it: its static characters, and whether parts of it are computed. */
export interface WrittenText {
	line: number;
	/** The literal text; for a template, its static parts joined (the shortest the text can be). */
	text: string;
	computed: boolean;
}

function writtenText(sourceFile: ts.SourceFile, node: ts.Expression): WrittenText | undefined {
	const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
		return { line, text: node.text, computed: false };
	if (ts.isTemplateExpression(node))
		return {
			line,
			text: node.head.text + node.templateSpans.map((span) => span.literal.text).join(''),
			computed: true,
		};
	return undefined;
}

/**
 * The texts the source writes into execution hints: the note of `addRunNote(context, note)` and the `message` of
 * `addExecutionHints({ message })`, where written as a literal or a template. A variable is not followed.
 */
export function executionHintTexts(file: string, source: string): WrittenText[] {
	const sourceFile = parse(file, source);
	const texts: WrittenText[] = [];
	walk(sourceFile, (node) => {
		if (!ts.isCallExpression(node)) return;
		const callee = node.expression;
		const name = ts.isIdentifier(callee)
			? callee.text
			: ts.isPropertyAccessExpression(callee)
				? callee.name.text
				: '';
		let written: ts.Expression | undefined;
		if (name === 'addRunNote') written = node.arguments[1];
		if (name === 'addExecutionHints') {
			const hint = node.arguments[0];
			if (hint && ts.isObjectLiteralExpression(hint)) {
				const message = hint.properties.find((property) => property.name?.getText() === 'message');
				if (message && ts.isPropertyAssignment(message)) written = message.initializer;
			}
		}
		const text = written && writtenText(sourceFile, written);
		if (text) texts.push(text);
	});
	return texts;
}

/** Execution hint texts longer than MAX_HINT_LENGTH (for a template: already its static parts). */
export function executionHintsTooLong(file: string, source: string): string[] {
	return executionHintTexts(file, source)
		.filter(({ text }) => text.length > MAX_HINT_LENGTH)
		.map(
			({ line, text, computed }) =>
				`${file}:${line}: execution hint of ${computed ? 'at least ' : ''}${text.length} characters, over ${MAX_HINT_LENGTH}`,
		);
}

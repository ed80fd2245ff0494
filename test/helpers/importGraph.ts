/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
/**
 * The import graph of the shipped sources, read with the TypeScript compiler (type-only imports count too: a cycle of
 * types is still a cycle a reader has to untangle), and its import cycles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';
import ts from 'typescript';

/** Relative path (from the root, `/`-separated) → the relative paths of the package's own files it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFilesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFilesUnder(path);
		return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
	});
}

/** The module specifiers a source text imports or re-exports (static, dynamic and `require`). */
export function importSpecifiers(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
	const specifiers: string[] = [];
	const visit = (node: ts.Node) => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			specifiers.push(node.moduleSpecifier.text);
		} else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference) &&
			ts.isStringLiteral(node.moduleReference.expression)
		) {
			specifiers.push(node.moduleReference.expression.text);
		} else if (
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments.length === 1 &&
			ts.isStringLiteral(node.arguments[0])
		) {
			specifiers.push(node.arguments[0].text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return specifiers;
}

function resolveOwn(root: string, fromFile: string, specifier: string): string | undefined {
	if (!specifier.startsWith('.')) return undefined;
	const base = resolve(dirname(fromFile), specifier);
	for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
		if (existsSync(candidate)) return relative(root, candidate).split('\\').join('/');
	}
	return undefined;
}

/**
 * The import graph of every `.ts` file under `dirs` (relative to `root`); `overrides` replaces a file's text (by its
 * relative path), so a test can show a check catches an edge that is not in the sources.
 */
export function importGraph(
	root: string,
	dirs: string[],
	overrides: Record<string, string> = {},
): ImportGraph {
	const graph: ImportGraph = new Map();
	for (const file of dirs.flatMap((dir) => sourceFilesUnder(join(root, dir)))) {
		const name = relative(root, file).split('\\').join('/');
		const text = overrides[name] ?? readFileSync(file, 'utf8');
		const own = importSpecifiers(file, text)
			.map((specifier) => resolveOwn(root, file, specifier))
			.filter((target): target is string => target !== undefined);
		graph.set(name, [...new Set(own)].sort());
	}
	return graph;
}

/**
 * Every import cycle as one group of files that import each other round (Tarjan's strongly connected components of
 * more than one file, or a file importing itself), each group sorted, the groups sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
	const index = new Map<string, number>();
	const lowLink = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const cycles: string[][] = [];
	let counter = 0;
	const connect = (file: string) => {
		index.set(file, counter);
		lowLink.set(file, counter);
		counter++;
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				connect(target);
				lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
			} else if (onStack.has(target)) {
				lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
			}
		}
		if (lowLink.get(file) !== index.get(file)) return;
		const group: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			group.push(member);
		} while (member !== file);
		if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
	};
	for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
	return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

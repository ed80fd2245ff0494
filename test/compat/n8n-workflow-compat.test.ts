/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import * as n8nWorkflow from 'n8n-workflow';
import * as ts from 'typescript';

import { ABORTABLE_SLEEP_NAMES } from '../../nodes/shared/base/sleep';
import { supportedN8nVersions } from '../e2e/lib';
import oldest from './n8n-workflow-exports.json';

/**
 * The shipped code must run on every n8n the README declares. n8n-workflow removes exports between minor
 * versions (sleepWithAbort in 2.34), so every runtime name the shipped code takes from it must exist at both
 * ends of the range: the oldest (list recorded by scripts/record-n8n-workflow-exports.ts) and the newest
 * (the installed dev dependency). Names that differ across the range are looked up at run time in one place
 * (nodes/shared/base/sleep.ts), and at least one alternative must exist at each end.
 */
const root = join(__dirname, '..', '..');
const RUNTIME_LOOKUP_FILE = 'nodes/shared/base/sleep.ts';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

interface Usage {
	file: string;
	names: string[];
	namespaceImport: boolean;
}

/** The n8n-workflow names a module uses at run time, read from its CommonJS output (type-only imports are gone there). */
export function runtimeUsage(file: string, source: string): Usage {
	const js = ts.transpileModule(source, {
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
		},
		fileName: file,
	}).outputText;
	const names = new Set<string>();
	let namespaceImport = false;
	const binding = /(?:const|var|let)\s+(\w+)\s*=\s*(__importStar\()?require\("n8n-workflow"\)/g;
	for (const match of js.matchAll(binding)) {
		if (match[2]) namespaceImport = true;
		for (const use of js.matchAll(new RegExp(`\\b${match[1]}\\.(\\w+)`, 'g'))) names.add(use[1]);
	}
	if (/require\("n8n-workflow"\)\s*[.[]/.test(js)) namespaceImport = true;
	return { file, names: [...names].sort(), namespaceImport };
}

const usages = ['nodes', 'credentials'].flatMap((dir) =>
	sourceFiles(join(root, dir)).map((path) =>
		runtimeUsage(relative(root, path), readFileSync(path, 'utf8')),
	),
);
const usedNames = [...new Set(usages.flatMap((usage) => usage.names))].sort();

const newestExports = Object.keys(n8nWorkflow);
const newestVersion = (
	JSON.parse(readFileSync(require.resolve('n8n-workflow/package.json'), 'utf8')) as {
		version: string;
	}
).version;
const ends: Array<[string, string[]]> = [
	[`n8n-workflow ${oldest['n8n-workflow']} (n8n ${oldest.n8n}, oldest supported)`, oldest.exports],
	[`n8n-workflow ${newestVersion} (installed, newest)`, newestExports],
];

describe('n8n-workflow compatibility of the shipped code', () => {
	it('finds the runtime names the shipped code takes from n8n-workflow', () => {
		expect(usedNames).toEqual(
			expect.arrayContaining(['NodeApiError', 'NodeOperationError', 'NodeConnectionTypes']),
		);
	});

	it.each(ends)('every statically imported name exists in %s', (_label, exported) => {
		const available = new Set(exported);
		expect(usedNames.filter((name) => !available.has(name))).toEqual([]);
	});

	it.each(ends)('the abort-aware sleep resolves in %s', (_label, exported) => {
		expect(ABORTABLE_SLEEP_NAMES.some((name) => exported.includes(name))).toBe(true);
	});

	it('looks names up at run time only in the one module that handles the version differences', () => {
		expect(usages.filter((usage) => usage.namespaceImport).map((usage) => usage.file)).toEqual([
			RUNTIME_LOOKUP_FILE,
		]);
	});

	it('would catch a hard import of a name that a supported version lacks (the sleepWithAbort of n8n 2.20-2.33)', () => {
		const usage = runtimeUsage(
			'example.ts',
			"import { NodeApiError, sleepWithAbort } from 'n8n-workflow';\nimport type { INode } from 'n8n-workflow';\nexport const f = async (n: INode) => { await sleepWithAbort(1); return new NodeApiError(n as never, {}); };",
		);
		expect(usage.names).toEqual(['NodeApiError', 'sleepWithAbort']);
		expect(usage.names.filter((name) => !newestExports.includes(name))).toEqual(['sleepWithAbort']);
	});

	it('keeps the recorded oldest list in step with the oldest n8n the real-n8n checks run', () => {
		// the list is for the .0 of the oldest minor, so every patch of that minor is covered
		const minor = (version: string) => version.split('.').slice(0, 2);
		expect(minor(supportedN8nVersions().oldest)).toEqual(minor(oldest.n8n));
	});
});

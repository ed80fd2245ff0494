/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The shape of the house: no import cycle among the shipped sources, the layer folders of nodes/shared/ importing only
 * the layers below them, and the route table at the bottom (it imports nothing of ours but modules that import nothing
 * of ours). Each check is also shown to catch a broken sample.
 */
import { join } from 'path';

import { importCycles, importGraph } from './helpers/importGraph';
import type { ImportGraph } from './helpers/importGraph';

const root = join(__dirname, '..');
const SHIPPED = ['nodes', 'credentials'];
const ROUTE_TABLE = 'nodes/shared/api/routes.ts';

/** The layer folders of nodes/shared/ and the folders each may import from (besides itself). */
const SHARED = 'nodes/shared/';
const LAYERS: Record<string, string[]> = {
	base: [],
	api: ['base'],
	input: ['base', 'api'],
	run: ['base', 'api', 'input'],
	ui: ['base', 'api', 'input'],
};

function layerOf(file: string): string | undefined {
	if (!file.startsWith(SHARED)) return undefined;
	const parts = file.slice(SHARED.length).split('/');
	return parts.length > 1 ? parts[0] : '';
}

/** Every `file -> import` of nodes/shared/ that breaks the layer rules (or lies outside the layer folders). */
function layerViolations(graph: ImportGraph): string[] {
	const violations: string[] = [];
	for (const [file, targets] of graph) {
		const layer = layerOf(file);
		if (layer === undefined) continue;
		if (!(layer in LAYERS)) {
			violations.push(`${file} is outside the layer folders`);
			continue;
		}
		for (const target of targets) {
			const targetLayer = layerOf(target);
			if (targetLayer === undefined || targetLayer === layer) continue;
			if (!LAYERS[layer].includes(targetLayer)) violations.push(`${file} -> ${target}`);
		}
	}
	return violations;
}

/** What the route table imports of ours that itself imports something of ours. */
function routeTableAboveTheBottom(graph: ImportGraph): string[] {
	return (graph.get(ROUTE_TABLE) ?? []).filter((target) => (graph.get(target) ?? []).length > 0);
}

describe('architecture', () => {
	const graph = importGraph(root, SHIPPED);

	it('reads the import graph of the shipped sources', () => {
		expect(graph.size).toBeGreaterThan(50);
		expect(graph.get(ROUTE_TABLE)).toContain('nodes/shared/api/answerShapes.ts');
		expect(graph.get('nodes/shared/api/transport.ts')).toContain(ROUTE_TABLE);
	});

	it('has no import cycle among nodes/ and credentials/', () => {
		expect(importCycles(graph)).toEqual([]);
	});

	it('finds a cycle that is there, however long, and a file that imports itself', () => {
		// api/routes.ts -> input/holdings.ts -> api/routes.ts (type imports count)
		const twoFiles = importGraph(root, SHIPPED, {
			[ROUTE_TABLE]: `import type { Holding } from '../input/holdings';\nexport type H = Holding;\n`,
		});
		expect(importCycles(twoFiles)).toContainEqual(
			expect.arrayContaining(['nodes/shared/input/holdings.ts', ROUTE_TABLE]),
		);
		const longer = new Map([
			['a.ts', ['b.ts']],
			['b.ts', ['c.ts']],
			['c.ts', ['a.ts', 'd.ts']],
			['d.ts', []],
			['e.ts', ['e.ts']],
		]);
		expect(importCycles(longer)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
	});

	it('keeps each layer folder of nodes/shared/ to the layers below it', () => {
		expect(layerViolations(graph)).toEqual([]);
		expect([...graph.keys()].filter((file) => layerOf(file) !== undefined).length).toBeGreaterThan(
			30,
		);
	});

	it('finds an import into a layer above and a file outside the layer folders', () => {
		const upward = importGraph(root, SHIPPED, {
			'nodes/shared/api/errors.ts': `import type { Holding } from '../input/holdings';\nexport type H = Holding;\n`,
			'nodes/shared/ui/builderHints.ts': `import { routeOperation } from '../run/execution';\nexport const f = routeOperation;\n`,
		});
		expect(layerViolations(upward)).toEqual([
			'nodes/shared/api/errors.ts -> nodes/shared/input/holdings.ts',
			'nodes/shared/ui/builderHints.ts -> nodes/shared/run/execution.ts',
		]);
		const flat = new Map([['nodes/shared/loose.ts', ['nodes/shared/base/values.ts']]]);
		expect(layerViolations(flat)).toEqual(['nodes/shared/loose.ts is outside the layer folders']);
	});

	it('keeps the route table at the bottom: it imports only modules that import nothing of ours', () => {
		expect(routeTableAboveTheBottom(graph)).toEqual([]);
		const withHoldings = importGraph(root, SHIPPED, {
			[ROUTE_TABLE]: `import type { Holding } from '../input/holdings';\nexport type H = Holding;\n`,
		});
		expect(routeTableAboveTheBottom(withHoldings)).toEqual(['nodes/shared/input/holdings.ts']);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The shape of the house: no import cycle among the shipped sources, and the route table at the bottom (it imports
 * nothing of ours but modules that import nothing of ours). Each check is also shown to catch a broken sample.
 */
import { join } from 'path';

import { importCycles, importGraph } from './helpers/importGraph';
import type { ImportGraph } from './helpers/importGraph';

const root = join(__dirname, '..');
const SHIPPED = ['nodes', 'credentials'];
const ROUTE_TABLE = 'nodes/shared/api/routes.ts';

/** What the route table imports of ours that itself imports something of ours. */
function routeTableAboveTheBottom(graph: ImportGraph): string[] {
	return (graph.get(ROUTE_TABLE) ?? []).filter((target) => (graph.get(target) ?? []).length > 0);
}

describe('architecture', () => {
	const graph = importGraph(root, SHIPPED);

	it('reads the import graph of the shipped sources', () => {
		expect(graph.size).toBeGreaterThan(50);
		expect(graph.get(ROUTE_TABLE)).toContain('nodes/shared/api/answerShapes.ts');
		expect(graph.get('nodes/shared/run/transport.ts')).toContain(ROUTE_TABLE);
	});

	it('has no import cycle among nodes/ and credentials/', () => {
		expect(importCycles(graph)).toEqual([]);
	});

	it('finds a cycle that is there, however long, and a file that imports itself', () => {
		// routes.ts -> holdings.ts -> routes.ts (type imports count)
		const twoFiles = importGraph(root, SHIPPED, {
			[ROUTE_TABLE]: `import type { Holding } from './holdings';\nexport type H = Holding;\n`,
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

	it('keeps the route table at the bottom: it imports only modules that import nothing of ours', () => {
		expect(routeTableAboveTheBottom(graph)).toEqual([]);
		const withHoldings = importGraph(root, SHIPPED, {
			[ROUTE_TABLE]: `import type { Holding } from './holdings';\nexport type H = Holding;\n`,
		});
		expect(routeTableAboveTheBottom(withHoldings)).toEqual(['nodes/shared/input/holdings.ts']);
	});
});

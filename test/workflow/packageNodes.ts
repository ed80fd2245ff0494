/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
import { existsSync } from 'fs';
import { join } from 'path';
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import packageJson from '../../package.json';

/**
 * This package's node classes for the workflow test harness, read from the sources of the nodes listed in
 * package.json's `n8n.nodes` (dist/nodes/X/X.node.js -> nodes/X/X.node.ts), so a node registered for n8n is
 * registered for the tests too. The runner names each `n8n-nodes-sustainability-compliance.<description.name>`.
 */
/** Nodes listed in package.json whose source failed to load. */
export const packageNodeLoadErrors: string[] = [];

function loadPackageNodeTypes(): Array<INodeType | IVersionedNodeType> {
	const root = join(__dirname, '..', '..');
	// SC_NODES_FROM=dist loads the built package instead (what `npm run demo` runs: the code n8n would load).
	const fromDist = process.env.SC_NODES_FROM === 'dist';
	return packageJson.n8n.nodes.flatMap((distPath) => {
		const source = fromDist
			? join(root, distPath)
			: join(root, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		if (!existsSync(source)) return [];
		let exported: Record<string, new () => INodeType | IVersionedNodeType>;
		try {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- sync load from a computed path (import() is async)
			exported = require(source);
		} catch (error) {
			// Reported by test/package.test.ts; the other nodes stay usable meanwhile.
			packageNodeLoadErrors.push(`${source}: ${(error as Error).message}`);
			return [];
		}
		return Object.values(exported)
			.filter((value) => typeof value === 'function')
			.map((NodeClass) => new NodeClass())
			.filter((instance) => instance && typeof instance === 'object' && 'description' in instance);
	});
}

export const packageNodeTypes: Array<INodeType | IVersionedNodeType> = loadPackageNodeTypes();

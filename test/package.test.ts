/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

import packageJson from '../package.json';
import { packageNodeLoadErrors, packageNodeTypes } from './workflow/packageNodes';

const root = join(__dirname, '..');

describe('package', () => {
	it('loads every node package.json registers, each with a codex file, both icons and usableAsTool', () => {
		expect(packageNodeLoadErrors).toEqual([]);
		expect(packageNodeTypes).toHaveLength(packageJson.n8n.nodes.length);
		for (const distPath of packageJson.n8n.nodes) {
			const source = join(root, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			const codex = JSON.parse(readFileSync(source.replace(/\.ts$/, '.json'), 'utf8')) as { node: string };
			const node = packageNodeTypes.find((type) => codex.node === `${packageJson.name}.${type.description.name}`);
			expect(node).toBeDefined();
			const description = node!.description as { icon: { light: string; dark: string }; usableAsTool?: boolean };
			expect(description.usableAsTool).toBe(true);
			for (const icon of [description.icon.light, description.icon.dark]) {
				expect(existsSync(join(dirname(source), icon.replace('file:', '')))).toBe(true);
			}
		}
	});

	it('ships no runtime dependencies and keeps n8n-workflow a peer pinned with n8n-core', () => {
		expect((packageJson as { dependencies?: object }).dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packageJson.devDependencies['n8n-core']).toBe(packageJson.devDependencies['n8n-workflow']);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';
import type { INodePropertyOptions, INodeType } from 'n8n-workflow';

import packageJson from '../package.json';
import { packageNodeLoadErrors, packageNodeTypes } from './workflow/packageNodes';

const root = join(__dirname, '..');
const sourceOf = (distPath: string) =>
	join(root, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

describe('package', () => {
	it('loads every node package.json registers, each with a codex file, both icons and usableAsTool', () => {
		expect(packageNodeLoadErrors).toEqual([]);
		expect(packageNodeTypes).toHaveLength(packageJson.n8n.nodes.length);
		for (const distPath of packageJson.n8n.nodes) {
			const source = sourceOf(distPath);
			const codex = JSON.parse(readFileSync(source.replace(/\.ts$/, '.json'), 'utf8')) as {
				node: string;
			};
			const node = packageNodeTypes.find(
				(type) => codex.node === `${packageJson.name}.${type.description.name}`,
			);
			expect(node).toBeDefined();
			const description = node!.description as {
				icon: { light: string; dark: string };
				usableAsTool?: boolean;
			};
			expect(description.usableAsTool).toBe(true);
			for (const icon of [description.icon.light, description.icon.dark]) {
				expect(existsSync(join(dirname(source), icon.replace('file:', '')))).toBe(true);
			}
		}
	});

	it("routes every value of each node's Operation option, and nothing else", async () => {
		for (const distPath of packageJson.n8n.nodes) {
			const source = sourceOf(distPath);
			const [NodeClass] = Object.values(
				(await import(source)) as Record<string, new () => INodeType>,
			);
			const { description } = new NodeClass();
			// A node may list its operations per version (one Operation parameter each): every one is routed.
			const operationProperties = description.properties.filter(
				(property) => property.name === 'operation',
			);
			const operation = operationProperties[0];
			const options = [
				...new Set(
					operationProperties.flatMap((property) =>
						((property.options ?? []) as INodePropertyOptions[]).map((option) => option.value),
					),
				),
			];
			const router = (await import(join(dirname(source), 'actions', 'router'))) as {
				operations: Record<string, { execute?: unknown }>;
			};
			const routed = Object.keys(router.operations);
			expect({ node: description.name, routed: [...routed].sort() }).toEqual({
				node: description.name,
				routed: [...options].sort(),
			});
			expect(options).toContain(operation!.default);
			for (const name of routed) expect(typeof router.operations[name].execute).toBe('function');
		}
	});

	it('ships no runtime dependencies and keeps n8n-workflow a peer, developed against the n8n-workflow n8n-core pairs with', () => {
		expect((packageJson as { dependencies?: object }).dependencies ?? {}).toEqual({});
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		// n8n-core and n8n-workflow are released together but need not share a patch number (2.41.1 with 2.41.0)
		const core = JSON.parse(readFileSync(require.resolve('n8n-core/package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		};
		expect(core.dependencies['n8n-workflow']).toBe(packageJson.devDependencies['n8n-workflow']);
	});

	it('is packed for n8n only (see check:package) and published with provenance after the checks', () => {
		const manifest = packageJson as typeof packageJson & { main?: string; overrides?: object };
		expect(manifest.main).toBeUndefined();
		expect(manifest.overrides).toBeUndefined();
		for (const file of manifest.files) {
			expect(file).toMatch(
				/^dist\/(nodes|credentials)\/\*\*\/\*\.(js|svg|node\.json)$|^CHANGELOG\.md$/,
			);
		}
		expect(manifest.publishConfig).toEqual({ provenance: true, access: 'public' });
		expect(manifest.scripts.prepublishOnly).toBe(
			'npm run lint && npm run build && npm test && npm run check:package',
		);
		expect(manifest.scripts.build).toMatch(/^gulp clean && /);
		const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as {
			compilerOptions: object;
		};
		expect(build.compilerOptions).toMatchObject({ sourceMap: false, declaration: false });
	});
});

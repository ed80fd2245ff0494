/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/no-dangerous-functions -- dev script runs in Node, outside n8n's sandbox */
import { execSync } from 'child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

function newestMtime(dir: string, filter: (name: string) => boolean): number {
	if (!existsSync(dir)) return 0;
	let newest = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, filter));
		else if (filter(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
	}
	return newest;
}

/** Runs `npm run build` when dist/ is missing a node or is older than a source file. */
export function buildIfNeeded(root: string): void {
	const sources = Math.max(
		newestMtime(join(root, 'nodes'), (n) => /\.(ts|json|svg)$/.test(n)),
		newestMtime(join(root, 'credentials'), (n) => n.endsWith('.ts')),
	);
	const built = newestMtime(join(root, 'dist'), (n) => n.endsWith('.js'));
	const missing = (
		JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } }
	).n8n.nodes.some((p) => !existsSync(join(root, p)));
	if (!missing && built >= sources) return;
	console.log('Building the package (npm run build)…');
	execSync('npm run build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

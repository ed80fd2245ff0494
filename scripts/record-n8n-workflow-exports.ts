/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console
   -- a development script: runs npm in Node, outside n8n's sandbox */
/* Records the runtime exports of one n8n-workflow version into test/compat/n8n-workflow-exports.json, the list
 * the compatibility test checks the shipped code against for the oldest supported n8n.
 *
 *   npx ts-node --transpile-only scripts/record-n8n-workflow-exports.ts <n8n version>
 *
 * Installs the n8n-workflow that n8n version depends on into a temp folder (scripts off), requires it and
 * writes the sorted export names. Run it when the oldest supported n8n (scripts/real-n8n/versions) changes. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const n8nVersion = process.argv[2];
if (!n8nVersion) {
	console.error('usage: record-n8n-workflow-exports.ts <n8n version>');
	process.exit(2);
}
const npm = (args: string[], cwd: string) =>
	execFileSync('npm', args, { cwd, encoding: 'utf8' }).trim();

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-workflow-exports-'));
	try {
		const workflowVersion = npm(['view', `n8n@${n8nVersion}`, 'dependencies.n8n-workflow'], dir);
		writeFileSync(join(dir, 'package.json'), '{ "private": true }');
		npm(
			['i', '--no-audit', '--no-fund', '--ignore-scripts', `n8n-workflow@${workflowVersion}`],
			dir,
		);
		const exported = (await import(join(dir, 'node_modules', 'n8n-workflow'))) as Record<
			string,
			unknown
		>;
		const record = {
			n8n: n8nVersion,
			'n8n-workflow': workflowVersion,
			exports: Object.keys(exported).sort(),
		};
		const out = join(__dirname, '..', 'test', 'compat', 'n8n-workflow-exports.json');
		writeFileSync(out, `${JSON.stringify(record, null, '\t')}\n`);
		console.log(
			`n8n ${n8nVersion}: n8n-workflow ${workflowVersion}, ${record.exports.length} exports -> ${out}`,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

void main();

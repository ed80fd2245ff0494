/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes an encryption key under the user folder on first use: keep it out of $HOME.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-sc-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n-core 2.41 logs every node error to the console at level info; a test run reads its own results.
process.env.N8N_LOG_LEVEL ??= 'silent';

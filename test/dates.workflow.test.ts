/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions -- starts child processes with their own TZ */
/**
 * Issue 35, the opposite of case 1: a JS Date built at local midnight on the n8n server (`new Date(2025, 9, 1)` where
 * TZ is Europe/Berlin) is 22:00 on 30 September in UTC and 18:00 in New York, the workflow's zone by default: it
 * landed a quarter early. The server's zone is a reading of its own; midnight there settles the quarter.
 *
 * The server's time zone cannot be changed inside jest (its process.env is a copy), so each case runs the workflow in
 * a child process with TZ set (test/workflow/inServerZone.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { RESULT_MARKER } from './workflow/inServerZone';

interface ChildResult {
	serverZone: string;
	error?: string;
	sent: string[];
	stored: string[];
	output: IDataObject | null;
}

async function runWithServerZone(
	serverZone: string,
	snapshotDate: string,
	workflowZone?: string,
): Promise<ChildResult> {
	const root = join(__dirname, '..');
	const args = ['ts-node', '--transpile-only', 'test/workflow/inServerZone.ts', snapshotDate];
	if (workflowZone) args.push(workflowZone);
	return await new Promise((resolve, reject) => {
		const child = spawn('npx', args, {
			cwd: root,
			env: { ...process.env, TZ: serverZone, N8N_LOG_LEVEL: 'silent' },
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
			if (code !== 0 || !line)
				reject(new Error(`child exited ${code}: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`));
			else resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as ChildResult);
		});
	});
}

describe("Snapshot Date: a JS Date at midnight in the n8n server's time zone", () => {
	it('new Date(2025, 9, 1) on a server in Berlin (default workflow zone) and in Tokyo (workflow zone Europe/Berlin) is stored in Q4', async () => {
		const [berlinServer, tokyoServer] = await Promise.all([
			runWithServerZone('Europe/Berlin', '={{ new Date(2025, 9, 1) }}'),
			runWithServerZone('Asia/Tokyo', '={{ new Date(2025, 9, 1) }}', 'Europe/Berlin'),
		]);
		expect(berlinServer).toMatchObject({
			serverZone: 'Europe/Berlin',
			sent: ['2025-10-01'],
			stored: ['2025-12-31'],
			output: {
				quarter_end: '2025-12-31',
				snapshot_date_note:
					"Snapshot Date 2025-09-30T22:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the n8n server's time zone Europe/Berlin; in the workflow's time zone America/New_York and UTC it is 2025-09-30 (Q3 2025)",
			},
		});
		expect(tokyoServer).toMatchObject({
			serverZone: 'Asia/Tokyo',
			sent: ['2025-10-01'],
			stored: ['2025-12-31'],
			output: {
				quarter_end: '2025-12-31',
				snapshot_date_note:
					"Snapshot Date 2025-09-30T15:00:00.000Z read as 2025-10-01 (Q4 2025): it is exactly midnight in the n8n server's time zone Asia/Tokyo; in the workflow's time zone Europe/Berlin and UTC it is 2025-09-30 (Q3 2025)",
			},
		});
	}, 180_000);
});

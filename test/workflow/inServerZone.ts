/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Runs Create or Update Snapshot once in n8n's engine against a fresh simulator and prints what was sent and stored,
 * as JSON. test/dates.workflow.test.ts starts it as a child process with TZ set: the server's time zone of a running
 * n8n cannot be changed inside jest (its process.env is a copy).
 *
 * Usage: TZ=Europe/Berlin ts-node --transpile-only test/workflow/inServerZone.ts '<Snapshot Date>' [<workflow zone>]
 */
import type { IDataObject } from 'n8n-workflow';

import { startSimulator } from '../simulator';
import { chainWorkflow, credentialsFor, inTimeZone, snapshotSpec } from '../helpers/workflows';
import { runWorkflow } from './runner';

/** Starts the line of the result (n8n may log to stdout too). */
export const RESULT_MARKER = 'in-server-zone result: ';

async function main(): Promise<void> {
	const [snapshotDate, timezone] = process.argv.slice(2);
	const sim = await startSimulator();
	try {
		const rows: IDataObject[] = [
			{
				portfolio_id: 'fund-tz',
				portfolio_name: 'Fund TZ',
				isin: 'US0378331005',
				name: 'Apple Inc.',
				instrument_type: 'Stock',
				currency: 'USD',
				weight: 100,
				market_value: 1000,
			},
		];
		const flow = chainWorkflow(rows, snapshotSpec({ snapshotDate, groupBy: '' }));
		const result = await runWorkflow(timezone ? inTimeZone(flow, timezone) : flow, {
			credentials: credentialsFor(sim.url, 'sim-all-families'),
		});
		const out = result.items('Node');
		console.log(
			RESULT_MARKER +
				JSON.stringify({
					serverZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
					error: result.error?.message,
					sent: sim
						.requests({ route: 'POST /portfolios' })
						.map((r) => (r.body as IDataObject).snapshot_at),
					stored: sim.portfolioState('org-a').flatMap((p) => p.snapshots.map((s) => s.date)),
					output: out[0]?.json ?? null,
				}),
		);
	} finally {
		await sim.close();
	}
}

if (require.main === module) {
	main().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}

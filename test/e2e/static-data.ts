/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * static-data.ts — when does a real n8n keep what Only Changes Since Last Run remembers (the workflow's static data)?
 *
 *   npm run build && npx ts-node --transpile-only test/e2e/static-data.ts [--n8n-version X]
 *
 * In a fresh user folder with the built package: one workflow started by a Webhook (published, so active) and one
 * by a Manual Trigger, each → Get SFDR Classification, Output = Only Changes Since Last Run, ISINs Seen for the First
 * Time = Output as New. Then `n8n start`, as the owner:
 *   - the webhook is called twice: the first answer lists every ISIN as new, the second nothing (remembered), and
 *     GET /rest/workflows/:id shows the node's static data;
 *   - the manual workflow is run twice through POST /rest/workflows/:id/run (what the editor's "Execute workflow"
 *     sends): both runs output every ISIN as new, and the workflow's static data stays empty.
 * `n8n execute` (CLI) is covered by examples/06 in real-n8n.ts. Prints `[n8n X] N passed, M failed`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSimulator } from '../simulator';
import {
	PROJECT_ROOT,
	versionArguments,
	checkBuiltPackage,
	checkTally,
	importIntoN8n,
	simulatorCredential,
	ensureN8n,
	installPackageInto,
	n8nVersionsToRun,
	restSession,
	setupOwner,
	sleep,
	startN8nServer,
	webhookNode,
} from './lib';

const ISINS = ['US0378331005', 'DE0007236101'];
const WEBHOOK_PATH = 'sc-static-data-check';

function watchNode(position: [number, number]) {
	return {
		id: 'watch',
		name: 'SFDR Changes',
		type: 'n8n-nodes-sustainability-compliance.sustainabilityInstruments',
		typeVersion: 1,
		position,
		parameters: {
			operation: 'getSfdrClassification',
			isinSource: 'list',
			isinList: ISINS.join(', '),
			outputMode: 'changesSinceLastRun',
			firstSeen: 'outputAsNew',
		},
		credentials: { sustainabilityComplianceApi: { id: 'scApi1', name: 'SC API' } },
	};
}

function workflows() {
	return [
		{
			id: 'staticWebhook1',
			name: 'static data: webhook',
			active: false,
			nodes: [webhookNode(WEBHOOK_PATH), watchNode([220, 0])],
			connections: { Webhook: { main: [[{ node: 'SFDR Changes', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		{
			id: 'staticManual1',
			name: 'static data: manual',
			active: false,
			nodes: [
				{
					id: 'manual',
					name: 'When clicking ‘Execute workflow’',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				watchNode([220, 0]),
			],
			connections: {
				'When clicking ‘Execute workflow’': {
					main: [[{ node: 'SFDR Changes', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
		},
	];
}

async function leg(version: string): Promise<{ passed: number; failed: number }> {
	const { tally, check, fail } = checkTally();
	await ensureN8n(version);
	const sim = await startSimulator();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-static-data-'));
	let server: Awaited<ReturnType<typeof startN8nServer>> | undefined;
	try {
		installPackageInto(userFolder, PROJECT_ROOT, checkBuiltPackage(PROJECT_ROOT));
		await importIntoN8n(version, userFolder, {
			credentials: [simulatorCredential(sim.url)],
			workflows: workflows(),
			then: [['publish:workflow', '--id=staticWebhook1']],
		});
		server = await startN8nServer(version, userFolder, 180_000);
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		const staticDataOf = async (id: string) => {
			const answer = await rest<{ staticData?: unknown }>('GET', `/workflows/${id}`);
			assert.equal(answer.status, 200, `GET /rest/workflows/${id}: ${answer.text.slice(0, 200)}`);
			return answer.data.staticData ?? null;
		};
		const callWebhook = async () => {
			const response = await fetch(`${server!.base}/webhook/${WEBHOOK_PATH}`, { method: 'POST' });
			const text = await response.text();
			assert.equal(
				response.status,
				200,
				`webhook answered ${response.status}: ${text.slice(0, 300)}`,
			);
			const parsed = text ? (JSON.parse(text) as unknown) : [];
			return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
		};

		await check('active workflow (webhook): every run is remembered', async () => {
			const first = await callWebhook();
			assert.deepEqual(
				first.map((item) => [item.isin, item.status]),
				ISINS.map((isin) => [isin, 'new']),
				`run 1 outputs every ISIN as new: ${JSON.stringify(first).slice(0, 300)}`,
			);
			const second = await callWebhook();
			assert.equal(
				second.filter((item) => item.isin).length,
				0,
				`run 2 outputs nothing (run 1 was remembered): ${JSON.stringify(second).slice(0, 300)}`,
			);
			const saved = JSON.stringify(await staticDataOf('staticWebhook1'));
			assert.ok(
				saved.includes('lastResults'),
				`static data after the runs: ${saved.slice(0, 200)}`,
			);
			sim.setDataVersion(2);
			const third = await callWebhook();
			assert.deepEqual(
				third.filter((item) => item.isin).map((item) => [item.isin, item.direction]),
				[
					['US0378331005', 'downgrade'],
					['DE0007236101', 'upgrade'],
				],
				`run 3, on the later data: ${JSON.stringify(third).slice(0, 300)}`,
			);
			sim.setDataVersion(1);
			return `runs: 2 new, nothing, then downgrade + upgrade; static data ${saved.length} characters`;
		});

		await check(
			'manual runs (editor, POST /rest/workflows/:id/run): nothing is remembered',
			async () => {
				const workflow = await rest<Record<string, unknown>>('GET', '/workflows/staticManual1');
				assert.equal(workflow.status, 200, workflow.text.slice(0, 200));
				for (let run = 1; run <= 2; run++) {
					const started = await rest<{ executionId?: string }>(
						'POST',
						'/workflows/staticManual1/run',
						{
							workflowData: workflow.data,
							triggerToStartFrom: { name: 'When clicking ‘Execute workflow’' },
						},
					);
					assert.equal(started.status, 200, `run ${run}: ${started.text.slice(0, 300)}`);
					const executionId = started.data?.executionId;
					assert.ok(executionId, `run ${run} started no execution: ${started.text.slice(0, 300)}`);
					let status: string | undefined;
					for (let wait = 0; wait < 60 && status !== 'success' && status !== 'error'; wait++) {
						await sleep(500);
						const execution: { data?: { status?: string; mode?: string } } = await rest<{
							status?: string;
							mode?: string;
						}>('GET', `/executions/${executionId}`);
						status = execution.data?.status;
						if (status === 'success') assert.equal(execution.data?.mode, 'manual');
					}
					assert.equal(status, 'success', `run ${run} ended ${status}`);
				}
				const saved = await staticDataOf('staticManual1');
				assert.ok(
					saved === null || !JSON.stringify(saved).includes('lastResults'),
					`static data after two manual runs: ${JSON.stringify(saved).slice(0, 200)}`,
				);
				return `2 manual runs, mode manual, static data ${JSON.stringify(saved)}`;
			},
		);
	} catch (error) {
		fail('set-up', error);
	} finally {
		if (server) await server.stop();
		await sim.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[n8n ${version}] ${tally.passed} passed, ${tally.failed} failed`);
	return tally;
}

async function main(): Promise<number> {
	const versions = versionArguments(process.argv.slice(2));
	let failed = 0;
	for (const version of n8nVersionsToRun(versions)) failed += (await leg(version)).failed;
	return failed === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);

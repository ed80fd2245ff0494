/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- bench tooling runs in Node, outside n8n's sandbox */
/**
 * Section 3b, throttle goodput in queue mode: a real n8n (the newest supported) as main + Redis + Postgres + 2
 * workers (test/e2e/queue-cluster.ts), 10 webhook executions at once on one API key, each needing 10 requests
 * (100 ISINs, Batch Size 10), under the simulator's short-burst limit of 5 requests per second: M = 100, ideal
 * M / R = 20 s. Beside it, the same work as 10 executions at once in one process (n8n's engine in this process,
 * as section 3). Skipped, with the reason, when that n8n, redis-server or Postgres is not installed here (`npm run
 * n8n:install` and `npm run test:n8n:queue` install them).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import {
	ensureQueueServices,
	startQueueCluster,
	withClusterDeadline,
	type QueueCluster,
} from '../test/e2e/queue-cluster';
import {
	ensureN8n,
	simulatorCredential,
	supportedN8nVersions,
	webhookNode,
	withKillOnSignal,
} from '../test/e2e/lib';
import type { BenchContext, Section } from './context';
import { median, ratio, seconds } from './measure';
import { generateRows } from './nodes/GenerateItems.node';
import type { SectionResult } from './report';
import { idleWindow, runScenario } from './throttle';
import type { ChildSimulator } from './sim';
import { NODE, benchWorkflow, timedRun } from './workflows';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const RATE = 5;
const WINDOW_MS = 1000;
const BATCH = 10;
const EXECUTIONS = 10;
const ISINS = 100;
const WORKERS = 2;
const WEBHOOK_PATH = 'bench-queue-sfdr';

interface Run {
	ms: number;
	failed: number;
	requests: number;
	refused: number;
	/** Executions each worker finished in this run. */
	perWorker?: number[];
	error?: string;
}

interface Outcome {
	scenario: string;
	runs: Run[];
}

const requestsNeeded = EXECUTIONS * Math.ceil(ISINS / BATCH);
const idealMs = (requestsNeeded / RATE) * WINDOW_MS;
const rowsOf = (index: number) => generateRows(ISINS, ISINS, 'US', index * ISINS);
const sfdrParameters = { operation: 'getSfdrClassification', options: { batchSize: BATCH } };

/** Why the queue case cannot run here, or undefined. */
function unavailable(version: string): string | undefined {
	const cache =
		process.env.N8N_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-sustainability-compliance');
	if (!existsSync(join(cache, `n8n-${version}`, 'node_modules', 'n8n', 'bin', 'n8n')))
		return `n8n ${version} is not installed in ${cache} (npm run n8n:install)`;
	const missing = [
		...(['/usr/bin/redis-server', '/usr/local/bin/redis-server'].some(existsSync)
			? []
			: ['redis-server']),
		...(existsSync('/usr/lib/postgresql') ? [] : ['postgresql']),
	];
	if (missing.length)
		return `${missing.join(' and ')} not installed (npm run test:n8n:queue installs them with apt-get)`;
	return undefined;
}

function webhookWorkflow(): object {
	return {
		id: 'benchQueueSfdr',
		name: 'bench: queue-mode throttle',
		active: false,
		nodes: [
			webhookNode(WEBHOOK_PATH, { responseData: 'firstEntryJson' }),
			{
				id: 'split',
				name: 'Input',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.rows', options: {} },
			},
			{
				id: 'node',
				name: NODE,
				type: 'n8n-nodes-sustainability-compliance.sustainabilityInstruments',
				typeVersion: 1,
				position: [440, 0],
				parameters: sfdrParameters,
				credentials: { sustainabilityComplianceApi: { id: 'scApi1', name: 'SC API' } },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
			Input: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

function finishedPerWorker(cluster: QueueCluster): number[] {
	return cluster.workers.map(
		(worker) => (worker.log().match(/Worker finished execution \d+ \(job/g) ?? []).length,
	);
}

async function queueRuns(
	context: BenchContext,
	sim: ChildSimulator,
	version: string,
	repeat: number,
): Promise<Run[]> {
	// Installs (if any: unavailable() found n8n, Redis and Postgres here) before the deadline starts.
	const { install, services } = await withKillOnSignal('bench queue section', async () => ({
		install: await ensureN8n(version),
		services: ensureQueueServices(),
	}));
	return await withClusterDeadline('bench queue section', 15 * 60_000, async () => {
		const cluster = await startQueueCluster({
			install,
			services,
			workers: WORKERS,
			credentials: [simulatorCredential(sim.url)],
			workflows: [webhookWorkflow()],
			publish: ['benchQueueSfdr'],
		});
		// Two calls of one ISIN first (one request each, far under the limit), so that the first run does not pay
		// for the workers' warm-up; the simulator is reset before each run.
		await Promise.all(
			[0, 1].map((index) =>
				fetch(`${cluster.base}/webhook/${WEBHOOK_PATH}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ rows: generateRows(1, 1, 'DE', index) }),
				}).then((response) => response.text()),
			),
		);
		const runs: Run[] = [];
		for (let run = 0; run < repeat; run++) {
			await idleWindow(sim);
			const before = finishedPerWorker(cluster);
			const started = performance.now();
			const answers = await Promise.all(
				Array.from({ length: EXECUTIONS }, async (_, index) => {
					const response = await fetch(`${cluster.base}/webhook/${WEBHOOK_PATH}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ rows: rowsOf(index) }),
					});
					return { status: response.status, text: await response.text() };
				}),
			);
			const ms = performance.now() - started;
			const stats = await sim.stats();
			const failed = answers.filter((answer) => answer.status !== 200);
			const after = finishedPerWorker(cluster);
			runs.push({
				ms,
				failed: failed.length,
				requests: stats.byRoute[SFDR] ?? 0,
				refused: stats.byStatus['429'] ?? 0,
				perWorker: after.map((count, index) => count - before[index]),
				error: failed[0] ? `${failed[0].status}: ${failed[0].text.slice(0, 200)}` : undefined,
			});
			context.log(
				`queue: run ${run + 1}: ${seconds(ms)}, ${failed.length} failed, ${stats.byStatus['429'] ?? 0} refused, per worker ${runs[run].perWorker?.join(' / ')}`,
			);
		}
		return runs;
	});
}

export const queue: Section = {
	id: 'queue',
	title: `3b. Throttle goodput in queue mode: ${WORKERS} workers, one key, short-burst limit of ${RATE} requests per second`,
	async run(context: BenchContext): Promise<SectionResult> {
		const version = supportedN8nVersions().newest;
		const repeat = context.quick ? 1 : 3;
		const command = context.command('queue');
		const skip = unavailable(version);
		if (skip) {
			context.log(`queue: SKIPPED: ${skip}`);
			return {
				id: 'queue',
				title: this.title,
				tables: [
					{
						title: 'Skipped',
						command,
						columns: ['Reason'],
						rows: [[skip]],
					},
				],
				data: { skipped: skip },
			};
		}
		const limited = () =>
			context.simulator({ burstLimit: { requests: RATE, windowMs: WINDOW_MS } });
		// Warm n8n's engine in this process first, against another simulator.
		const warm = await context.simulator();
		await timedRun(
			benchWorkflow(generateRows(10, 10), {
				type: 'sustainabilityInstruments',
				parameters: sfdrParameters,
			}),
			warm.url,
		);
		await warm.close();

		const outcomes: Outcome[] = [];
		context.log(`queue: ${EXECUTIONS} executions at once in one process`);
		let sim = await limited();
		outcomes.push({
			scenario: `One n8n process (n8n's engine in the bench's process), ${EXECUTIONS} executions at once`,
			runs: (
				await runScenario(
					sim,
					{
						name: 'one process',
						executions: EXECUTIONS,
						isins: ISINS,
						node: { type: 'sustainabilityInstruments', parameters: sfdrParameters },
					},
					repeat,
					RATE,
				)
			).runs,
		});
		await sim.close();
		context.log(
			`queue: n8n ${version} in queue mode, ${WORKERS} workers (starting it takes 1-2 min)`,
		);
		sim = await limited();
		outcomes.push({
			scenario: `n8n ${version} queue mode: main + Redis + Postgres + ${WORKERS} workers, ${EXECUTIONS} webhook calls at once`,
			runs: await queueRuns(context, sim, version, repeat),
		});
		await sim.close();

		const rows = outcomes.map((outcome) => {
			const ms = median(outcome.runs.map((run) => run.ms));
			const failed = outcome.runs.some((run) => run.failed > 0);
			return [
				outcome.scenario,
				requestsNeeded,
				seconds(idealMs),
				outcome.runs.map((run) => `${seconds(run.ms)}${run.failed ? ' (failed)' : ''}`).join(', '),
				failed ? '– (failed)' : ratio(ms / idealMs),
				outcome.runs.map((run) => run.failed).join(', '),
				outcome.runs.map((run) => `${run.requests} / ${run.refused}`).join(', '),
				outcome.runs.map((run) => run.perWorker?.join(' / ') ?? '–').join(', '),
			];
		});
		return {
			id: 'queue',
			title: this.title,
			tables: [
				{
					title: `Burst limit ${RATE} requests per ${WINDOW_MS} ms (sliding window, per key); ${EXECUTIONS} executions × ${ISINS} ISINs, Batch Size ${BATCH}: M = ${requestsNeeded} requests`,
					command,
					columns: [
						'Where',
						'M',
						'Ideal M / R',
						`Completion time (runs 1${repeat > 1 ? ', 2, 3' : ''})`,
						'Median / ideal',
						'Failed executions',
						'Requests sent / refused with 429',
						'Executions per worker',
					],
					rows,
					notes: [
						"Completion: from sending the 10 calls (queue mode: POSTs to the Webhook, answered when the workflow is done; one process: 10 runs of the workflow started at once) to the last one done; the simulator's window is empty at the start of each run.",
						'Queue mode: main enqueues each call in Redis, the two `n8n worker` processes (up to 10 executions each at once) take them; each worker paces the key on its own: they share no state.',
						'Run 1 meets the limit unannounced; runs 2 and 3 follow within seconds, with what each process learned about the key.',
						'Executions per worker: "Worker finished execution" lines in each worker\'s log during the run.',
						...outcomes.flatMap((outcome) =>
							outcome.runs
								.map((run, index) =>
									run.error
										? `${outcome.scenario}, run ${index + 1}: first failure: ${run.error}`
										: '',
								)
								.filter(Boolean),
						),
					],
				},
			],
			data: outcomes,
			checks: outcomes.map((outcome) => {
				const value = median(outcome.runs.map((run) => run.ms)) / idealMs;
				const failed = outcome.runs.reduce((sum, run) => sum + run.failed, 0);
				return {
					name: `${outcome.scenario}: ≤ 1.2 × ideal, no failure`,
					ok: value <= 1.2 && failed === 0,
					value: `${ratio(value)}, ${failed} failed`,
				};
			}),
		};
	},
};

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * queue-mode.ts — the examples in a real n8n in queue mode (scale-out): main + Redis + Postgres + 2 workers.
 *
 *   npm run test:n8n:queue [-- --n8n-version X]      (default: the newest supported n8n, N8N_NEWEST)
 *
 * 1. The same thing `npm run demo` does, in this process: every example run in n8n's engine (test/workflow/runner.ts)
 *    against the API simulator; every node's output is kept as the expected output.
 * 2. A queue-mode cluster (queue-cluster.ts): Redis, Postgres, `n8n start` and two `n8n worker` on loopback, the built
 *    package in their shared user folder. Each example is imported with its trigger (Manual / Schedule) replaced by a
 *    Webhook node of the same name (POST /webhook/queue-<nn>, answering when the last node is done), published, and
 *    called; example 06 is called twice with the simulator's later data before the second call, as the demo runs it.
 * 3. Per call, checks that (a) a worker ran it: main's log says "Enqueued execution <id>" and exactly one worker's
 *    log says "Worker finished execution <id>" (n8n logs both at info level: scaling.service.js on main,
 *    job-processor.js on the worker; main never runs a queued execution itself), and the execution's mode is
 *    `webhook`; (b) every node's output JSON, read back from main's REST API (GET /rest/executions/:id), equals the
 *    demo's, except the trigger (a Webhook's output is the HTTP request, not a Manual / Schedule trigger's) and the Send
 *    Email nodes (in the real n8n they deliver to an SMTP sink and output the SMTP server's answer; instead the mails
 *    the sink received are compared with the ones the demo would send: recipients and subjects). Volatile values
 *    (request ids, times of the run) are compared by presence only.
 * Example 08 (AI Agent) is left out: it needs a chat model (`npm run test:n8n:agent` runs it with a stand-in).
 *
 * Everything started (Redis, Postgres, main, workers) is stopped by PID at the end, on failure, on SIGINT / SIGTERM,
 * and when the global deadline (QUEUE_E2E_DEADLINE_MS, default 8 minutes) passes. Prints `N passed, M failed`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'crypto';
import { createRequire } from 'module';
import { readFileSync, readdirSync, writeFileSync } from 'fs';
import { join } from 'path';

import { startSimulator } from '../simulator';
import type { Simulator } from '../simulator/types';
import {
	PROJECT_ROOT,
	checkTally,
	ensureN8n,
	simulatorCredential,
	sleep,
	supportedN8nVersions,
	versionArguments,
	type RestCall,
} from './lib';
import {
	mainEnqueued,
	startQueueCluster,
	withClusterDeadline,
	workerThatRan,
	type QueueCluster,
} from './queue-cluster';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

process.env.SC_NODES_FROM = 'dist';

type Json = Record<string, unknown>;

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	position?: [number, number];
	parameters?: Json;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

interface Example {
	id: string;
	file: string;
	workflow: { name?: string; nodes: WorkflowNode[]; connections: Json; staticData?: object };
	trigger: string;
	/** Runs in a row (06: two weeks of its schedule, the second on the simulator's later data). */
	runs: Array<{ before?: (sim: Simulator) => void }>;
}

const TRIGGER_TYPES = ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger'];
const EMAIL_TYPE = 'n8n-nodes-base.emailSend';
const API_CREDENTIAL = { id: 'sc-simulator', name: 'Sustainability Compliance API' };
const SMTP_CREDENTIAL = { id: 'smtp-example', name: 'SMTP account' };
/** Values that differ from run to run (ids, times, how long a run waited): compared by presence and type only. */
const VOLATILE_KEYS =
	/^(request_?id|requestId|.*_at|at|date|timestamp|generated|message_?id|waited_seconds|.*_ms)$/i;
/** Identifiers the API makes up per call (a report's rpt_…) and times. */
const VOLATILE_VALUES =
	/^(rpt_[0-9a-f]+|https?:\/\/\S+\/documents\/[0-9a-f]+\.pdf|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?)$/;
const DEADLINE_MS = Number(process.env.QUEUE_E2E_DEADLINE_MS ?? 8 * 60_000);

const RUNS: Record<string, Example['runs']> = {
	'06': [{}, { before: (sim) => sim.setDataVersion(2) }],
};

function loadExamples(): { examples: Example[]; left: string[] } {
	const examples: Example[] = [];
	const left: string[] = [];
	for (const file of readdirSync(join(PROJECT_ROOT, 'examples'))
		.filter((name) => /^\d\d-.*\.json$/.test(name))
		.sort()) {
		const workflow = JSON.parse(
			readFileSync(join(PROJECT_ROOT, 'examples', file), 'utf8'),
		) as Example['workflow'];
		const id = file.slice(0, 2);
		const triggers = workflow.nodes.filter((node) => TRIGGER_TYPES.includes(node.type));
		if (triggers.length !== 1) {
			left.push(
				`${file}: left out: started by ${workflow.nodes.find((node) => /trigger/i.test(node.type))?.type ?? 'no trigger'}, not a Manual or Schedule Trigger (the AI Agent example needs a chat model: \`npm run test:n8n:agent\` runs it)`,
			);
			continue;
		}
		if (process.env.QUEUE_E2E_ONLY && !process.env.QUEUE_E2E_ONLY.split(',').includes(id)) continue;
		examples.push({ id, file, workflow, trigger: triggers[0].name, runs: RUNS[id] ?? [{}] });
	}
	return { examples, left };
}

/** The example with its trigger replaced by a Webhook node of the same name (so the connections stay as they are). */
function webhookVersion(example: Example): Json {
	const nodes = example.workflow.nodes.map((node) =>
		node.name === example.trigger
			? {
					id: randomUUID(),
					name: node.name,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: node.position ?? [0, 0],
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path: `queue-${example.id}`,
						responseMode: 'lastNode',
						responseData: 'allEntries',
					},
				}
			: node,
	);
	return {
		id: `queueExample${example.id}`,
		name: `queue: ${example.workflow.name ?? example.file}`,
		active: false,
		nodes,
		connections: example.workflow.connections,
		settings: { executionOrder: 'v1' },
	};
}

interface NodeRun {
	data?: { main?: Array<Array<{ json: Json }> | null> };
}
type RunData = Record<string, NodeRun[]>;

/** Every node's output JSON of its last run, output by output (the shape both the demo and n8n's execution share). */
function outputsOf(runData: RunData, skip: (node: string) => boolean): Record<string, Json[][]> {
	const outputs: Record<string, Json[][]> = {};
	for (const [node, runs] of Object.entries(runData)) {
		if (skip(node)) continue;
		const last = runs[runs.length - 1];
		outputs[node] = (last?.data?.main ?? []).map((items) =>
			(items ?? []).map((item) => normalize(item.json) as Json),
		);
	}
	return outputs;
}

function normalize(value: unknown, key = ''): unknown {
	if (
		value !== null &&
		typeof value !== 'object' &&
		(VOLATILE_KEYS.test(key) || VOLATILE_VALUES.test(String(value)))
	)
		return `<${typeof value}>`;
	if (Array.isArray(value)) return value.map((entry) => normalize(entry));
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, normalize(v, k)]));
	return value;
}

interface Expected {
	outputs: Record<string, Json[][]>;
	emails: Array<{ to: string; subject: string }>;
}

/** What `npm run demo` produces for each example, run by run: n8n's engine in this process, same simulator. */
async function demoOutputs(examples: Example[], sim: Simulator): Promise<Map<string, Expected[]>> {
	const { runWorkflow } = await import('../workflow/runner');
	const expected = new Map<string, Expected[]>();
	for (const example of examples) {
		sim.reset();
		let staticData = example.workflow.staticData;
		const runs: Expected[] = [];
		for (const run of example.runs) {
			run.before?.(sim);
			const result = await runWorkflow({ ...example.workflow, staticData } as never, {
				credentials: {
					sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url },
				},
				timeoutMs: 120_000,
				mode: 'trigger',
			});
			if (result.status !== 'success' || result.error)
				throw new Error(`the demo run of ${example.file} failed: ${result.error?.message}`);
			staticData = result.savedStaticData;
			const emailNodes = new Set(
				example.workflow.nodes.filter((node) => node.type === EMAIL_TYPE).map((node) => node.name),
			);
			runs.push({
				outputs: outputsOf(
					result.runData as unknown as RunData,
					(node) => node === example.trigger || emailNodes.has(node),
				),
				emails: result.emails.map((email) => ({ to: String(email.to), subject: email.subject })),
			});
		}
		expected.set(example.id, runs);
	}
	return expected;
}

interface ExecutionSummary {
	id: string;
	mode?: string;
	status?: string;
}

async function executionsOf(rest: RestCall, workflowId: string): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await rest<{ results?: ExecutionSummary[] }>(
		'GET',
		`/executions?filter=${filter}&limit=50`,
	);
	assert.equal(answer.status, 200, `GET /rest/executions: ${answer.text.slice(0, 200)}`);
	return answer.data.results ?? [];
}

/** Execution `id` as main stores it (its `data` is n8n's flatted string: parsed with n8n's own copy of flatted). */
async function executionData(
	rest: RestCall,
	id: string,
	flatted: { parse(text: string): unknown },
): Promise<{ mode?: string; status?: string; runData: RunData }> {
	const answer = await rest<{ mode?: string; status?: string; data?: string }>(
		'GET',
		`/executions/${id}`,
	);
	assert.equal(answer.status, 200, `GET /rest/executions/${id}: ${answer.text.slice(0, 200)}`);
	const data = flatted.parse(answer.data.data ?? 'null') as {
		resultData?: { runData?: RunData };
	} | null;
	return {
		mode: answer.data.mode,
		status: answer.data.status,
		runData: data?.resultData?.runData ?? {},
	};
}

function firstDifference(actual: unknown, expected: unknown, path = ''): string | undefined {
	if (JSON.stringify(actual) === JSON.stringify(expected)) return undefined;
	if (
		actual &&
		expected &&
		typeof actual === 'object' &&
		typeof expected === 'object' &&
		Array.isArray(actual) === Array.isArray(expected)
	) {
		const keys = [...new Set([...Object.keys(actual), ...Object.keys(expected)])];
		for (const key of keys) {
			const difference = firstDifference(
				(actual as Json)[key],
				(expected as Json)[key],
				`${path}${Array.isArray(actual) ? `[${key}]` : `.${key}`}`,
			);
			if (difference) return difference;
		}
	}
	return `${path || '(top)'}: queue mode ${JSON.stringify(actual)?.slice(0, 160)}, demo ${JSON.stringify(expected)?.slice(0, 160)}`;
}

/** How many runs the Only Changes Since Last Run node of the workflow remembers (0: none), from main's REST API. */
async function rememberedRuns(rest: RestCall, exampleId: string): Promise<number> {
	const answer = await rest<{ staticData?: Record<string, { lastResults?: string }> | null }>(
		'GET',
		`/workflows/queueExample${exampleId}`,
	);
	const states = Object.values(answer.data?.staticData ?? {});
	const runs = states.map((state) => {
		try {
			return Number((JSON.parse(state.lastResults ?? '{}') as { run?: number }).run ?? 0);
		} catch {
			return 0;
		}
	});
	return Math.max(0, ...runs);
}

/**
 * POSTs to a production webhook. Right after publishing, main may answer 404 "not registered" for a moment (seen on
 * n8n 2.41.1 in queue mode; a 404 starts no execution): then it is called again, for up to 30 s.
 */
async function callWebhook(
	base: string,
	path: string,
): Promise<{ response: Response; answer: string }> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const response = await fetch(`${base}/webhook/${path}`, { method: 'POST' });
		const answer = await response.text();
		if (response.status !== 404 || Date.now() > deadline) return { response, answer };
		await sleep(500);
	}
}

async function main(): Promise<number> {
	const versions = versionArguments(process.argv.slice(2));
	const version = versions[0] ?? process.env.N8N_E2E_N8N_VERSION ?? supportedN8nVersions().newest;
	const { tally, check, fail } = checkTally();
	const { examples, left } = loadExamples();
	for (const line of left) console.log(`skip ${line}`);

	const knownDefects: string[] = [];
	const sim = await startSimulator({ temperatureRoute: true });
	let smtp: SmtpSink | undefined;
	try {
		await withClusterDeadline('queue-mode check', DEADLINE_MS, async () => {
			const install = await ensureN8n(version);
			// n8n's own copy of flatted, as n8n stringified the execution with it.
			const flatted = createRequire(install.n8n)('flatted') as { parse(text: string): unknown };
			console.log(
				`[queue] demo outputs of ${examples.length} examples (n8n's engine in this process)`,
			);
			const expected = await demoOutputs(examples, sim);
			smtp = await startSmtpSink();
			const cluster: QueueCluster = await startQueueCluster({
				version,
				workers: 2,
				credentials: [
					{ ...simulatorCredential(sim.url), ...API_CREDENTIAL },
					{
						...SMTP_CREDENTIAL,
						type: 'smtp',
						data: {
							user: '',
							password: '',
							host: smtp.host,
							port: smtp.port,
							secure: false,
							disableStartTls: true,
							hostName: '',
						},
					},
				],
				workflows: examples.map(webhookVersion),
				publish: examples.map((example) => `queueExample${example.id}`),
			});
			const rest = cluster.rest;
			const ranOn = new Map<string, number>();
			/** The runs that met a known n8n defect: reported, not counted as failures of the package. */

			for (const example of examples) {
				sim.reset();
				for (const [runIndex, run] of example.runs.entries()) {
					const label = `${example.file}${example.runs.length > 1 ? ` run ${runIndex + 1}` : ''}`;
					await check(label, async () => {
						run.before?.(sim);
						smtp!.reset();
						const remembered = runIndex > 0 ? await rememberedRuns(rest, example.id) : 0;
						const known = new Set(
							(await executionsOf(rest, `queueExample${example.id}`)).map((e) => e.id),
						);
						const { response, answer } = await callWebhook(cluster.base, `queue-${example.id}`);
						assert.equal(
							response.status,
							200,
							`webhook answered ${response.status}: ${answer.slice(0, 300)}`,
						);
						let created: ExecutionSummary[] = [];
						for (let wait = 0; wait < 40 && created.length === 0; wait++) {
							created = (await executionsOf(rest, `queueExample${example.id}`)).filter(
								(e) => !known.has(e.id) && e.status !== 'running' && e.status !== 'new',
							);
							if (!created.length) await sleep(250);
						}
						assert.equal(created.length, 1, `one new finished execution, found ${created.length}`);
						const executionId = created[0].id;
						let worker: string | undefined;
						for (let wait = 0; wait < 20 && !worker; wait++) {
							worker = workerThatRan(cluster, executionId);
							if (!worker) await sleep(250);
						}
						assert.ok(
							mainEnqueued(cluster, executionId),
							`main's log has no "Enqueued execution ${executionId}"`,
						);
						assert.ok(worker, `no worker's log says "Worker finished execution ${executionId}"`);
						ranOn.set(worker, (ranOn.get(worker) ?? 0) + 1);
						const execution = await executionData(rest, executionId, flatted);
						assert.equal(execution.mode, 'webhook', 'execution mode');
						assert.equal(execution.status, 'success', 'execution status');
						const want = expected.get(example.id)![runIndex];
						const emailNodes = new Set(
							example.workflow.nodes.filter((n) => n.type === EMAIL_TYPE).map((n) => n.name),
						);
						const got = outputsOf(
							execution.runData,
							(node) => node === example.trigger || emailNodes.has(node),
						);
						assert.deepEqual(
							Object.keys(got).sort(),
							Object.keys(want.outputs).sort(),
							'the nodes that ran',
						);
						if (process.env.QUEUE_E2E_DUMP)
							writeFileSync(
								join(process.env.QUEUE_E2E_DUMP, `${example.id}-${runIndex + 1}.json`),
								JSON.stringify(
									{
										queue: got,
										demo: want.outputs,
										staticData: (await rest('GET', `/workflows/queueExample${example.id}`)).text,
									},
									null,
									1,
								),
							);
						for (const node of Object.keys(want.outputs)) {
							const difference = firstDifference(got[node], want.outputs[node], node);
							if (difference && remembered > 0 && (await rememberedRuns(rest, example.id)) === 1) {
								knownDefects.push(
									`${label} (execution ${executionId} on ${worker}): the workflow's static data held run ${remembered} before the call, yet the run started from nothing (it now remembers run 1). n8n ${version} in queue mode does not give a worker the workflow's static data for a new execution: workflow-runner.js enqueues it with loadStaticData only for an existing execution, and the execution's stored workflow snapshot (toWorkflowSnapshot) has no staticData. n8n 2.20.12's worker reloads it. Only Changes Since Last Run cannot remember between runs there.`,
								);
								return `KNOWN n8n DEFECT (see below): ${difference}`;
							}
							assert.ok(!difference, `output differs from the demo's: ${difference}`);
						}
						const mails = smtp!
							.mails()
							.map((mail) => ({ to: mail.to.join(', '), subject: mail.subject }));
						assert.deepEqual(
							mails.map((mail) => mail.subject),
							want.emails.map((email) => email.subject),
							'the emails sent (subjects)',
						);
						const items = Object.values(got).reduce(
							(sum, outputs) => sum + outputs.reduce((n, output) => n + output.length, 0),
							0,
						);
						return `execution ${executionId} on ${worker}; ${Object.keys(got).length} nodes, ${items} items as in the demo${mails.length ? `; ${mails.length} email(s)` : ''}`;
					});
				}
			}
			await check('both workers took executions', () => {
				assert.equal(ranOn.size, 2, `executions per worker: ${JSON.stringify([...ranOn])}`);
				return [...ranOn].map(([worker, count]) => `${worker}: ${count}`).join(', ');
			});
		});
	} catch (error) {
		fail('set-up', error);
	} finally {
		await sim.close();
		await smtp?.close().catch(() => undefined);
	}
	for (const defect of knownDefects) console.log(`KNOWN n8n DEFECT  ${defect}`);
	console.log(
		`[n8n ${version}, queue mode, 2 workers] ${tally.passed} passed, ${tally.failed} failed${knownDefects.length ? ` (${knownDefects.length} passed with a known n8n defect, see above)` : ''}`,
	);
	console.log(`${tally.passed} passed, ${tally.failed} failed`);
	return tally.failed === 0 && tally.passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);

/**
 * real-n8n.ts — runs workflows inside a REAL n8n (2.20.12, Node 24) with this package installed.
 *
 *   npx ts-node --transpile-only test/e2e/real-n8n.ts [options] [workflow.json | dir/*.json ...]
 *
 * Default workflows: test/e2e/fixtures/*.json and examples/*.json.
 * Options:
 *   --package-root DIR   built package to install (default: the project root; needs dist/ + package.json)
 *   --keep               keep the temp n8n user folder (path printed)
 *   --no-simulator       do not start the API simulator (workflows that need it fail)
 *   --dump               write each execution JSON to test-output/n8n-runs/<file>.run.json (for writing checks)
 * Env: E2E_EXEC_TIMEOUT_MS (per `n8n execute`, default 180000), E2E_IMPORT_TIMEOUT_MS (default 120000),
 *      N8N_E2E_CACHE (cache folder of ensure-n8n.sh).
 *
 * Steps: (a) scripts/real-n8n/ensure-n8n.sh, (b) check the build and copy it into a temp
 * N8N_USER_FOLDER's community-package folder (see lib.ts for why), (c) start the simulator
 * in-process, (d) `n8n import:credentials` of a sustainabilityComplianceApi credential pointing at it
 * and `n8n import:workflow` of every workflow (credential ids rewritten, `__SIMULATOR_URL__` replaced),
 * (e) `n8n execute --id <id> --rawOutput` for each, parse the execution JSON and run the workflow's
 * check from CHECKS, (f) print `N passed, M failed` as the last line; exit 1 on any failure.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { basename, dirname, join, resolve } from 'path';

import type { RecordedRequest, RequestFilter, Simulator, SimulatorOptions } from '../simulator/types';
import {
	PROJECT_ROOT,
	checkBuiltPackage,
	ensureN8n,
	formatMs,
	installPackageInto,
	lastLines,
	parseJsonOutput,
	runN8n,
} from './lib';

const CREDENTIAL_TYPE = 'sustainabilityComplianceApi';
const CREDENTIAL_ID = 'e2eSimCredential1';
const CREDENTIAL_NAME = 'Sustainability Compliance (simulator)';
const API_KEY = 'sim-all-families';
const SIMULATOR_PLACEHOLDER = '__SIMULATOR_URL__';
const DEFAULT_WORKFLOWS = ['test/e2e/fixtures/*.json', 'examples/*.json'];
const EXEC_TIMEOUT_MS = Number(process.env.E2E_EXEC_TIMEOUT_MS ?? 180_000);
const IMPORT_TIMEOUT_MS = Number(process.env.E2E_IMPORT_TIMEOUT_MS ?? 120_000);

// ---------------------------------------------------------------------------------------------
// Shapes of what n8n prints (IRun) and of what a check receives.

interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: ({ json: Record<string, unknown> }[] | null)[] };
}

interface N8nRun {
	finished?: boolean;
	status?: string;
	data: { resultData: { runData: Record<string, NodeRun[]>; lastNodeExecuted?: string; error?: { message?: string } } };
}

export interface CheckContext {
	file: string;
	run: N8nRun;
	/** null when run with --no-simulator. */
	sim: Simulator | null;
	/** json of the items a node emitted (last run of the node, given output). Throws if the node did not run. */
	items(nodeName: string, output?: number): Record<string, unknown>[];
	/** Requests the simulator received during this workflow (it is reset before each workflow). */
	requests(filter?: RequestFilter): RecordedRequest[];
}

type Check = (ctx: CheckContext) => void | Promise<void>;

/**
 * Per-workflow checks, keyed by file name. A workflow without an entry only has to run without error.
 * Add one entry per examples/*.json file.
 */
const CHECKS: Record<string, Check> = {
	'manual-set.json': (ctx) => {
		const [item] = ctx.items('Set');
		assert.equal(item.greeting, 'hello from a real n8n');
		assert.equal(item.answer, 42);
	},
	'http-credential.json': (ctx) => {
		// The package's credential type was loaded by n8n, decrypted, and its `authenticate` block
		// put the key in the x-api-key header.
		const [item] = ctx.items('List portfolios');
		assert.ok(item.data && typeof item.data === 'object', 'response has data');
		assert.equal((item.data as { members?: unknown }).members, 3, 'org-a has 3 members');
		const requests = ctx.requests({ route: 'GET /portfolios' });
		assert.equal(requests.length, 1, 'exactly one GET /portfolios');
		assert.equal(requests[0].key, API_KEY);
		assert.equal(requests[0].status, 200);
	},
	'01-holdings-sfdr-pai-involvements.json': (ctx) => {
		const rows = ctx.items('One Item per Row');
		const out = ctx.items('Business Involvements');
		assert.equal(out.length, rows.length, 'one output item per holding row');
		assert.equal(out[0].sfdr_article, 'Article 8', 'SFDR fields were added to the items');
		const requests = ctx.requests();
		assert.ok(requests.length >= 3, `at least one request per node (got ${requests.length})`);
		for (const request of requests) {
			assert.equal(request.key, API_KEY);
			assert.equal(request.status, 200, `${request.method} ${request.path} answered ${request.status}`);
		}
	},
};

// ---------------------------------------------------------------------------------------------

interface Args {
	packageRoot: string;
	keep: boolean;
	simulator: boolean;
	dump: boolean;
	patterns: string[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = { packageRoot: PROJECT_ROOT, keep: false, simulator: true, dump: false, patterns: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep') args.keep = true;
		else if (arg === '--no-simulator') args.simulator = false;
		else if (arg === '--dump') args.dump = true;
		else if (arg === '--package-root') args.packageRoot = resolve(argv[++i] ?? '');
		else if (arg.startsWith('--package-root=')) args.packageRoot = resolve(arg.slice('--package-root='.length));
		else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
		else args.patterns.push(arg);
	}
	if (args.patterns.length === 0) args.patterns = DEFAULT_WORKFLOWS;
	return args;
}

/** Expands `file.json` or `dir/*.json` style patterns (a `*` in the file name only). */
function expandPatterns(patterns: string[]): string[] {
	const files: string[] = [];
	for (const pattern of patterns) {
		const absolute = resolve(PROJECT_ROOT, pattern);
		const name = basename(absolute);
		if (!name.includes('*')) {
			if (!existsSync(absolute)) throw new Error(`workflow file not found: ${pattern}`);
			files.push(absolute);
			continue;
		}
		const dir = dirname(absolute);
		if (!existsSync(dir)) continue;
		const regex = new RegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`);
		for (const entry of readdirSync(dir).sort()) if (regex.test(entry)) files.push(join(dir, entry));
	}
	return [...new Set(files)];
}

/** False for JSON that is not a workflow export (e.g. sample data next to the examples): skipped. */
function isWorkflowFile(file: string): boolean {
	try {
		const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<WorkflowJson>;
		return Array.isArray(json.nodes) && typeof json.connections === 'object';
	} catch {
		return true; // let prepareWorkflow report the parse error
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: { name: string; type: string; credentials?: Record<string, { id: string; name: string }> }[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

interface PreparedWorkflow {
	file: string;
	id: string;
	workflow: WorkflowJson;
	needsSimulator: boolean;
}

function prepareWorkflow(file: string, index: number, simulatorUrl: string): PreparedWorkflow {
	const text = readFileSync(file, 'utf8');
	const needsSimulator = text.includes(SIMULATOR_PLACEHOLDER) || text.includes(`"${CREDENTIAL_TYPE}"`);
	const workflow = JSON.parse(text.split(SIMULATOR_PLACEHOLDER).join(simulatorUrl)) as WorkflowJson;
	if (!Array.isArray(workflow.nodes) || typeof workflow.connections !== 'object') {
		throw new Error(`${basename(file)} is not a workflow export (nodes/connections missing)`);
	}
	const id = `e2eWorkflow${String(index + 1).padStart(4, '0')}`; // n8n ids: at most 21 chars
	for (const node of workflow.nodes) {
		if (node.credentials?.[CREDENTIAL_TYPE]) {
			node.credentials[CREDENTIAL_TYPE] = { id: CREDENTIAL_ID, name: CREDENTIAL_NAME };
		}
	}
	return {
		file,
		id,
		needsSimulator,
		workflow: { ...workflow, id, name: workflow.name ?? basename(file), active: false, isArchived: false },
	};
}

function makeContext(file: string, run: N8nRun, sim: Simulator | null): CheckContext {
	return {
		file,
		run,
		sim,
		items(nodeName, output = 0) {
			const runs = run.data.resultData.runData[nodeName];
			if (!runs?.length) {
				const ran = Object.keys(run.data.resultData.runData).join(', ');
				throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran})`);
			}
			const last = runs[runs.length - 1];
			return (last.data?.main?.[output] ?? []).map((item) => item.json);
		},
		requests(filter) {
			if (!sim) throw new Error('the simulator is not running (--no-simulator)');
			return sim.requests(filter);
		},
	};
}

async function loadSimulator(): Promise<Simulator> {
	const modulePath = join(PROJECT_ROOT, 'test', 'simulator');
	let mod: { startSimulator?: (options: SimulatorOptions) => Simulator | Promise<Simulator> };
	try {
		mod = require(modulePath);
	} catch (error) {
		throw new Error(`cannot load the simulator from ${modulePath}: ${(error as Error).message}`);
	}
	if (typeof mod.startSimulator !== 'function') throw new Error(`${modulePath} exports no startSimulator()`);
	return await mod.startSimulator({ port: 0, temperatureRoute: true });
}

async function main(): Promise<number> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	let passed = 0;
	let failed = 0;
	const fail = (what: string, why: string) => {
		failed++;
		console.log(`FAIL ${what}\n     ${why.split('\n').join('\n     ')}`);
	};

	// (a) n8n
	console.log('[e2e] ensuring n8n is installed (first run: several minutes)...');
	const paths = await ensureN8n();
	console.log(`[e2e] node: ${paths.node}\n[e2e] n8n:  ${paths.n8n}`);

	// (b) the package
	const info = checkBuiltPackage(args.packageRoot);
	const files = expandPatterns(args.patterns).filter((file) => {
		if (isWorkflowFile(file)) return true;
		console.log(`[e2e] skipping ${basename(file)}: not a workflow export`);
		return false;
	});
	if (files.length === 0) throw new Error(`no workflow files match ${args.patterns.join(' ')}`);

	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
	let sim: Simulator | null = null;
	try {
		const installed = installPackageInto(userFolder, args.packageRoot, info);
		console.log(
			`[e2e] ${info.name}@${info.version} (${info.nodes.length} nodes, ${info.credentials.length} credentials) -> ${installed}`,
		);

		// (c) simulator
		if (args.simulator) {
			sim = await loadSimulator();
			console.log(`[e2e] simulator at ${sim.url}`);
		}
		const simulatorUrl = sim?.url ?? 'http://127.0.0.1:9';

		// (d) credential + workflows
		const credentialFile = join(userFolder, 'e2e-credentials.json');
		writeFileSync(
			credentialFile,
			JSON.stringify([
				{
					id: CREDENTIAL_ID,
					name: CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey: API_KEY, baseUrl: simulatorUrl },
				},
			]),
		);
		const credImport = await runN8n(['import:credentials', `--input=${credentialFile}`], userFolder, IMPORT_TIMEOUT_MS, {
			N8N_LOG_LEVEL: 'info',
		});
		if (credImport.code !== 0 || !/Successfully imported 1 credential/.test(credImport.stdout + credImport.stderr)) {
			throw new Error(
				`n8n import:credentials failed (exit ${credImport.code}${credImport.timedOut ? ', timed out' : ''}):\n${lastLines(credImport.stdout + credImport.stderr, 15)}`,
			);
		}
		console.log(`[e2e] imported credential ${CREDENTIAL_ID} (${formatMs(credImport.ms)})`);

		const prepared: PreparedWorkflow[] = [];
		for (const [index, file] of files.entries()) {
			try {
				prepared.push(prepareWorkflow(file, index, simulatorUrl));
			} catch (error) {
				fail(basename(file), (error as Error).message);
			}
		}
		const workflowFile = join(userFolder, 'e2e-workflows.json');
		writeFileSync(workflowFile, JSON.stringify(prepared.map((p) => p.workflow)));
		const wfImport = await runN8n(['import:workflow', `--input=${workflowFile}`], userFolder, IMPORT_TIMEOUT_MS, {
			N8N_LOG_LEVEL: 'info',
		});
		if (wfImport.code !== 0 || !/Successfully imported \d+ workflows?/.test(wfImport.stdout + wfImport.stderr)) {
			throw new Error(
				`n8n import:workflow failed (exit ${wfImport.code}${wfImport.timedOut ? ', timed out' : ''}):\n${lastLines(wfImport.stdout + wfImport.stderr, 15)}`,
			);
		}
		console.log(`[e2e] imported ${prepared.length} workflow(s) (${formatMs(wfImport.ms)})`);

		// (e) execute + check
		for (const p of prepared) {
			const label = `${basename(p.file)} [${p.id}]`;
			if (p.needsSimulator && !sim) {
				fail(label, 'needs the simulator, which was not started (--no-simulator)');
				continue;
			}
			sim?.reset();
			// n8n prints the execution JSON through its logger: it needs log level info.
			const result = await runN8n(['execute', `--id=${p.id}`, '--rawOutput'], userFolder, EXEC_TIMEOUT_MS, {
				N8N_LOG_LEVEL: 'info',
			});
			const output = result.stdout + result.stderr;
			if (result.timedOut) {
				fail(label, `n8n execute timed out after ${formatMs(EXEC_TIMEOUT_MS)}:\n${lastLines(output, 10)}`);
				continue;
			}
			let run: N8nRun;
			try {
				run = parseJsonOutput(result.stdout) as N8nRun;
			} catch {
				fail(label, `n8n execute exited ${result.code} without execution JSON:\n${lastLines(output, 15)}`);
				continue;
			}
			if (args.dump) {
				const dumpDir = join(PROJECT_ROOT, 'test-output', 'n8n-runs');
				mkdirSync(dumpDir, { recursive: true });
				writeFileSync(join(dumpDir, `${basename(p.file, '.json')}.run.json`), JSON.stringify(run, null, 2));
			}
			const runError = run.data?.resultData?.error;
			if (result.code !== 0 || runError || (run.status && run.status !== 'success')) {
				fail(label, `execution failed (exit ${result.code}, status ${run.status}): ${runError?.message ?? lastLines(output, 10)}`);
				continue;
			}
			const check = CHECKS[basename(p.file)] as Check | undefined;
			try {
				if (check) await check(makeContext(p.file, run, sim));
				passed++;
				console.log(`ok   ${label} (${formatMs(result.ms)})${check ? '' : ' [no specific checks: ran without error]'}`);
			} catch (error) {
				fail(label, (error as Error).message);
			}
		}
	} finally {
		if (sim) await sim.close().catch(() => undefined);
		if (args.keep) console.log(`[e2e] kept n8n user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[e2e] total ${formatMs(Date.now() - t0)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`[e2e] ERROR: ${error.message}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	},
);

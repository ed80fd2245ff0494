/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-hardcoded-secrets, no-console
	-- e2e tooling runs in Node, outside n8n's sandbox, and is not a node; the owner password is for a throwaway local n8n */
/**
 * Shared helpers of the real-n8n end-to-end scripts (real-n8n.ts, editor-screenshots.ts).
 *
 * - supportedN8nVersions() / n8nVersionsToRun(): the oldest and newest supported n8n, read from
 *   scripts/real-n8n/versions, and which of them a run covers (`--n8n-version X` options, else the env
 *   N8N_E2E_N8N_VERSION, else both ends, oldest first).
 * - ensureN8n(version): runs scripts/real-n8n/ensure-n8n.sh (idempotent installer of Node 24 + that n8n
 *   in its own cache folder outside the project) and returns the paths it prints.
 * - runN8n(): runs one n8n CLI command of that version through scripts/real-n8n/n8n.sh with a timeout.
 * - installPackageInto(): puts the built package where n8n loads community packages from.
 * - startN8nServer() / setupOwner() / restSession(): `n8n start` on a free loopback port, the owner
 *   account, and a logged-in caller of n8n's internal REST API (editor-screenshots.ts, credential-test.ts).
 * - track() / stopTracked() / killAllNow() / withKillOnSignal(): the one list of the child processes still running
 *   (each in its own process group: every runCommand() and startN8nServer() child, and queue-cluster.ts's
 *   processes), so that a signal or a deadline can kill them all.
 *
 * How n8n loads a package (read from n8n's source, packages/cli load-nodes-and-credentials.js; the same in
 * 2.20.12 and 2.41.1):
 * - `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-*` (the folder the community-package
 *   installer uses) is scanned at every start with the package loader: it reads package.json
 *   (`n8n.nodes` / `n8n.credentials` list dist paths) and node types are named
 *   `<package name>.<node name>`, exactly as for a user who installed the package from npm.
 *   Peer dependencies (n8n-workflow) are resolved from n8n's own node_modules via NODE_PATH.
 * - N8N_CUSTOM_EXTENSIONS (folders separated by `;`) are loaded with CustomDirectoryLoader, which
 *   globs every `**\/*.node.js` and `**\/*.credentials.js` and ignores package.json: node types are
 *   then `CUSTOM.<node name>`, which exported workflows of an installed package do not use.
 * So the harness copies package.json + dist/ into the community-package folder (a copy, not a
 * symlink, so that `require('n8n-workflow')` resolves to n8n's own copy, not the project's).
 */
import { spawn, type ChildProcess } from 'child_process';
import { randomUUID } from 'crypto';
import {
	closeSync,
	cpSync,
	existsSync,
	mkdirSync,
	openSync,
	readFileSync,
	writeFileSync,
} from 'fs';
import { createServer } from 'net';
import { join, resolve } from 'path';

export const PROJECT_ROOT = resolve(__dirname, '..', '..');
export const SCRIPTS_DIR = join(PROJECT_ROOT, 'scripts', 'real-n8n');

export interface CommandResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	ms: number;
}

export interface RunOptions {
	env?: NodeJS.ProcessEnv;
	timeoutMs: number;
	/** Copy the child's stderr to ours as it comes (for long installs). */
	echoStderr?: boolean;
	cwd?: string;
}

interface Tracked {
	what: string;
	pid: number;
	/** Signal that shuts it down cleanly (then SIGKILL to its group after a grace period). */
	signal: NodeJS.Signals;
}

/** The child processes started and still running, oldest first (each leads its own process group). */
const running: Tracked[] = [];

/**
 * Records `child` (spawned with `detached: true`, so it leads its own process group) until it exits (`until`: 'close'
 * waits for its output pipes too, which the group's other processes may hold); returns its PID.
 */
export function track(
	what: string,
	child: ChildProcess,
	signal: NodeJS.Signals = 'SIGTERM',
	until: 'exit' | 'close' = 'exit',
): number {
	const pid = child.pid;
	if (pid === undefined) throw new Error(`could not spawn ${what}`);
	const entry: Tracked = { what, pid, signal };
	running.push(entry);
	child.once(until, () => {
		const index = running.indexOf(entry);
		if (index >= 0) running.splice(index, 1);
	});
	return pid;
}

export function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Stops every recorded process group, newest first: its clean signal, up to 5 s, then SIGKILL. */
export async function stopTracked(): Promise<void> {
	while (running.length) {
		const entry = running.pop()!;
		killGroup(entry.pid, entry.signal);
		for (let wait = 0; wait < 20 && alive(entry.pid); wait++) await sleep(250);
		killGroup(entry.pid, 'SIGKILL');
	}
}

/** Synchronous last resort (signal handlers, deadlines): SIGKILL to every recorded process group, newest first. */
export function killAllNow(): void {
	for (const entry of running.splice(0).reverse()) killGroup(entry.pid, 'SIGKILL');
}

/**
 * Runs `body` with SIGINT / SIGTERM handlers that kill every recorded process group (killAllNow), run `cleanUp` and
 * exit 1: the children lead their own process groups, so a Ctrl-C in the terminal does not reach them.
 */
export async function withKillOnSignal<T>(
	what: string,
	body: () => Promise<T>,
	cleanUp: () => void = () => undefined,
): Promise<T> {
	const onSignal = (signal: NodeJS.Signals) => {
		console.log(`${what}: ${signal}: stopping everything it started`);
		killAllNow();
		cleanUp();
		process.exit(1);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		return await body();
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
	}
}

/** Runs a command, collecting output; kills its process group when the timeout expires. Tracked until it is done. */
export function runCommand(
	cmd: string,
	args: string[],
	options: RunOptions,
): Promise<CommandResult> {
	const started = Date.now();
	return new Promise((resolvePromise) => {
		const child = spawn(cmd, args, {
			env: options.env ?? process.env,
			cwd: options.cwd ?? PROJECT_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		if (child.pid !== undefined) track(`${cmd} ${args.join(' ')}`, child, 'SIGTERM', 'close');
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			if (options.echoStderr) process.stderr.write(chunk);
		});
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child.pid);
		}, options.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolvePromise({
				code: null,
				signal: null,
				stdout,
				stderr: stderr + String(error),
				timedOut,
				ms: Date.now() - started,
			});
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolvePromise({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
		});
	});
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		try {
			process.kill(pid, signal);
		} catch {
			/* already gone */
		}
	}
}

/** One installed n8n: its version and the Node 24 / n8n binaries ensure-n8n.sh printed. */
export interface N8nInstall {
	version: string;
	node: string;
	n8n: string;
}

const VERSIONS_FILE = join(SCRIPTS_DIR, 'versions');

/** N8N_OLDEST / N8N_NEWEST from scripts/real-n8n/versions (a shell file the scripts source). */
export function supportedN8nVersions(): { oldest: string; newest: string } {
	const text = readFileSync(VERSIONS_FILE, 'utf8');
	const read = (name: string) => {
		const value = new RegExp(`^${name}=([0-9][0-9A-Za-z.+-]*)\\s*$`, 'm').exec(text)?.[1];
		if (!value) throw new Error(`${VERSIONS_FILE} sets no ${name}`);
		return value;
	};
	return { oldest: read('N8N_OLDEST'), newest: read('N8N_NEWEST') };
}

/**
 * The n8n versions a run covers: the `--n8n-version` values given, else N8N_E2E_N8N_VERSION, else the
 * oldest and the newest supported (oldest first).
 */
export function n8nVersionsToRun(fromArgs: string[]): string[] {
	if (fromArgs.length) return [...new Set(fromArgs)];
	const fromEnv = process.env.N8N_E2E_N8N_VERSION?.trim();
	if (fromEnv) return [fromEnv];
	const { oldest, newest } = supportedN8nVersions();
	return [...new Set([oldest, newest])];
}

/** Runs ensure-n8n.sh for `version` (installs on first use, 3-16 min) and returns the node and n8n paths. */
export async function ensureN8n(version: string): Promise<N8nInstall> {
	const result = await runCommand('bash', [join(SCRIPTS_DIR, 'ensure-n8n.sh')], {
		env: { ...process.env, N8N_E2E_N8N_VERSION: version },
		timeoutMs: 40 * 60_000,
		echoStderr: true,
	});
	if (result.code !== 0) {
		throw new Error(
			`ensure-n8n.sh (n8n ${version}) failed (exit ${result.code}${result.timedOut ? ', timed out' : ''}): ${lastLines(result.stderr, 5)}`,
		);
	}
	const node = /^NODE24=(.*)$/m.exec(result.stdout)?.[1];
	const n8n = /^N8N_BIN=(.*)$/m.exec(result.stdout)?.[1];
	if (!node || !n8n) throw new Error(`ensure-n8n.sh printed no paths:\n${result.stdout}`);
	return { version, node, n8n };
}

/** Runs `n8n <args>` of the given version through scripts/real-n8n/n8n.sh with the given user folder. */
export function runN8n(
	version: string,
	args: string[],
	userFolder: string,
	timeoutMs: number,
	extraEnv: NodeJS.ProcessEnv = {},
) {
	return runCommand('bash', [join(SCRIPTS_DIR, 'n8n.sh'), ...args], {
		env: { ...process.env, N8N_E2E_N8N_VERSION: version, N8N_USER_FOLDER: userFolder, ...extraEnv },
		timeoutMs,
	});
}

export interface PackageInfo {
	name: string;
	version: string;
	nodes: string[];
	credentials: string[];
}

/** Reads package.json and checks that every dist file it lists for n8n exists (i.e. the package is built). */
export function checkBuiltPackage(packageRoot: string): PackageInfo {
	const packageJsonPath = join(packageRoot, 'package.json');
	if (!existsSync(packageJsonPath)) throw new Error(`no package.json in ${packageRoot}`);
	const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
		name: string;
		version: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	if (!pkg.n8n) throw new Error(`${packageJsonPath} has no "n8n" section`);
	const nodes = pkg.n8n.nodes ?? [];
	const credentials = pkg.n8n.credentials ?? [];
	const missing = [...nodes, ...credentials].filter((file) => !existsSync(join(packageRoot, file)));
	if (!existsSync(join(packageRoot, 'dist')) || missing.length > 0) {
		throw new Error(
			`the package is not built (missing ${missing.length ? missing.join(', ') : 'dist/'} under ${packageRoot}): run \`npm run build\` first`,
		);
	}
	return { name: pkg.name, version: pkg.version, nodes, credentials };
}

/**
 * Copies package.json + dist/ (+ README/LICENSE if present) into
 * `<userFolder>/.n8n/nodes/node_modules/<name>`, where n8n loads installed community packages.
 * Returns the folder it created.
 */
export function installPackageInto(
	userFolder: string,
	packageRoot: string,
	info: PackageInfo,
): string {
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(info.name)) {
		throw new Error(`package name "${info.name}" must start with n8n-nodes- for n8n to load it`);
	}
	const target = join(userFolder, '.n8n', 'nodes', 'node_modules', info.name);
	mkdirSync(target, { recursive: true });
	for (const entry of ['package.json', 'dist', 'README.md', 'LICENSE', 'LICENSE.md']) {
		const source = join(packageRoot, entry);
		if (existsSync(source))
			cpSync(source, join(target, entry), { recursive: true, dereference: true });
	}
	return target;
}

/** Start-up lines every n8n command prints; not useful in failure messages. */
const NOISE = [
	/^n8n Task Broker ready/,
	/^Failed to start Python task runner/,
	/^\[license SDK\]/,
	/^={10,}$/,
	/^\s*$/,
];

/** Last `count` lines of a command's output, without stack-trace lines. */
export function lastLines(text: string, count: number): string {
	return text
		.trim()
		.split('\n')
		.filter((line) => !/^\s+at /.test(line) && !NOISE.some((noise) => noise.test(line)))
		.slice(-count)
		.join('\n');
}

/** Extracts the JSON document n8n printed (with --rawOutput it is the whole stdout, but log lines may precede it). */
export function parseJsonOutput(stdout: string): unknown {
	const trimmed = stdout.trim();
	try {
		return JSON.parse(trimmed);
	} catch {
		const start = trimmed.search(/^\{/m);
		const end = trimmed.lastIndexOf('\n}');
		if (start < 0 || end < start) throw new Error('no JSON object in the output');
		return JSON.parse(trimmed.slice(start, end + 2));
	}
}

export function formatMs(ms: number): string {
	return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

export interface N8nServer {
	/** e.g. http://127.0.0.1:5678 */
	base: string;
	pid: number;
	logFile: string;
	/** SIGTERM, then SIGKILL after 1 s, of the whole process group. */
	stop(): Promise<void>;
}

/**
 * Starts `n8n start` (through n8n.sh) on a free loopback port, in its own process group (tracked until it exits),
 * logging to `<userFolder>/n8n.log`, with `extraEnv` on top of its environment; resolves once /healthz/readiness answers 200.
 */
export async function startN8nServer(
	version: string,
	userFolder: string,
	timeoutMs: number,
	extraEnv: NodeJS.ProcessEnv = {},
): Promise<N8nServer> {
	const port = await freePort();
	const base = `http://127.0.0.1:${port}`;
	const logFile = join(userFolder, 'n8n.log');
	const log = openSync(logFile, 'a');
	const child = spawn('bash', [join(SCRIPTS_DIR, 'n8n.sh'), 'start'], {
		env: {
			...process.env,
			N8N_E2E_N8N_VERSION: version,
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: base,
			N8N_SECURE_COOKIE: 'false',
			N8N_LOG_LEVEL: 'info',
			...extraEnv,
		},
		stdio: ['ignore', log, log],
		detached: true,
	});
	closeSync(log);
	const pid = track('n8n start', child);
	const stop = async () => {
		killGroup(pid, 'SIGTERM');
		await sleep(1000);
		killGroup(pid, 'SIGKILL');
	};
	let exited: number | null | undefined;
	child.on('exit', (code) => (exited = code));
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (exited !== undefined) {
			throw new Error(
				`n8n start exited (code ${exited}) before it was ready:\n${lastLines(readFileSync(logFile, 'utf8'), 15)}`,
			);
		}
		try {
			const response = await fetch(`${base}/healthz/readiness`);
			if (response.status === 200) return { base, pid, logFile, stop };
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	await stop();
	throw new Error(
		`n8n start was not ready after ${formatMs(timeoutMs)}:\n${lastLines(readFileSync(logFile, 'utf8'), 15)}`,
	);
}

/** The instance owner the e2e scripts create (n8n 2.x has no N8N_USER_MANAGEMENT_DISABLED). */
export const OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Owner-Password-1',
};

/** GET /rest/settings as a logged-in user: `versionCli` must be the version this leg is about (guards the cache paths). */
export async function assertServerVersion(rest: RestCall, version: string): Promise<void> {
	const settings = await rest<{ versionCli?: string }>('GET', '/settings');
	if (settings.status !== 200) throw new Error(`GET /rest/settings answered ${settings.status}`);
	if (settings.data?.versionCli !== version)
		throw new Error(`n8n start runs version ${settings.data?.versionCli}, expected ${version}`);
}

/** POST /rest/owner/setup on a fresh instance. */
export async function setupOwner(base: string): Promise<void> {
	const response = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (response.status !== 200)
		throw new Error(`POST /rest/owner/setup answered ${response.status}: ${await response.text()}`);
}

export type RestCall = <T = unknown>(
	method: string,
	path: string,
	body?: unknown,
) => Promise<{ status: number; data: T; text: string }>;

/**
 * Logs in as OWNER with POST /rest/login and returns a caller of n8n's internal REST API (/rest/...)
 * that sends the n8n-auth cookie. No browser-id header is sent at login, so the JWT carries none and
 * n8n skips its browserId check. Answers are `{ data: ... }`; `data` is that inner value.
 */
export async function restSession(base: string): Promise<RestCall> {
	const login = await fetch(`${base}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	if (login.status !== 200)
		throw new Error(`POST /rest/login answered ${login.status}: ${await login.text()}`);
	const cookie = login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	if (!/n8n-auth=/.test(cookie)) throw new Error('POST /rest/login set no n8n-auth cookie');
	return async <T>(method: string, path: string, body?: unknown) => {
		const response = await fetch(`${base}/rest${path}`, {
			method,
			headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let data: T;
		try {
			data = (JSON.parse(text) as { data: T }).data;
		} catch {
			data = undefined as T;
		}
		return { status: response.status, data, text };
	};
}

/**
 * Named checks for the small e2e scripts: each prints `ok   <what>  <detail>` or `FAIL <what>` with the reason,
 * and counts in `tally`; `fail` counts a failure outside a check (e.g. the set-up).
 */
export function checkTally() {
	const tally = { passed: 0, failed: 0 };
	const fail = (what: string, error: unknown) => {
		tally.failed++;
		console.log(`FAIL ${what}\n     ${(error as Error).message.split('\n').join('\n     ')}`);
	};
	const check = async (what: string, body: () => unknown) => {
		try {
			const detail = await body();
			tally.passed++;
			console.log(`ok   ${what}${typeof detail === 'string' && detail ? `  ${detail}` : ''}`);
		} catch (error) {
			fail(what, error);
		}
	};
	return { tally, check, fail };
}

/** The API credential the e2e scripts import: the simulator at `baseUrl`, key sim-all-families (id scApi1, "SC API"). */
export function simulatorCredential(baseUrl: string) {
	return {
		id: 'scApi1',
		name: 'SC API',
		type: 'sustainabilityComplianceApi',
		data: { apiKey: 'sim-all-families', baseUrl },
	};
}

/**
 * The data of an n8n SMTP credential for the test's SMTP sink. No TLS: the sink speaks plain SMTP and does not
 * advertise STARTTLS.
 */
export function smtpSinkCredentialData(sink: { host: string; port: number }) {
	return {
		user: '',
		password: '',
		host: sink.host,
		port: sink.port,
		secure: false,
		disableStartTls: true,
		hostName: '',
	};
}

/**
 * Writes `credentials` and `workflows` into the user folder and imports them with `n8n import:credentials` and
 * `n8n import:workflow`, then runs the `then` commands (e.g. `publish:workflow --id=…`); throws on the first that fails.
 */
export async function importIntoN8n(
	version: string,
	userFolder: string,
	input: { credentials: object[]; workflows: object[]; then?: string[][]; env?: NodeJS.ProcessEnv },
): Promise<void> {
	const credentialFile = join(userFolder, 'credentials.json');
	const workflowFile = join(userFolder, 'workflows.json');
	writeFileSync(credentialFile, JSON.stringify(input.credentials));
	writeFileSync(workflowFile, JSON.stringify(input.workflows));
	for (const args of [
		['import:credentials', `--input=${credentialFile}`],
		['import:workflow', `--input=${workflowFile}`],
		...(input.then ?? []),
	]) {
		const result = await runN8n(version, args, userFolder, 120_000, input.env);
		if (result.code !== 0)
			throw new Error(
				`n8n ${args[0]} exited ${result.code}:\n${lastLines(result.stdout + result.stderr, 10)}`,
			);
	}
}

/** The `--n8n-version X` arguments of the small e2e scripts (repeatable); any other argument is an error. */
export function versionArguments(argv: string[]): string[] {
	const versions: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--n8n-version') versions.push(argv[++i] ?? '');
		else throw new Error(`unknown argument ${argv[i]}`);
	}
	return versions;
}

/**
 * A Webhook node (v2) answering POST /webhook/<path> when the last node is done, with that node's items
 * (`allEntries`) or its first item's JSON (`firstEntryJson`).
 */
export function webhookNode(
	path: string,
	options: {
		name?: string;
		position?: [number, number];
		responseData?: 'allEntries' | 'firstEntryJson';
	} = {},
) {
	return {
		id: randomUUID(),
		name: options.name ?? 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: options.position ?? [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: options.responseData ?? 'allEntries',
		},
	};
}

/**
 * The entry point of a check that runs one leg per n8n version (the versions the arguments ask for, else both ends
 * of the supported range): prints the total when there are several and exits 0 only when nothing failed.
 */
export function runLegsAsMain(
	what: string,
	script: string,
	leg: (version: string) => Promise<{ passed: number; failed: number }>,
): void {
	const run = async (): Promise<number> => {
		const versions = n8nVersionsToRun(versionArguments(process.argv.slice(2)));
		let passed = 0;
		let failed = 0;
		for (const version of versions) {
			const result = await withKillOnSignal(script, () => leg(version));
			passed += result.passed;
			failed += result.failed;
		}
		if (versions.length > 1)
			console.log(`${what}, all versions: ${passed} passed, ${failed} failed`);
		return failed === 0 ? 0 : 1;
	};
	run().then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}

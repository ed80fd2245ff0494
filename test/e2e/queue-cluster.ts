/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-hardcoded-secrets
	-- e2e tooling runs in Node, outside n8n's sandbox, and is not a node; the encryption key is for a throwaway local n8n */
/**
 * queue-cluster.ts — n8n's queue mode (scale-out) on this machine, for test/e2e/queue-mode.ts and the bench's
 * queue section (bench/queue.ts):
 *
 *   Redis (the queue) and Postgres (the database) as plain processes on 127.0.0.1 on free ports, with their data in
 *   temp folders; `n8n start` (main: receives the webhooks, enqueues the executions) and `n8n worker` processes (run
 *   them), all with one user folder holding the built package, one N8N_ENCRYPTION_KEY, EXECUTIONS_MODE=queue.
 *
 * Redis and Postgres come from Debian's packages (redis-server, postgresql): installed with apt-get when absent (sudo
 * when not root), as the other e2e scripts install what they need. Postgres refuses to run as root: as root, its
 * folder is given to the `postgres` user and initdb / postgres run through `runuser -u postgres`.
 *
 * Every process is started in its own process group and recorded in lib.ts's one list (track(), as are the
 * `n8n import:*` commands and ensure-n8n.sh that runCommand() starts); withClusterDeadline() stops them by PID in
 * reverse order after its body (n8n first, then Postgres (fast shutdown), then Redis) and kills them all on SIGINT /
 * SIGTERM and at its global deadline. The temp folders are removed. ensureN8n() and ensureQueueServices() (installs
 * that may take minutes) are for the caller to run before the deadline starts; their results go to startQueueCluster().
 */
import { spawn, spawnSync } from 'child_process';
import {
	chownSync,
	closeSync,
	existsSync,
	mkdtempSync,
	openSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	PROJECT_ROOT,
	SCRIPTS_DIR,
	alive,
	checkBuiltPackage,
	formatMs,
	freePort,
	importIntoN8n,
	installPackageInto,
	killAllNow,
	lastLines,
	restSession,
	setupOwner,
	sleep,
	stopTracked,
	track,
	withKillOnSignal,
	type N8nInstall,
	type RestCall,
} from './lib';
import { SAMPLE_FILE_ACCESS } from '../workflow/fileExamples';

const tempFolders: string[] = [];

function removeTempFolders(): void {
	for (const folder of tempFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/**
 * Runs `body` with a global deadline and signal handlers: on SIGINT / SIGTERM or when `deadlineMs` passes, every
 * recorded process is killed and the process exits 1 (2 for the deadline) with a message. After `body`, in every case,
 * the processes are stopped (stopTracked) and the temp folders removed.
 */
export async function withClusterDeadline<T>(
	what: string,
	deadlineMs: number,
	body: () => Promise<T>,
): Promise<T> {
	const timer = setTimeout(() => {
		console.log(
			`FAIL ${what}: not done after ${formatMs(deadlineMs)} (its global deadline): stopped everything it started`,
		);
		console.log('0 passed, 1 failed');
		killAllNow();
		removeTempFolders();
		process.exit(2);
	}, deadlineMs);
	try {
		return await withKillOnSignal(what, body, removeTempFolders);
	} finally {
		clearTimeout(timer);
		await stopTracked();
		removeTempFolders();
	}
}

const isRoot = process.getuid?.() === 0;

function which(command: string): string | undefined {
	const result = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return result.status === 0 ? result.stdout.trim() : undefined;
}

function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (existsSync(root)) {
		const versions = readdirSync(root)
			.filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
			.sort((a, b) => Number(b) - Number(a));
		if (versions.length) return join(root, versions[0], 'bin');
	}
	const onPath = which('postgres');
	return onPath ? join(onPath, '..') : undefined;
}

/** Where redis-server and Postgres's programs (initdb, postgres) are. */
interface QueueServices {
	redisServer: string;
	postgresBin: string;
}

/** Installs redis-server and postgresql with apt-get when they are absent; throws with the reason when it cannot. */
export function ensureQueueServices(): QueueServices {
	const missing = [
		...(which('redis-server') ? [] : ['redis-server']),
		...(postgresBin() ? [] : ['postgresql']),
	];
	if (missing.length) {
		console.log(`[queue] installing ${missing.join(', ')} (apt-get)`);
		const sudo = isRoot ? '' : 'sudo ';
		const install = `${sudo}apt-get install -y -q ${missing.join(' ')}`;
		const result = spawnSync(
			'bash',
			[
				'-c',
				`${install} >/dev/null 2>&1 || { ${sudo}apt-get update -q >/dev/null 2>&1 && ${install}; }`,
			],
			{
				encoding: 'utf8',
				env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
				timeout: 300_000,
			},
		);
		if (result.status !== 0)
			throw new Error(
				`could not install ${missing.join(', ')} with apt-get: ${lastLines(result.stdout + result.stderr, 5)}`,
			);
	}
	const redisServer = which('redis-server');
	const bin = postgresBin();
	if (!redisServer || !bin) throw new Error('redis-server or postgres still missing after apt-get');
	return { redisServer, postgresBin: bin };
}

async function waitFor(what: string, timeoutMs: number, ready: () => Promise<boolean> | boolean) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await ready()) return;
		await sleep(250);
	}
	throw new Error(`${what} was not ready after ${formatMs(timeoutMs)}`);
}

async function startRedis(redisServer: string): Promise<number> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-queue-redis-'));
	tempFolders.push(folder);
	const port = await freePort();
	const log = openSync(join(folder, 'redis.log'), 'a');
	const child = spawn(
		redisServer,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
		],
		{ stdio: ['ignore', log, log], detached: true },
	);
	closeSync(log);
	track('redis-server', child);
	await waitFor('redis-server', 20_000, () =>
		readFileSync(join(folder, 'redis.log'), 'utf8').includes('Ready to accept connections'),
	);
	return port;
}

/** Runs a Postgres program as the `postgres` user when we are root (Postgres refuses root). */
function asPostgresUser(program: string, args: string[]): [string, string[]] {
	return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

async function startPostgres(bin: string): Promise<number> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-queue-pg-'));
	tempFolders.push(folder);
	if (isRoot) {
		const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
		const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
		if (!uid)
			throw new Error('running as root, and there is no `postgres` user to run Postgres as');
		chownSync(folder, uid, gid);
	}
	const data = join(folder, 'data');
	const [initdb, initArgs] = asPostgresUser(join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'n8n',
		'-A',
		'trust',
		'--no-sync',
	]);
	const init = spawnSync(initdb, initArgs, { encoding: 'utf8', timeout: 120_000 });
	if (init.status !== 0)
		throw new Error(`initdb failed: ${lastLines(init.stdout + init.stderr, 5)}`);
	const port = await freePort();
	const [postgres, args] = asPostgresUser(join(bin, 'postgres'), [
		'-D',
		data,
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-k',
		folder,
		'-c',
		'fsync=off',
		'-c',
		'max_connections=100',
	]);
	const logPath = join(folder, 'postgres.log');
	const log = openSync(logPath, 'a');
	const child = spawn(postgres, args, { stdio: ['ignore', log, log], detached: true });
	closeSync(log);
	// SIGINT: Postgres's fast shutdown.
	track('postgres', child, 'SIGINT');
	await waitFor('postgres', 30_000, () =>
		/ready to accept connections/.test(readFileSync(logPath, 'utf8')),
	);
	return port;
}

interface N8nProcess {
	what: string;
	pid: number;
	logFile: string;
	log(): string;
}

export interface QueueCluster {
	/** Main's address, e.g. http://127.0.0.1:40123 (webhooks at /webhook/<path>). */
	base: string;
	main: N8nProcess;
	workers: N8nProcess[];
	/** main's internal REST API, logged in as the owner. */
	rest: RestCall;
}

function spawnN8n(
	what: string,
	version: string,
	args: string[],
	env: NodeJS.ProcessEnv,
	logFile: string,
): N8nProcess {
	const log = openSync(logFile, 'a');
	const child = spawn('bash', [join(SCRIPTS_DIR, 'n8n.sh'), ...args], {
		env: { ...process.env, ...env, N8N_E2E_N8N_VERSION: version },
		stdio: ['ignore', log, log],
		detached: true,
	});
	closeSync(log);
	const pid = track(what, child);
	return { what, pid, logFile, log: () => readFileSync(logFile, 'utf8') };
}

async function waitReady(process_: N8nProcess, url: string, timeoutMs: number): Promise<void> {
	try {
		await waitFor(process_.what, timeoutMs, async () => {
			if (!alive(process_.pid)) throw new Error(`${process_.what} exited before it was ready`);
			try {
				return (await fetch(url)).status === 200;
			} catch {
				return false;
			}
		});
	} catch (error) {
		throw new Error(`${(error as Error).message}:\n${lastLines(process_.log(), 12)}`);
	}
}

/** `n8n worker --concurrency`: executions one worker runs at once. */
const WORKER_CONCURRENCY = 10;
const START_TIMEOUT_MS = 180_000;

interface ClusterOptions {
	/** The n8n to run (ensureN8n's result) and where Redis and Postgres are (ensureQueueServices's). */
	install: N8nInstall;
	services: QueueServices;
	workers: number;
	/**
	 * Credentials and workflows imported (`n8n import:*`) before main starts; `publish` lists the workflow ids main
	 * publishes (activates) once it runs, as the editor's Publish button does (POST /rest/workflows/:id/activate): one
	 * REST call each instead of one `n8n publish:workflow` process (about 25 s) each.
	 */
	credentials: object[];
	workflows: object[];
	publish: string[];
}

/**
 * Starts Redis, Postgres, imports (and publishes) the workflows into Postgres, then main and the workers (in
 * parallel) with the built package in their shared user folder; resolves once main's /healthz/readiness and every
 * worker's health server answer 200. Stop with stopCluster() (withClusterDeadline does it).
 */
export async function startQueueCluster(options: ClusterOptions): Promise<QueueCluster> {
	const { redisServer, postgresBin: pgBin } = options.services;
	const { version } = options.install;
	const info = checkBuiltPackage(PROJECT_ROOT);
	const redisPort = await startRedis(redisServer);
	const postgresPort = await startPostgres(pgBin);
	console.log(`[queue] Redis on 127.0.0.1:${redisPort}, Postgres on 127.0.0.1:${postgresPort}`);

	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	tempFolders.push(userFolder);
	installPackageInto(userFolder, PROJECT_ROOT, info);
	const mainPort = await freePort();
	const base = `http://127.0.0.1:${mainPort}`;
	const env: NodeJS.ProcessEnv = {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'queue-mode-e2e-shared-encryption-key',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgresPort),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: '',
		N8N_LOG_LEVEL: 'info',
		N8N_SECURE_COOKIE: 'false',
		WEBHOOK_URL: `${base}/`,
		// examples/11 reads examples/holdings.sample.xlsx (test/workflow/fileExamples.ts).
		N8N_RESTRICT_FILE_ACCESS_TO: SAMPLE_FILE_ACCESS,
	};
	const imported = Date.now();
	await importIntoN8n(version, userFolder, {
		credentials: options.credentials,
		workflows: options.workflows,
		env,
	});
	console.log(
		`[queue] imported ${options.workflows.length} workflow(s) into Postgres (${formatMs(Date.now() - imported)})`,
	);

	const main = spawnN8n(
		'n8n main',
		version,
		['start'],
		{
			...env,
			N8N_PORT: String(mainPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: base,
		},
		join(userFolder, 'main.log'),
	);
	const workers: N8nProcess[] = [];
	const readiness: Promise<void>[] = [
		waitReady(main, `${base}/healthz/readiness`, START_TIMEOUT_MS),
	];
	for (let index = 1; index <= options.workers; index++) {
		const healthPort = await freePort();
		const worker = spawnN8n(
			`n8n worker ${index}`,
			version,
			['worker', `--concurrency=${WORKER_CONCURRENCY}`],
			{
				...env,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
			join(userFolder, `worker-${index}.log`),
		);
		workers.push(worker);
		readiness.push(
			waitReady(worker, `http://127.0.0.1:${healthPort}/healthz/readiness`, START_TIMEOUT_MS),
		);
	}
	const starting = Date.now();
	await Promise.all(readiness);
	console.log(
		`[queue] n8n ${version}: main at ${base} and ${workers.length} worker(s) ready (${formatMs(Date.now() - starting)})`,
	);
	await setupOwner(base);
	const rest = await restSession(base);
	for (const id of options.publish) {
		const workflow = await rest<{ versionId?: string }>('GET', `/workflows/${id}`);
		if (workflow.status !== 200 || !workflow.data?.versionId)
			throw new Error(
				`GET /rest/workflows/${id} answered ${workflow.status}: ${workflow.text.slice(0, 200)}`,
			);
		const published = await rest('POST', `/workflows/${id}/activate`, {
			versionId: workflow.data.versionId,
		});
		if (published.status !== 200)
			throw new Error(
				`publishing workflow ${id} (POST /rest/workflows/${id}/activate) answered ${published.status}: ${published.text.slice(0, 300)}`,
			);
	}
	return { base, main, workers, rest };
}

/**
 * Which worker ran execution `executionId`: the worker whose log says "Worker finished execution <id>" (n8n's
 * scaling/job-processor.js logs it at info level when a worker completes a job; main never logs it, it logs
 * "Enqueued execution <id>"). Returns the worker's name, or undefined when none did.
 */
export function workerThatRan(cluster: QueueCluster, executionId: string): string | undefined {
	const pattern = new RegExp(`Worker finished execution ${executionId} \\(job`);
	const ran = cluster.workers.filter((worker) => pattern.test(worker.log()));
	return ran.length === 1 ? ran[0].what : undefined;
}

/** Whether main enqueued execution `executionId` (its log line "Enqueued execution <id> (job …)"). */
export function mainEnqueued(cluster: QueueCluster, executionId: string): boolean {
	return new RegExp(`Enqueued execution ${executionId} \\(job`).test(cluster.main.log());
}

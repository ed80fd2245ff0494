/**
 * editor-screenshots.ts — opens each node's parameter form in a REAL n8n editor (2.20.12) with this
 * package installed, saves a screenshot per node and checks that given texts appear in the form.
 *
 *   npx ts-node --transpile-only test/e2e/editor-screenshots.ts [options] [node display name ...]
 *
 * Default nodes: every key of FORMS below. Options:
 *   --package-root DIR   built package to install (default: the project root; needs dist/ + package.json)
 *   --out DIR            screenshot folder (default: test-output/screenshots under the project root)
 *   --keep               keep the temp n8n user folder (n8n.log is in it)
 * Env: E2E_START_TIMEOUT_MS (n8n boot, default 180000), E2E_UI_TIMEOUT_MS (each UI step, default 30000).
 *
 * How: scripts/real-n8n/ensure-n8n.sh and ensure-playwright.sh (Debian chromium + playwright-core in
 * the cache folder), package copied into a temp N8N_USER_FOLDER's community-package folder (see
 * lib.ts), `n8n start` on a free loopback port, owner created with POST /rest/owner/setup and logged
 * in with POST /rest/login from the browser context (n8n 2.x has no N8N_USER_MANAGEMENT_DISABLED),
 * then per node: new workflow → "Add first step" → search the node panel for the display name →
 * pick it (and an action, for nodes with operations) → wait for the parameter panel (NDV) →
 * screenshot `<out>/<node-name>.png` → check the expected strings against the panel's text and
 * field values. Prints `N passed, M failed` last; exits 1 on any failure.
 */
import { spawn } from 'child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import {
	PROJECT_ROOT,
	SCRIPTS_DIR,
	checkBuiltPackage,
	ensureN8n,
	formatMs,
	installPackageInto,
	killGroup,
	lastLines,
	runCommand,
} from './lib';

interface FormCheck {
	/** Action to pick in the node panel for nodes with operations; default: the node's first action. */
	action?: string;
	/** Texts that must appear in the parameter panel (labels, or values of its fields). */
	expect: string[];
}

/**
 * Per-node checks, keyed by the node's display name as shown in the node panel.
 * HTTP Request is a built-in node: it proves the harness itself works.
 */
const FORMS: Record<string, FormCheck> = {
	'HTTP Request': { expect: ['Method', 'URL', 'Authentication', 'Send Headers'] },
	'Sustainability Instruments': { action: 'Get ESG data', expect: ['Credential', 'Operation', 'Get ESG Data'] },
};

const START_TIMEOUT_MS = Number(process.env.E2E_START_TIMEOUT_MS ?? 180_000);
const UI_TIMEOUT_MS = Number(process.env.E2E_UI_TIMEOUT_MS ?? 30_000);
const OWNER = { email: 'e2e-owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'E2e-Owner-Password-1' };
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

// The DOM as seen by functions run in the page (the project's tsconfig has no "dom" lib).
interface DomElement {
	querySelectorAll(selector: string): ArrayLike<{ value?: string; textContent: string | null }>;
}

// Minimal shapes of the playwright-core API used here (the package lives in the cache folder,
// outside the project's dependencies, so its types are not available to tsc).
interface Locator {
	click(options?: { timeout?: number }): Promise<void>;
	fill(value: string, options?: { timeout?: number }): Promise<void>;
	first(): Locator;
	getByText(text: string, options?: { exact?: boolean }): Locator;
	getByTestId(id: string): Locator;
	locator(selector: string): Locator;
	innerText(options?: { timeout?: number }): Promise<string>;
	evaluate<T>(fn: (element: DomElement) => T): Promise<T>;
	waitFor(options?: { state?: 'visible' | 'attached'; timeout?: number }): Promise<void>;
	isVisible(): Promise<boolean>;
}
interface Page {
	goto(url: string, options?: { timeout?: number }): Promise<unknown>;
	getByTestId(id: string): Locator;
	locator(selector: string): Locator;
	screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
	waitForTimeout(ms: number): Promise<void>;
	setDefaultTimeout(ms: number): void;
	on(event: 'pageerror', listener: (error: Error) => void): void;
	close(): Promise<void>;
}
interface BrowserContext {
	newPage(): Promise<Page>;
	request: { post(url: string, options: { data: unknown }): Promise<{ status(): number; text(): Promise<string> }> };
	close(): Promise<void>;
}
interface PlaywrightCore {
	chromium: {
		launchPersistentContext(
			userDataDir: string,
			options: { executablePath: string; args: string[]; viewport: { width: number; height: number } },
		): Promise<BrowserContext>;
	};
	selectors: { setTestIdAttribute(name: string): void };
}

interface Args {
	packageRoot: string;
	out: string;
	keep: boolean;
	nodes: string[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = {
		packageRoot: PROJECT_ROOT,
		out: join(PROJECT_ROOT, 'test-output', 'screenshots'),
		keep: false,
		nodes: [],
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep') args.keep = true;
		else if (arg === '--package-root') args.packageRoot = resolve(argv[++i] ?? '');
		else if (arg === '--out') args.out = resolve(argv[++i] ?? '');
		else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
		else args.nodes.push(arg);
	}
	if (args.nodes.length === 0) args.nodes = Object.keys(FORMS);
	return args;
}

async function ensurePlaywright(): Promise<{ chromium: string; playwrightCore: string }> {
	const result = await runCommand('bash', [join(SCRIPTS_DIR, 'ensure-playwright.sh')], {
		timeoutMs: 15 * 60_000,
		echoStderr: true,
	});
	const chromium = /^CHROMIUM=(.*)$/m.exec(result.stdout)?.[1];
	const playwrightCore = /^PLAYWRIGHT_CORE=(.*)$/m.exec(result.stdout)?.[1];
	if (result.code !== 0 || !chromium || !playwrightCore) {
		throw new Error(`ensure-playwright.sh failed (exit ${result.code}): ${lastLines(result.stderr, 5)}`);
	}
	return { chromium, playwrightCore };
}

function freePort(): Promise<number> {
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

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Starts `n8n start` in its own process group; resolves once /healthz/readiness answers 200. */
async function startN8n(userFolder: string, port: number): Promise<{ pid: number; logFile: string }> {
	const logFile = join(userFolder, 'n8n.log');
	const log = openSync(logFile, 'a');
	const child = spawn('bash', [join(SCRIPTS_DIR, 'n8n.sh'), 'start'], {
		env: {
			...process.env,
			N8N_USER_FOLDER: userFolder,
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
			N8N_SECURE_COOKIE: 'false',
			N8N_LOG_LEVEL: 'info',
		},
		stdio: ['ignore', log, log],
		detached: true,
	});
	closeSync(log);
	if (child.pid === undefined) throw new Error('could not spawn n8n');
	let exited: number | null | undefined;
	child.on('exit', (code) => (exited = code));
	const deadline = Date.now() + START_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (exited !== undefined) {
			throw new Error(`n8n start exited (code ${exited}) before it was ready:\n${lastLines(readFileSync(logFile, 'utf8'), 15)}`);
		}
		try {
			const response = await fetch(`http://127.0.0.1:${port}/healthz/readiness`);
			if (response.status === 200) return { pid: child.pid, logFile };
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	killGroup(child.pid);
	throw new Error(`n8n start was not ready after ${formatMs(START_TIMEOUT_MS)}:\n${lastLines(readFileSync(logFile, 'utf8'), 15)}`);
}

async function setupOwner(base: string): Promise<void> {
	const response = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (response.status !== 200) throw new Error(`POST /rest/owner/setup answered ${response.status}: ${await response.text()}`);
}

/** Text of the parameter panel plus the values of its fields (selected options are input values). */
async function panelText(page: Page): Promise<string> {
	const ndv = page.getByTestId('ndv');
	const text = await ndv.innerText({ timeout: UI_TIMEOUT_MS });
	const values = await ndv.evaluate((element) =>
		Array.from(element.querySelectorAll('input, textarea'))
			.map((field) => field.value)
			.filter(Boolean),
	);
	return `${text}\n${values.join('\n')}`;
}

function slug(name: string): string {
	return name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'node';
}

async function openNodeForm(page: Page, base: string, nodeName: string, check: FormCheck): Promise<void> {
	await page.goto(`${base}/workflow/new`, { timeout: UI_TIMEOUT_MS });
	await page.getByTestId('canvas-add-button').click();
	await page.getByTestId('node-creator-search-bar').fill(nodeName);
	const item = page.getByTestId('node-creator-item-name').getByText(nodeName, { exact: true }).first();
	try {
		await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	} catch {
		const shown = await page
			.getByTestId('node-creator')
			.evaluate((element) =>
				Array.from(element.querySelectorAll('[data-test-id="node-creator-item-name"]')).map((e) => e.textContent?.trim() ?? ''),
			)
			.catch((): string[] => []);
		throw new Error(
			`"${nodeName}" is not in the node panel (search shows: ${shown.length ? shown.join(', ') : 'nothing'}); is it listed in package.json n8n.nodes and built?`,
		);
	}
	await item.click();
	// Nodes with operations show their actions first; nodes without go straight to the panel.
	const ndv = page.getByTestId('ndv');
	const actions = page.locator('[data-keyboard-nav-type="action"][data-keyboard-nav-id*="."]');
	const deadline = Date.now() + UI_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (await ndv.isVisible()) break;
		if (await actions.first().isVisible()) {
			const action = check.action
				? page.getByTestId('node-creator').getByTestId('node-creator-item-name').getByText(check.action, { exact: true })
				: actions;
			await action.first().click();
			break;
		}
		await sleep(200);
	}
	await ndv.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.getByTestId('node-parameters').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForTimeout(1000); // let the form finish rendering (fonts, icons)
}

async function main(): Promise<number> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	let passed = 0;
	let failed = 0;

	console.log('[screens] ensuring n8n and the browser are installed...');
	await ensureN8n();
	const { chromium, playwrightCore } = await ensurePlaywright();
	const pw = require(playwrightCore) as PlaywrightCore;
	pw.selectors.setTestIdAttribute('data-test-id'); // n8n's attribute

	const info = checkBuiltPackage(args.packageRoot);
	mkdirSync(args.out, { recursive: true });
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-ui-'));
	let n8nPid: number | undefined;
	let context: BrowserContext | undefined;
	try {
		installPackageInto(userFolder, args.packageRoot, info);
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		const started = Date.now();
		const n8n = await startN8n(userFolder, port);
		n8nPid = n8n.pid;
		console.log(`[screens] n8n ready at ${base} in ${formatMs(Date.now() - started)} (log: ${n8n.logFile})`);
		await setupOwner(base);

		// A fresh profile (--user-data-dir) inside the temp folder.
		context = await pw.chromium.launchPersistentContext(join(userFolder, 'chromium-profile'), {
			executablePath: chromium,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 1600 }, // tall: long forms fit in one shot
		});
		const login = await context.request.post(`${base}/rest/login`, {
			data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
		});
		if (login.status() !== 200) throw new Error(`POST /rest/login answered ${login.status()}: ${await login.text()}`);

		const browserContext = context;
		for (const nodeName of args.nodes) {
			const check = FORMS[nodeName] ?? { expect: [] };
			const page = await browserContext.newPage();
			page.setDefaultTimeout(UI_TIMEOUT_MS);
			const pageErrors: string[] = [];
			page.on('pageerror', (error) => pageErrors.push(error.message));
			const file = join(args.out, `${slug(nodeName)}.png`);
			const t = Date.now();
			try {
				await openNodeForm(page, base, nodeName, check);
				await page.screenshot({ path: file });
				const text = await panelText(page);
				const missing = check.expect.filter((expected) => !text.includes(expected));
				if (missing.length > 0) throw new Error(`missing in the form: ${missing.map((m) => JSON.stringify(m)).join(', ')}`);
				passed++;
				console.log(`ok   ${nodeName} -> ${file} (${formatMs(Date.now() - t)})${check.expect.length ? '' : ' [no expected texts]'}`);
			} catch (error) {
				failed++;
				const failureShot = file.replace(/\.png$/, '.failed.png');
				await page.screenshot({ path: failureShot }).catch(() => undefined);
				const firstLine = String((error as Error).message).split('\n')[0];
				console.log(`FAIL ${nodeName}: ${firstLine}\n     screenshot: ${failureShot}`);
				if (pageErrors.length) console.log(`     page errors: ${pageErrors.slice(0, 3).join(' | ')}`);
			} finally {
				await page.close().catch(() => undefined);
			}
		}
	} finally {
		if (context) await context.close().catch(() => undefined);
		if (n8nPid !== undefined) {
			killGroup(n8nPid, 'SIGTERM');
			await sleep(1000);
			killGroup(n8nPid, 'SIGKILL');
		}
		if (args.keep) console.log(`[screens] kept n8n user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[screens] screenshots in ${args.out}; total ${formatMs(Date.now() - t0)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`[screens] ERROR: ${error.message}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	},
);

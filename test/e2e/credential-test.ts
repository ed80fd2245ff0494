/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * credential-test.ts — runs the package's credential test ("Test" / "Retry" in the credential dialog)
 * inside a REAL n8n (`n8n start`) against the API simulator, one case per situation of spec
 * section 5, and checks the sentence n8n returns for each. `npm run test:n8n` runs the same checks
 * (runCredentialChecks, strict) after the workflows of real-n8n.ts; this script runs them alone.
 *
 *   npx ts-node --transpile-only test/e2e/credential-test.ts [options]
 *
 * Options: --n8n-version X (repeatable; default N8N_E2E_N8N_VERSION, else the oldest and the newest
 * supported from scripts/real-n8n/versions), --strict (count GAP probes as failures), --package-root DIR
 * (built package, default the project root), --keep (keep the temp user folder; n8n.log is in it),
 * --json FILE (also write the results as JSON, by version).
 * Env: E2E_START_TIMEOUT_MS (n8n boot, default 180000).
 *
 * How the editor tests a credential in n8n 2.20 (read from packages/cli dist; the same in 2.41.1, whose
 * credentials.controller.js validates the body with TestCredentialRequestDto { credentials: { id, name,
 * type, data? } } and still answers 403 for an unknown id):
 *   - the dialog first saves the credential (POST /rest/credentials), then calls
 *     POST /rest/credentials/test with `{ credentials: { id, name, type, data } }`;
 *     CredentialsService.testWithCredentials() needs the stored id (unknown id -> 403), merges the
 *     posted data over the stored (decrypted) data, and CredentialsTester.testCredentials() answers
 *     `{ status: 'OK' | 'Error', message }`.
 *   - for a declarative `test.request`, it runs the request through a RoutingNode; if the request
 *     THROWS (an HTTP error status without ignoreHttpStatusErrors) only `responseCode` rules apply and
 *     otherwise the message is the HTTP status text ("Forbidden"); `responseSuccessBody` rules
 *     (lodash get(body, key) === value) are checked only on a response that did not throw. That is why
 *     the credential sets ignoreHttpStatusErrors: true: every 403/429 body reaches the body rules.
 * This script does the same two REST calls, as the owner (POST /rest/owner/setup + /rest/login).
 *
 * Since issue 36 the credential has no declarative `test`: n8n then runs the nodes' `testedBy`
 * (methods.credentialTest, nodes/shared/api/credentialTest.ts) with a CredentialTestContext, whose helpers.request is
 * n8n's HTTP client. The expected sentences are read from the BUILT package (dist/nodes/shared/api/credentialTest.js,
 * the table CREDENTIAL_TEST_ANSWERS), so rewording a sentence does not break the check; a case fails when n8n returns
 * another status or another answer's sentence.
 * Prints one line per case with the exact message, then `N passed, M failed`; exits 1 on any failure.
 */
import { lookup } from 'dns/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer as createTcpServer } from 'net';
import type { AddressInfo, Server as TcpServer, Socket } from 'net';
import { hostname, tmpdir } from 'os';
import { dirname, join, resolve } from 'path';

import type { Simulator, SimulatorOptions } from '../simulator/types';
import {
	PROJECT_ROOT,
	assertServerVersion,
	checkBuiltPackage,
	ensureN8n,
	formatMs,
	installPackageInto,
	n8nVersionsToRun,
	restSession,
	setupOwner,
	startN8nServer,
	type N8nServer,
	type RestCall,
} from './lib';

const CREDENTIAL_TYPE = 'sustainabilityComplianceApi';
const port = (sim: Simulator) => new URL(sim.url).port;
const START_TIMEOUT_MS = Number(process.env.E2E_START_TIMEOUT_MS ?? 180_000);

export interface Rule {
	type: string;
	properties: { key: string; value: unknown; message: string };
}

interface TestResult {
	status: 'OK' | 'Error';
	message: string;
}

interface Case {
	name: string;
	apiKey: string;
	/** Base URL relative to the simulator (`${sim.url}${path}`), or absolute. */
	baseUrl: (sim: Simulator) => string;
	/** The credential's Allow Private Network Address (off when not given). */
	allowPrivateAddress?: boolean;
	/** Runs before the test (e.g. use up a quota). */
	before?: (sim: Simulator) => Promise<void>;
	expectStatus: 'OK' | 'Error';
	/** The rule whose sentence must come back (key + value), or an exact message. */
	expectRule?: { key: string; value: string };
	expectMessage?: string | RegExp;
	/** What the simulator must have answered to the test request. */
	expectHttp?: number;
	/** Nothing may reach the simulator, neither its API listener nor its download listener (a redirect target). */
	expectNothingSent?: boolean;
	/** Nothing may reach the download listener (where the simulator's 302/307 point). */
	expectNoRedirectFollowed?: boolean;
}

/**
 * Probes: answers that are no section-5 variant (server errors, another server at the Base URL). They are
 * not counted as passed/failed: each prints `info` with what n8n says, or `GAP` when n8n reports
 * "Connection successful!" for an error answer (ignoreHttpStatusErrors lets every status through, and no
 * body rule matches). `--strict` counts GAPs as failures.
 */
interface Probe {
	name: string;
	apiKey: string;
	baseUrl: (sim: Simulator, n8nBase: string) => string;
	before?: (sim: Simulator) => void;
}

const PROBES: Probe[] = [
	{
		name: 'API answers 503 Service Unavailable',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.url,
		before: (sim) => sim.setFaults('GET /portfolios', { sequence: ['503'] }),
	},
	{
		name: 'API answers 500 Internal server error',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.url,
		before: (sim) => sim.setFaults('GET /portfolios', { sequence: ['500'] }),
	},
	{
		name: 'gateway answers 429 Too Many Requests (short-burst limit)',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.url,
		before: (sim) => sim.setFaults('GET /portfolios', { sequence: ['429-message'] }),
	},
	{
		name: 'Base URL of another server that answers 404 (the PDF download host)',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.downloadUrl,
	},
	{
		name: 'Base URL of a web page that answers 200 HTML (the n8n editor itself)',
		apiKey: 'sim-all-families',
		baseUrl: (_sim, n8nBase) => n8nBase,
	},
];

const CASES: Case[] = [
	{
		name: 'valid key (sim-all-families)',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.url,
		expectStatus: 'OK',
		expectMessage: 'Connection successful!',
		expectHttp: 200,
	},
	{
		name: 'valid key, Base URL with a trailing slash',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => `${sim.url}/`,
		expectStatus: 'OK',
		expectMessage: 'Connection successful!',
		expectHttp: 200,
	},
	{
		name: 'key with one family only (sim-esg-only)',
		apiKey: 'sim-esg-only',
		baseUrl: (sim) => sim.url,
		expectStatus: 'OK',
		expectMessage: 'Connection successful!',
		expectHttp: 200,
	},
	{
		name: 'unknown key (not-a-key): gateway 403 Forbidden',
		apiKey: 'not-a-key',
		baseUrl: (sim) => sim.url,
		expectStatus: 'Error',
		expectRule: { key: 'message', value: 'Forbidden' },
		expectHttp: 403,
	},
	{
		name: 'key the API does not know (sim-gateway-only)',
		apiKey: 'sim-gateway-only',
		baseUrl: (sim) => sim.url,
		expectStatus: 'Error',
		expectRule: { key: 'data.message', value: 'You must provide a valid API key' },
		expectHttp: 403,
	},
	{
		name: 'disabled key (sim-disabled)',
		apiKey: 'sim-disabled',
		baseUrl: (sim) => sim.url,
		expectStatus: 'Error',
		expectRule: { key: 'data.message', value: 'You must provide an active API key' },
		expectHttp: 403,
	},
	{
		name: 'quota key before its quota is used (sim-quota-5)',
		apiKey: 'sim-quota-5',
		baseUrl: (sim) => sim.url,
		expectStatus: 'OK',
		expectMessage: 'Connection successful!',
		expectHttp: 200,
	},
	{
		name: 'quota used up (sim-quota-5 after 5 requests this month): 429 Limit Exceeded',
		apiKey: 'sim-quota-5',
		baseUrl: (sim) => sim.url,
		// The previous case used 1 request; use up the other 4 directly.
		before: async (sim) => {
			for (let i = 0; i < 4; i++)
				await fetch(`${sim.url}/portfolios`, { headers: { 'x-api-key': 'sim-quota-5' } });
		},
		expectStatus: 'Error',
		expectRule: { key: 'message', value: 'Limit Exceeded' },
		expectHttp: 429,
	},
	{
		name: 'Base URL with an extra path (/v1): 403 Missing Authentication Token',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => `${sim.url}/v1`,
		expectStatus: 'Error',
		expectRule: { key: 'message', value: 'Missing Authentication Token' },
		expectHttp: 403,
	},
	{
		// 0.0.0.0 reaches the simulator's 127.0.0.1 listener, but is no loopback name: the key would travel in clear.
		name: 'plain http:// Base URL of a host that is not loopback: refused, nothing sent',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => `http://0.0.0.0:${new URL(sim.url).port}`,
		expectStatus: 'Error',
		expectMessage: /must start with https:\/\//,
		expectNothingSent: true,
	},
	// The one Base URL rule (nodes/shared/api/baseUrl.ts), run by n8n's expression engine before any request exists.
	...(
		[
			[
				'a number for the host (2130706433 is 127.0.0.1)',
				(sim) => `http://2130706433:${port(sim)}`,
				/not a plain IPv4/,
			],
			[
				'user:pass@ in the Base URL',
				(sim) => `http://user:pass@127.0.0.1:${port(sim)}`,
				/user name or password/,
			],
			['a query in the Base URL', (sim) => `${sim.url}?tenant=1`, /has a query/],
			['a fragment in the Base URL', (sim) => `${sim.url}/#top`, /has a fragment/],
			['a port above 65535', () => 'https://api.example.invalid:99999', /port "99999"/],
			['a private network address', () => 'https://10.0.0.1', /private network address/],
			['the cloud metadata address', () => 'https://169.254.169.254', /cloud metadata/],
		] as [string, (sim: Simulator) => string, RegExp][]
	).map(
		([what, baseUrl, words]): Case => ({
			name: `Base URL refused by the nodes' rule: ${what}; nothing sent`,
			apiKey: 'sim-all-families',
			baseUrl,
			expectStatus: 'Error',
			expectMessage: new RegExp(`Base URL in the credential: .*${words.source}.*Nothing was sent`),
			expectNothingSent: true,
		}),
	),
	{
		name: 'Allow Private Network Address on: the metadata address stays refused',
		apiKey: 'sim-all-families',
		baseUrl: () => 'https://169.254.169.254',
		allowPrivateAddress: true,
		expectStatus: 'Error',
		expectMessage: /Base URL in the credential: .*cloud metadata/,
		expectNothingSent: true,
	},
	{
		name: 'Allow Private Network Address on: a private host name passes the rule (and is not found)',
		apiKey: 'sim-all-families',
		baseUrl: () => 'https://gateway.internal',
		allowPrivateAddress: true,
		expectStatus: 'Error',
		// n8n words the name that does not resolve (ENOTFOUND) as its own sentence.
		expectMessage: /ENOTFOUND|not found|getaddrinfo|EAI_AGAIN|connection cannot be established/i,
	},
	{
		name: 'the API answers 302 to another origin: not followed, the key stays',
		apiKey: 'sim-all-families',
		baseUrl: (sim) => sim.url,
		before: async (sim) => sim.setFaults('GET /portfolios', { sequence: ['302'] }),
		expectStatus: 'Error',
		expectNoRedirectFollowed: true,
	},
	{
		name: 'nothing listening at the Base URL',
		apiKey: 'sim-all-families',
		baseUrl: () => 'http://127.0.0.1:9',
		expectStatus: 'Error',
		// n8n turns ECONNREFUSED into its own sentence (NodeApiError of the RoutingNode).
		expectMessage: /refused the connection|ECONNREFUSED/,
	},
];

interface Args {
	packageRoot: string;
	keep: boolean;
	strict: boolean;
	json?: string;
	n8nVersions: string[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = { packageRoot: PROJECT_ROOT, keep: false, strict: false, n8nVersions: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep') args.keep = true;
		else if (arg === '--n8n-version') args.n8nVersions.push(argv[++i] ?? '');
		else if (arg.startsWith('--n8n-version='))
			args.n8nVersions.push(arg.slice('--n8n-version='.length));
		else if (arg === '--strict') args.strict = true;
		else if (arg === '--package-root') args.packageRoot = resolve(argv[++i] ?? '');
		else if (arg === '--json') args.json = resolve(argv[++i] ?? '');
		else throw new Error(`unknown option ${arg}`);
	}
	return args;
}

/**
 * The answers the Test tells apart, from the built package n8n loads (the nodes' credential test), as rules (key,
 * value, message). `credentialFiles` must still define the credential type, without a declarative test of its own.
 */
async function loadRules(packageRoot: string, credentialFiles: string[]): Promise<Rule[]> {
	let found = false;
	for (const file of credentialFiles) {
		const mod = (await import(join(packageRoot, file))) as Record<
			string,
			new () => { name: string; test?: unknown }
		>;
		for (const Type of Object.values(mod)) {
			if (typeof Type !== 'function') continue;
			const instance = new Type();
			if (instance.name !== CREDENTIAL_TYPE) continue;
			if (instance.test)
				throw new Error(
					`credential type ${CREDENTIAL_TYPE} has a declarative test: n8n would run it instead of the nodes' testedBy`,
				);
			found = true;
		}
	}
	if (!found)
		throw new Error(
			`credential type ${CREDENTIAL_TYPE} not found in ${credentialFiles.join(', ')}`,
		);
	const { CREDENTIAL_TEST_ANSWERS } = (await import(
		join(packageRoot, 'dist', 'nodes', 'shared', 'api', 'credentialTest.js')
	)) as { CREDENTIAL_TEST_ANSWERS: Array<{ key: string; value: string; message: string }> };
	return CREDENTIAL_TEST_ANSWERS.map(({ key, value, message }) => ({
		type: 'responseSuccessBody',
		properties: { key, value, message },
	}));
}

/**
 * Whether this n8n sends a node-side credential test's request through its SSRF protection. 2.41's
 * CredentialTestContext gives helpers.request n8n's OutboundHttp client (SSRF checked); 2.20's builds it without the
 * execution data that carries the SSRF bridge, so N8N_SSRF_PROTECTION_ENABLED does not reach the Test button's
 * request there (the nodes' own requests stay protected). Read from the installed n8n-core.
 */
export async function credentialTestChecksSsrf(version: string): Promise<boolean> {
	const { n8n } = await ensureN8n(version);
	const context = join(
		dirname(dirname(n8n)),
		'n8n-core',
		'dist',
		'execution-engine',
		'node-execution-context',
		'credentials-test-context.js',
	);
	return /constructor\(additionalData\)/.test(readFileSync(context, 'utf8'));
}

async function testCredential(
	rest: RestCall,
	name: string,
	data: Record<string, unknown>,
): Promise<TestResult> {
	// What the editor does: save the credential, then test it with the data of the form.
	const created = await rest<{ id: string }>('POST', '/credentials', {
		name,
		type: CREDENTIAL_TYPE,
		data,
	});
	if (created.status !== 200 || !created.data?.id)
		throw new Error(
			`POST /rest/credentials answered ${created.status}: ${created.text.slice(0, 300)}`,
		);
	const tested = await rest<TestResult>('POST', '/credentials/test', {
		credentials: { id: created.data.id, name, type: CREDENTIAL_TYPE, data },
	});
	if (tested.status !== 200 || !tested.data)
		throw new Error(
			`POST /rest/credentials/test answered ${tested.status}: ${tested.text.slice(0, 300)}`,
		);
	await rest('DELETE', `/credentials/${created.data.id}`);
	return tested.data;
}

export interface CredentialCheckResult {
	case: string;
	apiKey: string;
	baseUrl: string;
	http: number | null;
	status: string;
	message: string;
	ok: boolean;
	probe: boolean;
}

export interface CredentialCheckSummary {
	passed: number;
	failed: number;
	gaps: number;
	results: CredentialCheckResult[];
}

/**
 * Runs every CASES entry (counted) and every PROBES entry (not counted) against a running n8n, as the
 * logged-in owner (`rest`), with `sim` as the API. `rules` are the built credential's test rules.
 * Prints one line per case to `log`.
 */
export async function runCredentialChecks(
	rest: RestCall,
	sim: Simulator,
	n8nBase: string,
	rules: Rule[],
	log: (line: string) => void = console.log,
): Promise<CredentialCheckSummary> {
	const summary: CredentialCheckSummary = { passed: 0, failed: 0, gaps: 0, results: [] };
	const sentence = (key: string, value: string) => {
		const rule = rules.find(
			(r) =>
				r.type === 'responseSuccessBody' &&
				r.properties.key === key &&
				r.properties.value === value,
		);
		if (!rule)
			throw new Error(
				`the credential has no responseSuccessBody rule for ${key} = ${JSON.stringify(value)}`,
			);
		return rule.properties.message;
	};
	sim.reset();
	for (const c of CASES) {
		const baseUrl = c.baseUrl(sim);
		const t = Date.now();
		let result: TestResult | undefined;
		let http: number | null = null;
		try {
			if (c.before) await c.before(sim);
			const before = sim.requests().length;
			result = await testCredential(rest, `e2e ${c.name}`, {
				apiKey: c.apiKey,
				baseUrl,
				...(c.allowPrivateAddress === undefined
					? {}
					: { allowPrivateAddress: c.allowPrivateAddress }),
			});
			const seen = sim.requests().slice(before);
			http = seen.length ? seen[seen.length - 1].status : null;
			const problems: string[] = [];
			if (result.status !== c.expectStatus)
				problems.push(`status ${result.status}, expected ${c.expectStatus}`);
			if (c.expectRule) {
				const expected = sentence(c.expectRule.key, c.expectRule.value);
				if (result.message !== expected)
					problems.push(
						`message is not the sentence of rule ${c.expectRule.key} = "${c.expectRule.value}"`,
					);
			}
			// Issue 36: the Test speaks in the package's words, never n8n's expression wording around them.
			if (/toDateTime|Unsupported format/.test(result.message))
				problems.push("message is wrapped in n8n's date wording");
			if (typeof c.expectMessage === 'string' && result.message !== c.expectMessage)
				problems.push(`expected message "${c.expectMessage}"`);
			if (c.expectMessage instanceof RegExp && !c.expectMessage.test(result.message))
				problems.push(`message does not match ${c.expectMessage}`);
			if (c.expectHttp !== undefined) {
				if (seen.length !== 1)
					problems.push(`the simulator saw ${seen.length} requests, expected 1`);
				else if (seen[0].route !== (baseUrl.endsWith('/v1') ? null : 'GET /portfolios'))
					problems.push(`request went to ${seen[0].method} ${seen[0].path}`);
				else if (seen[0].key !== c.apiKey)
					problems.push(`x-api-key was ${JSON.stringify(seen[0].key)}`);
				if (http !== c.expectHttp)
					problems.push(`simulator answered ${http}, expected ${c.expectHttp}`);
			}
			if (c.expectNothingSent && seen.length)
				problems.push(`the simulator received ${seen.length} request(s), expected none`);
			if ((c.expectNothingSent || c.expectNoRedirectFollowed) && sim.downloads().length) {
				problems.push(
					`the redirect target received ${sim.downloads().length} request(s), expected none`,
				);
			}
			if (problems.length) throw new Error(problems.join('; '));
			summary.passed++;
			log(
				`ok   credential test: ${c.name} (${formatMs(Date.now() - t)})\n     HTTP ${http ?? '-'} -> ${result.status}: ${result.message}`,
			);
			summary.results.push({
				case: c.name,
				apiKey: c.apiKey,
				baseUrl,
				http,
				status: result.status,
				message: result.message,
				ok: true,
				probe: false,
			});
		} catch (error) {
			summary.failed++;
			log(
				`FAIL credential test: ${c.name}\n     ${(error as Error).message}\n     HTTP ${http ?? '-'} -> ${result?.status ?? '?'}: ${result?.message ?? '(no answer)'}`,
			);
			summary.results.push({
				case: c.name,
				apiKey: c.apiKey,
				baseUrl,
				http,
				status: result?.status ?? '?',
				message: result?.message ?? String(error),
				ok: false,
				probe: false,
			});
		}
	}
	for (const probe of PROBES) {
		sim.reset();
		probe.before?.(sim);
		const baseUrl = probe.baseUrl(sim, n8nBase);
		const before = sim.requests().length;
		try {
			const result = await testCredential(rest, `e2e probe ${probe.name}`, {
				apiKey: probe.apiKey,
				baseUrl,
			});
			const seen = sim.requests().slice(before);
			const http = seen.length ? seen[seen.length - 1].status : null;
			const gap = result.status === 'OK';
			if (gap) summary.gaps++;
			log(
				`${gap ? 'GAP ' : 'info'} credential probe: ${probe.name}\n     HTTP ${http ?? '(not the API)'} -> ${result.status}: ${result.message}`,
			);
			summary.results.push({
				case: probe.name,
				apiKey: probe.apiKey,
				baseUrl,
				http,
				status: result.status,
				message: result.message,
				ok: !gap,
				probe: true,
			});
		} catch (error) {
			log(`info credential probe: ${probe.name}\n     ${(error as Error).message}`);
		}
	}
	sim.reset();
	return summary;
}

/**
 * n8n's own SSRF protection (N8N_SSRF_PROTECTION_ENABLED, off by default; 2.20: `additionalData.ssrfBridge`, 2.41:
 * `OutboundHttp`, both under httpRequest / httpRequestWithAuthentication and the credential test) resolves each
 * host name and refuses addresses in N8N_SSRF_BLOCKED_IP_RANGES. The package's Base URL rule reads the address as
 * written, without DNS. These cases take names that resolve (through this machine's resolver, /etc/hosts) to a
 * blocked range and pass the package's rule: with protection off the connection is made (a TCP listener on the
 * port sees it); with protection on n8n refuses it before connecting, in its own words.
 */
interface SsrfCase {
	name: string;
	host: string;
	allowPrivateAddress: boolean;
}

/** The default blocked ranges a resolved loopback or private IPv4/IPv6 address falls in. */
function inDefaultBlockedRange(address: string): boolean {
	return (
		/^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(address) ||
		/^(::1$|f[cd]|fe[89ab])/i.test(address)
	);
}

async function ssrfCases(log: (line: string) => void): Promise<SsrfCase[]> {
	const cases: SsrfCase[] = [
		// Loopback as written: the package's rule lets https://localhost through (a local gateway).
		{ name: 'localhost', host: 'localhost', allowPrivateAddress: false },
	];
	// This machine's own name: a single label, so the rule needs Allow Private Network Address; it resolves
	// through /etc/hosts (127.0.0.1 here, a container's private address in Docker).
	const own = hostname();
	const addresses = await lookup(own, { all: true }).catch(() => []);
	if (addresses.length > 0 && addresses.every(({ address }) => inDefaultBlockedRange(address)))
		cases.push({
			name: `this machine's name "${own}" (resolves to ${addresses.map((a) => a.address).join(', ')})`,
			host: own,
			allowPrivateAddress: true,
		});
	else
		log(
			`info credential ssrf: this machine's name "${own}" does not resolve into a blocked range only (${addresses.map((a) => a.address).join(', ') || 'no address'}); case left out`,
		);
	return cases;
}

/** A TCP listener on every local address that counts the connections made to it and closes each at once. */
async function connectionCounter(): Promise<{
	port: number;
	count: () => number;
	close: () => Promise<void>;
}> {
	let connections = 0;
	const sockets = new Set<Socket>();
	const server: TcpServer = createTcpServer((socket) => {
		connections++;
		sockets.add(socket);
		socket.on('error', () => undefined);
		socket.destroy();
	});
	await new Promise<void>((done) => server.listen(0, '::', done));
	return {
		port: (server.address() as AddressInfo).port,
		count: () => connections,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((done) => server.close(() => done()));
		},
	};
}

/** Words of n8n's SsrfBlockedIpError (2.20 and 2.41): "The request was blocked because it resolves to a restricted IP address". */
const SSRF_REFUSAL =
	/blocked because it resolves to a restricted IP address|restricted IP address|SSRF/i;

/** The SSRF cases against one n8n: refused before connecting when `protection` is on, connected when off. */
export async function runSsrfChecks(
	rest: RestCall,
	protection: boolean,
	log: (line: string) => void = console.log,
	/** false where n8n's credential-test context has no SSRF bridge (2.20): the connection is then made. */
	checkedByN8n = true,
): Promise<CredentialCheckSummary> {
	if (protection && !checkedByN8n)
		log(
			"info credential ssrf: this n8n's credential-test context has no SSRF bridge (2.20): the Test button's request is not checked by N8N_SSRF_PROTECTION_ENABLED; the package's own Base URL rule still applies",
		);
	const refuses = protection && checkedByN8n;
	const summary: CredentialCheckSummary = { passed: 0, failed: 0, gaps: 0, results: [] };
	const listener = await connectionCounter();
	try {
		for (const c of await ssrfCases(log)) {
			const baseUrl = `https://${c.host}:${listener.port}`;
			const name = `N8N_SSRF_PROTECTION_ENABLED=${protection}: ${c.name} passes the package's rule; ${refuses ? 'n8n refuses it before connecting' : 'the connection is made'}`;
			const before = listener.count();
			let result: TestResult | undefined;
			try {
				result = await testCredential(rest, `e2e ssrf ${c.host}`, {
					apiKey: 'sim-all-families',
					baseUrl,
					allowPrivateAddress: c.allowPrivateAddress,
				});
				const connected = listener.count() - before;
				const problems: string[] = [];
				if (result.status !== 'Error') problems.push(`status ${result.status}, expected Error`);
				if (/Base URL in the credential/.test(result.message))
					problems.push(
						"the package's own rule refused it (the case needs a name the rule lets through)",
					);
				if (refuses) {
					if (!SSRF_REFUSAL.test(result.message))
						problems.push(`message does not match ${SSRF_REFUSAL}`);
					if (connected)
						problems.push(`the listener saw ${connected} connection(s), expected none`);
				} else if (!connected) problems.push('the listener saw no connection, expected one');
				if (problems.length) throw new Error(problems.join('; '));
				summary.passed++;
				log(
					`ok   credential ssrf: ${name}\n     ${connected} connection(s) -> ${result.status}: ${result.message}`,
				);
				summary.results.push({
					case: name,
					apiKey: 'sim-all-families',
					baseUrl,
					http: null,
					status: result.status,
					message: result.message,
					ok: true,
					probe: false,
				});
			} catch (error) {
				summary.failed++;
				log(
					`FAIL credential ssrf: ${name}\n     ${(error as Error).message}\n     -> ${result?.status ?? '?'}: ${result?.message ?? '(no answer)'}`,
				);
				summary.results.push({
					case: name,
					apiKey: 'sim-all-families',
					baseUrl,
					http: null,
					status: result?.status ?? '?',
					message: result?.message ?? String(error),
					ok: false,
					probe: false,
				});
			}
		}
	} finally {
		await listener.close();
	}
	return summary;
}

function addSummary(
	total: CredentialCheckSummary,
	more: CredentialCheckSummary,
): CredentialCheckSummary {
	return {
		passed: total.passed + more.passed,
		failed: total.failed + more.failed,
		gaps: total.gaps + more.gaps,
		results: [...total.results, ...more.results],
	};
}

/** The credential's test rules, from the built package (what n8n loads). */
export async function builtCredentialRules(packageRoot: string): Promise<Rule[]> {
	return loadRules(packageRoot, checkBuiltPackage(packageRoot).credentials);
}

/**
 * The credential checks against a fresh `n8n start` of `version` (installed), in its own user folder with the built
 * package, as the owner, against `sim`. Shared by this script and real-n8n.ts.
 */
export async function credentialChecksInN8n(
	version: string,
	packageRoot: string,
	info: ReturnType<typeof checkBuiltPackage>,
	sim: Simulator,
	rules: Rule[],
	keep: boolean,
): Promise<CredentialCheckSummary> {
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-cred-'));
	let server: N8nServer | undefined;
	try {
		installPackageInto(userFolder, packageRoot, info);
		const started = Date.now();
		server = await startN8nServer(version, userFolder, START_TIMEOUT_MS);
		console.log(
			`[cred-test] n8n ${version} ready at ${server.base} in ${formatMs(Date.now() - started)}; simulator at ${sim.url}`,
		);
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		await assertServerVersion(rest, version);
		const checks = await runCredentialChecks(rest, sim, server.base, rules);
		const unprotected = await runSsrfChecks(rest, false);
		await server.stop();
		server = undefined;
		return addSummary(
			addSummary(checks, unprotected),
			await ssrfChecksInN8n(version, packageRoot, info, keep),
		);
	} finally {
		if (server) await server.stop();
		if (keep) console.log(`[cred-test] kept n8n user folder ${userFolder} (n8n.log in it)`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
}

/** The SSRF cases against a fresh `n8n start` of `version` with N8N_SSRF_PROTECTION_ENABLED=true. */
export async function ssrfChecksInN8n(
	version: string,
	packageRoot: string,
	info: ReturnType<typeof checkBuiltPackage>,
	keep: boolean,
): Promise<CredentialCheckSummary> {
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-ssrf-'));
	let server: N8nServer | undefined;
	try {
		installPackageInto(userFolder, packageRoot, info);
		server = await startN8nServer(version, userFolder, START_TIMEOUT_MS, {
			N8N_SSRF_PROTECTION_ENABLED: 'true',
		});
		console.log(
			`[cred-test] n8n ${version} with N8N_SSRF_PROTECTION_ENABLED=true ready at ${server.base}`,
		);
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		await assertServerVersion(rest, version);
		return await runSsrfChecks(rest, true, console.log, await credentialTestChecksSsrf(version));
	} finally {
		if (server) await server.stop();
		if (keep) console.log(`[cred-test] kept n8n user folder ${userFolder} (n8n.log in it)`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
}

async function runOne(
	version: string,
	args: Args,
	info: ReturnType<typeof checkBuiltPackage>,
	rules: Rule[],
): Promise<CredentialCheckSummary> {
	console.log(`[cred-test] ===== n8n ${version} =====`);
	await ensureN8n(version);
	const simModule = (await import(join(PROJECT_ROOT, 'test', 'simulator'))) as {
		startSimulator: (o: SimulatorOptions) => Promise<Simulator>;
	};
	const sim = await simModule.startSimulator({ port: 0 });
	try {
		return await credentialChecksInN8n(version, args.packageRoot, info, sim, rules, args.keep);
	} finally {
		await sim.close().catch(() => undefined);
	}
}

async function main(): Promise<number> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	const info = checkBuiltPackage(args.packageRoot);
	const rules = await loadRules(args.packageRoot, info.credentials);
	let passed = 0;
	let failed = 0;
	const json: Record<string, CredentialCheckResult[]> = {};
	for (const version of n8nVersionsToRun(args.n8nVersions)) {
		let summary: CredentialCheckSummary;
		try {
			summary = await runOne(version, args, info, rules);
		} catch (error) {
			console.log(`FAIL n8n ${version}: ${(error as Error).message}`);
			summary = { passed: 0, failed: 1, gaps: 0, results: [] };
		}
		json[version] = summary.results;
		let versionFailed = summary.failed;
		if (summary.gaps) {
			console.log(
				`[cred-test] ${summary.gaps} probe(s) where n8n ${version} says "Connection successful!" for an error answer${args.strict ? ' (counted as failures: --strict)' : ' (not counted; --strict counts them)'}`,
			);
			if (args.strict) versionFailed += summary.gaps;
		}
		console.log(`[n8n ${version}] ${summary.passed} passed, ${versionFailed} failed`);
		passed += summary.passed;
		failed += versionFailed + (summary.passed === 0 ? 1 : 0);
	}
	if (args.json) writeFileSync(args.json, JSON.stringify(json, null, 2));
	console.log(`[cred-test] total ${formatMs(Date.now() - t0)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: Error) => {
			console.error(`[cred-test] ERROR: ${error.message}`);
			console.log('0 passed, 1 failed');
			process.exit(1);
		},
	);
}

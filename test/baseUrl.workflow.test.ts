/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
/**
 * One Base URL rule (nodes/shared/api/baseUrl.ts) for the nodes and the credential's Test button (issue 29 item 6). The
 * same list of Base URLs goes through a node run in n8n's engine and through the credential test as n8n runs it; both
 * must accept and refuse the same ones. The URLs that could reach this computer point at a loopback listener (on
 * every local address) that records what arrives: a refused URL must leave it empty, so the key never went there.
 */
import { createServer } from 'http';
import { lookup } from 'dns/promises';
import { createRequire } from 'module';
import { hostname } from 'os';
import type { IncomingHttpHeaders, Server } from 'http';
import type { AddressInfo } from 'net';

import { testCredential } from './helpers/credentialTest';
import { chainWorkflow } from './helpers/workflows';
import { makeIsin } from './helpers/isins';
import { runWorkflow } from './workflow/runner';

const KEY = 'sim-all-families';
let listener: Server;
let port = 0;
/** TCP connections the listener accepted (a TLS handshake to it fails, but the connection was made). */
let connections = 0;
const arrived: { url?: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
	listener = createServer((request, response) => {
		arrived.push({ url: request.url, headers: request.headers });
		response.writeHead(404, { 'content-type': 'application/json' });
		response.end('{"message":"Not Found"}');
	});
	// '::' (dual stack): 0.0.0.0, 127.x, ::1 and localhost all reach it, so a URL that slips through is seen.
	listener.on('connection', () => connections++);
	await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
	port = (listener.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => listener.close(() => resolve())));
beforeEach(() => {
	arrived.length = 0;
});

type Verdict = 'accepted' | 'refused';
/** [Base URL (PORT = the listener), Allow Private Network Address, expected verdict, what a refusal names] */
const CASES: [string, boolean, Verdict, RegExp?][] = [
	['http://127.0.0.1:PORT', false, 'accepted'],
	['http://127.0.0.1:PORT/', false, 'accepted'],
	[' HTTP://LOCALHOST:PORT// ', false, 'accepted'],
	['http://[::1]:PORT', false, 'accepted'],
	['https://api.example.invalid', false, 'accepted'],
	['https://api.example.invalid/v1', false, 'accepted'],
	// a fully qualified name (trailing dot): the same host, sent without the dot
	['https://api.example.invalid.', false, 'accepted'],
	['http://localhost.:PORT', false, 'accepted'],
	['http://127.0.0.1.:PORT/', false, 'accepted'],
	['https://api.example.invalid..', false, 'refused', /host name that cannot be read/],
	// http:// only for loopback
	['http://0.0.0.0:PORT', false, 'refused', /must start with https:\/\//],
	['http://api.example.invalid', false, 'refused', /must start with https:\/\//],
	['ftp://127.0.0.1:PORT', false, 'refused', /must start with https:\/\/ \(it starts with ftp/],
	// numbers that are not a dotted IPv4 address (all mean 127.0.0.1 to the WHATWG parser)
	['http://2130706433:PORT', false, 'refused', /as a number that is not a plain IPv4/],
	['http://0x7f.1:PORT', false, 'refused', /as a number that is not a plain IPv4/],
	['http://0177.0.0.1:PORT', false, 'refused', /as a number that is not a plain IPv4/],
	['http://127.1:PORT', false, 'refused', /as a number that is not a plain IPv4/],
	['http://0127.0.0.1:PORT', false, 'refused', /as a number that is not a plain IPv4/],
	['http://127.000.0.1:PORT', false, 'refused', /leading zero/],
	// user:pass, query, fragment, port
	['http://user:pass@127.0.0.1:PORT', false, 'refused', /user name or password/],
	['https://user@api.example.invalid', false, 'refused', /user name or password/],
	['http://127.0.0.1:PORT?tenant=1', false, 'refused', /has a query/],
	['http://127.0.0.1:PORT/#top', false, 'refused', /has a fragment/],
	['https://api.example.invalid:99999', false, 'refused', /port "99999"/],
	['https://api.example.invalid:0', false, 'refused', /port "0"/],
	['https://api.example.invalid:', false, 'refused', /port ""/],
	// private, link-local and metadata
	['https://10.0.0.1', false, 'refused', /private network address/],
	['https://172.16.5.4', false, 'refused', /private network address/],
	['https://192.168.1.10', false, 'refused', /private network address/],
	['https://[fc00::1]', false, 'refused', /private network address/],
	['https://gateway.internal', false, 'refused', /private network address/],
	['https://169.254.10.1', false, 'refused', /link-local/],
	['https://[fe80::1]', false, 'refused', /link-local/],
	['https://169.254.169.254', false, 'refused', /cloud metadata/],
	['https://[fd00:ec2::254]', false, 'refused', /cloud metadata/],
	['https://metadata.google.internal', false, 'refused', /cloud metadata/],
	['https://[::ffff:169.254.169.254]', false, 'refused', /cloud metadata/],
	// Allow Private Network Address: https to a private name or address; metadata and http:// stay refused
	['https://gateway.internal', true, 'accepted'],
	['https://apigw:PORT', true, 'accepted'],
	['https://169.254.169.254', true, 'refused', /cloud metadata/],
	['https://metadata.google.internal', true, 'refused', /cloud metadata/],
	['http://10.0.0.1', true, 'refused', /must start with https:\/\//],
	['http://0.0.0.0:PORT', true, 'refused', /must start with https:\/\//],
	['http://2130706433:PORT', true, 'refused', /as a number that is not a plain IPv4/],
];

async function throughNode(baseUrl: string, allowPrivateAddress: boolean) {
	const result = await runWorkflow(
		chainWorkflow([{ isin: makeIsin('US', 1) }], {
			type: 'sustainabilityInstruments',
			parameters: { operation: 'getSfdrClassification' },
		}),
		{ credentials: { sustainabilityComplianceApi: { apiKey: KEY, baseUrl, allowPrivateAddress } } },
	);
	const message = result.error?.message ?? '';
	const refused = message.startsWith("The credential's Base URL ");
	return {
		verdict: (refused ? 'refused' : 'accepted') as Verdict,
		text: `${message} ${(result.error as { description?: string } | undefined)?.description ?? ''}`,
	};
}

async function throughCredentialTest(baseUrl: string, allowPrivateAddress: boolean) {
	const result = await testCredential({ apiKey: KEY, baseUrl, allowPrivateAddress });
	const refused = result.status === 'Error' && /Base URL in the credential: "/.test(result.message);
	return { verdict: (refused ? 'refused' : 'accepted') as Verdict, text: result.message };
}

describe('one Base URL rule: the node and the credential test accept and refuse the same addresses', () => {
	// Every row has four cells: a test function with more parameters than its row's cells is taken to want `done`.
	const rows = CASES.map(
		([pattern, allow, expected, words]) => [pattern, allow, expected, words ?? null] as const,
	);
	it.each(rows)(
		'%j (Allow Private Network Address %s): %s',
		async (pattern, allow, expected, words) => {
			const baseUrl = pattern.replace('PORT', String(port));
			const node = await throughNode(baseUrl, allow);
			const nodeArrivals = arrived.length;
			const test = await throughCredentialTest(baseUrl, allow);

			expect([node.verdict, test.verdict]).toEqual([expected, expected]);
			if (expected === 'refused') {
				expect(node.text).toMatch(words!);
				expect(test.text).toMatch(words!);
				expect(node.text).toMatch(/Nothing was sent/);
				expect(test.text).toMatch(/Nothing was sent/);
				expect(`${node.text} ${test.text}`).not.toContain('pass@');
				expect(`${node.text} ${test.text}`).not.toContain(KEY);
				// Neither path sent anything anywhere this listener could see.
				expect(arrived).toEqual([]);
			} else if (pattern.includes('PORT') && !pattern.includes('apigw')) {
				// An accepted loopback URL did reach the listener from both paths, with the key: the listener can see.
				expect(nodeArrivals).toBeGreaterThanOrEqual(1);
				expect(arrived.length).toBeGreaterThan(nodeArrivals);
				expect(arrived[0].headers['x-api-key']).toBe(KEY);
			}
		},
	);
});

/**
 * The rule reads the address as written (no DNS): a name that resolves to this computer passes it. n8n's own SSRF
 * protection (N8N_SSRF_PROTECTION_ENABLED; here the n8n-core the tests run, whose request helpers go through
 * OutboundHttp) resolves the name and refuses it before connecting. The real-n8n credential check does the same
 * against `n8n start` of both supported versions.
 */
describe("a name that resolves to this computer: passes the rule, refused by n8n's SSRF protection when it is on", () => {
	// n8n-core's own copies of @n8n/di and @n8n/config (nested under it), as its request helpers see them.
	const coreRequire = createRequire(require.resolve('n8n-core'));
	const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');
	const { SsrfProtectionConfig } = coreRequire('@n8n/config') as typeof import('@n8n/config');
	const config = Container.get(SsrfProtectionConfig);
	afterEach(() => {
		config.enabled = false;
	});

	it.each([
		['localhost', false],
		[hostname(), true],
	] as const)('https://%s:PORT (Allow Private Network Address %s)', async (name, allow) => {
		// This machine's name resolves to 127.0.0.1 here (/etc/hosts) and to a local address in a container.
		if ((await lookup(name, { all: true }).catch(() => [])).length === 0) return;
		const baseUrl = `https://${name}:${port}`;
		const before = connections;
		const off = await throughNode(baseUrl, allow);
		// Off (n8n's default): the rule lets it through and the connection is made (the TLS handshake then fails).
		expect(off.verdict).toBe('accepted');
		expect(off.text).not.toMatch(/restricted IP address/);
		expect(connections).toBeGreaterThan(before);
		const connected = connections;
		config.enabled = true;
		const on = await throughNode(baseUrl, allow);
		expect(on.verdict).toBe('accepted');
		expect(on.text).toMatch(/blocked because it resolves to a restricted IP address/);
		expect(connections).toBe(connected);
	});
});

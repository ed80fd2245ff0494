/**
 * The credential's Test button (test/helpers/credentialTest.ts runs it as n8n's CredentialsTester does) against the
 * simulator. test/e2e/credential-test.ts runs the same cases inside a real `n8n start`.
 */
import { NodeHelpers } from 'n8n-workflow';

import fc from 'fast-check';

import {
	CREDENTIAL_TEST_ANSWERS,
	NOT_THE_API,
	credentialTestVerdict,
} from '../nodes/shared/api/credentialTest';
import type { CredentialTestAnswer } from '../nodes/shared/api/credentialTest';
import { checkBaseUrlText } from '../nodes/shared/api/baseUrl';
import {
	NODES_OF_THE_CREDENTIAL,
	credential,
	credentialTestFunctionOf,
	testCredential,
} from './helpers/credentialTest';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';

const sim = useSimulator();

describe("credential test (the nodes' testedBy, as the Test button runs it)", () => {
	it('a valid key against the simulator: Connection successful!', async () => {
		expect(await testCredential({ apiKey: 'sim-all-families', baseUrl: sim.url })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
	});

	it.each(['http://localhost:PORT', 'http://127.0.0.1:PORT/'])(
		'http:// to loopback (%s) stays allowed, for a local simulator',
		async (pattern) => {
			const result = await testCredential({
				apiKey: 'sim-all-families',
				baseUrl: pattern.replace('PORT', new URL(sim.url).port),
			});
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		},
	);

	it('an unknown key: the gateway sentence', async () => {
		const result = await testCredential({ apiKey: 'not-a-key', baseUrl: sim.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/does not know this key/);
	});

	// 0.0.0.0 reaches the simulator's 127.0.0.1 listener on Linux, but it is not a loopback name: the key would travel.
	it.each(['http://0.0.0.0:PORT', ' HTTP://0.0.0.0:PORT/ '])(
		'http:// to a host that is not loopback (%j): refused, nothing sent, the message says to use https',
		async (pattern) => {
			const result = await testCredential({
				apiKey: 'sim-all-families',
				baseUrl: pattern.replace('PORT', new URL(sim.url).port),
			});
			expect(sim.requestCount()).toBe(0);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/must start with https:\/\/.*nothing was sent/i);
		},
	);

	it.each(['302', '307'] as const)(
		'a %s answer is not followed: the key never reaches the redirect target',
		async (kind) => {
			sim.setFaults('GET /portfolios', { sequence: [kind] });
			const result = await testCredential({ apiKey: 'sim-all-families', baseUrl: sim.url });
			expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
			expect(sim.downloads()).toEqual([]);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/did not answer like the Sustainability Compliance API/);
		},
	);
});

describe('credential dialog: the notice under Base URL', () => {
	const notice = credential.properties.find((property) => property.name === 'plainHttpNotice')!;
	it.each([
		['http://api.example.com', true],
		['HTTP://api.example.com/', true],
		[' http://10.0.0.1:8080', true],
		['http://localhost.example.com', true],
		['http://0.0.0.0:4010', true],
		['http://localhost:4010', false],
		['http://127.0.0.1:9/', false],
		['http://[::1]:4010', false],
		['https://api.example.com', false],
		['', false],
	])('%j: shown %s', (baseUrl, shown) => {
		expect(NodeHelpers.displayParameter({ baseUrl }, notice, null, null)).toBe(shown);
	});
});

/** The sentence the Test gives for an answer of the table. */
const sentence = (key: CredentialTestAnswer['key'], value: string) =>
	CREDENTIAL_TEST_ANSWERS.find((answer) => answer.key === key && answer.value === value)!.message;

describe('credential Test in our own words (issue 36 item 4)', () => {
	it('the credential has no declarative test, and n8n finds the same node-side test through every node', () => {
		expect((credential as { test?: unknown }).test).toBeUndefined();
		const tests = NODES_OF_THE_CREDENTIAL.map(credentialTestFunctionOf);
		expect(tests.every((test) => typeof test === 'function')).toBe(true);
		expect(new Set(tests).size).toBe(1);
	});

	it.each<[string, string, () => void, RegExp | string]>([
		[
			'unknown key: gateway 403 Forbidden',
			'not-a-key',
			() => undefined,
			sentence('message', 'Forbidden'),
		],
		[
			'key the API does not know',
			'sim-gateway-only',
			() => undefined,
			sentence('data.message', 'You must provide a valid API key'),
		],
		[
			'disabled key',
			'sim-disabled',
			() => undefined,
			sentence('data.message', 'You must provide an active API key'),
		],
		[
			'throttled (429 Too Many Requests)',
			'sim-all-families',
			() => sim.setFaults('GET /portfolios', { sequence: ['429-message'] }),
			sentence('message', 'Too Many Requests'),
		],
		[
			'unavailable (503)',
			'sim-all-families',
			() => sim.setFaults('GET /portfolios', { sequence: ['503'] }),
			sentence('message', 'Service Unavailable'),
		],
		[
			'server error (500)',
			'sim-all-families',
			() => sim.setFaults('GET /portfolios', { sequence: ['500'] }),
			sentence('data.message', 'Internal server error'),
		],
	])('%s: its own sentence, one request', async (_what, apiKey, before, message) => {
		before();
		const result = await testCredential({ apiKey, baseUrl: sim.url });
		expect(result).toEqual({ status: 'Error', message });
		expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
	});

	it('quota used up (sim-quota-5 after 5 requests): 429 Limit Exceeded', async () => {
		for (let i = 0; i < 5; i++)
			await fetch(`${sim.url}/portfolios`, { headers: { 'x-api-key': 'sim-quota-5' } });
		const result = await testCredential({ apiKey: 'sim-quota-5', baseUrl: sim.url });
		expect(result).toEqual({ status: 'Error', message: sentence('message', 'Limit Exceeded') });
	});

	it('a Base URL with an extra path: Missing Authentication Token', async () => {
		const result = await testCredential({ apiKey: 'sim-all-families', baseUrl: `${sim.url}/v1` });
		expect(result).toEqual({
			status: 'Error',
			message: sentence('message', 'Missing Authentication Token'),
		});
	});

	it.each<[string, (body: unknown) => unknown]>([
		['an HTML page', () => '<html><body>Welcome</body></html>'],
		['JSON without data.funds', () => ({ data: { portfolios: [] } })],
		['an empty object', () => ({})],
	])("an answer that is not the API's (%s): not like the API", async (_what, rewrite) => {
		const proxy = await startProxy(sim.url, (_path, body) => rewrite(body));
		try {
			const result = await testCredential({ apiKey: 'sim-all-families', baseUrl: proxy.url });
			expect(result).toEqual({ status: 'Error', message: NOT_THE_API });
		} finally {
			await proxy.close();
		}
	});

	it('nothing listening: our words, with the code', async () => {
		const result = await testCredential({
			apiKey: 'sim-all-families',
			baseUrl: 'http://127.0.0.1:9',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the connection \(ECONNREFUSED\)/);
	});

	it("property: any Base URL the nodes refuse is refused in their words, nothing sent, never in n8n's date wording", async () => {
		const port = new URL(sim.url).port;
		const baseUrl = fc.oneof(
			fc.webUrl({ withQueryParameters: true, withFragments: true }),
			fc.constantFrom(
				`http://0.0.0.0:${port}`,
				`http://2130706433:${port}`,
				`http://user:pass@127.0.0.1:${port}`,
				`${sim.url}?tenant=1`,
				`${sim.url}/#top`,
				'https://api.example.invalid:99999',
				'https://10.0.0.1',
				'https://169.254.169.254',
				'ftp://example.com',
				'',
				'   ',
			),
			fc.string({ maxLength: 30 }),
		);
		await fc.assert(
			fc.asyncProperty(baseUrl, fc.boolean(), async (raw, allowPrivateAddress) => {
				const verdict = checkBaseUrlText(raw, allowPrivateAddress);
				fc.pre(verdict.problem !== undefined);
				const before = sim.requests().length;
				const result = await testCredential({
					apiKey: 'sim-all-families',
					baseUrl: raw,
					allowPrivateAddress,
				});
				expect(result.status).toBe('Error');
				expect(result.message).toBe(
					`Base URL in the credential: ${verdict.problem}. ${verdict.fix} Nothing was sent.`,
				);
				expect(result.message).not.toMatch(/toDateTime|Unsupported format/);
				expect(sim.requests().length).toBe(before);
			}),
			{ numRuns: 150 },
		);
	});

	it('property: an answer is told apart by its body as the declarative rules did, success only for the portfolio list', () => {
		const value = fc.oneof(
			fc.constantFrom(...CREDENTIAL_TEST_ANSWERS.map((answer) => answer.value)),
			fc.string({ maxLength: 10 }),
		);
		fc.assert(
			fc.property(
				fc.integer({ min: 100, max: 599 }),
				fc.record(
					{
						message: value,
						data: fc.record(
							{ message: value, funds: fc.oneof(fc.constant([]), fc.constant(null)) },
							{ requiredKeys: [] },
						),
					},
					{ requiredKeys: [] },
				),
				(status, body) => {
					const verdict = credentialTestVerdict(status, body);
					const rule = CREDENTIAL_TEST_ANSWERS.find(
						(answer) =>
							(answer.key === 'message' ? body.message : body.data?.message) === answer.value,
					);
					if (rule) expect(verdict).toEqual({ status: 'Error', message: rule.message });
					else if (status >= 200 && status < 300 && Array.isArray(body.data?.funds))
						expect(verdict.status).toBe('OK');
					else expect(verdict).toEqual({ status: 'Error', message: NOT_THE_API });
				},
			),
			{ numRuns: 500 },
		);
	});
});

/**
 * The credential's Test button (test/helpers/credentialTest.ts runs it as n8n's CredentialsTester does) against the
 * simulator. test/e2e/credential-test.ts runs the same cases inside a real `n8n start`.
 */
import { NodeHelpers } from 'n8n-workflow';

import { credential, testCredential } from './helpers/credentialTest';
import { useSimulator } from './helpers/simulator';

const sim = useSimulator();

describe('credential test (n8n-core RoutingNode, as the Test button)', () => {
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

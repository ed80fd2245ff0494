/**
 * Gateway behaviour: route table, keys, body size, burst limit, quota, faults, latency, request recording.
 */
import { SIM_KEYS, startSimulator } from '../index';
import { COMPANIES, call, requiredError, sleep } from './helpers';
import { useSimulator } from '../../helpers/simulator';

const PROFILE = '/instruments/sustainability-profile';
const ONE = { holdings: [{ isin: COMPANIES[0] }] };
/** The 429 body of the 'status' kind (an express rate limiter's). */
const TOO_MANY_STATUS = { status: 429, error: 'Too many requests, please try again later.' };

describe('gateway', () => {
	let clock = new Date('2025-08-15T12:00:00Z');

	const sim = useSimulator({ now: () => clock, timeScale: 0.01 }, { reset: false }); // reset below, after the clock
	/** The status GET /portfolios answers with `key` (the default key when not given). */
	const listed = async (key?: string | null) =>
		(await call(sim.url, 'GET', '/portfolios', { key })).status;
	beforeEach(() => {
		clock = new Date('2025-08-15T12:00:00Z');
		sim.reset();
		sim.setBurstLimit(null);
		sim.setLatency({});
	});

	describe('route table', () => {
		it.each([
			['GET', '/unknown'],
			['GET', '/reports'],
			['PATCH', '/portfolios'],
			['GET', '/portfolios/some-id'],
			['POST', '/temperature-score/insights'],
			['GET', '/'],
			['POST', '/instruments'],
		])('%s %s => 403 Missing Authentication Token whatever the key', async (method, path) => {
			for (const key of [SIM_KEYS.allFamilies, 'bogus', null]) {
				const res = await call(sim.url, method, path, {
					key,
					body: method === 'GET' ? undefined : ONE,
				});
				expect(res.status).toBe(403);
				expect(res.body).toEqual({ message: 'Missing Authentication Token' });
			}
		});

		it('tolerates a trailing slash and a query string', async () => {
			expect((await call(sim.url, 'GET', '/portfolios/')).status).toBe(200);
			expect((await call(sim.url, 'GET', '/portfolios?x=1')).status).toBe(200);
			expect((await call(sim.url, 'POST', `${PROFILE}/`, { body: ONE })).status).toBe(200);
		});
	});

	describe('keys', () => {
		it('rejects a missing or unknown key at the gateway', async () => {
			for (const key of [null, 'bogus', '', 'SIM-ALL-FAMILIES']) {
				const res = await call(sim.url, 'GET', '/portfolios', { key });
				expect(res.status).toBe(403);
				expect(res.body).toEqual({ message: 'Forbidden' });
			}
		});

		it('answers the API-level 403 messages', async () => {
			const gatewayOnly = await call(sim.url, 'GET', '/portfolios', { key: SIM_KEYS.gatewayOnly });
			expect(gatewayOnly.status).toBe(403);
			expect(gatewayOnly.body).toEqual({ data: { message: 'You must provide a valid API key' } });
			const disabled = await call(sim.url, 'POST', PROFILE, { key: SIM_KEYS.disabled, body: ONE });
			expect(disabled.status).toBe(403);
			expect(disabled.body).toEqual({ data: { message: 'You must provide an active API key' } });
		});

		it('limits sim-esg-only to the ESG family (portfolios and reports allowed)', async () => {
			const key = SIM_KEYS.esgOnly;
			const denied: [string, string, unknown][] = [
				['POST', PROFILE, ONE],
				['POST', '/instruments/sustainability-data', ONE],
				['POST', '/sustainable-investments/insights', { methodology_id: 1, holdings: [] }],
				['GET', '/sustainable-investments/methodologies', undefined],
				['POST', '/taxonomy/insights', { holdings: [] }],
			];
			for (const [method, path, body] of denied) {
				const res = await call(sim.url, method, path, { key, body });
				expect(res.status).toBe(403);
				expect(res.body).toEqual({
					data: { message: "You don't have access to any of the frameworks requested." },
				});
			}
			const allowed: [string, string, unknown][] = [
				['POST', '/instruments/esg-data', ONE],
				['POST', '/instruments/business-involvements', ONE],
				['GET', '/portfolios', undefined],
			];
			for (const [method, path, body] of allowed)
				expect((await call(sim.url, method, path, { key, body })).status).toBe(200);
		});

		it('accepts every family with sim-all-families, sim-all-families-2 and sim-quota-5', async () => {
			for (const key of [SIM_KEYS.allFamilies, SIM_KEYS.allFamilies2, SIM_KEYS.quota5]) {
				expect((await call(sim.url, 'POST', PROFILE, { key, body: ONE })).status).toBe(200);
				expect(
					(await call(sim.url, 'GET', '/sustainable-investments/methodologies', { key })).status,
				).toBe(200);
			}
		});
	});

	describe('body size', () => {
		it('answers 413 past 10 MB, after the route and key checks', async () => {
			const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
			const res = await call(sim.url, 'POST', PROFILE, { raw: big });
			expect(res.status).toBe(413);
			expect(res.body).toEqual({ message: 'Request Too Long' });
			const bogusKey = await call(sim.url, 'POST', PROFILE, { raw: big, key: 'bogus' });
			expect(bogusKey.body).toEqual({ message: 'Forbidden' });
			const nowhere = await call(sim.url, 'POST', '/nowhere', { raw: big });
			expect(nowhere.body).toEqual({ message: 'Missing Authentication Token' });
		});

		it('accepts exactly 10 MB', async () => {
			const head = JSON.stringify(ONE).slice(0, -1) + ',"pad":"';
			const tail = '"}';
			const body = head + 'x'.repeat(10 * 1024 * 1024 - head.length - tail.length) + tail;
			expect(Buffer.byteLength(body)).toBe(10 * 1024 * 1024);
			expect((await call(sim.url, 'POST', PROFILE, { raw: body })).status).toBe(200);
		});
	});

	describe('burst limit', () => {
		it('answers 429 per key over the window, alternating bodies, with Retry-After', async () => {
			sim.setBurstLimit({ requests: 3, windowMs: 400, body: 'alternate', retryAfterSeconds: 2 });
			for (let i = 0; i < 3; i++) expect(await listed()).toBe(200);
			const first = await call(sim.url, 'GET', '/portfolios');
			expect(first.status).toBe(429);
			expect(first.body).toEqual({ message: 'Too Many Requests' });
			expect(first.headers.get('retry-after')).toBe('2');
			const second = await call(sim.url, 'GET', '/portfolios');
			expect(second.body).toEqual(TOO_MANY_STATUS);
			expect(await listed(SIM_KEYS.allFamilies2)).toBe(200);
			await sleep(450);
			expect(await listed()).toBe(200);
		});

		it("uses the 'status' body and no Retry-After unless configured", async () => {
			sim.setBurstLimit({ requests: 1, windowMs: 10000, body: 'status' });
			await call(sim.url, 'GET', '/portfolios');
			const res = await call(sim.url, 'GET', '/portfolios');
			expect(res.status).toBe(429);
			expect(res.body).toEqual(TOO_MANY_STATUS);
			expect(res.headers.get('retry-after')).toBeNull();
		});
	});

	describe('monthly quota', () => {
		it('gives sim-quota-5 five requests per calendar month, then 429 Limit Exceeded', async () => {
			const key = SIM_KEYS.quota5;
			for (let i = 0; i < 5; i++) expect(await listed(key)).toBe(200);
			const over = await call(sim.url, 'GET', '/portfolios', { key });
			expect(over.status).toBe(429);
			expect(over.body).toEqual({ message: 'Limit Exceeded' });
			expect(await listed()).toBe(200);
			clock = new Date('2025-09-01T00:00:00Z');
			expect(await listed(key)).toBe(200);
		});

		it('counts gateway-passed requests even when they fail later', async () => {
			const key = SIM_KEYS.quota5;
			await call(sim.url, 'GET', '/portfolios', { key: 'bogus' });
			for (let i = 0; i < 5; i++) await call(sim.url, 'POST', PROFILE, { key, raw: '{bad json' });
			const over = await call(sim.url, 'GET', '/portfolios', { key });
			expect(over.body).toEqual({ message: 'Limit Exceeded' });
		});

		it('applies the monthlyQuota option to the other keys', async () => {
			const small = await startSimulator({ monthlyQuota: 2 });
			try {
				for (const status of [200, 200, 429])
					expect((await call(small.url, 'GET', '/portfolios')).status).toBe(status);
				expect(
					(await call(small.url, 'GET', '/portfolios', { key: SIM_KEYS.allFamilies2 })).status,
				).toBe(200);
			} finally {
				await small.close();
			}
		});
	});

	describe('faults', () => {
		it('consumes a sequence, then answers normally', async () => {
			sim.setFaults('POST /instruments/sustainability-profile', {
				sequence: ['503', null, '500', '429-message', '429-status', '429-limit', '504'],
			});
			const results = [];
			for (let i = 0; i < 8; i++) results.push(await call(sim.url, 'POST', PROFILE, { body: ONE }));
			expect(results.map((res) => res.status)).toEqual([503, 200, 500, 429, 429, 429, 504, 200]);
			expect(results[0].body).toEqual({ message: 'Service Unavailable' });
			expect(results[2].body).toEqual({ data: { message: 'Internal server error' } });
			expect(results[3].body).toEqual({ message: 'Too Many Requests' });
			expect(results[4].body).toEqual(TOO_MANY_STATUS);
			expect(results[5].body).toEqual({ message: 'Limit Exceeded' });
			expect(results[6].body).toEqual({ message: 'Endpoint request timed out' });
			expect(
				sim.requests({ route: 'POST /instruments/sustainability-profile' }).map((r) => r.fault),
			).toEqual(['503', null, '500', '429-message', '429-status', '429-limit', '504', null]);
			expect(await listed()).toBe(200);
		});

		it("applies '*' to routes without their own spec", async () => {
			sim.setFaults('*', { probability: 1, kinds: ['503'] });
			sim.setFaults('GET /portfolios', { sequence: [null] });
			expect((await call(sim.url, 'POST', PROFILE, { body: ONE })).status).toBe(503);
			expect(await listed()).toBe(200);
			sim.setFaults('*', null);
			expect((await call(sim.url, 'POST', PROFILE, { body: ONE })).status).toBe(200);
		});

		it('draws faults by probability, reproducibly for a seed', async () => {
			const pattern = async () => {
				sim.reset();
				sim.setFaults('GET /portfolios', { probability: 0.5, kinds: ['500', '503'], seed: 42 });
				const statuses: number[] = [];
				for (let i = 0; i < 30; i++) statuses.push(await listed());
				return statuses;
			};
			const first = await pattern();
			expect(first.filter((status) => status === 200).length).toBeGreaterThan(5);
			expect(first.filter((status) => status === 500).length).toBeGreaterThan(2);
			expect(first.filter((status) => status === 503).length).toBeGreaterThan(2);
			expect(await pattern()).toEqual(first);
		});

		it('drops the connection without an answer', async () => {
			sim.setFaults('GET /portfolios', { sequence: ['drop'] });
			await expect(
				fetch(`${sim.url}/portfolios`, { headers: { 'x-api-key': SIM_KEYS.allFamilies } }),
			).rejects.toThrow();
			const [recorded] = sim.requests({ route: 'GET /portfolios' });
			expect(recorded.fault).toBe('drop');
			expect(recorded.status).toBe(0);
			expect(await listed()).toBe(200);
		});

		it('slows a request down, then answers normally', async () => {
			sim.setFaults('GET /portfolios', { sequence: ['slow'], slowMs: 300 });
			const started = Date.now();
			expect(await listed()).toBe(200);
			expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		});

		it('happens before any state change', async () => {
			sim.setFaults('POST /portfolios', { sequence: ['500'] });
			const body = {
				name: 'F',
				identifier: 'f',
				snapshot_at: '2025-01-01',
				holdings: [{ name: 'a', currency: 'EUR', market_value: 1 }],
			};
			expect((await call(sim.url, 'POST', '/portfolios', { body })).status).toBe(500);
			expect(sim.portfolioState('org-a')).toEqual([]);
		});
	});

	describe('latency', () => {
		it('sleeps the modelled time times timeScale', async () => {
			sim.setLatency({
				'POST /taxonomy/insights': { baseMs: 5000, perHoldingMs: 1000 },
				default: { baseMs: 0, perHoldingMs: 0 },
			});
			const holdings = Array.from({ length: 10 }, (_, i) => ({
				isin: COMPANIES[i],
				name: `c${i}`,
				instrument_type: 'stock',
				market_value: 100,
			}));
			const started = Date.now();
			expect(
				(await call(sim.url, 'POST', '/taxonomy/insights', { body: { holdings } })).status,
			).toBe(201);
			expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		});

		it('answers 504 past 29 s of modelled time, after sleeping 29 s scaled, with no state change', async () => {
			sim.setLatency({ default: { baseMs: 20000, perHoldingMs: 5000 } });
			const holdings = [1, 2].map((n) => ({ name: `h${n}`, currency: 'EUR', market_value: n }));
			const started = Date.now();
			const res = await call(sim.url, 'POST', '/portfolios', {
				body: { name: 'Slow', identifier: 's', snapshot_at: '2025-01-01', holdings },
			});
			expect(res.status).toBe(504);
			expect(res.body).toEqual({ message: 'Endpoint request timed out' });
			expect(Date.now() - started).toBeGreaterThanOrEqual(280);
			expect(sim.portfolioState('org-a')).toEqual([]);
			const one = await call(sim.url, 'POST', '/portfolios', {
				body: {
					name: 'Ok',
					identifier: 's',
					snapshot_at: '2025-01-01',
					holdings: holdings.slice(0, 1),
				},
			});
			expect(one.status).toBe(201);
		});
	});

	describe('recording', () => {
		it('records every API request with route, key, status, body and headers', async () => {
			await call(sim.url, 'POST', PROFILE, { body: ONE });
			await call(sim.url, 'GET', '/portfolios', { key: 'bogus' });
			await call(sim.url, 'GET', '/nowhere', { key: null });
			await call(sim.url, 'GET', '/__sim/stats');
			expect(sim.requestCount()).toBe(3);
			expect(sim.requestCount({ key: 'bogus' })).toBe(1);
			expect(
				sim.requestCount({
					route: 'POST /instruments/sustainability-profile',
					key: SIM_KEYS.allFamilies,
				}),
			).toBe(1);
			const [profile, bogus, nowhere] = sim.requests();
			expect(profile).toMatchObject({
				route: 'POST /instruments/sustainability-profile',
				method: 'POST',
				path: PROFILE,
				status: 200,
				body: ONE,
				fault: null,
			});
			expect(profile.headers['x-api-key']).toBe(SIM_KEYS.allFamilies);
			expect(bogus).toMatchObject({ route: 'GET /portfolios', key: 'bogus', status: 403 });
			expect(nowhere).toMatchObject({ route: null, key: null, status: 403 });
			sim.reset();
			expect(sim.requestCount()).toBe(0);
		});
	});

	describe('request bodies', () => {
		it('answers 400 with an error list for invalid JSON', async () => {
			const res = await call(sim.url, 'POST', PROFILE, { raw: '{"holdings": [' });
			expect(res.status).toBe(400);
			expect(res.body.data.message).toBe('An error occurred while processing your request');
			expect(res.body.data.error).toEqual([
				expect.objectContaining({ path: '.body', errorCode: 'parse.openapi.validation' }),
			]);
		});

		it('answers schema errors for a non-object body or a missing body', async () => {
			const array = await call(sim.url, 'POST', PROFILE, { body: [1] });
			expect(array.body.data.error).toEqual([
				{ path: '.body', message: 'must be object', errorCode: 'type.openapi.validation' },
			]);
			const empty = await call(sim.url, 'POST', PROFILE, {});
			expect(empty.status).toBe(400);
			expect(empty.body.data.error).toEqual([requiredError('.body.holdings')]);
		});
	});
});

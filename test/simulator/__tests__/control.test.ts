/**
 * The /__sim/ control surface, used over HTTP by processes that cannot hold the Simulator object.
 */
import { SIM_KEYS, UNASKED_ISIN } from '../index';
import { COMPANIES, call } from './helpers';
import { useSimulator } from '../../helpers/simulator';

const PROFILE = '/instruments/sustainability-profile';
const ONE = { holdings: [{ isin: COMPANIES[0] }] };

describe('control surface', () => {
	const control = (method: string, path: string, body?: unknown) =>
		call(sim.url, method, `/__sim${path}`, { key: null, body });
	/** The status of a POST to the control surface, and of GET /portfolios. */
	const set = async (path: string, body?: unknown) => (await control('POST', path, body)).status;
	const portfolios = async () => (await call(sim.url, 'GET', '/portfolios')).status;

	const sim = useSimulator({ timeScale: 0.01 });
	const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });

	it('reports health, stats and recorded requests (without counting itself)', async () => {
		expect((await control('GET', '/health')).body).toEqual({
			ok: true,
			url: sim.url,
			downloadUrl: sim.downloadUrl,
		});
		await post(PROFILE, ONE);
		await call(sim.url, 'POST', PROFILE, { body: ONE, key: SIM_KEYS.esgOnly });
		await call(sim.url, 'GET', '/portfolios', { key: 'bogus' });
		const stats = (await control('GET', '/stats')).body;
		expect(stats.total).toBe(3);
		expect(stats.byRoute).toEqual({
			'POST /instruments/sustainability-profile': 2,
			'GET /portfolios': 1,
		});
		expect(stats.byKey).toEqual({ 'sim-all-families': 1, 'sim-esg-only': 1, bogus: 1 });
		expect(stats.byRouteAndKey['POST /instruments/sustainability-profile']).toEqual({
			'sim-all-families': 1,
			'sim-esg-only': 1,
		});
		expect(stats.byStatus).toEqual({ '200': 1, '403': 2 });

		const filtered = await control(
			'GET',
			`/requests?route=${encodeURIComponent('POST /instruments/sustainability-profile')}&key=sim-esg-only`,
		);
		expect(filtered.body.count).toBe(1);
		expect(filtered.body.requests[0]).toMatchObject({
			key: 'sim-esg-only',
			status: 403,
			body: ONE,
		});
		expect((await control('GET', '/requests')).body.count).toBe(3);
		expect((await control('GET', '/requests?route=nope')).status).toBe(400);
	});

	it('sets faults, burst limit and latency, and resets', async () => {
		expect(await set('/faults', { route: 'GET /portfolios', spec: { sequence: ['503'] } })).toBe(
			200,
		);
		expect(await portfolios()).toBe(503);
		expect(await portfolios()).toBe(200);
		expect(await set('/faults', { route: 'GET /nope', spec: null })).toBe(400);
		expect(await set('/faults', { route: '*', spec: { sequence: ['boom'] } })).toBe(400);

		expect(await set('/burst', { requests: 1, windowMs: 60000 })).toBe(200);
		await call(sim.url, 'GET', '/portfolios');
		expect(await portfolios()).toBe(429);
		expect(await set('/burst', { limit: null })).toBe(200);
		expect(await portfolios()).toBe(200);
		expect(await set('/burst', { requests: 'x' })).toBe(400);

		expect(await set('/latency', { default: { baseMs: 30000, perHoldingMs: 0 } })).toBe(200);
		expect(await portfolios()).toBe(504);
		expect(await set('/latency', { latency: {} })).toBe(200);
		expect(await portfolios()).toBe(200);

		await control('POST', '/faults', { route: '*', spec: { probability: 1, kinds: ['500'] } });
		expect(await portfolios()).toBe(500);
		expect((await control('POST', '/reset')).body).toEqual({ ok: true });
		expect(await portfolios()).toBe(200);
		expect((await control('GET', '/stats')).body.total).toBe(1);
	});

	it('sets the report link template and download faults', async () => {
		const report = {
			name: 'R',
			identifier: 'r',
			type: 'esg-overview',
			snapshot_at: '2025-05-10',
			holdings: [{ isin: COMPANIES[0], name: 'A', currency: 'EUR', weight: 100, market_value: 1 }],
		};
		expect(await set('/report-link', { template: 'https://10.0.0.1{path}' })).toBe(200);
		const link = (await post('/reports', report)).body.document.location_url as string;
		expect(link).toMatch(/^https:\/\/10\.0\.0\.1\/documents\/[0-9a-f]+\.pdf$/);
		expect(await set('/report-link', { template: null })).toBe(200);
		const usual = (await post('/reports', report)).body.document.location_url as string;
		expect(new URL(usual).origin).toBe(sim.downloadUrl);

		expect(await set('/download-faults', { sequence: ['secret-page', null] })).toBe(200);
		expect((await fetch(usual)).status).toBe(500);
		expect((await fetch(usual)).status).toBe(200);
		expect(await set('/download-faults', { sequence: ['teapot'] })).toBe(400);
		expect(await set('/report-link', { template: 42 })).toBe(400);
	});

	it('lists downloads and portfolios; unknown endpoints give 404', async () => {
		expect((await control('GET', '/downloads')).body).toEqual({ downloads: [] });
		await post('/portfolios', {
			name: 'P',
			identifier: 'p',
			snapshot_at: '2024-02-10',
			holdings: [{ name: 'x', currency: 'EUR', market_value: 5 }],
		});
		const portfolios = (await control('GET', '/portfolios?org=org-a')).body.portfolios;
		expect(portfolios).toEqual([
			{
				identifier: 'svc-portfolio:org-a_p',
				name: 'P',
				currency: 'USD',
				snapshots: [
					{
						date: '2024-03-31',
						listed: true,
						holdings: [{ name: 'x', currency: 'EUR', market_value: 5 }],
					},
				],
			},
		]);
		expect((await control('GET', '/nope')).status).toBe(404);
		expect(await set('/faults', undefined)).toBe(400);
	});

	it('switches the instruments data to version 2 and back on reset', async () => {
		const isin = 'US0378331005';
		const classOf = async () =>
			(await post(PROFILE, { holdings: [{ isin }] })).body.data[0].sustainability_profile
				.classification;
		expect(await classOf()).toBe(8);
		expect(await set('/data-version', { version: 2 })).toBe(200);
		expect(await classOf()).toBe(6);
		expect(await set('/data-version', { version: 3 })).toBe(400);
		expect(await set('/reset')).toBe(200);
		expect(await classOf()).toBe(8);
	});

	it('sets the answer shape (the shape, {"shape": ...} or null) until reset', async () => {
		const PAI = '/instruments/sustainability-data';
		const measures = async () =>
			Object.keys((await post(PAI, ONE)).body.data[0].sustainability_data);
		const spec = await measures();
		expect(spec).not.toContain('fossil_fuel_sector_exposure');
		expect(await set('/answer-shape', { measures: 'vendor' })).toBe(200);
		expect(await measures()).toEqual([
			...spec,
			'fossil_fuel_sector_exposure',
			'violations_un_global_compact',
		]);
		expect(await set('/answer-shape', null)).toBe(200);
		expect(await measures()).toEqual(spec);
		expect(
			await set('/answer-shape', { shape: { measures: 'vendor', temperature: 'top-level' } }),
		).toBe(200);
		expect(await measures()).toContain('fossil_fuel_sector_exposure');
		const wrong = await control('POST', '/answer-shape', { shape: { measures: 'live' } });
		expect(wrong.status).toBe(400);
		expect(wrong.body.error).toContain("measures must be 'spec' or 'vendor'");
		expect(await set('/answer-shape', { colour: 'red' })).toBe(400);
		expect(await measures()).toContain('fossil_fuel_sector_exposure');
		await control('POST', '/reset');
		expect(await measures()).toEqual(spec);
	});

	it("sets involvements: 'extended' (the categories the spec does not name) until reset", async () => {
		const INVOLVEMENTS = '/instruments/business-involvements';
		const categories = async () =>
			Object.keys(
				(await post(INVOLVEMENTS, ONE)).body.data[0].sustainability_data.business_involvements,
			);
		const spec = await categories();
		expect(spec).toEqual([
			'thermal_coal',
			'tobacco_distributor',
			'nuclear_weapons',
			'nuclear_power_generation',
		]);
		expect(await set('/answer-shape', { involvements: 'extended' })).toBe(200);
		expect(await categories()).toEqual([
			...spec,
			'controversial_weapons',
			'tobacco_producer',
			'oil_fuels',
			'gaseous_fuels',
			'high_carbon_power_generation',
		]);
		const wrong = await control('POST', '/answer-shape', { involvements: 'all' });
		expect(wrong.status).toBe(400);
		expect(wrong.body.error).toContain("involvements must be 'spec' or 'extended'");
		await control('POST', '/reset');
		expect(await categories()).toEqual(spec);
	});

	it('accepts the unreadable, HTML and answer-change fault kinds', async () => {
		await control('POST', '/faults', {
			route: 'POST /instruments/sustainability-profile',
			spec: { sequence: ['unreadable-list', 'html-page', 'proxy-502-html', 'answer-extra-isin'] },
		});
		expect((await post(PROFILE, ONE)).body).toEqual([1, 2, 3]);
		expect((await post(PROFILE, ONE)).headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect((await post(PROFILE, ONE)).status).toBe(502);
		const extra = (await post(PROFILE, ONE)).body.data;
		expect(extra.map((entry: { isin: string }) => entry.isin)).toEqual([
			COMPANIES[0],
			UNASKED_ISIN,
		]);
	});
});

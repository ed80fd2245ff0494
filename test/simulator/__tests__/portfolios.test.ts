/**
 * Portfolio snapshots: every row of the state table (spec section 3), dates, currencies, organizations.
 */
import { SIM_KEYS } from '../index';
import { call, enumError, requiredError, typeError } from './helpers';
import { useSimulator } from '../../helpers/simulator';

const NOW = new Date('2025-08-15T12:00:00Z');
const ID = 'svc-portfolio:org-a_alpha';
const PATH = `/portfolios/${encodeURIComponent(ID)}`;

function cashAndStock(marketValue = 100) {
	return [
		{ isin: null, name: 'Cash', currency: 'EUR', market_value: 25 },
		{
			isin: 'DE0000000001',
			name: 'Stock',
			currency: 'EUR',
			market_value: marketValue,
			weight: 80,
			instrument_type: 'stock',
		},
	];
}

/** A portfolio route's success answer. */
const answer = (message: string, identifier = ID) => ({ identifier, metadata: { message } });

function createBody(snapshotAt: string, extra: Record<string, unknown> = {}) {
	return {
		name: 'Alpha',
		identifier: 'alpha',
		snapshot_at: snapshotAt,
		holdings: cashAndStock(),
		...extra,
	};
}

describe('portfolios', () => {
	const post = (body: unknown, key?: string) => call(sim.url, 'POST', '/portfolios', { body, key });
	const list = async (key?: string) => (await call(sim.url, 'GET', '/portfolios', { key })).body;
	const remove = (snapshotAt: string, path = PATH, key?: string) =>
		call(sim.url, 'DELETE', path, { body: { snapshot_at: snapshotAt }, key });

	const sim = useSimulator({ now: () => NOW });

	it('creates a portfolio with one snapshot at the quarter end (identifier unknown => created)', async () => {
		const res = await post(createBody('2025-05-02'));
		expect(res.status).toBe(201);
		expect(res.body).toEqual(answer('Fund created successfully at 2025-06-30'));
		expect(await list()).toEqual({
			data: { members: 3, funds: [{ identifier: ID, name: 'Alpha', snapshots: ['2025-06-30'] }] },
			metadata: { message: 'Organization metadata successfully retrieved' },
		});
		expect(sim.portfolioState('org-a')[0]).toMatchObject({
			currency: 'USD',
			snapshots: [{ date: '2025-06-30', listed: true, holdings: cashAndStock() }],
		});
	});

	it('replaces the holdings of the same quarter, keeping name and currency', async () => {
		await post(createBody('2025-04-01', { currency: 'SEK' }));
		const res = await post(
			createBody('2025-06-30T23:00:00Z', {
				name: 'Renamed',
				currency: 'GBP',
				holdings: cashAndStock(999),
			}),
		);
		expect(res.status).toBe(201);
		expect(res.body).toEqual(answer('Fund updated successfully at 2025-06-30'));
		const [state] = sim.portfolioState('org-a');
		expect(state).toMatchObject({ name: 'Alpha', currency: 'SEK' });
		expect(state.snapshots).toEqual([
			{ date: '2025-06-30', listed: true, holdings: cashAndStock(999) },
		]);
	});

	it('adds a snapshot for another quarter (listed oldest first)', async () => {
		await post(createBody('2025-05-02'));
		const res = await post(createBody('2024-11-20', { name: 'Other' }));
		expect(res.body.metadata.message).toBe('Fund updated successfully at 2024-12-31');
		await post(createBody('2025-02-01'));
		expect((await list()).data.funds).toEqual([
			{ identifier: ID, name: 'Alpha', snapshots: ['2024-12-31', '2025-03-31', '2025-06-30'] },
		]);
	});

	it('updates name and/or currency with PUT (unknown currency ignored, unknown portfolio 400)', async () => {
		await post(createBody('2025-05-02'));
		const renamed = await call(sim.url, 'PUT', PATH, { body: { name: 'Beta' } });
		expect(renamed.status).toBe(200);
		expect(renamed.body).toEqual(answer(`Fund metadata updated successfully with id: ${ID}`));
		await call(sim.url, 'PUT', PATH, { body: { currency: 'chf' } });
		expect(sim.portfolioState('org-a')[0]).toMatchObject({ name: 'Beta', currency: 'CHF' });
		const ignored = await call(sim.url, 'PUT', PATH, { body: { currency: 'ABC', name: 'Gamma' } });
		expect(ignored.status).toBe(200);
		expect(sim.portfolioState('org-a')[0]).toMatchObject({ name: 'Gamma', currency: 'CHF' });
		expect((await list()).data.funds[0].name).toBe('Gamma');
		// a raw ':' in the path works as well as %3A
		expect(
			(await call(sim.url, 'PUT', `/portfolios/${ID}`, { body: { name: 'Delta' } })).status,
		).toBe(200);
		const missing = await call(sim.url, 'PUT', '/portfolios/svc-portfolio%3Aorg-a_nope', {
			body: { name: 'x' },
		});
		expect(missing.status).toBe(400);
		expect(missing.body).toEqual({ data: { message: 'Fund not found' } });
		const wrongType = await call(sim.url, 'PUT', PATH, { body: { name: 5 } });
		expect(wrongType.body.data.error).toEqual([
			{ path: '.body.name', message: 'must be string', errorCode: 'type.openapi.validation' },
		]);
	});

	it('deletes one of several listed snapshots', async () => {
		await post(createBody('2025-05-02'));
		await post(createBody('2025-01-15'));
		const res = await remove('2025-02-28');
		expect(res.status).toBe(200);
		expect(res.body).toEqual(answer('Fund snapshot deleted successfully'));
		expect((await list()).data.funds[0].snapshots).toEqual(['2025-06-30']);
	});

	it('deletes the portfolio with the last listed snapshot (and its unlisted ones)', async () => {
		await post(createBody('2025-05-02'));
		await post(createBody('2019-05-02'));
		expect((await list()).data.funds[0].snapshots).toEqual(['2025-06-30']);
		const res = await remove('2025-06-30');
		expect(res.body).toEqual(answer('Fund deleted successfully with all snapshots'));
		expect((await list()).data.funds).toEqual([]);
		expect(sim.portfolioState('org-a')).toEqual([]);
	});

	it('deletes a portfolio with no listed snapshots whatever the date', async () => {
		await post(createBody('2020-05-02'));
		expect((await list()).data.funds).toEqual([{ identifier: ID, name: 'Alpha', snapshots: [] }]);
		expect(sim.portfolioState('org-a')[0].snapshots).toEqual([
			{ date: '2020-06-30', listed: false, holdings: cashAndStock() },
		]);
		const res = await remove('2024-01-01');
		expect(res.body).toEqual(answer('Fund deleted successfully'));
		expect((await list()).data.funds).toEqual([]);
	});

	it('lists snapshots from five years before now (cutoff 2020-08-15)', async () => {
		await post(createBody('2020-09-01'));
		await post(createBody('2020-06-01'));
		expect((await list()).data.funds[0].snapshots).toEqual(['2020-09-30']);
	});

	it('answers Fund snapshot not found, unchanged, for a snapshot not listed or an unknown portfolio', async () => {
		await post(createBody('2025-05-02'));
		await post(createBody('2019-01-01'));
		for (const date of ['2024-06-30', '2019-03-31']) {
			const res = await remove(date);
			expect(res.status).toBe(200);
			expect(res.body).toEqual(answer('Fund snapshot not found'));
		}
		expect(sim.portfolioState('org-a')[0].snapshots.map((s) => s.date)).toEqual([
			'2019-03-31',
			'2025-06-30',
		]);
		const unknown = await remove('2025-06-30', '/portfolios/svc-portfolio%3Aorg-a_nope');
		expect(unknown.body).toEqual(answer('Fund snapshot not found', 'svc-portfolio:org-a_nope'));
	});

	it('applies the date rules on POST and DELETE', async () => {
		const future = { data: { message: 'Snapshot date cannot be higher than actual date' } };
		const invalid = { data: { message: 'You are not using a valid date as snapshot parameter' } };
		expect((await post(createBody('2026-01-01'))).body).toEqual(future);
		for (const bad of ['yesterday', '2025-02-30', '2025-13-01', '15/08/2025', '']) {
			const res = await post(createBody(bad));
			expect(res.status).toBe(400);
			expect(res.body).toEqual(invalid);
		}
		const later = await post(createBody('2025-11-30'));
		expect(later.body.metadata.message).toBe('Fund created successfully at 2025-12-31');
		expect((await post(createBody('2025-02-10T10:00:00.000+02:00'))).body.metadata.message).toBe(
			'Fund updated successfully at 2025-03-31',
		);
		expect((await remove('2027-01-01')).body).toEqual(future);
		expect((await remove('not a date')).body).toEqual(invalid);
		const noDate = await call(sim.url, 'DELETE', PATH, { body: {} });
		expect(noDate.body.data.error).toEqual([requiredError('.body.snapshot_at')]);
		expect(sim.portfolioState('org-a')[0].snapshots.map((s) => s.date)).toEqual([
			'2025-03-31',
			'2025-12-31',
		]);
	});

	it('defaults the currency to USD and falls back to EUR for an unrecognized code', async () => {
		await post(createBody('2025-05-02', { identifier: 'usd' }));
		await post(createBody('2025-05-02', { identifier: 'eur', currency: 'EURO' }));
		await post(createBody('2025-05-02', { identifier: 'nok', currency: 'NOK' }));
		expect(sim.portfolioState('org-a').map((p) => [p.identifier, p.currency])).toEqual([
			['svc-portfolio:org-a_usd', 'USD'],
			['svc-portfolio:org-a_eur', 'EUR'],
			['svc-portfolio:org-a_nok', 'NOK'],
		]);
	});

	it('shares one identifier between portfolios created without a client identifier', async () => {
		const first = await post(createBody('2025-05-02', { identifier: undefined, name: 'One' }));
		const second = await post(createBody('2025-01-02', { identifier: undefined, name: 'Two' }));
		expect(first.body.identifier).toBe('svc-portfolio:org-a_');
		expect(second.body).toEqual(
			answer('Fund updated successfully at 2025-03-31', 'svc-portfolio:org-a_'),
		);
		expect((await list()).data.funds).toEqual([
			{ identifier: 'svc-portfolio:org-a_', name: 'One', snapshots: ['2025-03-31', '2025-06-30'] },
		]);
	});

	it('shares portfolios between the keys of an organization only', async () => {
		await post(createBody('2025-05-02'));
		expect((await list(SIM_KEYS.allFamilies2)).data.funds).toMatchObject([{ identifier: ID }]);
		expect((await list(SIM_KEYS.esgOnly)).data).toEqual({ members: 1, funds: [] });
		expect((await list(SIM_KEYS.quota5)).data).toEqual({ members: 1, funds: [] });
		const orgB = await post(createBody('2025-05-02'), SIM_KEYS.esgOnly);
		expect(orgB.body.identifier).toBe('svc-portfolio:org-b_alpha');
		const otherOrg = await remove('2025-06-30', PATH, SIM_KEYS.esgOnly);
		expect(otherOrg.body.metadata.message).toBe('Fund snapshot not found');
	});

	it('validates the holdings (schema, non-zero market value, at least one)', async () => {
		const schema = await post({
			snapshot_at: '2025-01-01',
			holdings: [
				{ isin: null, name: 'Cash', currency: 'EUR', market_value: 1 },
				{ isin: 5, name: 'X', currency: 'EUR', market_value: 1 },
				{ name: 'Y', market_value: '3', weight: '1', instrument_type: 'share' },
			],
		});
		expect(schema.status).toBe(400);
		expect(schema.body.data.message).toBe('An error occurred while processing your request');
		expect(schema.body.data.error).toEqual([
			requiredError('.body.name'),
			typeError('.body.holdings[1].isin', 'string'),
			requiredError('.body.holdings[2].currency'),
			enumError(
				'.body.holdings[2].instrument_type',
				expect.stringContaining('must be equal to one of the allowed values'),
			),
			typeError('.body.holdings[2].weight', 'number'),
			typeError('.body.holdings[2].market_value', 'number'),
		]);
		const zero = await post(
			createBody('2025-01-01', {
				holdings: [{ isin: null, name: 'Cash', currency: 'EUR', market_value: 0 }],
			}),
		);
		expect(zero.status).toBe(400);
		expect(zero.body).toEqual({
			data: {
				message: 'Some instruments are missing required properties',
				error: [{ path: '.body.holdings[0].market_value', message: 'must be non-zero' }],
			},
		});
		expect((await post(createBody('2025-01-01', { holdings: [] }))).body).toEqual({
			data: { message: 'Please provide at least one holding' },
		});
		expect(sim.portfolioState('org-a')).toEqual([]);
	});
});

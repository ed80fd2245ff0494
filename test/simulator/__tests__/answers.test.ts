/**
 * Answers a client cannot read (unreadable 200/201, HTML pages), changes of a success answer (an unasked ISIN, a
 * duplicate, an entry without ISIN, an unknown message) and the documented answer shapes.
 */
import {
	ALL_ROUTES,
	ANSWER_CHANGE_KINDS,
	ESG_METRICS,
	EXTENDED_INVOLVEMENT_CATEGORIES,
	FAULT_KINDS,
	PAI_INDICATORS,
	PROXY_PAGE_FAULT_KINDS,
	PROXY_PAGE_SECRETS,
	SIM_KEYS,
	SUCCESS_STATUS,
	UNASKED_ISIN,
	UNREADABLE_FAULT_KINDS,
	VENDOR_ESG_BOOLEANS,
	VENDOR_PAI_BOOLEANS,
	WIRE_FAULT_KINDS,
	findIsins,
	instrumentData,
	isinCheckDigit,
	makeIsin,
	parseAnswerShape,
	successStatus,
} from '../index';
import type { FaultKind, RouteKey } from '../index';
import { PASS_THROUGH_KINDS } from '../faults';
import { COMPANIES, FUNDS, UNKNOWN, call } from './helpers';
import { useSimulator } from '../../helpers/simulator';

const NOW = new Date('2025-08-15T12:00:00Z');
const IDENTIFIER = 'svc-portfolio:org-a_answers';
const PORTFOLIO_PATH = `/portfolios/${encodeURIComponent(IDENTIFIER)}`;

/** Two companies, a fund and an unknown ISIN. */
const ISINS = [COMPANIES[0], COMPANIES[1], FUNDS[0], UNKNOWN[0]];
const HOLDINGS = ISINS.map((isin, i) => ({
	isin,
	name: `Holding ${i + 1}`,
	instrument_type: isin === FUNDS[0] ? 'etf' : 'stock',
	currency: 'EUR',
	weight: 25,
	market_value: 1000 * (i + 1),
}));
const INSTRUMENTS = { holdings: ISINS.map((isin) => ({ isin })) };
const SNAPSHOT = {
	name: 'Answers',
	identifier: 'answers',
	snapshot_at: '2025-05-02',
	holdings: HOLDINGS,
};

interface RouteCall {
	method: string;
	path: string;
	body?: unknown;
	/** Called before the request (e.g. the portfolio a PUT or DELETE needs). */
	setup?: boolean;
}

/** The body of one valid request per route. */
const BODIES: Record<RouteKey, unknown> = {
	'POST /portfolios': SNAPSHOT,
	'GET /portfolios': undefined,
	'PUT /portfolios/{identifier}': { name: 'Renamed' },
	'DELETE /portfolios/{identifier}': { snapshot_at: '2025-05-02' },
	'POST /instruments/sustainability-profile': INSTRUMENTS,
	'POST /instruments/sustainability-data': INSTRUMENTS,
	'POST /instruments/business-involvements': INSTRUMENTS,
	'POST /instruments/esg-data': INSTRUMENTS,
	'POST /sustainable-investments/insights': { methodology_id: 1, holdings: HOLDINGS },
	'GET /sustainable-investments/methodologies': undefined,
	'POST /taxonomy/insights': { holdings: HOLDINGS },
	'POST /temperature-score/insights': { holdings: HOLDINGS },
	'POST /reports': {
		name: 'Answers',
		identifier: 'answers',
		type: 'esg-overview',
		snapshot_at: '2025-05-10',
		holdings: HOLDINGS,
	},
};
/** One valid request per route; a PUT or DELETE needs the portfolio SNAPSHOT creates first (`setup`). */
const CALLS = Object.fromEntries(
	Object.entries(BODIES).map(([route, body]) => {
		const [method, template] = route.split(' ');
		const path = template.replace('/{identifier}', PORTFOLIO_PATH.slice('/portfolios'.length));
		return [route, { method, path, body, setup: template !== path }];
	}),
) as Record<RouteKey, RouteCall>;
const ROUTES = Object.keys(CALLS) as RouteKey[];

type Entry = Record<string, unknown>;
const clone = <T>(value: T): T => structuredClone(value);

describe('answers no client can read', () => {
	const sim = useSimulator({ now: () => NOW, temperatureRoute: true });
	const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });

	const send = async (route: RouteKey, key?: string) => {
		const { method, path, body, setup } = CALLS[route];
		if (setup) expect((await post('/portfolios', SNAPSHOT)).status).toBe(201);
		return call(sim.url, method, path, { body, key });
	};

	it('the kinds are listed', () => {
		expect(UNREADABLE_FAULT_KINDS).toEqual([
			'unreadable-empty',
			'unreadable-data-text',
			'unreadable-data-number',
			'unreadable-list',
			'html-page',
		]);
		expect(PROXY_PAGE_FAULT_KINDS).toEqual(['proxy-502-html', 'proxy-503-html']);
		expect(ANSWER_CHANGE_KINDS).toEqual([
			'answer-extra-isin',
			'answer-duplicate-isin',
			'answer-entry-without-isin',
			'answer-unknown-message',
			'answer-long-text',
		]);
		for (const kind of [
			...UNREADABLE_FAULT_KINDS,
			...PROXY_PAGE_FAULT_KINDS,
			...ANSWER_CHANGE_KINDS,
		])
			expect(FAULT_KINDS).toContain(kind);
		for (const kind of ANSWER_CHANGE_KINDS) expect(PASS_THROUGH_KINDS).toContain(kind);
		for (const kind of [...UNREADABLE_FAULT_KINDS, ...PROXY_PAGE_FAULT_KINDS])
			expect(PASS_THROUGH_KINDS).not.toContain(kind);
	});

	it('successStatus is the status every route answers on success (201 for the five creating POSTs)', async () => {
		expect(ALL_ROUTES.map((route) => route.key).sort()).toEqual([...ROUTES].sort());
		expect(ROUTES.filter((route) => SUCCESS_STATUS[route] === 201).sort()).toEqual(
			[
				'POST /portfolios',
				'POST /sustainable-investments/insights',
				'POST /taxonomy/insights',
				'POST /temperature-score/insights',
				'POST /reports',
			].sort(),
		);
		for (const route of ROUTES) {
			sim.reset();
			const res = await send(route);
			expect([route, res.status]).toEqual([route, successStatus(route)]);
		}
	});

	it.each(ROUTES)(
		'%s: the unreadable JSON answers, with the route success status',
		async (route) => {
			const kinds: [FaultKind, unknown][] = [
				['unreadable-empty', {}],
				['unreadable-data-text', { data: 'maintenance' }],
				['unreadable-data-number', { data: 42 }],
				['unreadable-list', [1, 2, 3]],
			];
			sim.setFaults(route, { sequence: kinds.map(([kind]) => kind) });
			for (const [kind, body] of kinds) {
				const { method, path, body: sent } = CALLS[route];
				const res = await call(sim.url, method, path, { body: sent });
				expect([kind, res.status]).toEqual([kind, successStatus(route)]);
				expect(res.headers.get('content-type')).toBe('application/json');
				expect(res.text).toBe(JSON.stringify(body));
				expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
				expect(res.headers.get('x-amzn-requestid')).toBeTruthy();
			}
			expect(sim.requests({ route }).map((request) => request.fault)).toEqual(
				kinds.map(([kind]) => kind),
			);
			expect(sim.requests({ route }).map((request) => request.status)).toEqual(
				kinds.map(() => successStatus(route)),
			);
		},
	);

	it.each(ROUTES)('%s: html-page is a maintenance page as text/html with 200', async (route) => {
		sim.setFaults(route, { sequence: ['html-page'] });
		const { method, path, body } = CALLS[route];
		const res = await call(sim.url, method, path, { body });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(res.text).toMatch(/^<!DOCTYPE html><html>.*<title>Maintenance<\/title>.*<\/html>$/);
		expect(res.body).toBeNull();
		expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
		expect(res.headers.get('x-amzn-requestid')).toBeTruthy();
		expect(sim.requests({ route })[0]).toMatchObject({ fault: 'html-page', status: 200 });
	});

	it.each([
		['proxy-502-html', 502, '502 Bad Gateway'],
		['proxy-503-html', 503, '503 Service Temporarily Unavailable'],
		['proxy-504-html', 504, '504 Gateway Time-out'],
		['firewall-403-html', 403, '403 Forbidden: request blocked by policy'],
		['not-found-404-html', 404, '404 Not Found'],
	] as const)('%s: an HTML error page of a proxy with %i', async (kind, status, title) => {
		for (const route of [
			'POST /instruments/esg-data',
			'POST /reports',
			'GET /portfolios',
		] as const) {
			sim.setFaults(route, { sequence: [kind] });
			const { method, path, body } = CALLS[route];
			const res = await call(sim.url, method, path, { body });
			expect(res.status).toBe(status);
			expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
			expect(res.text).toMatch(/^(<!DOCTYPE html>)?<html>/);
			expect(res.text).toContain(`<title>${title}</title>`);
			// A proxy's own page names its internal host and upstream address: what a client must never show.
			if (kind !== 'proxy-503-html')
				for (const secret of PROXY_PAGE_SECRETS) expect(res.text).toContain(secret);
			expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(res.text)));
			expect(res.headers.get('x-amzn-requestid')).toBeTruthy();
		}
	});

	it.each(WIRE_FAULT_KINDS)(
		'%s: carried out (the snapshot is stored), then an answer no client can read',
		async (kind) => {
			expect(PASS_THROUGH_KINDS).toContain(kind);
			sim.setFaults('POST /portfolios', { sequence: [kind] });
			const { method, path, body } = CALLS['POST /portfolios'];
			await expect(call(sim.url, method, path, { body })).rejects.toThrow();
			expect(sim.requests({ route: 'POST /portfolios' })[0].fault).toBe(kind);
			expect(sim.portfolioState('org-a')).toHaveLength(1);
		},
	);

	it('answered before the route logic (nothing stored), after the quota is consumed', async () => {
		sim.setFaults('POST /portfolios', {
			sequence: ['unreadable-empty', 'html-page', 'proxy-503-html'],
		});
		for (let i = 0; i < 3; i++) await send('POST /portfolios');
		expect(sim.portfolioState('org-a')).toEqual([]);

		sim.setFaults('*', { sequence: [...UNREADABLE_FAULT_KINDS] });
		for (let i = 0; i < 5; i++)
			expect((await send('GET /portfolios', SIM_KEYS.quota5)).status).toBe(200);
		const sixth = await send('GET /portfolios', SIM_KEYS.quota5);
		expect(sixth.status).toBe(429);
		expect(sixth.body).toEqual({ message: 'Limit Exceeded' });
	});

	it('gateway refusals come first: a bad key gets 403, not the fault', async () => {
		sim.setFaults('GET /portfolios', { sequence: ['unreadable-list'] });
		expect((await send('GET /portfolios', 'bogus')).status).toBe(403);
		expect((await send('GET /portfolios')).body).toEqual([1, 2, 3]);
	});
});

describe('UNASKED_ISIN', () => {
	it('is a well-formed, known company ISIN with data in both data versions, sent by no test', () => {
		expect(UNASKED_ISIN).toBe(makeIsin('NO', UNASKED_ISIN.slice(2, 11)));
		expect(Number(UNASKED_ISIN[11])).toBe(isinCheckDigit(UNASKED_ISIN.slice(0, 11)));
		const data = instrumentData(UNASKED_ISIN);
		expect(data).toMatchObject({ known: true, isFund: false });
		expect(data.sfdr).not.toBeNull();
		expect(data.temperature.score).not.toBeNull();
		expect(instrumentData(UNASKED_ISIN, 2).sfdr).not.toBeNull();
		expect(ISINS).not.toContain(UNASKED_ISIN);
	});
});

/** The answer entry of `isin` on each instruments route, spelled out from instrumentData. */
function profileOf(isin: string, version: 1 | 2 = 1): Entry {
	const data = instrumentData(isin, version);
	return {
		isin,
		sustainability_profile: {
			classification: data.sfdr,
			description: data.sfdrDescription,
			metadata: null,
		},
	};
}

function measuresOf(isin: string, route: 'pai' | 'esg'): Entry {
	const data = instrumentData(isin);
	const units: Record<string, string> = route === 'pai' ? PAI_INDICATORS : ESG_METRICS;
	const values: Record<string, number | null> = route === 'pai' ? data.pai : data.esg;
	return {
		sustainability_data: Object.fromEntries(
			Object.keys(units).map((name) => [name, { value: values[name], unit: units[name] }]),
		),
		metadata: { isin, is_fund: data.isFund },
	};
}

function involvementsOf(isin: string, threshold?: number): Entry {
	const data = instrumentData(isin);
	return {
		sustainability_data: {
			total_score: data.scores?.total ?? null,
			environment_score: data.scores?.environment ?? null,
			social_score: data.scores?.social ?? null,
			governance_score: data.scores?.governance ?? null,
			business_involvements: Object.fromEntries(
				Object.entries(data.businessInvolvements).filter(
					([, value]) => threshold === undefined || value.weight >= threshold,
				),
			),
		},
		metadata: { isin, is_fund: data.isFund },
	};
}

describe('changes of a success answer (pass-through)', () => {
	const sim = useSimulator({ now: () => NOW, temperatureRoute: true, temperatureLockRequests: 0 });
	const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });

	/** The answer without a fault, then with `kind` (the same request; state reset in between). */
	async function plainAndChanged(
		kind: FaultKind,
		route: RouteKey = 'POST /temperature-score/insights',
		body = CALLS[route].body,
	) {
		const { method, path } = CALLS[route];
		const plain = await call(sim.url, method, path, { body });
		sim.reset();
		sim.setFaults(route, { sequence: [kind] });
		const changed = await call(sim.url, method, path, { body });
		expect(sim.requests({ route })[0].fault).toBe(kind);
		expect(changed.status).toBe(plain.status);
		expect(changed.status).toBe(successStatus(route));
		return { plain: plain.body, changed: changed.body };
	}

	describe('answer-extra-isin: one more entry, for UNASKED_ISIN, with its data in the route shape', () => {
		it.each([
			['POST /instruments/sustainability-profile', () => profileOf(UNASKED_ISIN)],
			['POST /instruments/sustainability-data', () => measuresOf(UNASKED_ISIN, 'pai')],
			['POST /instruments/esg-data', () => measuresOf(UNASKED_ISIN, 'esg')],
		] as const)('%s', async (route, extra) => {
			const { plain, changed } = await plainAndChanged('answer-extra-isin', route);
			expect(changed).toEqual({ ...plain, data: [...plain.data, extra()] });
		});

		it('sustainability-profile in data version 2', async () => {
			sim.setDataVersion(2);
			sim.setFaults('POST /instruments/sustainability-profile', {
				sequence: ['answer-extra-isin'],
			});
			const v2 = await post('/instruments/sustainability-profile', INSTRUMENTS);
			expect(v2.body.data.at(-1)).toEqual(profileOf(UNASKED_ISIN, 2));
		});

		it('business-involvements, with the request minimum_threshold', async () => {
			const { plain, changed } = await plainAndChanged(
				'answer-extra-isin',
				'POST /instruments/business-involvements',
				{ ...INSTRUMENTS, minimum_threshold: 20 },
			);
			const extra = involvementsOf(UNASKED_ISIN, 20);
			expect(changed).toEqual({ ...plain, data: [...plain.data, extra] });
			expect(Object.keys(involvementsOf(UNASKED_ISIN).sustainability_data as Entry)).toEqual(
				Object.keys(extra.sustainability_data as Entry),
			);
		});

		it('sustainable investments', async () => {
			const { plain, changed } = await plainAndChanged(
				'answer-extra-isin',
				'POST /sustainable-investments/insights',
			);
			const { classification, description } = instrumentData(UNASKED_ISIN).sustainableInvestment;
			expect(changed).toEqual({
				...plain,
				data: [
					...plain.data,
					{
						name: 'Not sent',
						isin: UNASKED_ISIN,
						weight: plain.data[0].weight,
						sustainability_profile: { classification, description, metadata: null },
					},
				],
			});
		});

		it('temperature: one more company, funds and industries as they were', async () => {
			const { plain, changed } = await plainAndChanged('answer-extra-isin');
			const { temperature } = instrumentData(UNASKED_ISIN);
			const first = plain.data.portfolio.companies[0];
			const expected = clone(plain);
			expected.data.portfolio.companies.push({
				isin: UNASKED_ISIN,
				name: 'Not sent',
				aum: first.aum,
				market_value: first.market_value,
				currency: first.currency,
				temperature_score: temperature.score,
				target: temperature.target,
				base_year: temperature.baseYear,
				industry: temperature.industry?.name ?? null,
			});
			expect(changed).toEqual(expected);
		});

		it('routes without entries, and error answers, stay as they are', async () => {
			for (const route of [
				'POST /taxonomy/insights',
				'GET /portfolios',
				'GET /sustainable-investments/methodologies',
			] as const) {
				sim.reset();
				const { plain, changed } = await plainAndChanged('answer-extra-isin', route);
				expect(changed).toEqual(plain);
			}
			sim.reset();
			sim.setFaults('POST /instruments/sustainability-profile', {
				sequence: ['answer-extra-isin', 'answer-extra-isin'],
			});
			const refused = await post('/instruments/sustainability-profile', { holdings: [] });
			expect(refused.status).toBe(400);
			expect(refused.body).toEqual({ data: { message: 'Please provide at least one instrument' } });
			const empty = await post('/instruments/sustainability-profile', {
				holdings: [{ isin: null }],
			});
			expect(empty.body.data).toEqual([]);
		});
	});

	describe('answer-duplicate-isin: the first entry again right after it, with other values', () => {
		const withDuplicate = (plain: { data: Entry[] }, duplicate: Entry) => ({
			...plain,
			data: [plain.data[0], duplicate, ...plain.data.slice(1)],
		});

		const otherClassification = (entry: Entry) => {
			const profile = entry.sustainability_profile as Entry;
			profile.classification = profile.classification === 9 ? 6 : 9;
		};
		const valuesPlusOne = (entry: Entry) => {
			for (const measure of Object.values(entry.sustainability_data as Entry) as Entry[])
				measure.value = (measure.value as number) + 1;
		};
		const scoresPlusOne = (entry: Entry) => {
			const data = entry.sustainability_data as Record<string, number>;
			for (const score of ['total_score', 'environment_score', 'social_score', 'governance_score'])
				data[score] += 1;
		};

		// Profile and sustainable investments: another classification; PAI and ESG: every numeric value + 1;
		// business involvements: the four scores + 1, involvements as they were.
		it.each([
			['POST /instruments/sustainability-profile', otherClassification],
			['POST /sustainable-investments/insights', otherClassification],
			['POST /instruments/sustainability-data', valuesPlusOne],
			['POST /instruments/esg-data', valuesPlusOne],
			['POST /instruments/business-involvements', scoresPlusOne],
		] as const)('%s', async (route, change) => {
			const { plain, changed } = await plainAndChanged('answer-duplicate-isin', route);
			const duplicate = clone(plain.data[0]);
			change(duplicate);
			expect(changed).toEqual(withDuplicate(plain, duplicate));
			expect(changed.data[1]).not.toEqual(plain.data[0]);
		});

		it('temperature: the first company again with temperature_score + 1', async () => {
			const { plain, changed } = await plainAndChanged('answer-duplicate-isin');
			const expected = clone(plain);
			const [first] = expected.data.portfolio.companies;
			expected.data.portfolio.companies.splice(1, 0, {
				...first,
				temperature_score: first.temperature_score + 1,
			});
			expect(changed).toEqual(expected);
		});
	});

	describe('answer-entry-without-isin: a copy of the first entry without its ISIN', () => {
		it.each([
			['POST /instruments/sustainability-profile', (entry: Entry) => delete entry.isin],
			[
				'POST /instruments/sustainability-data',
				(entry: Entry) => delete (entry.metadata as Entry).isin,
			],
			[
				'POST /instruments/business-involvements',
				(entry: Entry) => delete (entry.metadata as Entry).isin,
			],
			['POST /instruments/esg-data', (entry: Entry) => delete (entry.metadata as Entry).isin],
			['POST /sustainable-investments/insights', (entry: Entry) => delete entry.isin],
		] as const)('%s', async (route, removeIsin) => {
			const { plain, changed } = await plainAndChanged('answer-entry-without-isin', route);
			const copy = clone(plain.data[0]);
			removeIsin(copy);
			expect(changed).toEqual({ ...plain, data: [...plain.data, copy] });
		});

		it('temperature: a company without isin', async () => {
			const { plain, changed } = await plainAndChanged('answer-entry-without-isin');
			const expected = clone(plain);
			const { isin, ...rest } = expected.data.portfolio.companies[0];
			expect(isin).toBe(ISINS[0]);
			expected.data.portfolio.companies.push(rest);
			expect(changed).toEqual(expected);
		});
	});

	describe('answer-unknown-message: "Fund processed successfully", the request still takes effect', () => {
		const changedMessage = (plain: { metadata: Entry }) => ({
			...plain,
			metadata: { ...plain.metadata, message: 'Fund processed successfully' },
		});

		it('POST /portfolios', async () => {
			const { plain, changed } = await plainAndChanged(
				'answer-unknown-message',
				'POST /portfolios',
			);
			expect(plain.metadata.message).toBe('Fund created successfully at 2025-06-30');
			expect(changed).toEqual(changedMessage(plain));
			expect(sim.portfolioState('org-a')).toMatchObject([
				{ identifier: IDENTIFIER, snapshots: [{ date: '2025-06-30' }] },
			]);
		});

		it('PUT and DELETE /portfolios/{identifier}', async () => {
			for (const route of [
				'PUT /portfolios/{identifier}',
				'DELETE /portfolios/{identifier}',
			] as const) {
				sim.reset();
				await post('/portfolios', SNAPSHOT);
				const { method, path, body } = CALLS[route];
				const plain = await call(sim.url, method, path, { body });
				sim.reset();
				await post('/portfolios', SNAPSHOT);
				sim.setFaults(route, { sequence: ['answer-unknown-message'] });
				const changed = await call(sim.url, method, path, { body });
				expect(changed.status).toBe(200);
				expect(changed.body).toEqual(changedMessage(plain.body));
			}
			expect(sim.portfolioState('org-a')).toEqual([]);
			sim.reset();
			await post('/portfolios', SNAPSHOT);
			sim.setFaults('PUT /portfolios/{identifier}', { sequence: ['answer-unknown-message'] });
			await call(sim.url, 'PUT', PORTFOLIO_PATH, { body: { name: 'Renamed' } });
			expect(sim.portfolioState('org-a')[0].name).toBe('Renamed');
		});

		it('other routes and error answers stay as they are', async () => {
			const { plain, changed } = await plainAndChanged('answer-unknown-message', 'GET /portfolios');
			expect(changed).toEqual(plain);
			sim.reset();
			const pai = await plainAndChanged(
				'answer-unknown-message',
				'POST /instruments/sustainability-profile',
			);
			expect(pai.changed).toEqual(pai.plain);
			sim.setFaults('PUT /portfolios/{identifier}', { sequence: ['answer-unknown-message'] });
			const missing = await call(sim.url, 'PUT', '/portfolios/nope', { body: { name: 'x' } });
			expect(missing.status).toBe(400);
			expect(missing.body).toEqual({ data: { message: 'Fund not found' } });
		});
	});
});

describe('answer shapes (documented variants)', () => {
	const TEMPERATURE = CALLS['POST /temperature-score/insights'];
	const temperature = (url: string) =>
		call(url, 'POST', TEMPERATURE.path, { body: TEMPERATURE.body });

	/** The wrapped answer as the vendor's reference shows it: no data wrapper, industry ids as text. */
	const topLevelOf = (wrapped: { data: Entry; metadata: Entry }) => {
		const portfolio = clone(wrapped.data.portfolio) as { industries: { id: number }[] };
		return {
			portfolio: {
				...portfolio,
				industries: portfolio.industries.map((industry) => ({
					...industry,
					id: String(industry.id),
				})),
			},
			job_metadata: wrapped.data.job_metadata,
			metadata: wrapped.metadata,
		};
	};

	describe('temperature', () => {
		const sim = useSimulator({ temperatureRoute: true });
		const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });

		it("'top-level': {portfolio, job_metadata, metadata}, is_lock answered as in 'wrapped'", async () => {
			const wrapped = [await temperature(sim.url), await temperature(sim.url)];
			expect(wrapped.map((res) => res.body.data.job_metadata.is_lock)).toEqual([true, false]);
			expect(wrapped[1].body.data.portfolio.industries.length).toBeGreaterThan(0);
			sim.reset();
			sim.setAnswerShape({ temperature: 'top-level' });
			const topLevel = [await temperature(sim.url), await temperature(sim.url)];
			for (const [i, res] of topLevel.entries()) {
				expect(res.status).toBe(201);
				expect(Object.keys(res.body).sort()).toEqual(['job_metadata', 'metadata', 'portfolio']);
				expect(res.body).toEqual(topLevelOf(wrapped[i].body));
			}
			expect(topLevel[0].body.job_metadata).toEqual({ is_lock: true });
			expect(topLevel[0].body.metadata.message).toBe('Temperature score calculation in progress');
			expect(topLevel[1].body.job_metadata).toEqual({ is_lock: false });
			expect(
				topLevel[1].body.portfolio.industries.every((i: Entry) => typeof i.id === 'string'),
			).toBe(true);
		});

		it('answer changes act on the top-level companies, the lock included', async () => {
			sim.setAnswerShape({ temperature: 'top-level' });
			sim.setFaults('POST /temperature-score/insights', {
				sequence: ['answer-extra-isin', 'answer-duplicate-isin'],
			});
			const locked = (await temperature(sim.url)).body;
			expect(locked.job_metadata.is_lock).toBe(true);
			expect(locked.portfolio.companies.at(-1)).toEqual({
				isin: UNASKED_ISIN,
				name: 'Not sent',
				aum: locked.portfolio.companies[0].aum,
				market_value: locked.portfolio.companies[0].market_value,
				currency: 'EUR',
			});
			const done = (await temperature(sim.url)).body;
			expect(done.job_metadata.is_lock).toBe(false);
			const [first, duplicate] = done.portfolio.companies;
			expect(duplicate).toEqual({ ...first, temperature_score: first.temperature_score + 1 });
		});

		it('error answers stay as they are', async () => {
			sim.setAnswerShape({ temperature: 'top-level' });
			const refused = await post(TEMPERATURE.path, { holdings: [] });
			expect(refused.status).toBe(400);
			expect(refused.body).toEqual({ data: { message: 'Please provide at least one holding' } });
		});

		it('setAnswerShape(null) and reset() restore the option', async () => {
			sim.setAnswerShape({ temperature: 'top-level' });
			sim.setAnswerShape(null);
			expect((await temperature(sim.url)).body.data).toBeDefined();
			sim.setAnswerShape({ temperature: 'top-level' });
			sim.reset();
			expect((await temperature(sim.url)).body.data).toBeDefined();
		});
	});

	describe("the 'top-level' option", () => {
		const sim = useSimulator({ temperatureRoute: true, answerShape: { temperature: 'top-level' } });

		it('answers top-level from the start and again after reset(); setAnswerShape({}) gives the spec', async () => {
			expect((await temperature(sim.url)).body.portfolio).toBeDefined();
			sim.reset();
			expect((await temperature(sim.url)).body.job_metadata).toEqual({ is_lock: true });
			sim.setAnswerShape({});
			expect((await temperature(sim.url)).body.data.job_metadata).toEqual({ is_lock: false });
			sim.reset();
			expect((await temperature(sim.url)).body.portfolio).toBeDefined();
		});
	});

	describe("measures: 'vendor'", () => {
		const sim = useSimulator({ answerShape: { measures: 'vendor' } });
		const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });
		const known = findIsins((data) => data.known, 40, 'IT');
		const body = { holdings: [...known, UNKNOWN[0]].map((isin) => ({ isin })) };

		it('sustainability-data: scope 1 and 2 as integers, the PAI booleans without unit', async () => {
			const res = await call(sim.url, 'POST', '/instruments/sustainability-data', { body });
			expect(res.status).toBe(200);
			for (const entry of res.body.data as Entry[]) {
				const isin = (entry.metadata as Entry).isin as string;
				const data = instrumentData(isin);
				const expected = measuresOf(isin, 'pai').sustainability_data as Record<string, Entry>;
				for (const name of ['scope_1_emissions', 'scope_2_emissions']) {
					const value = data.pai[name as 'scope_1_emissions'];
					expected[name].value = value === null ? null : Math.round(value);
				}
				for (const name of VENDOR_PAI_BOOLEANS)
					expected[name] = { value: data.vendorIndicators[name] };
				expect(entry.sustainability_data).toEqual(expected);
			}
			expect(res.text).toMatch(/"scope_1_emissions":\{"value":\d+,"unit":"tCO2e"\}/);
			expect(res.text).toMatch(/"fossil_fuel_sector_exposure":\{"value":(true|false)\}/);
			const unknown = (res.body.data as Entry[]).find(
				(entry) => (entry.metadata as Entry).isin === UNKNOWN[0],
			)!;
			expect(unknown.sustainability_data).toMatchObject({
				fossil_fuel_sector_exposure: { value: null },
				violations_un_global_compact: { value: null },
				scope_1_emissions: { value: null, unit: 'tCO2e' },
			});
			const values = (res.body.data as Entry[]).map(
				(entry) =>
					(entry.sustainability_data as Record<string, Entry>).violations_un_global_compact.value,
			);
			expect(values).toContain(true);
			expect(values).toContain(false);
		});

		it('esg-data: un_global_compact_signatory without unit, the rest as the spec', async () => {
			const res = await call(sim.url, 'POST', '/instruments/esg-data', { body });
			for (const entry of res.body.data as Entry[]) {
				const isin = (entry.metadata as Entry).isin as string;
				const expected = measuresOf(isin, 'esg').sustainability_data as Record<string, Entry>;
				for (const name of VENDOR_ESG_BOOLEANS)
					expected[name] = { value: instrumentData(isin).vendorIndicators[name] };
				expect(entry.sustainability_data).toEqual(expected);
			}
		});

		it('the other routes answer as the spec', async () => {
			for (const path of [
				'/instruments/sustainability-profile',
				'/instruments/business-involvements',
			]) {
				sim.setAnswerShape(null);
				const spec = await call(sim.url, 'POST', path, { body });
				sim.reset();
				expect((await call(sim.url, 'POST', path, { body })).body).toEqual(spec.body);
			}
		});

		it('answer changes carry the vendor measures (the unasked ISIN its own, copies the first entry)', async () => {
			sim.setFaults('POST /instruments/sustainability-data', {
				sequence: ['answer-extra-isin', 'answer-entry-without-isin'],
			});
			const extra = await call(sim.url, 'POST', '/instruments/sustainability-data', { body });
			const added = (extra.body.data as Entry[]).at(-1)!;
			expect(added.metadata).toEqual({ isin: UNASKED_ISIN, is_fund: false });
			const measures = added.sustainability_data as Record<string, Entry>;
			for (const name of VENDOR_PAI_BOOLEANS)
				expect(measures[name]).toEqual({
					value: instrumentData(UNASKED_ISIN).vendorIndicators[name],
				});
			expect(measures.scope_1_emissions.value).toBe(
				Math.round(instrumentData(UNASKED_ISIN).pai.scope_1_emissions!),
			);
			const copied = await call(sim.url, 'POST', '/instruments/sustainability-data', { body });
			const [first] = copied.body.data as Entry[];
			const last = (copied.body.data as Entry[]).at(-1)!;
			expect(last.sustainability_data).toEqual(first.sustainability_data);
			expect(last.metadata).toEqual({ is_fund: (first.metadata as Entry).is_fund });
		});

		it('in data version 2, an ISIN that lost its data has null indicators', async () => {
			const lost = findIsins(
				(data) => data.known && instrumentData(data.isin, 2).sfdr === null,
				1,
				'IT',
			)[0];
			sim.setDataVersion(2);
			const res = await post('/instruments/esg-data', { holdings: [{ isin: lost }] });
			expect(res.body.data[0].sustainability_data.un_global_compact_signatory).toEqual({
				value: null,
			});
		});
	});

	describe("involvements: 'extended'", () => {
		const sim = useSimulator({ answerShape: { involvements: 'extended' } });
		const INVOLVEMENTS = '/instruments/business-involvements';
		const known = findIsins((data) => data.known, 60, 'FR');
		const body = { holdings: [...known, UNKNOWN[0]].map((isin) => ({ isin })) };
		const extendedNames = Object.keys(EXTENDED_INVOLVEMENT_CATEGORIES);

		/** The entry as the spec gives it, with the ISIN's extended categories after the four of the spec. */
		function extendedOf(isin: string, threshold?: number, version: 1 | 2 = 1): Entry {
			const entry = involvementsOf(isin, threshold);
			const extended = Object.entries(instrumentData(isin, version).extendedInvolvements).filter(
				([, value]) => threshold === undefined || value.weight >= threshold,
			);
			Object.assign(
				(entry.sustainability_data as Entry).business_involvements as Entry,
				Object.fromEntries(extended),
			);
			return entry;
		}

		it('answers the five extended categories after the four of the spec, for every known ISIN', async () => {
			const res = await call(sim.url, 'POST', INVOLVEMENTS, { body });
			expect(res.status).toBe(200);
			const entries = res.body.data as Entry[];
			expect(entries).toHaveLength(body.holdings.length);
			for (const entry of entries) {
				const isin = (entry.metadata as Entry).isin as string;
				expect(entry).toEqual(extendedOf(isin));
				const categories = Object.keys(
					(entry.sustainability_data as Entry).business_involvements as Entry,
				);
				if (isin === UNKNOWN[0]) expect(categories).toEqual([]);
				else
					expect(categories).toEqual([
						'thermal_coal',
						'tobacco_distributor',
						'nuclear_weapons',
						'nuclear_power_generation',
						...extendedNames,
					]);
			}
			// Some instruments are involved in each extended category, and most are not.
			for (const category of extendedNames) {
				const weights = entries.map(
					(entry) =>
						(
							((entry.sustainability_data as Entry).business_involvements as Entry)[category] as
								| Entry
								| undefined
						)?.weight,
				);
				expect(weights.some((weight) => typeof weight === 'number' && weight > 0)).toBe(true);
				expect(weights.filter((weight) => weight === 0).length).toBeGreaterThan(entries.length / 2);
			}
		});

		it('is off by default and after setAnswerShape(null): the four categories of the spec only', async () => {
			sim.setAnswerShape(null);
			const spec = await call(sim.url, 'POST', INVOLVEMENTS, { body });
			for (const entry of spec.body.data as Entry[]) {
				const isin = (entry.metadata as Entry).isin as string;
				expect(entry).toEqual(involvementsOf(isin));
				for (const category of extendedNames)
					expect((entry.sustainability_data as Entry).business_involvements).not.toHaveProperty(
						category,
					);
			}
			sim.reset();
			expect((await call(sim.url, 'POST', INVOLVEMENTS, { body })).body.data[0]).toEqual(
				extendedOf(known[0]),
			);
		});

		it('minimum_threshold drops extended categories weighing less, as it does the others', async () => {
			const res = await call(sim.url, 'POST', INVOLVEMENTS, {
				body: { ...body, minimum_threshold: 10 },
			});
			for (const entry of res.body.data as Entry[])
				expect(entry).toEqual(extendedOf((entry.metadata as Entry).isin as string, 10));
		});

		it('the same values per ISIN whatever else is asked, in both data versions', async () => {
			const alone = await call(sim.url, 'POST', INVOLVEMENTS, {
				body: { holdings: [{ isin: known[3] }] },
			});
			const all = await call(sim.url, 'POST', INVOLVEMENTS, { body });
			expect(alone.body.data[0]).toEqual(
				(all.body.data as Entry[]).find((entry) => (entry.metadata as Entry).isin === known[3]),
			);
			sim.setDataVersion(2);
			const later = await call(sim.url, 'POST', INVOLVEMENTS, { body });
			for (const entry of later.body.data as Entry[]) {
				const isin = (entry.metadata as Entry).isin as string;
				expect((entry.sustainability_data as Entry).business_involvements).toEqual(
					(extendedOf(isin, undefined, 2).sustainability_data as Entry).business_involvements,
				);
			}
		});

		it('the other routes answer as the spec', async () => {
			for (const path of ['/instruments/sustainability-data', '/instruments/esg-data']) {
				sim.setAnswerShape(null);
				const spec = await call(sim.url, 'POST', path, { body });
				sim.reset();
				expect((await call(sim.url, 'POST', path, { body })).body).toEqual(spec.body);
			}
		});

		it('answer-extra-isin: the unasked ISIN with its extended categories (minimum_threshold applied)', async () => {
			sim.setFaults('POST /instruments/business-involvements', {
				sequence: ['answer-extra-isin'],
			});
			const res = await call(sim.url, 'POST', INVOLVEMENTS, {
				body: { ...body, minimum_threshold: 1 },
			});
			expect((res.body.data as Entry[]).at(-1)).toEqual(extendedOf(UNASKED_ISIN, 1));
		});

		it('combines with the other answer shape fields', async () => {
			sim.setAnswerShape({ involvements: 'extended', measures: 'vendor' });
			const pai = await call(sim.url, 'POST', '/instruments/sustainability-data', { body });
			expect(pai.body.data[0].sustainability_data).toHaveProperty('violations_un_global_compact');
			const involvements = await call(sim.url, 'POST', INVOLVEMENTS, { body });
			expect(involvements.body.data[0]).toEqual(extendedOf(known[0]));
		});
	});

	it('extendedInvolvements: each category involved for about its share of known ISINs, {} for unknown ones', () => {
		const known = findIsins((data) => data.known, 2000, 'DE').map((isin) => instrumentData(isin));
		for (const [category, share] of Object.entries(EXTENDED_INVOLVEMENT_CATEGORIES)) {
			const involved = known.filter(
				(data) =>
					(data.extendedInvolvements[category as keyof typeof EXTENDED_INVOLVEMENT_CATEGORIES]
						?.weight ?? 0) > 0,
			).length;
			expect(involved / known.length).toBeGreaterThan(share - 0.03);
			expect(involved / known.length).toBeLessThan(share + 0.03);
		}
		for (const data of known)
			for (const involvement of Object.values(data.extendedInvolvements)) {
				if (involvement.weight === 0) expect(involvement.count).toBe(0);
				else {
					expect(involvement.weight).toBeGreaterThanOrEqual(0.5);
					expect(involvement.weight).toBeLessThanOrEqual(60);
					expect(involvement.count).toBeGreaterThanOrEqual(1);
				}
			}
		expect(instrumentData(UNKNOWN[0]).extendedInvolvements).toEqual({});
	});

	it('vendorIndicators: ~30 % true, violations null for ~20 % of known ISINs, null for unknown ones', () => {
		const known = findIsins((data) => data.known, 2000, 'GB').map((isin) => instrumentData(isin));
		const share = (test: (data: (typeof known)[number]) => boolean) =>
			known.filter(test).length / known.length;
		for (const [indicator, value, above, below] of [
			['fossil_fuel_sector_exposure', true, 0.25, 0.35],
			['un_global_compact_signatory', true, 0.25, 0.35],
			['violations_un_global_compact', null, 0.15, 0.25],
		] as const) {
			expect(share((d) => d.vendorIndicators[indicator] === value)).toBeGreaterThan(above);
			expect(share((d) => d.vendorIndicators[indicator] === value)).toBeLessThan(below);
		}
		expect(share((d) => d.vendorIndicators.fossil_fuel_sector_exposure === null)).toBe(0);
		expect(instrumentData(UNKNOWN[0]).vendorIndicators).toEqual({
			fossil_fuel_sector_exposure: null,
			violations_un_global_compact: null,
			un_global_compact_signatory: null,
		});
		expect(instrumentData(known[0].isin)).toEqual(instrumentData(known[0].isin));
	});

	it('parseAnswerShape reads the CLI form and refuses unknown fields and values', () => {
		expect(parseAnswerShape('temperature=top-level,measures=vendor')).toEqual({
			temperature: 'top-level',
			measures: 'vendor',
		});
		expect(parseAnswerShape('measures=spec')).toEqual({ measures: 'spec' });
		expect(parseAnswerShape('involvements=extended,measures=vendor')).toEqual({
			involvements: 'extended',
			measures: 'vendor',
		});
		expect(() => parseAnswerShape('involvements=all')).toThrow(/involvements must be/);
		expect(() => parseAnswerShape('temperature=flat')).toThrow(/temperature must be/);
		expect(() => parseAnswerShape('colour=red')).toThrow(/unknown answer shape field: colour/);
		expect(() => parseAnswerShape('temperature')).toThrow(/not field=value/);
	});
});

/**
 * Computed routes: sustainable investments, methodologies, EU Taxonomy, temperature score.
 */
import {
	METHODOLOGIES,
	NOT_SUSTAINABLE_CODE,
	SIM_KEYS,
	findIsins,
	instrumentData,
	startSimulator,
} from '../index';
import {
	COMPANIES,
	FUNDS,
	UNKNOWN,
	call,
	enumError,
	requiredError,
	typeError,
	without,
} from './helpers';
import { useSimulator } from '../../helpers/simulator';

const SCHEMA_MESSAGE = 'An error occurred while processing your request';
const MISSING = { data: { message: 'Some instruments are missing required properties' } };

function holding(isin: string | null, marketValue: number, extra: Record<string, unknown> = {}) {
	return {
		isin,
		name: `Name of ${isin}`,
		instrument_type: 'stock',
		market_value: marketValue,
		currency: 'EUR',
		...extra,
	};
}

describe('sustainable investments', () => {
	const sim = useSimulator();
	const post = (body: unknown) =>
		call(sim.url, 'POST', '/sustainable-investments/insights', { body });

	it('lists the methodologies', async () => {
		const res = await call(sim.url, 'GET', '/sustainable-investments/methodologies');
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			data: METHODOLOGIES,
			metadata: { message: 'Methodologies fetched successfully' },
		});
		expect(res.body.data.map((m: { id: number }) => m.id)).toEqual([1, 2, 3]);
		expect(res.body.data[1].name).toBe('SFDR Article 2(17) - Strict (Do No Significant Harm)');
	});

	it('classifies holdings (9, 8, 0, null) with weights from market values or as given', async () => {
		const sustainable = findIsins((d) => d.sustainableInvestment.classification === 9, 1, 'SE')[0];
		const moderate = findIsins((d) => d.sustainableInvestment.classification === 8, 1, 'SE')[0];
		const notSustainable = findIsins(
			(d) => d.sustainableInvestment.classification === NOT_SUSTAINABLE_CODE,
			1,
			'SE',
		)[0];
		const holdings = [
			holding(sustainable, 100),
			holding(moderate, 300),
			holding(notSustainable, 400),
			holding(UNKNOWN[0], 200),
		];
		const res = await post({ methodology_id: 2, holdings });
		expect(res.status).toBe(201);
		expect(res.body.metadata).toEqual({
			message: 'Sustainable investments insights calculated successfully',
		});
		const expected: [number, number | null, string][] = [
			[10, 9, 'Sustainable'],
			[30, 8, 'Moderate'],
			[40, 0, 'Not sustainable'],
			[20, null, 'Uncovered'],
		];
		expect(res.body.data).toEqual(
			expected.map(([weight, classification, description], i) => ({
				name: holdings[i].name,
				isin: holdings[i].isin,
				weight,
				sustainability_profile: { classification, description, metadata: null },
			})),
		);
		const weighted = await post({
			methodology_id: 1,
			holdings: [holding(sustainable, 100, { weight: 55.5 }), holding(moderate, 100)],
		});
		expect(weighted.body.data.map((entry: { weight: number }) => entry.weight)).toEqual([55.5, 50]);
	});

	it('answers the documented 400s', async () => {
		const one = holding(COMPANIES[0], 1);
		const cash = holding(null, 50, { instrument_type: 'cash' });
		const missing = await post({ methodology_id: 1, holdings: [one, cash] });
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject(MISSING);
		expect(missing.body.data.error).toEqual([{ path: '.body.holdings[1]', missing: ['isin'] }]);
		const noName = without(one, 'name');
		expect((await post({ methodology_id: 1, holdings: [noName] })).body).toMatchObject(MISSING);
		const unknownMethodology = await post({ methodology_id: 99, holdings: [one] });
		expect(unknownMethodology.body).toEqual({ data: { message: 'Methodology not found' } });
		const noMethodology = await post({ holdings: [one] });
		expect(noMethodology.body.data).toEqual({
			message: SCHEMA_MESSAGE,
			error: [requiredError('.body.methodology_id')],
		});
		const wrongType = await post({
			methodology_id: 1,
			holdings: [{ ...one, market_value: '1', instrument_type: 'share' }],
		});
		expect(wrongType.body.data.error).toEqual([
			enumError(
				'.body.holdings[0].instrument_type',
				expect.stringMatching(/^must be equal to one of the allowed values: stock, bond, etf/),
			),
			typeError('.body.holdings[0].market_value', 'number'),
		]);
		expect((await post({ methodology_id: 1, holdings: [] })).body).toEqual({
			data: { message: 'Please provide at least one holding' },
		});
	});
});

/** Independent recomputation of the portfolio KPIs from the per-instrument values. */
function expectedKpis(
	holdings: { isin: string; instrument_type: string; market_value: number }[],
): Record<string, number> {
	const measures = ['turnover', 'capex', 'opex'] as const;
	const total = holdings.reduce((sum, h) => sum + h.market_value, 0);
	const nonSovereign = holdings.filter((h) => h.instrument_type !== 'sovereign-bond');
	const totalNonSovereign = nonSovereign.reduce((sum, h) => sum + h.market_value, 0);
	const weighted = (measure: (typeof measures)[number], field: string, denominator: number) => {
		let sum = 0;
		for (const h of nonSovereign) {
			const taxonomy = instrumentData(h.isin).taxonomy;
			if (taxonomy)
				sum += h.market_value * (taxonomy[measure] as unknown as Record<string, number>)[field];
		}
		return Math.round((sum / denominator) * 10000) / 10000;
	};
	const result: Record<string, number> = {
		'taxonomy_alignment_%': weighted('turnover', 'aligned', total),
		'taxonomy_alignment_enabling_%': weighted('turnover', 'enabling', total),
		'taxonomy_alignment_transitional_%': weighted('turnover', 'transitional', total),
	};
	for (const m of measures) {
		result[`taxonomy_eligible_${m}_%`] = weighted(m, 'eligible', total);
		result[`taxonomy_alignment_${m}_%`] = weighted(m, 'aligned', total);
		result[`taxonomy_alignment_enabling_${m}_%`] = weighted(m, 'enabling', total);
		result[`taxonomy_alignment_transitional_${m}_%`] = weighted(m, 'transitional', total);
		for (const [field, name] of [
			['noGasAndNuclear', 'no_gas_and_nuclear'],
			['fossilGas', 'fossil_gas'],
			['nuclear', 'nuclear'],
		] as const) {
			result[`taxonomy_alignment_${name}_${m}_%`] = weighted(m, field, total);
			// No nuclear opex KPI excluding sovereign bonds (spec).
			if (field !== 'nuclear' || m !== 'opex')
				result[`taxonomy_alignment_${name}_${m}_excluding_sovereign_bonds_%`] = weighted(
					m,
					field,
					totalNonSovereign,
				);
		}
	}
	return result;
}

describe('EU Taxonomy insights', () => {
	const sim = useSimulator();
	const post = (body: unknown) => call(sim.url, 'POST', '/taxonomy/insights', { body });

	it('computes the portfolio KPIs (sovereign bonds 0 / excluded; unknown ISINs 0)', async () => {
		const holdings = [
			holding(COMPANIES[0], 1000),
			holding(COMPANIES[1], 2500.5),
			holding(FUNDS[0], 700, { instrument_type: 'etf' }),
			holding(UNKNOWN[0], 300),
			holding(COMPANIES[2], 1500, { instrument_type: 'sovereign-bond' }),
		];
		const res = await post({ holdings });
		expect(res.status).toBe(201);
		expect(res.body.metadata).toEqual({ message: 'Taxonomy insights calculated successfully' });
		const expected = expectedKpis(
			holdings as { isin: string; instrument_type: string; market_value: number }[],
		);
		expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(expected).sort());
		for (const [name, value] of Object.entries(expected))
			expect(res.body.data[name]).toBeCloseTo(value, 4);
		expect(Object.keys(res.body.data)).toHaveLength(32);
		expect(res.body.data).not.toHaveProperty(
			'taxonomy_alignment_nuclear_opex_excluding_sovereign_bonds_%',
		);
		expect(res.body.data['taxonomy_alignment_%']).toBe(
			res.body.data['taxonomy_alignment_turnover_%'],
		);
		for (const m of ['turnover', 'capex', 'opex']) {
			expect(res.body.data[`taxonomy_eligible_${m}_%`]).toBeGreaterThanOrEqual(
				res.body.data[`taxonomy_alignment_${m}_%`],
			);
		}
	});

	it('leaves out the excluding-sovereign KPIs when only sovereign bonds are held', async () => {
		const res = await post({
			holdings: [holding(COMPANIES[0], 10, { instrument_type: 'sovereign-bond' })],
		});
		expect(res.status).toBe(201);
		expect(
			Object.keys(res.body.data).some((name) => name.includes('excluding_sovereign_bonds')),
		).toBe(false);
		expect(res.body.data['taxonomy_eligible_turnover_%']).toBe(0);
	});

	it('answers 400 when nothing is known, the total market value is 0, or a property is missing', async () => {
		const noData = { data: { message: 'No data found for the given parameters' } };
		expect(
			(await post({ holdings: [holding(UNKNOWN[0], 10), holding(UNKNOWN[1], 5)] })).body,
		).toEqual(noData);
		expect((await post({ holdings: [holding(COMPANIES[0], 0)] })).body).toEqual(noData);
		const cash = await post({
			holdings: [holding(COMPANIES[0], 10), holding(null, 5, { instrument_type: 'cash' })],
		});
		expect(cash.status).toBe(400);
		expect(cash.body).toMatchObject(MISSING);
		const nullValue = await post({ holdings: [holding(COMPANIES[0], 10, { market_value: null })] });
		expect(nullValue.body).toMatchObject(MISSING);
		const noHoldings = await post({});
		expect(noHoldings.body.data.error[0]).toEqual(requiredError('.body.holdings'));
	});
});

describe('temperature score', () => {
	it('is unrouted without the temperatureRoute option', async () => {
		const sim = await startSimulator();
		try {
			const res = await call(sim.url, 'POST', '/temperature-score/insights', {
				body: { holdings: [holding(COMPANIES[0], 1)] },
			});
			expect(res.status).toBe(403);
			expect(res.body).toEqual({ message: 'Missing Authentication Token' });
		} finally {
			await sim.close();
		}
	});

	describe('with the route', () => {
		const path = '/temperature-score/insights';
		const sim = useSimulator({ temperatureRoute: true });
		const post = (body: unknown) => call(sim.url, 'POST', path, { body });

		it('answers is_lock=true first, then the scores', async () => {
			const holdings = [
				holding(COMPANIES[0], 600, { weight: 60 }),
				holding(FUNDS[0], 300, { instrument_type: 'etf', weight: 30 }),
				holding(UNKNOWN[0], 100, { weight: 10 }),
			];
			const locked = await post({ holdings });
			expect(locked.status).toBe(201);
			expect(locked.body.data.job_metadata).toEqual({ is_lock: true });
			const companies = [
				{ isin: COMPANIES[0], name: holdings[0].name, aum: 60, market_value: 600, currency: 'EUR' },
				{ isin: UNKNOWN[0], name: holdings[2].name, aum: 10, market_value: 100, currency: 'EUR' },
			];
			const fundEntry = {
				public_isin: FUNDS[0],
				name: holdings[1].name,
				aum: 30,
				market_value: 300,
				currency: 'EUR',
			};
			expect(locked.body.data.portfolio.companies).toEqual(companies);
			expect(locked.body.data.portfolio.funds).toEqual([fundEntry]);

			const done = await post({ holdings: [...holdings].reverse() });
			expect(done.body.data.job_metadata).toEqual({ is_lock: false });
			const company = instrumentData(COMPANIES[0]).temperature;
			const fund = instrumentData(FUNDS[0]).temperature;
			const scores = (of: typeof company) => ({
				temperature_score: of.score,
				target: of.target,
				base_year: of.baseYear,
			});
			expect(done.body.data.portfolio.companies).toEqual([
				{ ...companies[1], temperature_score: null, target: null, base_year: null, industry: null },
				{ ...companies[0], ...scores(company), industry: company.industry?.name },
			]);
			expect(done.body.data.portfolio.funds).toEqual([{ ...fundEntry, ...scores(fund) }]);
			expect(done.body.data.portfolio.industries).toEqual([company.industry]);
			expect(company.score).toBeGreaterThanOrEqual(1.2);
			expect(company.score).toBeLessThanOrEqual(3.5);

			const other = await post({ holdings: holdings.slice(0, 2) });
			expect(other.body.data.job_metadata.is_lock).toBe(true);
		});

		it('applies the holding rules: skipped types, empty funds, weights from market values', async () => {
			const holdings = [
				holding(COMPANIES[1], 100, { weight: 50 }),
				holding(COMPANIES[2], 300, { weight: 0 }),
				holding(COMPANIES[3], 100, { instrument_type: 'crypto' }),
				holding(FUNDS[1], 500, { instrument_type: 'crypto' }),
				holding(FUNDS[2], 0, { instrument_type: 'mutual-fund' }),
			];
			const res = await post({ holdings });
			const companies = res.body.data.portfolio.companies as { isin: string; aum: number }[];
			const funds = res.body.data.portfolio.funds as { public_isin: string; aum: number }[];
			expect(companies.map((c) => [c.isin, c.aum])).toEqual([
				[COMPANIES[1], 11.1111],
				[COMPANIES[2], 33.3333],
			]);
			expect(funds.map((f) => [f.public_isin, f.aum])).toEqual([[FUNDS[1], 55.5556]]);
		});

		it('counts the lock per set of holdings and honours temperatureLockRequests', async () => {
			const twice = await startSimulator({ temperatureRoute: true, temperatureLockRequests: 2 });
			try {
				const body = { holdings: [holding(COMPANIES[4], 1)] };
				const locks = [];
				for (let i = 0; i < 3; i++)
					locks.push(
						(await call(twice.url, 'POST', path, { body })).body.data.job_metadata.is_lock,
					);
				expect(locks).toEqual([true, true, false]);
			} finally {
				await twice.close();
			}
			const never = await startSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });
			try {
				const res = await call(never.url, 'POST', path, {
					body: { holdings: [holding(COMPANIES[4], 1)] },
				});
				expect(res.body.data.job_metadata.is_lock).toBe(false);
			} finally {
				await never.close();
			}
		});

		it('answers 400 for empty holdings or a missing property; 403 without the family', async () => {
			expect((await post({ holdings: [] })).body).toEqual({
				data: { message: 'Please provide at least one holding' },
			});
			expect((await post({ holdings: [holding(null, 1)] })).body).toMatchObject(MISSING);
			const esgOnly = await call(sim.url, 'POST', path, {
				key: SIM_KEYS.esgOnly,
				body: { holdings: [holding(COMPANIES[0], 1)] },
			});
			expect(esgOnly.status).toBe(403);
		});
	});
});

/**
 * POST /instruments/*: limits, empty and isin-less holdings, ordering, unknown ISINs, values.
 */
import {
	BUSINESS_INVOLVEMENT_CATEGORIES,
	ESG_METRICS,
	PAI_INDICATORS,
	instrumentData,
} from '../index';
import { COMPANIES, FUNDS, UNKNOWN, call, typeError } from './helpers';
import { useSimulator } from '../../helpers/simulator';

const PROFILE = '/instruments/sustainability-profile';
const PAI = '/instruments/sustainability-data';
const INVOLVEMENTS = '/instruments/business-involvements';
const ESG = '/instruments/esg-data';
const ALL = [PROFILE, PAI, INVOLVEMENTS, ESG];
/** Every measure of `units` with a null value (an unknown ISIN). */
const nullsOf = (units: Record<string, string>) =>
	Object.fromEntries(Object.entries(units).map(([name, unit]) => [name, { value: null, unit }]));
const AT_LEAST_ONE = { data: { message: 'Please provide at least one instrument' } };

describe('instruments routes', () => {
	const sim = useSimulator();
	const post = (path: string, body: unknown) => call(sim.url, 'POST', path, { body });

	it('refuses more than 10,000 entries with 403 and accepts 10,000', async () => {
		const holdings = Array.from({ length: 10001 }, (_, i) => ({
			isin: COMPANIES[i % COMPANIES.length],
		}));
		for (const path of ALL) {
			const res = await post(path, { holdings });
			expect(res.status).toBe(403);
			expect(res.body).toEqual({
				data: {
					message: 'You can only request data for a maximum of 10000 instruments at a time.',
				},
			});
		}
		const ok = await post(PROFILE, { holdings: holdings.slice(1) });
		expect(ok.status).toBe(200);
		expect(ok.body.data).toHaveLength(10000);
	});

	it('answers 400 for empty holdings on every route', async () => {
		for (const path of ALL) {
			const res = await post(path, { holdings: [] });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(AT_LEAST_ONE);
		}
	});

	it('without any isin: empty list for the SFDR profile, 400 elsewhere', async () => {
		const holdings = [{ name: 'cash' }, { isin: null }, {}];
		const profile = await post(PROFILE, { holdings });
		expect(profile.status).toBe(200);
		expect(profile.body).toEqual({
			data: [],
			metadata: { message: 'Sustainability profile of instruments fetched successfully' },
		});
		for (const path of [PAI, INVOLVEMENTS, ESG]) {
			const res = await post(path, { holdings });
			expect(res.status).toBe(400);
			expect(res.body).toEqual(AT_LEAST_ONE);
		}
	});

	it('rejects an isin of another type and a holdings that is not an array', async () => {
		const res = await post(PAI, { holdings: [{ isin: COMPANIES[0] }, { isin: 12 }] });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			data: {
				message: 'An error occurred while processing your request',
				error: [typeError('.body.holdings[1].isin', 'string')],
			},
		});
		const notArray = await post(ESG, { holdings: 'x' });
		expect(notArray.body.data.error).toEqual([
			{ path: '.body.holdings', message: 'must be array', errorCode: 'type.openapi.validation' },
		]);
		const threshold = await post(INVOLVEMENTS, {
			holdings: [{ isin: COMPANIES[0] }],
			minimum_threshold: '5',
		});
		expect(threshold.body.data.error[0].path).toBe('.body.minimum_threshold');
	});

	it('lists one entry per holding with an isin, duplicates kept, funds last', async () => {
		const sent = [FUNDS[0], COMPANIES[0], null, UNKNOWN[0], FUNDS[1], COMPANIES[0], COMPANIES[1]];
		const holdings = sent.map((isin) => ({ isin }));
		const expected = [COMPANIES[0], UNKNOWN[0], COMPANIES[0], COMPANIES[1], FUNDS[0], FUNDS[1]];
		const profile = await post(PROFILE, { holdings });
		expect(profile.body.data.map((entry: { isin: string }) => entry.isin)).toEqual(expected);
		for (const path of [PAI, INVOLVEMENTS, ESG]) {
			const res = await post(path, { holdings });
			expect(res.status).toBe(200);
			const entries = res.body.data as { metadata: { isin: string; is_fund: boolean } }[];
			expect(entries.map((entry) => entry.metadata.isin)).toEqual(expected);
			expect(entries.map((entry) => entry.metadata.is_fund)).toEqual(
				expected.map((isin) => FUNDS.includes(isin)),
			);
		}
	});

	it('returns the SFDR classification, or nulls for an unknown ISIN', async () => {
		const res = await post(PROFILE, { holdings: [{ isin: COMPANIES[2] }, { isin: UNKNOWN[1] }] });
		const known = instrumentData(COMPANIES[2]);
		expect(res.body.data).toEqual([
			{
				isin: COMPANIES[2],
				sustainability_profile: {
					classification: known.sfdr,
					description: known.sfdrDescription,
					metadata: null,
				},
			},
			{
				isin: UNKNOWN[1],
				sustainability_profile: { classification: null, description: null, metadata: null },
			},
		]);
		expect([6, 8, 9]).toContain(known.sfdr);
		expect(known.sfdrDescription).toMatch(new RegExp(`^Article ${known.sfdr} - `));
	});

	it('returns the PAI indicators with units', async () => {
		const res = await post(PAI, { holdings: [{ isin: COMPANIES[3] }, { isin: UNKNOWN[0] }] });
		const known = instrumentData(COMPANIES[3]);
		expect(res.body.metadata).toEqual({
			message: 'Sustainability data of instruments fetched successfully',
		});
		expect(res.body.data[0]).toEqual({
			sustainability_data: {
				scope_1_emissions: { value: known.pai.scope_1_emissions, unit: 'tCO2e' },
				scope_2_emissions: { value: known.pai.scope_2_emissions, unit: 'tCO2e' },
				carbon_footprint: { value: known.pai.carbon_footprint, unit: 'tCO2e/EURm invested' },
				ghg_intensity_investee_companies: {
					value: known.pai.ghg_intensity_investee_companies,
					unit: 'tCO2e/EURm revenue',
				},
			},
			metadata: { isin: COMPANIES[3], is_fund: false },
		});
		expect(res.body.data[1]).toEqual({
			sustainability_data: nullsOf(PAI_INDICATORS),
			metadata: { isin: UNKNOWN[0], is_fund: false },
		});
	});

	it('returns ESG metrics with a top-level message', async () => {
		const res = await post(ESG, { holdings: [{ isin: COMPANIES[4] }, { isin: UNKNOWN[0] }] });
		const known = instrumentData(COMPANIES[4]);
		expect(res.body.message).toBe('ESG data of instruments fetched successfully');
		expect(res.body.metadata).toBeUndefined();
		expect(res.body.data[0].sustainability_data).toEqual({
			total_score: { value: known.esg.total_score, unit: 'score' },
			environment_score: { value: known.esg.environment_score, unit: 'score' },
			carbon_footprint: { value: known.esg.carbon_footprint, unit: 'tCO2e/EURm invested' },
			percentage_of_women_managers: { value: known.esg.percentage_of_women_managers, unit: '%' },
		});
		expect(res.body.data[1].sustainability_data).toEqual(nullsOf(ESG_METRICS));
	});

	it('returns scores and business involvements, filtered by minimum_threshold', async () => {
		const holdings = [...COMPANIES, ...UNKNOWN.slice(0, 1)].map((isin) => ({ isin }));
		const all = await post(INVOLVEMENTS, { holdings });
		expect(all.body.message).toBe('Business involvements of instruments fetched successfully');
		for (const entry of all.body.data) {
			const data = instrumentData(entry.metadata.isin);
			if (!data.known) {
				expect(entry.sustainability_data).toEqual({
					total_score: null,
					environment_score: null,
					social_score: null,
					governance_score: null,
					business_involvements: {},
				});
				continue;
			}
			expect(entry.sustainability_data).toEqual({
				total_score: data.scores?.total,
				environment_score: data.scores?.environment,
				social_score: data.scores?.social,
				governance_score: data.scores?.governance,
				business_involvements: data.businessInvolvements,
			});
			expect(Object.keys(entry.sustainability_data.business_involvements).sort()).toEqual(
				Object.keys(BUSINESS_INVOLVEMENT_CATEGORIES).sort(),
			);
		}
		const filtered = await post(INVOLVEMENTS, { holdings, minimum_threshold: 10 });
		for (const entry of filtered.body.data) {
			const data = instrumentData(entry.metadata.isin);
			const expected = Object.fromEntries(
				Object.entries(data.businessInvolvements).filter(([, value]) => (value?.weight ?? 0) >= 10),
			);
			expect(entry.sustainability_data.business_involvements).toEqual(expected);
		}
	});

	it('answers the same values for an ISIN whatever else is requested', async () => {
		const alone = await post(ESG, { holdings: [{ isin: COMPANIES[5] }] });
		const mixed = await post(ESG, {
			holdings: [{ isin: FUNDS[2] }, { isin: COMPANIES[6] }, { isin: COMPANIES[5] }],
		});
		expect(mixed.body.data[1]).toEqual(alone.body.data[0]);
	});
});

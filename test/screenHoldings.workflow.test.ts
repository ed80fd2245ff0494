/**
 * Screen Holdings (issue 39, items 1–3) on Sustainability Instruments version 2, run inside n8n's engine against the
 * simulator (and a proxy for an answer the simulator does not give). Every expectation is worked out here from the
 * simulator's per-ISIN data (instrumentData), never by calling the node's own code.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { SustainabilityInstruments } from '../nodes/SustainabilityInstruments/SustainabilityInstruments.node';
import { findIsins, instrumentData } from './simulator';
import { instrumentsSpec, runNode, hintMessages } from './helpers/lookupRuns';
import { makeIsin, makeIsins } from './helpers/isins';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import type { NodeSpec } from './helpers/workflows';

const INVOLVEMENTS = 'POST /instruments/business-involvements' as const;
const PAI = 'POST /instruments/sustainability-data' as const;
const SFDR = 'POST /instruments/sustainability-profile' as const;
const ESG = 'POST /instruments/esg-data' as const;

const sim = useSimulator();

const coalWeight = (isin: string) => instrumentData(isin).businessInvolvements.thermal_coal?.weight;
const violates = (isin: string) =>
	instrumentData(isin).vendorIndicators.violations_un_global_compact;

// Over the coal threshold (1), no UNGC violation.
const [COAL] = findIsins(
	(d) => d.known && (coalWeight(d.isin) ?? 0) >= 1 && violates(d.isin) === false,
	1,
	'DE',
);
// A UNGC violator without coal.
const [VIOLATOR] = findIsins(
	(d) => d.known && coalWeight(d.isin) === 0 && violates(d.isin) === true,
	1,
	'DE',
);
// No data at all (the simulator's unknown prefix).
const NO_DATA = makeIsin('XX', 1234);
// Clean on coal and UNGC: its answer lacks tobacco_producer (not in the simulator's answer), or (through the proxy) has it.
const [CLEAN_A, CLEAN_B] = findIsins(
	(d) => d.known && coalWeight(d.isin) === 0 && violates(d.isin) === false,
	2,
	'FR',
);

const RULES = {
	rule: [
		{ type: 'involvement', category: 'thermal_coal', threshold: 1, label: 'Coal' },
		{ type: 'indicatorFalse', indicator: 'violations_un_global_compact', label: 'UNGC' },
		{ type: 'involvement', category: 'tobacco_producer', threshold: 0, label: 'Tobacco' },
	],
};

const ROWS: IDataObject[] = [
	{ fund: 'Alpha', isin: COAL, name: 'Coal Co', market_value: 1000 },
	{ fund: 'Alpha', isin: VIOLATOR, name: 'Violator Co', market_value: 2000 },
	{ fund: 'Alpha', isin: NO_DATA, name: 'Unknown Co', market_value: 3000 },
	{ fund: 'Alpha', isin: CLEAN_A, name: 'Clean A', market_value: 4000 },
	{ fund: 'Alpha', isin: CLEAN_B, name: 'Clean B', market_value: 5000 },
];

const screenNode = (parameters: IDataObject = {}, spec: Partial<NodeSpec> = {}) =>
	instrumentsSpec('screenHoldings', { screenPreset: 'custom', rules: RULES, ...parameters }, spec);

/** The answer of business-involvements with tobacco_producer {weight 0} added for `isin` only. */
const withTobaccoFor = (isin: string) => (path: string, body: { data?: unknown } | null) => {
	if (path.endsWith('/instruments/business-involvements') && Array.isArray(body?.data))
		for (const entry of body.data as IDataObject[]) {
			const data = entry.sustainability_data as IDataObject;
			if ((entry.metadata as IDataObject).isin === isin)
				(data.business_involvements as IDataObject).tobacco_producer = { weight: 0, count: 0 };
		}
	return body;
};

const rulesOf = (list: unknown) => (list as IDataObject[]).map((entry) => entry.rule);

describe('Screen Holdings: per holding', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	it('one breach each where expected, not_checked for no data and for a category the answer lacks, pass only when every rule was checked', async () => {
		const proxy = await startProxy(sim.url, withTobaccoFor(CLEAN_B));
		try {
			const { result, out } = await runNode(proxy.url, ROWS, screenNode());
			expect(result.error).toBeUndefined();
			const byIsin = new Map(out.map((item) => [item.json.isin, item.json]));
			expect(out.map((item) => item.json.isin)).toEqual(ROWS.map((row) => row.isin));

			const coal = byIsin.get(COAL)!;
			expect(coal.screen).toBe('breach');
			expect(coal.breaches).toEqual([
				expect.objectContaining({ rule: 'Coal', value: coalWeight(COAL), threshold: 1 }),
			]);
			expect((coal.breaches as IDataObject[])[0].source).toMatch(/weight as given/);

			const violator = byIsin.get(VIOLATOR)!;
			expect(violator.screen).toBe('breach');
			expect(violator.breaches).toEqual([
				expect.objectContaining({ rule: 'UNGC', value: true, threshold: false }),
			]);

			const unknown = byIsin.get(NO_DATA)!;
			expect(unknown.screen).toBe('not_checked');
			expect(unknown.breaches).toEqual([]);
			expect(rulesOf(unknown.not_checked_rules)).toEqual(['Coal', 'UNGC', 'Tobacco']);
			for (const entry of unknown.not_checked_rules as IDataObject[])
				expect(entry.why).toMatch(/no .*data for this ISIN/);

			// The answer has no tobacco_producer for CLEAN_A: not checked, never a pass.
			const lacking = byIsin.get(CLEAN_A)!;
			expect(lacking.screen).toBe('not_checked');
			expect(lacking.not_checked_rules).toEqual([
				{
					rule: 'Tobacco',
					why: expect.stringMatching(
						/has no business involvement category "tobacco_producer" for this ISIN \(the API is not known to give it\)/,
					),
				},
			]);

			// The proxied answer has it (weight 0) for CLEAN_B: every rule checked, none breached.
			const clean = byIsin.get(CLEAN_B)!;
			expect(clean).toMatchObject({ screen: 'pass', breaches: [], not_checked_rules: [] });

			// Two families, one request each.
			expect(sim.requestCount({ route: INVOLVEMENTS })).toBe(1);
			expect(sim.requestCount({ route: PAI })).toBe(1);
			expect(sim.requestCount({ route: SFDR })).toBe(0);
			expect(sim.requestCount({ route: ESG })).toBe(0);
		} finally {
			await proxy.close();
		}
	});

	it('a rule whose category no answer of the run has is reported for the run and never passes', async () => {
		const { result, out } = await runNode(
			sim.url,
			ROWS,
			screenNode({ outputMode: 'portfolioSummary', groupBy: 'fund' }),
		);
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(1);
		const summary = out[0].json;
		expect(summary.rules_without_data).toEqual([
			{ rule: 'Tobacco', why: expect.stringMatching(/tobacco_producer.*not known to give it/) },
		]);
		// No holding can pass: the tobacco rule was checked for none.
		expect(summary.pass_percent).toBe(0);
		expect(hintMessages(result).join('\n')).toMatch(/rules_without_data/);
	});
});

describe('Screen Holdings: Portfolio Summary', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	it('shares of value in breach, passing and not checked, recomputed from the simulator data, add up to 100', async () => {
		const proxy = await startProxy(sim.url, withTobaccoFor(CLEAN_B));
		try {
			const rows = [
				...ROWS,
				{ fund: 'Beta', isin: COAL, name: 'Coal Co', market_value: 600 },
				{ fund: 'Beta', isin: CLEAN_B, name: 'Clean B', market_value: 400 },
			];
			const { result, out } = await runNode(
				proxy.url,
				rows,
				screenNode({ outputMode: 'portfolioSummary', groupBy: 'fund' }),
			);
			expect(result.error).toBeUndefined();
			expect(out.map((item) => item.json.fund)).toEqual(['Alpha', 'Beta']);

			// Independent: which holdings breach, from the simulator's data and the rules.
			const verdict = (isin: string) => {
				const data = instrumentData(isin);
				if (!data.known) return 'not_checked';
				if ((coalWeight(isin) ?? 0) >= 1 || violates(isin) === true) return 'breach';
				if (violates(isin) === null) return 'not_checked';
				return isin === CLEAN_B ? 'pass' : 'not_checked';
			};
			for (const fund of ['Alpha', 'Beta']) {
				const members = rows.filter((row) => row.fund === fund);
				const total = members.reduce((sum, row) => sum + (row.market_value as number), 0);
				const share = (which: string) =>
					(members
						.filter((row) => verdict(row.isin as string) === which)
						.reduce((sum, row) => sum + (row.market_value as number), 0) /
						total) *
					100;
				const summary = out.find((item) => item.json.fund === fund)!.json;
				expect(summary.holdings_count).toBe(members.length);
				expect(summary.breach_percent).toBeCloseTo(share('breach'), 2);
				expect(summary.pass_percent).toBeCloseTo(share('pass'), 2);
				expect(summary.not_checked_percent).toBeCloseTo(share('not_checked'), 2);
				expect(
					(summary.breach_percent as number) +
						(summary.pass_percent as number) +
						(summary.not_checked_percent as number),
				).toBeCloseTo(100, 1);
				expect(summary.breaching_holdings).toEqual(
					members
						.filter((row) => verdict(row.isin as string) === 'breach')
						.map((row) => ({
							isin: row.isin,
							name: row.name,
							rules: [row.isin === COAL ? 'Coal' : 'UNGC'],
						})),
				);
				expect(summary.rules_without_data).toEqual([]);
			}
			// Both funds' ISINs in one request per family.
			expect(sim.requestCount({ route: INVOLVEMENTS })).toBe(1);
			expect(sim.requestCount({ route: PAI })).toBe(1);
		} finally {
			await proxy.close();
		}
	});
});

describe('Screen Holdings: presets', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	it('the Paris-aligned preset names its source, its thresholds are editable fields, and its rules the API is not known to give say so', async () => {
		const properties = new SustainabilityInstruments().description.properties;
		const shown = (property: INodeProperties) =>
			(property.displayOptions?.show?.screenPreset as string[] | undefined)?.includes('pab');
		const notice = properties.find((property) => property.type === 'notice' && shown(property))!;
		expect(notice.displayName).toMatch(/2020\/1818/);
		for (const category of [
			'controversial_weapons',
			'tobacco_producer',
			'oil_fuels',
			'gaseous_fuels',
			'high_carbon_power_generation',
		])
			expect(notice.displayName).toMatch(new RegExp(`${category}[^;]*NOT KNOWN`));
		expect(notice.displayName).not.toMatch(/thermal_coal[^;]*NOT KNOWN/);
		const thresholds = properties.filter(
			(property) => property.type === 'number' && shown(property),
		);
		expect(thresholds.map((property) => property.default)).toEqual([0, 0, 1, 10, 50, 50]);

		const { result, out } = await runNode(
			sim.url,
			ROWS,
			instrumentsSpec('screenHoldings', {
				screenPreset: 'pab',
				pabThermalCoal: 5,
				outputMode: 'portfolioSummary',
			}),
		);
		expect(result.error).toBeUndefined();
		const summary = out[0].json;
		expect(summary.preset_source).toMatch(/Delegated Regulation \(EU\) 2020\/1818 of 17 July 2020/);
		const without = summary.rules_without_data as IDataObject[];
		expect(without.map((entry) => entry.rule)).toEqual([
			'Art. 12(1)(a) Controversial weapons',
			'Art. 12(1)(b) Cultivation and production of tobacco',
			'Art. 12(1)(e) Revenues from oil fuels',
			'Art. 12(1)(f) Revenues from gaseous fuels',
			'Art. 12(1)(g) Revenues from electricity generation above 100 g CO2e/kWh',
		]);
		for (const entry of without) expect(entry.why).toMatch(/not known to give it/);
		// The edited threshold (5) is the one compared.
		const coalBreach = coalWeight(COAL)! >= 5;
		expect(
			(summary.breaching_holdings as IDataObject[]).some((holding) => holding.isin === COAL),
		).toBe(coalBreach || violates(COAL) === true);
		expect(summary.pass_percent).toBe(0);
	});

	it('an SFDR revision preset is a pre-check with its positive test and source', async () => {
		const { result, out } = await runNode(
			sim.url,
			ROWS,
			instrumentsSpec('screenHoldings', {
				screenPreset: 'sfdrSustainable',
				outputMode: 'portfolioSummary',
			}),
		);
		expect(result.error).toBeUndefined();
		const summary = out[0].json;
		expect(summary.pre_check_note).toMatch(/pre-check .*not a classification/);
		expect(summary.preset_source).toMatch(/20 November 2025/);
		const total = ROWS.reduce((sum, row) => sum + (row.market_value as number), 0);
		const nine = ROWS.filter((row) => instrumentData(row.isin as string).sfdr === 9).reduce(
			(sum, row) => sum + (row.market_value as number),
			0,
		);
		expect(summary.positive_test).toMatchObject({
			minimum_percent: 70,
			min_sfdr_article: 9,
		});
		expect((summary.positive_test as IDataObject).percent).toBeCloseTo((nine / total) * 100, 2);
		// Involvements, PAI indicators and the SFDR article: one request each.
		expect(sim.requestCount({ route: INVOLVEMENTS })).toBe(1);
		expect(sim.requestCount({ route: PAI })).toBe(1);
		expect(sim.requestCount({ route: SFDR })).toBe(1);
	});

	it('each preset breach names the text and point it comes from, and that the weight is compared as given', async () => {
		for (const [preset, source] of [
			['pab', /^Delegated Regulation \(EU\) 2020\/1818 \(17 July 2020\), Art\. 12\(1\)\(d\); /],
			[
				'sfdrSustainable',
				/^Commission SFDR revision proposal \(20 November 2025\), referring to Delegated Regulation \(EU\) 2020\/1818, Art\. 12\(1\)\(d\); /,
			],
		] as const) {
			const { result, out } = await runNode(
				sim.url,
				[ROWS[0]],
				instrumentsSpec('screenHoldings', { screenPreset: preset }),
			);
			expect(result.error).toBeUndefined();
			const [breach] = out[0].json.breaches as IDataObject[];
			expect(breach).toMatchObject({
				rule: 'Art. 12(1)(d) Revenues from hard coal and lignite',
				value: coalWeight(COAL),
				threshold: 1,
			});
			expect(breach.source).toMatch(source);
			expect(breach.source).toMatch(/weight as given/);
		}
	});
});

describe('Screen Holdings: requests and input', () => {
	beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

	it('each family once per batch of distinct ISINs (Batch Size 2, 5 distinct ISINs: 3 each), duplicates sent once', async () => {
		const rows = [...ROWS, { fund: 'Alpha', isin: COAL, name: 'Coal again', market_value: 1 }];
		const { result } = await runNode(
			sim.url,
			rows,
			screenNode({
				rules: {
					rule: [
						...RULES.rule,
						{ type: 'minSfdrArticle', article: 8, label: 'Article 8' },
						{
							type: 'minEsgScore',
							metric: 'percentage_of_women_managers',
							minimum: 10,
							label: 'Women',
						},
					],
				},
				options: { batchSize: 2 },
			}),
		);
		expect(result.error).toBeUndefined();
		for (const route of [INVOLVEMENTS, PAI, SFDR, ESG]) expect(sim.requestCount({ route })).toBe(3);
	});

	it('10,001 distinct ISINs: each family twice (one per 10,000), and the run is planned before the first request', async () => {
		const rows = makeIsins(10_001, 0, 'XS').map((isin) => ({ isin }));
		const { result, out } = await runNode(sim.url, rows, screenNode());
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(rows.length);
		expect(sim.requestCount({ route: INVOLVEMENTS })).toBe(2);
		expect(sim.requestCount({ route: PAI })).toBe(2);
		expect(sim.requestCount({ route: SFDR })).toBe(0);
		expect(sim.requestCount({ route: ESG })).toBe(0);

		// Max Requests per Run 3 < 2 families × 2 batches: refused before anything is sent.
		sim.reset();
		const refused = await runNode(sim.url, rows, screenNode({ options: { maxRequests: 3 } }));
		expect(refused.result.error?.message).toMatch(
			/This run would send 4 requests, more than Max Requests per Run \(3\)/,
		);
		expect(sim.requestCount({})).toBe(0);
		// 10,001 items through n8n's engine twice.
	}, 180_000);

	it('rows without an ISIN and invalid ISINs come out not_checked with the reason; nothing is dropped', async () => {
		const rows: IDataObject[] = [
			{ isin: COAL, market_value: 1 },
			{ isin: '', market_value: 1 },
			{ isin: 'DE000BAY0018', market_value: 1 },
		];
		const { result, out } = await runNode(sim.url, rows, screenNode({ invalidIsins: 'skip' }));
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(3);
		expect(out.map((item) => item.json.screen)).toEqual(['breach', 'not_checked', 'not_checked']);
		expect((out[1].json.not_checked_rules as IDataObject[])[0].why).toMatch(/no ISIN/);
		expect((out[2].json.not_checked_rules as IDataObject[])[0].why).toMatch(/invalid ISIN/);
	});

	it('Continue On Fail: a family whose answer cannot be read leaves its rules not checked (with the error), the others still screen', async () => {
		sim.setFaults(PAI, { sequence: ['unreadable-data-text'] });
		const { result, out } = await runNode(
			sim.url,
			ROWS.slice(0, 2),
			screenNode({}, { onError: 'continueRegularOutput' }),
		);
		expect(result.error).toBeUndefined();
		const [coal, violator] = out.map((item) => item.json);
		// Coal is still found from the involvements answer; UNGC could not be read for anyone.
		expect(coal.screen).toBe('breach');
		expect(rulesOf(coal.breaches)).toEqual(['Coal']);
		expect(violator.screen).toBe('not_checked');
		expect(violator.not_checked_rules).toEqual(
			expect.arrayContaining([
				{ rule: 'UNGC', why: expect.stringMatching(/^the PAI indicators request failed: /) },
			]),
		);
		expect(sim.requestCount({ route: PAI })).toBe(1);

		// Without it, the run stops with the answer named.
		sim.reset();
		sim.setAnswerShape({ measures: 'vendor' });
		sim.setFaults(PAI, { sequence: ['unreadable-data-text'] });
		const stopped = await runNode(sim.url, ROWS.slice(0, 2), screenNode());
		expect(stopped.result.error?.message).toMatch(/PAI indicators/);
	});

	it('bad rules stop the run before any request, naming the rule and the fix', async () => {
		const cases: Array<[IDataObject, RegExp]> = [
			[{ rules: {} }, /There is no rule to screen against/],
			[
				{ rules: { rule: [RULES.rule[0], { type: 'involvement', category: ' ', threshold: 1 }] } },
				/Rules, rule 2: Category is empty/,
			],
			[
				{ rules: { rule: [RULES.rule[0], { ...RULES.rule[1], label: 'Coal' }] } },
				/Two rules are named "Coal"/,
			],
			[
				{ rules: { rule: [{ ...RULES.rule[0], threshold: 'one percent' }] } },
				/Rules, rule 1: Threshold must be a number/,
			],
			// An expression that gives nothing: never read as 0 (every score would pass a minimum of 0).
			[
				{ rules: { rule: [{ type: 'minEsgScore', metric: 'total_score', minimum: '' }] } },
				/Rules, rule 1: Minimum is empty/,
			],
			[
				{ rules: { rule: [{ ...RULES.rule[0], threshold: '' }] } },
				/Rules, rule 1: Threshold is empty/,
			],
		];
		for (const [parameters, message] of cases) {
			const { result } = await runNode(sim.url, ROWS, screenNode(parameters));
			expect([String(message), result.error?.message]).toEqual([
				String(message),
				expect.stringMatching(message),
			]);
		}
		expect(sim.requestCount({})).toBe(0);
	});

	it('Simplify: the lists as text cells, a line each; the Portfolio Summary flat', async () => {
		const perHolding = await runNode(sim.url, ROWS.slice(0, 3), screenNode({ simplify: true }));
		expect(perHolding.result.error).toBeUndefined();
		const [coal, violator, unknown] = perHolding.out.map((item) => item.json);
		expect(coal.breaches).toBe(`Coal: ${coalWeight(COAL)} (threshold 1)`);
		expect(violator.breaches).toBe('UNGC: true (threshold false)');
		expect(unknown.breaches).toBe('');
		expect((unknown.not_checked_rules as string).split('\n')).toEqual([
			expect.stringMatching(/^Coal: the API has no business involvements data/),
			expect.stringMatching(/^UNGC: the API has no PAI indicators data/),
			expect.stringMatching(/^Tobacco: the API has no business involvements data/),
		]);

		const summary = await runNode(
			sim.url,
			ROWS,
			screenNode({ simplify: true, outputMode: 'portfolioSummary' }),
		);
		expect(summary.result.error).toBeUndefined();
		const json = summary.out[0].json;
		for (const value of Object.values(json))
			expect(typeof value === 'object' && value !== null).toBe(false);
		expect(json.breaching_holdings).toBe(`${COAL} Coal Co: Coal\n${VIOLATOR} Violator Co: UNGC`);
		expect(json.rules_without_data).toMatch(
			/^Tobacco: no answer of this run has the category "tobacco_producer"/,
		);
	});

	it('is an operation of version 2 only: version 1 lists the four lookups as before', () => {
		const operations = new SustainabilityInstruments().description.properties.filter(
			(property) => property.name === 'operation',
		);
		const values = (version: number) =>
			operations
				.filter((property) => {
					const versions = property.displayOptions?.show?.['@version'] as unknown[];
					return version === 1 ? versions.includes(1) : !versions.includes(1);
				})
				.flatMap((property) => (property.options as Array<{ value: string }>).map((o) => o.value));
		expect(values(1)).toEqual([
			'getBusinessInvolvements',
			'getEsgData',
			'getPaiIndicators',
			'getSfdrClassification',
		]);
		expect(values(2)).toContain('screenHoldings');
	});
});

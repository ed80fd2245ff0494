/**
 * Screen Holdings (issue 39) over generated holdings, rules and answers, in n8n's engine against the simulator behind
 * a proxy that, per data family and ISIN, keeps the entry, leaves it out, strips the categories and indicators the
 * rules read, or sets its values to null (and answers in the spec's shape or the vendor's, which alone has the
 * true/false indicators). An oracle written here from the answers the proxy gave says what each rule found:
 *   - every holding gets exactly one of breach / pass / not_checked, the one the oracle gives, with the breached rules;
 *   - a rule with no value for a holding is in its not_checked_rules, so never a pass; a rule no holding got a value
 *     for is in rules_without_data on every portfolio item;
 *   - the shares in breach, passing and not checked add up to 100 (to rounding) and match the oracle's;
 *   - requests: each family the rules need × ceil(distinct ISINs sent / batch size), and none for the others.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { isValidIsin, normalizeIsin } from '../../nodes/shared/input/isin';
import { findIsins } from '../simulator';
import type { RouteKey } from '../simulator';
import { startProxy } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { instrumentsSpec, runNode } from '../helpers/lookupRuns';
import { makeIsin } from '../helpers/isins';
import { FUZZ_SEED, runs } from './arbitraries';

type Family = 'involvements' | 'pai' | 'sfdr' | 'esg';
const ROUTE: Record<Family, RouteKey> = {
	involvements: 'POST /instruments/business-involvements',
	pai: 'POST /instruments/sustainability-data',
	sfdr: 'POST /instruments/sustainability-profile',
	esg: 'POST /instruments/esg-data',
};
const FAMILY_OF_PATH: Array<[string, Family]> = [
	['/instruments/business-involvements', 'involvements'],
	['/instruments/sustainability-data', 'pai'],
	['/instruments/sustainability-profile', 'sfdr'],
	['/instruments/esg-data', 'esg'],
];
const SCORES_IN_INVOLVEMENTS = [
	'total_score',
	'environment_score',
	'social_score',
	'governance_score',
];

// Involved in coal, violators, clean ones, unknown ones; a typo (never sent).
const POOL = [
	...findIsins((d) => d.known && (d.businessInvolvements.thermal_coal?.weight ?? 0) > 0, 2, 'DE'),
	...findIsins((d) => d.known && d.vendorIndicators.violations_un_global_compact === true, 2, 'FR'),
	...findIsins(
		(d) => d.known && d.vendorIndicators.violations_un_global_compact === false,
		3,
		'NL',
	),
	...findIsins((d) => d.known && d.vendorIndicators.violations_un_global_compact === null, 1, 'IT'),
	makeIsin('XX', 7),
	makeIsin('XX', 8),
];
const TYPO = 'US0378331006';

type Rule = IDataObject & { label: string };

const ruleArb: fc.Arbitrary<Omit<Rule, 'label'>> = fc.oneof(
	fc.record({
		type: fc.constant('involvement'),
		category: fc.constantFrom(
			'thermal_coal',
			'tobacco_distributor',
			'nuclear_weapons',
			'nuclear_power_generation',
			'tobacco_producer',
		),
		threshold: fc.constantFrom(0, 0.5, 1, 5, 30, 60),
	}),
	fc.record({
		type: fc.constant('indicatorFalse'),
		indicator: fc.constantFrom(
			'violations_un_global_compact',
			'fossil_fuel_sector_exposure',
			'no_such_indicator',
		),
	}),
	fc.record({ type: fc.constant('minSfdrArticle'), article: fc.constantFrom(6, 8, 9) }),
	fc.record({
		type: fc.constant('minEsgScore'),
		metric: fc.constantFrom('total_score', 'environment_score', 'percentage_of_women_managers'),
		minimum: fc.integer({ min: 0, max: 100 }),
	}),
);

const rulesArb = fc
	.array(ruleArb, { minLength: 1, maxLength: 5 })
	.map((rules) => rules.map((rule, index) => ({ ...rule, label: `r${index}` }) as Rule));

type Fate = 'keep' | 'drop' | 'strip' | 'null';
const fateArb = fc.constantFrom<Fate>('keep', 'keep', 'keep', 'drop', 'strip', 'null');

const holdingsArb = fc.array(
	fc.record({
		fund: fc.constantFrom('A', 'B'),
		isin: fc.constantFrom(...POOL, TYPO),
		market_value: fc.integer({ min: 1, max: 1_000_000 }),
	}),
	{ minLength: 1, maxLength: 8 },
);

const caseArb = fc.record({
	holdings: holdingsArb.map((rows) => [{ fund: 'A', isin: POOL[0], market_value: 10 }, ...rows]),
	rules: rulesArb,
	fates: fc.dictionary(
		fc.constantFrom(
			...(['involvements', 'pai', 'sfdr', 'esg'] as Family[]).flatMap((family) =>
				POOL.map((isin) => `${family}|${isin}`),
			),
		),
		fateArb,
	),
	vendorShape: fc.boolean(),
	batchSize: fc.constantFrom(undefined, 1, 2, 3),
	mode: fc.constantFrom('addToItems', 'portfolioSummary'),
});

/** What the proxy did to an entry: strips what rules read, or nulls every value. */
function rewriteEntry(entry: IDataObject, fate: Fate): void {
	const data = entry.sustainability_data as IDataObject | null | undefined;
	const profile = entry.sustainability_profile as IDataObject | undefined;
	if (fate === 'strip') {
		if (profile) delete profile.classification;
		if (data) {
			for (const name of Object.keys(data)) if (name !== 'business_involvements') delete data[name];
			if (data.business_involvements) data.business_involvements = {};
		}
	} else if (fate === 'null') {
		if (profile) profile.classification = null;
		if (data)
			for (const [name, value] of Object.entries(data)) {
				if (name === 'business_involvements')
					for (const involvement of Object.values(value as IDataObject))
						(involvement as IDataObject).weight = null;
				else if (value && typeof value === 'object') (value as IDataObject).value = null;
				else data[name] = null;
			}
	}
}

const isinOf = (entry: IDataObject) =>
	String(entry.isin ?? (entry.metadata as IDataObject | undefined)?.isin ?? '');

/** The value a rule finds in the answers the proxy gave, or undefined (not checked). */
function valueFound(
	rule: Rule,
	isin: string,
	given: Map<Family, Map<string, IDataObject>>,
): unknown {
	const involvementsAsked = rule.type === 'involvement' || ruleSetAsksInvolvements;
	const entryOf = (family: Family) => given.get(family)?.get(isin);
	const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
	const measure = (entry: IDataObject | undefined, name: string) => {
		const value = (entry?.sustainability_data as IDataObject | null | undefined)?.[name];
		return value && typeof value === 'object' ? (value as IDataObject).value : value;
	};
	switch (rule.type) {
		case 'involvement': {
			const data = entryOf('involvements')?.sustainability_data as IDataObject | undefined;
			const involvement = (data?.business_involvements as IDataObject | undefined)?.[
				rule.category as string
			] as IDataObject | undefined;
			return number(involvement?.weight);
		}
		case 'indicatorFalse': {
			const value = measure(entryOf('pai'), rule.indicator as string);
			return typeof value === 'boolean' ? value : undefined;
		}
		case 'minSfdrArticle':
			return number(
				(entryOf('sfdr')?.sustainability_profile as IDataObject | undefined)?.classification,
			);
		case 'minEsgScore': {
			const fromInvolvements =
				involvementsAsked && SCORES_IN_INVOLVEMENTS.includes(rule.metric as string);
			return number(
				measure(entryOf(fromInvolvements ? 'involvements' : 'esg'), rule.metric as string),
			);
		}
	}
	return undefined;
}
let ruleSetAsksInvolvements = false;

function breaches(rule: Rule, value: unknown): boolean {
	if (rule.type === 'involvement')
		return (value as number) > 0 && (value as number) >= (rule.threshold as number);
	if (rule.type === 'indicatorFalse') return value === true;
	if (rule.type === 'minSfdrArticle') return (value as number) < (rule.article as number);
	return (value as number) < (rule.minimum as number);
}

function familiesOf(rules: Rule[]): Set<Family> {
	const involvements = rules.some((rule) => rule.type === 'involvement');
	const families = new Set<Family>();
	for (const rule of rules) {
		if (rule.type === 'involvement') families.add('involvements');
		if (rule.type === 'indicatorFalse') families.add('pai');
		if (rule.type === 'minSfdrArticle') families.add('sfdr');
		if (rule.type === 'minEsgScore')
			families.add(
				involvements && SCORES_IN_INVOLVEMENTS.includes(rule.metric as string)
					? 'involvements'
					: 'esg',
			);
	}
	return families;
}

describe('fuzz: Screen Holdings', () => {
	const sim = useSimulator();

	it('one verdict per holding as the answers give it, unanswered rules never pass, shares add to 100, requests per family and batch', async () => {
		await fc.assert(
			fc.asyncProperty(
				caseArb,
				async ({ holdings, rules, fates, vendorShape, batchSize, mode }) => {
					sim.reset();
					sim.setAnswerShape({ measures: vendorShape ? 'vendor' : 'spec' });
					ruleSetAsksInvolvements = rules.some((rule) => rule.type === 'involvement');
					const given = new Map<Family, Map<string, IDataObject>>();
					const proxy = await startProxy(sim.url, (path, body) => {
						const family = FAMILY_OF_PATH.find(([suffix]) => path.endsWith(suffix))?.[1];
						if (!family || !Array.isArray(body?.data)) return body;
						const kept: IDataObject[] = [];
						for (const entry of body.data as IDataObject[]) {
							const fate = fates[`${family}|${isinOf(entry)}`] ?? 'keep';
							if (fate === 'drop') continue;
							rewriteEntry(entry, fate);
							kept.push(entry);
							if (!given.has(family)) given.set(family, new Map());
							given.get(family)!.set(isinOf(entry), entry);
						}
						body.data = kept;
						return body;
					});
					let out;
					let result;
					try {
						({ result, out } = await runNode(
							proxy.url,
							holdings,
							instrumentsSpec('screenHoldings', {
								screenPreset: 'custom',
								rules: { rule: rules },
								invalidIsins: 'skip',
								outputMode: mode,
								groupBy: 'fund',
								options: batchSize ? { batchSize } : {},
							}),
						));
					} finally {
						await proxy.close();
					}
					expect(result.error).toBeUndefined();

					// The oracle: each holding's verdict from the answers given.
					const expected = holdings.map((row) => {
						const isin = normalizeIsin(row.isin);
						if (!isValidIsin(isin))
							return {
								verdict: 'not_checked',
								breached: [] as string[],
								unanswered: rules.map((r) => r.label),
							};
						const breached: string[] = [];
						const unanswered: string[] = [];
						for (const rule of rules) {
							const value = valueFound(rule, isin, given);
							if (value === undefined) unanswered.push(rule.label);
							else if (breaches(rule, value)) breached.push(rule.label);
						}
						return {
							verdict: breached.length ? 'breach' : unanswered.length ? 'not_checked' : 'pass',
							breached,
							unanswered,
						};
					});

					if (mode === 'addToItems') {
						expect(out).toHaveLength(holdings.length);
						out.forEach((item, index) => {
							const json = item.json;
							expect(['breach', 'pass', 'not_checked']).toContain(json.screen);
							expect([index, json.screen]).toEqual([index, expected[index].verdict]);
							expect((json.breaches as IDataObject[]).map((entry) => entry.rule)).toEqual(
								expected[index].breached,
							);
							expect((json.not_checked_rules as IDataObject[]).map((entry) => entry.rule)).toEqual(
								expected[index].unanswered,
							);
							if (json.screen === 'pass') expect(json.not_checked_rules).toEqual([]);
						});
					} else {
						const sentIsins = holdings
							.map((row) => normalizeIsin(row.isin))
							.filter((isin) => isValidIsin(isin));
						const neverAnswered = rules
							.filter((rule) =>
								sentIsins.every((isin) => valueFound(rule, isin, given) === undefined),
							)
							.map((rule) => rule.label);
						for (const item of out) {
							const json = item.json;
							const members = holdings
								.map((row, index) => ({ row, index }))
								.filter(({ row }) => row.fund === json.fund);
							const total = members.reduce((sum, { row }) => sum + row.market_value, 0);
							const share = (verdict: string) =>
								(members
									.filter(({ index }) => expected[index].verdict === verdict)
									.reduce((sum, { row }) => sum + row.market_value, 0) /
									total) *
								100;
							expect(json.breach_percent).toBeCloseTo(share('breach'), 1);
							expect(json.pass_percent).toBeCloseTo(share('pass'), 1);
							expect(json.not_checked_percent).toBeCloseTo(share('not_checked'), 1);
							const sum =
								(json.breach_percent as number) +
								(json.pass_percent as number) +
								(json.not_checked_percent as number);
							expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.02);
							expect((json.rules_without_data as IDataObject[]).map((entry) => entry.rule)).toEqual(
								neverAnswered,
							);
						}
					}

					// Requests: families needed × ceil(distinct ISINs sent / batch size); none for the others.
					const distinct = new Set(
						holdings.map((row) => normalizeIsin(row.isin)).filter((isin) => isValidIsin(isin)),
					);
					const batches = Math.ceil(distinct.size / (batchSize ?? 10_000));
					const needed = familiesOf(rules);
					for (const family of Object.keys(ROUTE) as Family[])
						expect([family, sim.requestCount({ route: ROUTE[family] })]).toEqual([
							family,
							needed.has(family) ? batches : 0,
						]);
				},
			),
			{ numRuns: runs(30), seed: FUZZ_SEED },
		);
		// 30 runs in n8n's engine: about 10 s alone, far more on a machine shared with other test runs.
	}, 300_000);
});

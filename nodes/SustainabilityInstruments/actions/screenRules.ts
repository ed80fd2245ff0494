/**
 * What Screen Holdings checks, as data: the rule types, the data family (API route) each reads, the presets with
 * their sources, and which business-involvement categories the API is known to give. The form
 * (screenHoldings.operation.ts), the screening (screening.ts) and the docs' "Screen Holdings" section follow it.
 */

/** The four instruments routes a screen may ask, each at most once per batch of distinct ISINs. */
export type ScreenFamily =
	| 'businessInvolvements'
	| 'paiIndicators'
	| 'sfdrClassification'
	| 'esgData';

/** In the order they are asked. */
export const SCREEN_FAMILIES: readonly ScreenFamily[] = [
	'businessInvolvements',
	'paiIndicators',
	'sfdrClassification',
	'esgData',
];

export type ScreenRuleType = 'involvement' | 'indicatorFalse' | 'minSfdrArticle' | 'minEsgScore';

/** One rule, from a preset or the Rules collection. */
export interface ScreenRule {
	type: ScreenRuleType;
	/** involvement: the API's category name; breach when its weight is above 0 and at least `threshold`. */
	category?: string;
	threshold?: number;
	/** indicatorFalse: a true/false PAI indicator (sustainability-data); breach when true. */
	indicator?: string;
	/** minSfdrArticle: breach when the API's SFDR article is below it. */
	article?: number;
	/** minEsgScore: an ESG metric or score; breach when below `minimum`. */
	metric?: string;
	minimum?: number;
	/** The rule's name in the output. */
	label: string;
	/** Where the rule comes from (text, point, date), for presets; "Rules (custom)" otherwise. */
	source: string;
}

/**
 * Business-involvement categories the API is known to give: the four the spec names (§4.7); the vendor's example
 * answer shows three of them. The vendor's full list is not published: any other category may or may not come.
 */
export const KNOWN_INVOLVEMENT_CATEGORIES: readonly string[] = [
	'thermal_coal',
	'tobacco_distributor',
	'nuclear_weapons',
	'nuclear_power_generation',
];

/** True/false PAI indicators seen in the vendor's live answers (vendor-docs-notes.md). */
export const KNOWN_TRUE_FALSE_INDICATORS: readonly string[] = [
	'violations_un_global_compact',
	'fossil_fuel_sector_exposure',
];

/** Scores the business-involvements answer carries beside the categories (spec §4.7): read there when it is asked anyway. */
export const SCORES_IN_INVOLVEMENTS: readonly string[] = [
	'total_score',
	'environment_score',
	'social_score',
	'governance_score',
];

/** Whether the rule reads something the API is known to give (a preset rule that is not says so). */
export function isKnownToTheApi(rule: Omit<ScreenRule, 'source'>): boolean {
	if (rule.type === 'involvement')
		return KNOWN_INVOLVEMENT_CATEGORIES.includes(rule.category ?? '');
	if (rule.type === 'indicatorFalse')
		return KNOWN_TRUE_FALSE_INDICATORS.includes(rule.indicator ?? '');
	return true;
}

/** The route a rule reads; an ESG score comes from the involvements answer when that family is asked anyway. */
export function familyOf(rule: ScreenRule, involvementsAsked: boolean): ScreenFamily {
	switch (rule.type) {
		case 'involvement':
			return 'businessInvolvements';
		case 'indicatorFalse':
			return 'paiIndicators';
		case 'minSfdrArticle':
			return 'sfdrClassification';
		case 'minEsgScore':
			return involvementsAsked && SCORES_IN_INVOLVEMENTS.includes(rule.metric ?? '')
				? 'businessInvolvements'
				: 'esgData';
	}
}

/** The families a set of rules needs, in the order they are asked. */
export function familiesNeeded(rules: readonly ScreenRule[]): ScreenFamily[] {
	const involvementsAsked = rules.some((rule) => rule.type === 'involvement');
	const needed = new Set(rules.map((rule) => familyOf(rule, involvementsAsked)));
	return SCREEN_FAMILIES.filter((family) => needed.has(family));
}

export type ScreenPresetName =
	| 'custom'
	| 'pab'
	| 'ctb'
	| 'sfdrSustainable'
	| 'sfdrTransition'
	| 'sfdrEsgBasics';

/** A preset's rule; `key` names its threshold field in the form (`<preset><Key>`), when it has one. */
export interface PresetRule extends Omit<ScreenRule, 'source'> {
	/** The point of the text, e.g. "Art. 12(1)(d)". */
	point: string;
	key?: string;
}

export interface ScreenPreset {
	name: string;
	/** The text and its date. */
	source: string;
	/** What each rule's point (e.g. "Art. 12(1)(d)") is a point of, named on each breach. */
	pointsOf: string;
	rules: PresetRule[];
	/** What the text asks that no rule can check from this API (said in the form and the output). */
	notScreened: string[];
	/** SFDR revision presets: said first in the notice (a pre-check against a proposal, not a classification). */
	preCheck?: string;
	/** SFDR revision presets: the category's positive test (share of investments meeting its objective). */
	positiveTest?: { minimumPercent: number; minArticle: 8 | 9; text: string };
}

const BENCHMARK_REGULATION =
	'Commission Delegated Regulation (EU) 2020/1818 of 17 July 2020 (EU Climate Transition and Paris-aligned Benchmarks)';
const SFDR_PROPOSAL =
	"Commission proposal for a regulation amending the SFDR (Regulation (EU) 2019/2088), 20 November 2025; the Council's general approach of June 2026 changes details and trilogues are under way";

/** Art. 12(1)(a)–(c): the exclusions of both benchmarks (Art. 10(2) applies them to Climate Transition Benchmarks). */
const SOCIAL_EXCLUSIONS: PresetRule[] = [
	{
		point: 'Art. 12(1)(a)',
		type: 'involvement',
		category: 'controversial_weapons',
		threshold: 0,
		key: 'ControversialWeapons',
		label: 'Controversial weapons',
	},
	{
		point: 'Art. 12(1)(b)',
		type: 'involvement',
		category: 'tobacco_producer',
		threshold: 0,
		key: 'TobaccoProducer',
		label: 'Cultivation and production of tobacco',
	},
	{
		point: 'Art. 12(1)(c)',
		type: 'indicatorFalse',
		indicator: 'violations_un_global_compact',
		label: 'Violations of the UN Global Compact principles or OECD Guidelines',
	},
];

/** Art. 12(1)(d)–(g): the Paris-aligned Benchmarks' fossil fuel and power exclusions (revenue thresholds). */
const FOSSIL_EXCLUSIONS: PresetRule[] = [
	{
		point: 'Art. 12(1)(d)',
		type: 'involvement',
		category: 'thermal_coal',
		threshold: 1,
		key: 'ThermalCoal',
		label: 'Revenues from hard coal and lignite',
	},
	{
		point: 'Art. 12(1)(e)',
		type: 'involvement',
		category: 'oil_fuels',
		threshold: 10,
		key: 'OilFuels',
		label: 'Revenues from oil fuels',
	},
	{
		point: 'Art. 12(1)(f)',
		type: 'involvement',
		category: 'gaseous_fuels',
		threshold: 50,
		key: 'GaseousFuels',
		label: 'Revenues from gaseous fuels',
	},
	{
		point: 'Art. 12(1)(g)',
		type: 'involvement',
		category: 'high_carbon_power_generation',
		threshold: 50,
		key: 'HighCarbonPower',
		label: 'Revenues from electricity generation above 100 g CO2e/kWh',
	},
];

const BENCHMARK_POINTS = 'Delegated Regulation (EU) 2020/1818 (17 July 2020)';
const PROPOSAL_POINTS =
	'Commission SFDR revision proposal (20 November 2025), referring to Delegated Regulation (EU) 2020/1818';

const PRE_CHECK =
	'A pre-check against a proposal, not a classification: the categories, exclusions and thresholds may still change.';

export const SCREEN_PRESETS: Record<Exclude<ScreenPresetName, 'custom'>, ScreenPreset> = {
	pab: {
		name: 'Paris-aligned Benchmark exclusions',
		source: `${BENCHMARK_REGULATION}, Art. 12(1)(a)–(g)`,
		pointsOf: BENCHMARK_POINTS,
		rules: [...SOCIAL_EXCLUSIONS, ...FOSSIL_EXCLUSIONS],
		notScreened: [
			'Art. 12(2): companies that significantly harm an environmental objective (Art. 12(2) with Art. 13(2)); the API gives no such data',
		],
	},
	ctb: {
		name: 'Climate Transition Benchmark exclusions',
		source: `${BENCHMARK_REGULATION}, Art. 10(2) with Art. 12(1)(a)–(c)`,
		pointsOf: BENCHMARK_POINTS,
		rules: SOCIAL_EXCLUSIONS,
		notScreened: [
			'Art. 12(2): companies that significantly harm an environmental objective; the API gives no such data',
		],
	},
	sfdrSustainable: {
		name: 'SFDR revision proposal: Sustainable (Art. 9)',
		source: `${SFDR_PROPOSAL}; exclusions: ${BENCHMARK_REGULATION}, Art. 12(1)(a)–(g)`,
		preCheck: PRE_CHECK,
		pointsOf: PROPOSAL_POINTS,
		rules: [...SOCIAL_EXCLUSIONS, ...FOSSIL_EXCLUSIONS],
		notScreened: [
			'companies developing new hard coal and lignite, oil or gaseous fuel projects, or without a plan to phase out coal and lignite power; the API gives no such data',
			'the alternative test of at least 15 % taxonomy-aligned investments (Get EU Taxonomy Alignment of the holdings gives it per portfolio)',
		],
		positiveTest: {
			minimumPercent: 70,
			minArticle: 9,
			text: "At least 70 % of investments meeting the product's sustainable objective; here the share (by value) of holdings whose SFDR article per the API is at least 9, a stand-in for the product's own indicators",
		},
	},
	sfdrTransition: {
		name: 'SFDR revision proposal: Transition (Art. 7)',
		source: `${SFDR_PROPOSAL}; exclusions as read in secondary sources: ${BENCHMARK_REGULATION}, Art. 12(1)(a)–(c)`,
		preCheck: PRE_CHECK,
		pointsOf: PROPOSAL_POINTS,
		rules: SOCIAL_EXCLUSIONS,
		notScreened: [
			"the proposal's further exclusions for this category (e.g. developers of new coal projects) could not be confirmed in its text; add them as rules when your reading of the text gives them",
		],
		positiveTest: {
			minimumPercent: 70,
			minArticle: 8,
			text: "At least 70 % of investments meeting a clear and measurable transition objective; here the share (by value) of holdings whose SFDR article per the API is at least 8, a stand-in for the product's own indicators",
		},
	},
	sfdrEsgBasics: {
		name: 'SFDR revision proposal: ESG Basics (Art. 8)',
		source: `${SFDR_PROPOSAL}; exclusions as read in secondary sources: ${BENCHMARK_REGULATION}, Art. 12(1)(a)–(c)`,
		preCheck: PRE_CHECK,
		pointsOf: PROPOSAL_POINTS,
		rules: SOCIAL_EXCLUSIONS,
		notScreened: [
			"the proposal's exact exclusion list for this category could not be confirmed in its text; add rules when your reading of the text gives more",
		],
		positiveTest: {
			minimumPercent: 70,
			minArticle: 8,
			text: "At least 70 % of investments integrating sustainability factors beyond risks; here the share (by value) of holdings whose SFDR article per the API is at least 8, a stand-in for the product's own indicators",
		},
	},
};

/** The form's parameter holding a preset rule's threshold, e.g. `pabThermalCoal`. */
export const thresholdParameter = (preset: string, key: string) => `${preset}${key}`;

/** The form's parameter holding an SFDR revision preset's positive-test percentage. */
export const positiveTestParameter = (preset: string) => `${preset}PositiveMinimumPercent`;

/** How a rule reads in the output: its label and what it compares. */
export function ruleCondition(rule: Omit<ScreenRule, 'source' | 'label'>): string {
	switch (rule.type) {
		case 'involvement':
			return rule.threshold && rule.threshold > 0
				? `business involvement ${rule.category}: weight ≥ ${rule.threshold}`
				: `business involvement ${rule.category}: any weight above 0`;
		case 'indicatorFalse':
			return `${rule.indicator} must be false`;
		case 'minSfdrArticle':
			return `SFDR article at least ${rule.article}`;
		case 'minEsgScore':
			return `${rule.metric} at least ${rule.minimum}`;
	}
}

/** The notice of a preset in the form: its rules, those the API is not known to give, and what it cannot check. */
export function presetNotice(preset: ScreenPreset): string {
	const lines = preset.rules.map(
		(rule) =>
			`${rule.point} ${rule.label} → ${ruleCondition(rule)}${isKnownToTheApi(rule) ? '' : ' (NOT KNOWN to be given by the API: not checked unless the answer has it)'}`,
	);
	return [
		preset.preCheck ?? '',
		`${preset.name}. Source: ${preset.source}.`,
		`Rules: ${lines.join('; ')}.`,
		preset.notScreened.length ? `Not screened: ${preset.notScreened.join('; ')}.` : '',
		'Thresholds are compared with the weight the API gives, whose meaning the API does not document.',
	]
		.filter(Boolean)
		.join(' ');
}

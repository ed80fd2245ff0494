/**
 * Deterministic instrument data.
 *
 * Every value is derived from sha256(`<isin>|<field>`), so one ISIN always gets the same answers whatever
 * else is in the request. See test/simulator/README.md (Data rules) for the shares and ranges.
 */
import { createHash } from 'node:crypto';

import { isIsinShaped, makeIsin } from './isin';

/** Classification code of the "not sustainable" category of POST /sustainable-investments/insights. */
export const NOT_SUSTAINABLE_CODE = 0;

export const UNKNOWN_SHARE = 0.1;
export const FUND_SHARE = 0.2;
/** ISINs with this prefix are always unknown (handy for tests). */
export const UNKNOWN_PREFIX = 'XX';

export const PAI_INDICATORS = {
	scope_1_emissions: 'tCO2e',
	scope_2_emissions: 'tCO2e',
	carbon_footprint: 'tCO2e/EURm invested',
	ghg_intensity_investee_companies: 'tCO2e/EURm revenue',
} as const;
export type PaiName = keyof typeof PAI_INDICATORS;

export const ESG_METRICS = {
	total_score: 'score',
	environment_score: 'score',
	carbon_footprint: 'tCO2e/EURm invested',
	percentage_of_women_managers: '%',
} as const;
export type EsgMetricName = keyof typeof ESG_METRICS;

/** Category name => share of instruments involved in it. */
export const BUSINESS_INVOLVEMENT_CATEGORIES = {
	thermal_coal: 0.15,
	tobacco_distributor: 0.1,
	nuclear_weapons: 0.05,
	nuclear_power_generation: 0.15,
} as const;
export type BusinessInvolvementCategory = keyof typeof BUSINESS_INVOLVEMENT_CATEGORIES;

/**
 * Categories the spec does not name and the vendor's answers are not known to give, which the benchmark exclusions
 * (Delegated Regulation 2020/1818 Art. 12) need: answered only under the `involvements: 'extended'` answer shape, so
 * that tests cover both the answer that has such a category and the one that lacks it. Name => share involved.
 */
export const EXTENDED_INVOLVEMENT_CATEGORIES = {
	controversial_weapons: 0.05,
	tobacco_producer: 0.05,
	oil_fuels: 0.15,
	gaseous_fuels: 0.15,
	high_carbon_power_generation: 0.1,
} as const;
export type ExtendedInvolvementCategory = keyof typeof EXTENDED_INVOLVEMENT_CATEGORIES;

export interface Involvement {
	weight: number;
	count: number;
}

export const SFDR_DESCRIPTIONS: Record<6 | 8 | 9, string> = {
	6: 'Article 6 - does not promote environmental or social characteristics',
	8: 'Article 8 - promotes environmental or social characteristics',
	9: 'Article 9 - has sustainable investment as its objective',
};

export type SustainableClass = 9 | 8 | typeof NOT_SUSTAINABLE_CODE | null;

export const SUSTAINABLE_DESCRIPTIONS: Record<'9' | '8' | '0' | 'null', string> = {
	'9': 'Sustainable',
	'8': 'Moderate',
	'0': 'Not sustainable',
	null: 'Uncovered',
};

export interface Methodology {
	id: number;
	name: string;
	description: string;
}

export const METHODOLOGIES: readonly Methodology[] = [
	{
		id: 1,
		name: 'SFDR Article 2(17) - Standard',
		description:
			'Sustainable investment as defined by SFDR Article 2(17): contributes to an environmental or social objective, does no significant harm and follows good governance practices.',
	},
	{
		id: 2,
		name: 'SFDR Article 2(17) - Strict (Do No Significant Harm)',
		description:
			'As the standard methodology, with strict do-no-significant-harm thresholds on the principal adverse impact indicators.',
	},
	{
		id: 3,
		name: 'MiFID II Sustainability Preferences',
		description:
			'Classification used to match the sustainability preferences of clients under MiFID II.',
	},
];

export const BENCHMARK_INDEX_NAMES = [
	'S&P 500',
	'Nasdaq 100',
	'DOW 30',
	'FTSE 100',
	'OMX 30',
	'OMX Stockholm',
	'OMXC 30',
	'DAX',
	'CAC 40',
	'SMI',
	'AEX',
	'IBEX 35',
	'PSI 20',
	'BEL 20',
	'ATX 20',
	'EURO STOXX 50',
	'Solactive SEK IG Credit Index',
] as const;

export const DEFAULT_BENCHMARK_INDEX = 'S&P 500';

/** Benchmark index name => the fixed (fake, well-formed) ISIN reported as `default_benchmark`. */
export const BENCHMARK_INDICES: Readonly<Record<string, string>> = Object.fromEntries(
	BENCHMARK_INDEX_NAMES.map((name, i) => [
		name,
		makeIsin('XC', `SIMIDX${String(i + 1).padStart(3, '0')}`),
	]),
);

export interface Industry {
	id: number;
	name: string;
}

export const INDUSTRIES: readonly Industry[] = [
	{ id: 1, name: 'Energy' },
	{ id: 2, name: 'Materials' },
	{ id: 3, name: 'Industrials' },
	{ id: 4, name: 'Consumer Discretionary' },
	{ id: 5, name: 'Consumer Staples' },
	{ id: 6, name: 'Health Care' },
	{ id: 7, name: 'Financials' },
	{ id: 8, name: 'Information Technology' },
	{ id: 9, name: 'Communication Services' },
	{ id: 10, name: 'Utilities' },
	{ id: 11, name: 'Real Estate' },
];

export const TAXONOMY_MEASURES = ['turnover', 'capex', 'opex'] as const;
export type TaxonomyMeasure = (typeof TAXONOMY_MEASURES)[number];

/** Per-instrument taxonomy values of one measure, in percent (2 decimals). */
export interface TaxonomyValues {
	eligible: number;
	aligned: number;
	enabling: number;
	transitional: number;
	fossilGas: number;
	nuclear: number;
	/** aligned - fossilGas - nuclear */
	noGasAndNuclear: number;
}

export interface Scores {
	total: number;
	environment: number;
	social: number;
	governance: number;
}

export interface TemperatureData {
	/** Degrees Celsius, 1.2 to 3.5; null when unknown. */
	score: number | null;
	/** Short-term reduction target in percent, or null. */
	target: number | null;
	baseYear: number | null;
	/** null for funds and unknown ISINs. */
	industry: Industry | null;
}

export interface InstrumentData {
	isin: string;
	known: boolean;
	isFund: boolean;
	sfdr: 6 | 8 | 9 | null;
	sfdrDescription: string | null;
	/** PAI indicator => value (unit in PAI_INDICATORS). */
	pai: Record<PaiName, number | null>;
	/** ESG metric => value (unit in ESG_METRICS). */
	esg: Record<EsgMetricName, number | null>;
	scores: Scores | null;
	/** Every category for known ISINs (weight 0 / count 0 when not involved); {} for unknown ones. */
	businessInvolvements: Partial<Record<BusinessInvolvementCategory, Involvement>>;
	/** The same for EXTENDED_INVOLVEMENT_CATEGORIES (answered only under `involvements: 'extended'`). */
	extendedInvolvements: Partial<Record<ExtendedInvolvementCategory, Involvement>>;
	taxonomy: Record<TaxonomyMeasure, TaxonomyValues> | null;
	sustainableInvestment: { classification: SustainableClass; description: string };
	temperature: TemperatureData;
	/**
	 * The true/false indicators the `measures: 'vendor'` answer shape adds (VENDOR_PAI_BOOLEANS on sustainability-data,
	 * VENDOR_ESG_BOOLEANS on esg-data), without a unit; null for unknown ISINs (and violations for ~20 % of known ones).
	 */
	vendorIndicators: Record<VendorBoolean, boolean | null>;
}

/** True/false PAI indicators of the vendor's live answers (no unit): the `measures: 'vendor'` answer shape. */
export const VENDOR_PAI_BOOLEANS = [
	'fossil_fuel_sector_exposure',
	'violations_un_global_compact',
] as const;
/** True/false ESG metrics of the vendor's live answers (no unit). */
export const VENDOR_ESG_BOOLEANS = ['un_global_compact_signatory'] as const;
export type VendorBoolean =
	| (typeof VENDOR_PAI_BOOLEANS)[number]
	| (typeof VENDOR_ESG_BOOLEANS)[number];

function vendorIndicators(isin: string): Record<VendorBoolean, boolean | null> {
	const flag = (name: string) => fraction(isin, `vendor:${name}`) < 0.3;
	return {
		fossil_fuel_sector_exposure: flag('fossil'),
		violations_un_global_compact:
			fraction(isin, 'vendor:violations-known') < 0.2 ? null : flag('violations'),
		un_global_compact_signatory: flag('ungc'),
	};
}

function fraction(isin: string, field: string): number {
	const digest = createHash('sha256').update(`${isin}|${field}`).digest();
	return digest.readUIntBE(0, 6) / 2 ** 48;
}

export function round(value: number, decimals: number): number {
	const factor = 10 ** decimals;
	return Math.round(value * factor) / factor;
}

function between(isin: string, field: string, min: number, max: number, decimals = 2): number {
	return round(min + fraction(isin, field) * (max - min), decimals);
}

export function isKnownIsin(isin: string): boolean {
	return (
		isIsinShaped(isin) &&
		!isin.startsWith(UNKNOWN_PREFIX) &&
		fraction(isin, 'known') >= UNKNOWN_SHARE
	);
}

function sfdrClass(isin: string): 6 | 8 | 9 {
	const r = fraction(isin, 'sfdr');
	if (r < 0.5) return 6;
	if (r < 0.85) return 8;
	return 9;
}

function sustainableClass(isin: string): SustainableClass {
	const r = fraction(isin, 'sustainable-investment');
	if (r < 0.3) return 9;
	if (r < 0.65) return 8;
	return NOT_SUSTAINABLE_CODE;
}

function taxonomyValues(isin: string, measure: TaxonomyMeasure): TaxonomyValues {
	// Integer hundredths of a percent keep eligible >= aligned >= enabling + transitional exact after rounding.
	const part = (field: string, max: number) =>
		Math.floor(fraction(isin, `taxonomy:${measure}:${field}`) * (max + 1));
	const eligible = part('eligible', 10000);
	const aligned = part('aligned', eligible);
	const enabling = part('enabling', aligned);
	const transitional = part('transitional', aligned - enabling);
	const fossilGas = part('fossil-gas', Math.min(200, aligned));
	const nuclear = part('nuclear', Math.min(200, aligned - fossilGas));
	return {
		eligible: eligible / 100,
		aligned: aligned / 100,
		enabling: enabling / 100,
		transitional: transitional / 100,
		fossilGas: fossilGas / 100,
		nuclear: nuclear / 100,
		noGasAndNuclear: (aligned - fossilGas - nuclear) / 100,
	};
}

function temperatureData(isin: string, isFund: boolean): TemperatureData {
	const hasTarget = fraction(isin, 'temperature:has-target') < 0.65;
	return {
		score: between(isin, 'temperature:score', 1.2, 3.5),
		target: hasTarget ? between(isin, 'temperature:target', 20, 80) : null,
		baseYear: hasTarget ? 2015 + Math.floor(fraction(isin, 'temperature:base-year') * 8) : null,
		industry: isFund
			? null
			: INDUSTRIES[Math.floor(fraction(isin, 'temperature:industry') * INDUSTRIES.length)],
	};
}

function unknownInstrument(isin: string): InstrumentData {
	return {
		isin,
		known: false,
		isFund: false,
		sfdr: null,
		sfdrDescription: null,
		pai: {
			scope_1_emissions: null,
			scope_2_emissions: null,
			carbon_footprint: null,
			ghg_intensity_investee_companies: null,
		},
		esg: {
			total_score: null,
			environment_score: null,
			carbon_footprint: null,
			percentage_of_women_managers: null,
		},
		scores: null,
		businessInvolvements: {},
		extendedInvolvements: {},
		taxonomy: null,
		sustainableInvestment: { classification: null, description: SUSTAINABLE_DESCRIPTIONS.null },
		temperature: { score: null, target: null, baseYear: null, industry: null },
		vendorIndicators: {
			fossil_fuel_sector_exposure: null,
			violations_un_global_compact: null,
			un_global_compact_signatory: null,
		},
	};
}

/**
 * Which edition of the instrument data the instruments routes answer from: 2 is "a later week", where a fixed share
 * of ISINs changed (see laterEdition), so that change alerts have something to find.
 */
export type DataVersion = 1 | 2;

/** Shares of known ISINs that change in data version 2 (by a hash of the ISIN, so always the same ones). */
export const LATER_EDITION = {
	/** SFDR class one step down (9 to 8, 8 to 6); a 6 stays a 6. */
	downgrade: 0.3,
	/** One step up (6 to 8, 8 to 9); a 9 stays a 9. */
	upgrade: 0.1,
	/** The classification and the PAI and ESG data become null (the ISIN stays known). */
	lostData: 0.05,
	/** Unknown ISINs (no data in version 1) that have data in version 2. */
	newData: 0.5,
	/** Known ISINs whose PAI values move by up to ±10 %. */
	paiDrift: 0.5,
} as const;

/** Everything the simulator knows about an ISIN, in data version 1 (the default) or 2. */
export function instrumentData(isin: string, version: DataVersion = 1): InstrumentData {
	if (version === 2) return laterEdition(isin);
	if (!isKnownIsin(isin)) return unknownInstrument(isin);
	return knownInstrument(isin);
}

/** The SFDR class after a step down or up; null when the step does not apply. */
export function steppedClass(sfdr: 6 | 8 | 9, direction: 'down' | 'up'): 6 | 8 | 9 | null {
	if (direction === 'down') return sfdr === 9 ? 8 : sfdr === 8 ? 6 : null;
	return sfdr === 6 ? 8 : sfdr === 8 ? 9 : null;
}

function laterEdition(isin: string): InstrumentData {
	if (!isIsinShaped(isin) || isin.startsWith(UNKNOWN_PREFIX)) return unknownInstrument(isin);
	if (!isKnownIsin(isin)) {
		return fraction(isin, 'v2:new-data') < LATER_EDITION.newData
			? knownInstrument(isin)
			: unknownInstrument(isin);
	}
	const data = knownInstrument(isin);
	const r = fraction(isin, 'v2:sfdr');
	const { downgrade, upgrade, lostData } = LATER_EDITION;
	if (r < downgrade || (r >= downgrade && r < downgrade + upgrade)) {
		const next = steppedClass(data.sfdr!, r < downgrade ? 'down' : 'up');
		if (next !== null) {
			data.sfdr = next;
			data.sfdrDescription = SFDR_DESCRIPTIONS[next];
		}
	} else if (r < downgrade + upgrade + lostData) {
		const unknown = unknownInstrument(isin);
		return {
			...data,
			sfdr: null,
			sfdrDescription: null,
			pai: unknown.pai,
			esg: unknown.esg,
			vendorIndicators: unknown.vendorIndicators,
		};
	}
	if (fraction(isin, 'v2:pai-drift') < LATER_EDITION.paiDrift) {
		const factor = 0.9 + 0.2 * fraction(isin, 'v2:pai-factor');
		for (const name of Object.keys(data.pai) as PaiName[]) {
			const value = data.pai[name];
			if (value !== null) data.pai[name] = round(value * factor, 2);
		}
		if (data.esg.carbon_footprint !== null) data.esg.carbon_footprint = data.pai.carbon_footprint;
	}
	return data;
}

/** Every category of `shares` for a known ISIN: involved => weight 0.5–60 and count 1–20, else weight 0, count 0. */
function involvements<C extends string>(
	isin: string,
	shares: Record<C, number>,
): Record<C, Involvement> {
	const result = {} as Record<C, Involvement>;
	for (const category of Object.keys(shares) as C[]) {
		const involved = fraction(isin, `bi:${category}:involved`) < shares[category];
		result[category] = involved
			? {
					weight: between(isin, `bi:${category}:weight`, 0.5, 60),
					count: 1 + Math.floor(fraction(isin, `bi:${category}:count`) * 20),
				}
			: { weight: 0, count: 0 };
	}
	return result;
}

function knownInstrument(isin: string): InstrumentData {
	const isFund = fraction(isin, 'fund') < FUND_SHARE;
	const sfdr = sfdrClass(isin);
	const environment = between(isin, 'score:environment', 20, 95);
	const social = between(isin, 'score:social', 20, 95);
	const governance = between(isin, 'score:governance', 20, 95);
	const scores: Scores = {
		total: round((environment + social + governance) / 3, 2),
		environment,
		social,
		governance,
	};
	const carbonFootprint = between(isin, 'pai:carbon_footprint', 0, 600);
	const businessInvolvements = involvements(isin, BUSINESS_INVOLVEMENT_CATEGORIES);
	const extendedInvolvements = involvements(isin, EXTENDED_INVOLVEMENT_CATEGORIES);
	const classification = sustainableClass(isin);
	return {
		isin,
		known: true,
		isFund,
		sfdr,
		sfdrDescription: SFDR_DESCRIPTIONS[sfdr],
		pai: {
			scope_1_emissions: between(isin, 'pai:scope_1_emissions', 0, 250000),
			scope_2_emissions: between(isin, 'pai:scope_2_emissions', 0, 80000),
			carbon_footprint: carbonFootprint,
			ghg_intensity_investee_companies: between(isin, 'pai:ghg_intensity', 0, 1500),
		},
		esg: {
			total_score: scores.total,
			environment_score: scores.environment,
			carbon_footprint: carbonFootprint,
			percentage_of_women_managers: between(isin, 'esg:women_managers', 0, 60),
		},
		scores,
		businessInvolvements,
		extendedInvolvements,
		taxonomy: {
			turnover: taxonomyValues(isin, 'turnover'),
			capex: taxonomyValues(isin, 'capex'),
			opex: taxonomyValues(isin, 'opex'),
		},
		sustainableInvestment: {
			classification,
			description: SUSTAINABLE_DESCRIPTIONS[String(classification) as '9' | '8' | '0'],
		},
		temperature: temperatureData(isin, isFund),
		vendorIndicators: vendorIndicators(isin),
	};
}

/**
 * Deterministic list of well-formed ISINs (`<country>` + zero-padded counter + check digit) whose data matches
 * `predicate`, e.g. `findIsins((d) => d.isFund, 3)`.
 */
export function findIsins(
	predicate: (data: InstrumentData) => boolean,
	count = 1,
	country = 'US',
): string[] {
	const found: string[] = [];
	for (let n = 1; found.length < count; n++) {
		if (n > 10_000_000) throw new Error('findIsins: no ISIN matches the predicate');
		const isin = makeIsin(country, n);
		if (predicate(instrumentData(isin))) found.push(isin);
	}
	return found;
}

// ---- EU Taxonomy -------------------------------------------------------------------------------------------

export interface TaxonomyKpiDefinition {
	name: string;
	measure: TaxonomyMeasure;
	field: keyof TaxonomyValues;
	/** true: sovereign bonds are left out of the denominator; false: they count with value 0. */
	excludingSovereignBonds: boolean;
}

function buildKpiDefinitions(): TaxonomyKpiDefinition[] {
	const kpis: TaxonomyKpiDefinition[] = [
		{
			name: 'taxonomy_alignment_%',
			measure: 'turnover',
			field: 'aligned',
			excludingSovereignBonds: false,
		},
		{
			name: 'taxonomy_alignment_enabling_%',
			measure: 'turnover',
			field: 'enabling',
			excludingSovereignBonds: false,
		},
		{
			name: 'taxonomy_alignment_transitional_%',
			measure: 'turnover',
			field: 'transitional',
			excludingSovereignBonds: false,
		},
	];
	for (const measure of TAXONOMY_MEASURES) {
		const fields: [string, keyof TaxonomyValues][] = [
			['taxonomy_eligible', 'eligible'],
			['taxonomy_alignment', 'aligned'],
			['taxonomy_alignment_enabling', 'enabling'],
			['taxonomy_alignment_transitional', 'transitional'],
			['taxonomy_alignment_no_gas_and_nuclear', 'noGasAndNuclear'],
			['taxonomy_alignment_fossil_gas', 'fossilGas'],
			['taxonomy_alignment_nuclear', 'nuclear'],
		];
		for (const [prefix, field] of fields) {
			kpis.push({ name: `${prefix}_${measure}_%`, measure, field, excludingSovereignBonds: false });
		}
	}
	for (const measure of TAXONOMY_MEASURES) {
		kpis.push(
			{
				name: `taxonomy_alignment_no_gas_and_nuclear_${measure}_excluding_sovereign_bonds_%`,
				measure,
				field: 'noGasAndNuclear',
				excludingSovereignBonds: true,
			},
			{
				name: `taxonomy_alignment_fossil_gas_${measure}_excluding_sovereign_bonds_%`,
				measure,
				field: 'fossilGas',
				excludingSovereignBonds: true,
			},
		);
	}
	// The opex counterpart of the nuclear KPI excluding sovereign bonds is not shown by the API.
	for (const measure of ['turnover', 'capex'] as const) {
		kpis.push({
			name: `taxonomy_alignment_nuclear_${measure}_excluding_sovereign_bonds_%`,
			measure,
			field: 'nuclear',
			excludingSovereignBonds: true,
		});
	}
	return kpis;
}

export const TAXONOMY_KPIS: readonly TaxonomyKpiDefinition[] = buildKpiDefinitions();

export const SOVEREIGN_BOND_TYPE = 'sovereign-bond';

export interface TaxonomyHolding {
	isin: string;
	instrument_type: string;
	market_value: number;
}

/**
 * Portfolio KPIs of POST /taxonomy/insights, in percent rounded to 4 decimals:
 * KPI = sum(market_value * value over known instruments) / sum(market_value over all holdings).
 * Sovereign bonds count with value 0, and are left out of numerator and denominator of the
 * `_excluding_sovereign_bonds_%` KPIs (those are omitted when only sovereign bonds are held).
 * Returns null when no holding is known or the total market value is 0 (the route then answers 400).
 */
export function taxonomyKpis(holdings: readonly TaxonomyHolding[]): Record<string, number> | null {
	const rows = holdings.map((holding) => ({
		marketValue: holding.market_value,
		sovereign: holding.instrument_type === SOVEREIGN_BOND_TYPE,
		data: instrumentData(holding.isin).taxonomy,
	}));
	const total = rows.reduce((sum, row) => sum + row.marketValue, 0);
	const totalExcludingSovereign = rows.reduce(
		(sum, row) => sum + (row.sovereign ? 0 : row.marketValue),
		0,
	);
	if (total === 0 || !rows.some((row) => row.data !== null)) return null;
	const result: Record<string, number> = {};
	for (const kpi of TAXONOMY_KPIS) {
		const denominator = kpi.excludingSovereignBonds ? totalExcludingSovereign : total;
		if (denominator === 0) continue;
		let numerator = 0;
		for (const row of rows) {
			if (row.sovereign || row.data === null) continue;
			numerator += row.marketValue * row.data[kpi.measure][kpi.field];
		}
		result[kpi.name] = round(numerator / denominator, 4);
	}
	return result;
}

/**
 * The annual PAI statement's figures worked out independently of the node, from the simulator's per-ISIN data
 * (`instrumentData`) and the holdings as the sample file lists them, for the recomputation test of examples/13.
 *
 * The formulas, as Commission Delegated Regulation (EU) 2022/1288, Annex I, Table 1 writes them (and issue 38):
 * - per quarter end q, the "current value of all investments" V_q is the sum of the market values of ALL the rows of
 *   that quarter end that have one: cash, rows without an ISIN and holdings without data count in it;
 * - an indicator the API gives per company as an intensity x_i (PAI 2 carbon footprint, in tCO2e per EUR million
 *   invested; PAI 3 GHG intensity of investee companies, in tCO2e per EUR million of revenue):
 *   Σ (value_i / V_q) × x_i over the holdings with data; a holding without data adds 0 (and lowers the coverage);
 * - an indicator the API gives as true/false (PAI 4 exposure to companies active in the fossil fuel sector, PAI 10
 *   violations of UN Global Compact principles and OECD Guidelines): Σ value_i where true / V_q, in %;
 * - the year's impact is the average over the quarter ends of the year that have holdings (31 March, 30 June,
 *   30 September, 31 December: the ESAs' Q&A on the Regulation);
 * - coverage: per quarter end, Σ value_i of the holdings with data for the indicator / V_q in %, averaged like the
 *   impact.
 * Year N is the latest calendar year with holdings; year N−1 the year before when it has holdings, else null.
 */
import { instrumentData, type DataVersion } from '../simulator/data';

/** One row of a holdings file: a position at a date (YYYY-MM-DD), its market value in EUR. */
export interface DatedHolding {
	date: string;
	/** '' for cash and rows without an ISIN. */
	isin: string;
	marketValue: number;
}

export type IndicatorKind = 'intensity' | 'share';

/** The Annex I Table 1 rows the API feeds, with the simulator's field for each. */
export const FED_INDICATORS = {
	carbon_footprint: { pai: 2, kind: 'intensity' },
	ghg_intensity_investee_companies: { pai: 3, kind: 'intensity' },
	fossil_fuel_sector_exposure: { pai: 4, kind: 'share' },
	violations_un_global_compact: { pai: 10, kind: 'share' },
} as const satisfies Record<string, { pai: number; kind: IndicatorKind }>;
export type FedIndicator = keyof typeof FED_INDICATORS;

export interface YearFigures {
	year: number;
	/** The four quarter ends of the year, each with the quarter's value or null (no holdings at that quarter end). */
	quarterValues: Record<string, number | null>;
	/** Average of the quarter values that are not null; null when none is. */
	impact: number | null;
	/** Average of the quarters' coverage (value with data / value of all investments, %); null without quarters. */
	coveragePercent: number | null;
	/** The quarter ends of the year without holdings. */
	quartersMissing: string[];
}

export interface IndicatorFigures {
	indicator: FedIndicator;
	pai: number;
	yearN: YearFigures;
	/** null when the input has no holdings in year N−1. */
	yearNMinus1: YearFigures | null;
}

const QUARTER_DAYS = ['03-31', '06-30', '09-30', '12-31'];

/** The quarter end (YYYY-MM-DD) of a date given as YYYY-MM-DD. */
export function quarterEndOf(date: string): string {
	const [year, month] = date.split('-').map(Number);
	return `${year}-${QUARTER_DAYS[Math.floor((month - 1) / 3)]}`;
}

/** The simulator's value of an indicator for an ISIN: a number, true/false, or null (no data). */
function indicatorValue(
	isin: string,
	indicator: FedIndicator,
	version: DataVersion,
): number | boolean | null {
	if (!isin) return null;
	const data = instrumentData(isin, version);
	if (FED_INDICATORS[indicator].kind === 'share')
		return data.vendorIndicators[indicator as 'fossil_fuel_sector_exposure'];
	return data.pai[indicator as 'carbon_footprint'];
}

/** One quarter end's value and coverage (%), or null when nothing is held (no value at all) then. */
function quarterFigures(
	holdings: DatedHolding[],
	indicator: FedIndicator,
	version: DataVersion,
): { value: number; coverage: number } | null {
	const allInvestments = holdings.reduce((sum, h) => sum + h.marketValue, 0);
	if (holdings.length === 0 || allInvestments === 0) return null;
	let weighted = 0;
	let covered = 0;
	for (const holding of holdings) {
		const x = indicatorValue(holding.isin, indicator, version);
		if (x === null) continue;
		covered += holding.marketValue;
		if (typeof x === 'boolean') weighted += x ? holding.marketValue : 0;
		else weighted += holding.marketValue * x;
	}
	const share = FED_INDICATORS[indicator].kind === 'share';
	return {
		value: share ? (weighted / allInvestments) * 100 : weighted / allInvestments,
		coverage: (covered / allInvestments) * 100,
	};
}

const average = (values: number[]) =>
	values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : null;

function yearFigures(
	holdings: DatedHolding[],
	year: number,
	indicator: FedIndicator,
	version: DataVersion,
): YearFigures {
	const quarterValues: Record<string, number | null> = {};
	const coverages: number[] = [];
	const quartersMissing: string[] = [];
	for (const day of QUARTER_DAYS) {
		const quarterEnd = `${year}-${day}`;
		const figures = quarterFigures(
			holdings.filter((h) => quarterEndOf(h.date) === quarterEnd),
			indicator,
			version,
		);
		quarterValues[quarterEnd] = figures?.value ?? null;
		if (figures) coverages.push(figures.coverage);
		else quartersMissing.push(quarterEnd);
	}
	const present = Object.values(quarterValues).filter((v): v is number => v !== null);
	return {
		year,
		quarterValues,
		impact: average(present),
		coveragePercent: average(coverages),
		quartersMissing,
	};
}

/** The statement over `holdings` (one fund's, or all of them for the entity), per fed indicator, in Annex order. */
export function annualPaiStatement(
	holdings: DatedHolding[],
	version: DataVersion = 1,
): IndicatorFigures[] {
	const years = holdings.map((h) => Number(h.date.slice(0, 4)));
	const yearN = Math.max(...years);
	const hasPreviousYear = years.includes(yearN - 1);
	return (Object.keys(FED_INDICATORS) as FedIndicator[]).map((indicator) => ({
		indicator,
		pai: FED_INDICATORS[indicator].pai,
		yearN: yearFigures(holdings, yearN, indicator, version),
		yearNMinus1: hasPreviousYear ? yearFigures(holdings, yearN - 1, indicator, version) : null,
	}));
}

/** A number rounded half away from zero to `decimals` places (null stays null). */
export function roundTo(value: number | null, decimals: number): number | null {
	if (value === null) return null;
	const factor = 10 ** decimals;
	return (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
}

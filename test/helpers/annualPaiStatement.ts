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
 *   30 September, 31 December: the ESAs' Q&A on the Regulation); a quarter end where no holding has data for the
 *   indicator has no figure (not 0) and is left out of that average (contract note of 12:40 UTC: "never a sum of
 *   zeros shown as 0"), but its coverage of 0 counts in the year's coverage;
 * - coverage: per quarter end, Σ value_i of the holdings with data for the indicator / V_q in %, averaged like the
 *   impact.
 * Year N is the latest calendar year with holdings; year N−1 the year before when it has holdings, else null.
 */
import {
	INTENSITY_DECIMALS,
	PERCENT_DECIMALS,
} from '../../nodes/SustainabilityInstruments/actions/paiStatementFigures';
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
): { value: number | null; coverage: number } | null {
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
	// No holding of the quarter end has data: no figure there (a sum of nothing is not an impact of 0), coverage 0.
	if (covered === 0) return { value: null, coverage: 0 };
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

/**
 * The statement over `holdings` (one fund's, or all of them for the entity), per fed indicator, in Annex order. Year N
 * is the latest calendar year of `allHoldings` (the whole input: one reference period for every statement of a run);
 * year N−1 is reported when the statement's own holdings have quarters in it, else null.
 */
export function annualPaiStatement(
	holdings: DatedHolding[],
	version: DataVersion = 1,
	allHoldings: DatedHolding[] = holdings,
	given: readonly FedIndicator[] = ALL_FED_INDICATORS,
): IndicatorFigures[] {
	const yearN = Math.max(...allHoldings.map((h) => Number(h.date.slice(0, 4))));
	const hasPreviousYear = holdings.some((h) => Number(h.date.slice(0, 4)) === yearN - 1);
	const figures = (year: number, indicator: FedIndicator) =>
		given.includes(indicator)
			? yearFigures(holdings, year, indicator, version)
			: notGiven(yearFigures(holdings, year, indicator, version));
	return ALL_FED_INDICATORS.map((indicator) => ({
		indicator,
		pai: FED_INDICATORS[indicator].pai,
		yearN: figures(yearN, indicator),
		yearNMinus1: hasPreviousYear ? figures(yearN - 1, indicator) : null,
	}));
}

const ALL_FED_INDICATORS = Object.keys(FED_INDICATORS) as FedIndicator[];

/**
 * A year of an indicator no answer of the run gives at all (e.g. the true/false ones when the API answers as its spec
 * documents it): no figure, as issue 38 asks for data the API does not give ("a row with impact_year_n: null", "the
 * statement shows its gaps instead of hiding them"), not 0 % over a coverage of 0.
 */
function notGiven(year: YearFigures): YearFigures {
	return {
		...year,
		quarterValues: Object.fromEntries(Object.keys(year.quarterValues).map((end) => [end, null])),
		impact: null,
		coveragePercent: null,
	};
}

/** A number rounded half away from zero to `decimals` places (null stays null). */
export function roundTo(value: number | null, decimals: number): number | null {
	if (value === null) return null;
	const factor = 10 ** decimals;
	return (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
}

/** A row of the quarterly sample: a dated holding of a fund. */
export interface FundHolding extends DatedHolding {
	portfolioId: string;
	portfolioName: string;
}

/** What the node's row of a fed indicator must say, rounded as the node rounds. */
export interface ExpectedFedRow {
	pai: number;
	indicator: FedIndicator;
	impact_year_n: number | null;
	impact_year_n_minus_1: number | null;
	coverage_percent: number | null;
	quarter_values: Record<string, number | null>;
	quarter_values_year_n_minus_1: Record<string, number | null> | null;
}

export interface ExpectedStatement {
	/** The fund's name, or 'Entity'. */
	label: string;
	/** The fund (Group By `Portfolio ID, Portfolio Name`); absent for the entity's statement. */
	fund?: { id: string; name: string };
	fedRows: ExpectedFedRow[];
}

/** Decimals the node rounds to: impacts in their unit, and percentages (share-type impacts, coverage). */
export interface Rounding {
	impact: number;
	percent: number;
}

/**
 * How the node rounds (its constants: the one thing taken from the node, so that "to the node's rounding" follows
 * it): the average of the unrounded quarter values, rounded like each quarter value.
 */
export const NODE_ROUNDING: Rounding = { impact: INTENSITY_DECIMALS, percent: PERCENT_DECIMALS };

function roundedYear(year: YearFigures, decimals: number, percent: number) {
	return {
		impact: roundTo(year.impact, decimals),
		quarterValues: Object.fromEntries(
			Object.entries(year.quarterValues).map(([date, value]) => [date, roundTo(value, decimals)]),
		),
		coverage: roundTo(year.coveragePercent, percent),
	};
}

/**
 * The statements example 13 writes for `holdings` (Group By `Portfolio ID, Portfolio Name`, the entity statement on):
 * one per fund in the order the funds first appear, then the entity's over all holdings; the fed rows of each.
 */
export function expectedStatements(
	holdings: FundHolding[],
	rounding: Rounding,
	version: DataVersion = 1,
	/** The indicators some answer of the run gives (default all: the vendor's answers). */
	given: readonly FedIndicator[] = ALL_FED_INDICATORS,
): ExpectedStatement[] {
	const funds = [
		...new Map(holdings.map((h) => [h.portfolioId, h.portfolioName] as const)).entries(),
	].map(([id, name]) => ({ id, name }));
	const statement = (rows: FundHolding[]) =>
		annualPaiStatement(rows, version, holdings, given).map((figures): ExpectedFedRow => {
			const decimals =
				FED_INDICATORS[figures.indicator].kind === 'share' ? rounding.percent : rounding.impact;
			const yearN = roundedYear(figures.yearN, decimals, rounding.percent);
			const yearNMinus1 = figures.yearNMinus1
				? roundedYear(figures.yearNMinus1, decimals, rounding.percent)
				: null;
			return {
				pai: figures.pai,
				indicator: figures.indicator,
				impact_year_n: yearN.impact,
				impact_year_n_minus_1: yearNMinus1?.impact ?? null,
				coverage_percent: yearN.coverage,
				quarter_values: yearN.quarterValues,
				quarter_values_year_n_minus_1: yearNMinus1?.quarterValues ?? null,
			};
		});
	return [
		...funds.map((fund) => ({
			label: fund.name,
			fund,
			fedRows: statement(holdings.filter((h) => h.portfolioId === fund.id)),
		})),
		{ label: 'Entity', fedRows: statement(holdings) },
	];
}

/** The node's output rows of one statement (fund rows carry the Group By fields, the entity's do not). */
export function rowsOfStatement<T extends Record<string, unknown>>(
	rows: T[],
	statement: ExpectedStatement,
): T[] {
	return rows.filter((row) =>
		statement.fund
			? row.statement === 'fund' &&
				row['Portfolio ID'] === statement.fund.id &&
				row['Portfolio Name'] === statement.fund.name
			: row.statement === 'entity' && !('Portfolio ID' in row),
	);
}

/** The node's fed rows of a statement in the shape of ExpectedFedRow (to compare with deep equality). */
export function fedRowsOf(rows: Array<Record<string, unknown>>): ExpectedFedRow[] {
	return (Object.keys(FED_INDICATORS) as FedIndicator[]).flatMap((indicator) =>
		rows
			.filter((row) => row.pai === FED_INDICATORS[indicator].pai)
			.map((row) => ({
				pai: row.pai as number,
				indicator,
				impact_year_n: row.impact_year_n as number | null,
				impact_year_n_minus_1: row.impact_year_n_minus_1 as number | null,
				coverage_percent: row.coverage_percent as number | null,
				quarter_values: row.quarter_values as Record<string, number | null>,
				quarter_values_year_n_minus_1: row.quarter_values_year_n_minus_1 as Record<
					string,
					number | null
				> | null,
			})),
	);
}

/** The name of the workbook example 13 writes for a statement. */
export function statementFileName(statement: ExpectedStatement, yearN: number): string {
	return `pai-statement_${yearN}_${statement.fund?.id ?? 'entity'}.xlsx`;
}

/** The columns of Annex I, Table 1, with the years filled in (as example 13's workbooks write them). */
export function annexColumns(yearN: number): string[] {
	return [
		'Adverse sustainability indicator',
		'Metric',
		`Impact ${yearN}`,
		`Impact ${yearN - 1}`,
		'Explanation',
		'Actions taken, and actions planned and targets set for the next reference period',
	];
}

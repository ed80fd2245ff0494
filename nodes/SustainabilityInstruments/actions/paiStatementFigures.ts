/**
 * The figures of the PAI statement (Delegated Regulation (EU) 2022/1288, Annex I, Table 1), pure: per quarter end the
 * Regulation's formula over the current value of all investments, then the average over the quarter ends of the
 * year. docs/nodes/sustainability-instruments.md (PAI Statement) writes each formula out.
 */
import type { IDataObject } from 'n8n-workflow';

import { PAI_STATEMENT_ROWS } from '../../shared/api/routes';
import type { PaiStatementFormula, PaiStatementRow } from '../../shared/api/routes';
import { ownValue, roundTo } from '../../shared/base/values';

/** One row of a quarter end's holdings, its current value in the statement currency (> 0). */
export interface StatementPosition {
	/** The ISIN looked up; absent on a row in the denominator only (cash, no ISIN, not sent). */
	isin?: string;
	value: number;
	/** The instrument's (not simplified) result when the API answered for it; absent when not answered. */
	result?: IDataObject;
	/** A row in the denominator only: why it has no figure ("cash row", "no ISIN", …). */
	denominatorOnly?: string;
	/** Answered but left out of the answer (an answer defect): said apart from "no data". */
	notInAnswer?: boolean;
}

/** The quarter ends of two years, YYYY-MM-DD, and the positions held at each (only quarter ends with holdings). */
export interface StatementInput {
	yearN: number;
	quarters: Map<string, StatementPosition[]>;
	/** The API's indicator names found in any answer, in first-seen order (for the unmapped rows). */
	answeredIndicators: string[];
	/** More sentences for every row's explanation (currency conversion, rows left out, …). */
	notes?: string[];
}

/** Intensities: 4 decimals; percents (shares, coverage): 2. */
export const INTENSITY_DECIMALS = 4;
export const PERCENT_DECIMALS = 2;

export const quarterEndsOf = (year: number): string[] => [
	`${year}-03-31`,
	`${year}-06-30`,
	`${year}-09-30`,
	`${year}-12-31`,
];

const SAME_DATA =
	"The API gives each instrument's current data, not its data as of each quarter end: the same per-instrument data is used for every quarter end (only the holdings and their values differ).";

/** What a quarter end gives for one row: the figure, the value covered, the total, the ISINs without data. */
export interface QuarterFigure {
	value: number | null;
	covered: number;
	total: number;
	withoutData: string[];
	notInAnswer: string[];
	units: Set<string>;
}

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `{value, unit}` of the first of `names` the result holds. */
function measureOf(
	result: IDataObject | undefined,
	names: readonly string[],
): { value: unknown; unit: string | null } | undefined {
	if (!result) return undefined;
	for (const name of names) {
		const measure = ownValue(result, name);
		if (isRecord(measure))
			return { value: measure.value, unit: typeof measure.unit === 'string' ? measure.unit : null };
	}
	return undefined;
}

/**
 * One quarter end: intensity Σ (vᵢ / V) × xᵢ, share Σ vᵢ [true] / V × 100, where V is the current value of all
 * investments of the quarter end (every position, the denominator-only rows too). A holding without a value of the
 * right kind counts 0 in the sum and is not covered.
 */
export function quarterFigure(
	formula: 'intensity' | 'share',
	names: readonly string[],
	positions: StatementPosition[],
): QuarterFigure {
	let total = 0;
	let sum = 0;
	let covered = 0;
	const withoutData: string[] = [];
	const notInAnswer: string[] = [];
	const units = new Set<string>();
	for (const position of positions) {
		total += position.value;
		if (position.isin === undefined) continue;
		const measure = measureOf(position.result, names);
		const value = measure?.value;
		const usable =
			formula === 'share'
				? typeof value === 'boolean'
				: typeof value === 'number' && Number.isFinite(value);
		if (!usable) {
			(position.notInAnswer ? notInAnswer : withoutData).push(position.isin);
			continue;
		}
		covered += position.value;
		if (formula === 'share') {
			if (value === true) sum += position.value;
		} else {
			sum += position.value * (value as number);
			if (measure?.unit) units.add(measure.unit);
		}
	}
	// No holding with data: the figure is unknown, not 0.
	const value =
		total > 0 && covered > 0 ? (formula === 'share' ? (sum / total) * 100 : sum / total) : null;
	return { value, covered, total, withoutData, notInAnswer, units };
}

/** The formula of an indicator the table does not know, from what the answers give: true/false or numbers. */
export function formulaOfAnswers(
	name: string,
	quarters: Map<string, StatementPosition[]>,
): 'intensity' | 'share' | 'mixed' | 'none' {
	let numbers = false;
	let booleans = false;
	for (const positions of quarters.values())
		for (const position of positions) {
			const value = measureOf(position.result, [name])?.value;
			if (typeof value === 'number') numbers = true;
			if (typeof value === 'boolean') booleans = true;
		}
	if (numbers && booleans) return 'mixed';
	return numbers ? 'intensity' : booleans ? 'share' : 'none';
}

const FORMULA_TEXT: Record<'intensity' | 'share', string> = {
	intensity:
		"Per quarter end: Σ (current value of investment i / current value of all investments) × the company's figure i, as the API gives it per company; then the average over the year's quarter ends.",
	share:
		"Per quarter end: current value of the investments whose API indicator is true / current value of all investments × 100; then the average over the year's quarter ends.",
};

/** "a, b, c and 4 more". */
function listed(names: string[], shown = 10): string {
	const distinct = [...new Set(names)];
	const head = distinct.slice(0, shown).join(', ');
	return distinct.length > shown ? `${head} and ${distinct.length - shown} more` : head;
}

/** The denominator-only rows of the year's quarter ends, by reason: "2 cash rows, 1 row with no ISIN". */
function denominatorRows(input: StatementInput, ends: string[]): string {
	const byReason = new Map<string, number>();
	for (const end of ends)
		for (const position of input.quarters.get(end) ?? [])
			if (position.denominatorOnly)
				byReason.set(position.denominatorOnly, (byReason.get(position.denominatorOnly) ?? 0) + 1);
	return [...byReason].map(([reason, count]) => `${count} × ${reason}`).join(', ');
}

interface YearFigures {
	average: number | null;
	coverage: number | null;
	quarterValues: Record<string, number | null>;
	present: string[];
	missing: string[];
	/** Quarter ends with holdings of which none has data for the row: no figure, left out of the average. */
	unknown: string[];
	withoutData: string[];
	notInAnswer: string[];
	units: Set<string>;
}

function yearFigures(
	input: StatementInput,
	year: number,
	formula: 'intensity' | 'share',
	names: readonly string[],
): YearFigures {
	const decimals = formula === 'share' ? PERCENT_DECIMALS : INTENSITY_DECIMALS;
	const quarterValues: Record<string, number | null> = {};
	const present: string[] = [];
	const missing: string[] = [];
	const unknown: string[] = [];
	const values: number[] = [];
	const coverages: number[] = [];
	const withoutData: string[] = [];
	const notInAnswer: string[] = [];
	const units = new Set<string>();
	for (const end of quarterEndsOf(year)) {
		const positions = input.quarters.get(end);
		if (!positions || positions.length === 0) {
			quarterValues[end] = null;
			missing.push(end);
			continue;
		}
		present.push(end);
		const figure = quarterFigure(formula, names, positions);
		quarterValues[end] = figure.value === null ? null : roundTo(figure.value, decimals);
		if (figure.value !== null) values.push(figure.value);
		else unknown.push(end);
		if (figure.total > 0) coverages.push((figure.covered / figure.total) * 100);
		withoutData.push(...figure.withoutData);
		notInAnswer.push(...figure.notInAnswer);
		for (const unit of figure.units) units.add(unit);
	}
	const mean = (list: number[]) =>
		list.length ? list.reduce((sum, value) => sum + value, 0) / list.length : null;
	const average = mean(values);
	const coverage = mean(coverages);
	return {
		average: average === null ? null : roundTo(average, decimals),
		coverage: coverage === null ? null : roundTo(coverage, PERCENT_DECIMALS),
		quarterValues,
		present,
		missing,
		unknown,
		withoutData,
		notInAnswer,
		units,
	};
}

/** Whether the input holds any quarter end of `year`. */
const hasYear = (input: StatementInput, year: number) =>
	quarterEndsOf(year).some((end) => (input.quarters.get(end)?.length ?? 0) > 0);

/** One output row, without the statement's own fields (statement, Group By fields). */
export interface StatementRow {
	year_n: number;
	pai: number | null;
	adverse_sustainability_indicator: string;
	metric: string;
	impact_year_n: number | null;
	impact_year_n_minus_1: number | null;
	unit: string | null;
	coverage_percent: number | null;
	quarter_values: Record<string, number | null>;
	quarter_values_year_n_minus_1: Record<string, number | null> | null;
	quarters_missing: string[];
	explanation: string;
	api_indicator: string | null;
	mapped: boolean;
}

/** A row the formula computes (mapped intensity or share, or an unmapped indicator read from its answers). */
function computedRow(
	input: StatementInput,
	base: Pick<StatementRow, 'pai' | 'adverse_sustainability_indicator' | 'metric' | 'mapped'>,
	formula: 'intensity' | 'share',
	names: readonly string[],
	tableUnit: string | null,
	lead: string[],
): StatementRow {
	const { yearN } = input;
	const n = yearFigures(input, yearN, formula, names);
	const hasPrevious = hasYear(input, yearN - 1);
	const previous = hasPrevious ? yearFigures(input, yearN - 1, formula, names) : undefined;
	const units = new Set([...n.units, ...(previous?.units ?? [])]);
	const parts = [...lead, FORMULA_TEXT[formula]];
	let unit = formula === 'share' ? '%' : tableUnit;
	let impactN = n.average;
	let impactPrevious = previous?.average ?? null;
	if (formula === 'intensity' && units.size > 1) {
		impactN = null;
		impactPrevious = null;
		parts.push(
			`No figure: the holdings give it in different units (${[...units].join(', ')}); the formula adds them up only in one unit.`,
		);
	} else if (formula === 'intensity' && units.size === 1) {
		unit = [...units][0];
	}
	const rows = denominatorRows(input, n.present);
	parts.push(
		`Denominator: the current value of all investments at each quarter end${rows ? `, including the rows without a figure of their own (over year ${yearN}'s ${n.present.length} quarter end${n.present.length === 1 ? '' : 's'}: ${rows})` : ''}.`,
	);
	if (n.withoutData.length)
		parts.push(
			`Holdings without data count 0 and lower coverage_percent: ${listed(n.withoutData)}.`,
		);
	if (n.notInAnswer.length)
		parts.push(`Not in the API's answer (counted 0, not covered): ${listed(n.notInAnswer)}.`);
	if (n.unknown.length)
		parts.push(
			n.unknown.length === n.present.length
				? `No figure for ${yearN}: no holding has data for it at any quarter end (a sum of zeros would not be a figure).`
				: `No holding has data for it at ${n.unknown.join(', ')}: no figure there; year N averages the other ${n.present.length - n.unknown.length} quarter end${n.present.length - n.unknown.length === 1 ? '' : 's'}.`,
		);
	if (previous?.unknown.length)
		parts.push(
			`Year N-1 (${yearN - 1}): no holding has data for it at ${previous.unknown.join(', ')}; ${previous.unknown.length === previous.present.length ? 'no figure' : 'averaged over the other quarter ends'}.`,
		);
	parts.push(
		`coverage_percent: the average over year ${yearN}'s quarter ends of the share of all investments with a value for it.`,
	);
	parts.push(SAME_DATA);
	if (n.missing.length)
		parts.push(
			`Quarter ends of ${yearN} without holdings: ${n.missing.join(', ')}; year N is the average over the ${n.present.length} quarter end${n.present.length === 1 ? '' : 's'} present (${n.present.join(', ')}), not the four the Regulation asks for.`,
		);
	if (!previous) parts.push(`Year N-1 (${yearN - 1}): no holdings in the input, so no figure.`);
	else if (previous.missing.length)
		parts.push(
			`Year N-1 (${yearN - 1}) averages the ${previous.present.length} quarter end${previous.present.length === 1 ? '' : 's'} present; without holdings: ${previous.missing.join(', ')}.`,
		);
	parts.push(...(input.notes ?? []));
	return {
		year_n: yearN,
		...base,
		impact_year_n: impactN,
		impact_year_n_minus_1: impactPrevious,
		unit,
		coverage_percent: n.coverage,
		quarter_values: n.quarterValues,
		quarter_values_year_n_minus_1: previous?.quarterValues ?? null,
		quarters_missing: n.missing,
		explanation: parts.join(' '),
		api_indicator: names.join(', ') || null,
		mapped: base.mapped,
	};
}

/** A row the API does not feed: no figure, what is missing named. */
function gapRow(input: StatementInput, row: PaiStatementRow, answered: string[]): StatementRow {
	const empty = (year: number) =>
		Object.fromEntries(quarterEndsOf(year).map((end) => [end, null])) as Record<string, null>;
	const given = answered.length
		? ` The API's ${answered.join(', ')} (the company's own emissions) is not used: without EVIC it cannot be turned into financed emissions, and no derivation is made from an assumption.`
		: '';
	return {
		year_n: input.yearN,
		pai: row.pai,
		adverse_sustainability_indicator: row.adverseSustainabilityIndicator,
		metric: row.metric,
		impact_year_n: null,
		impact_year_n_minus_1: null,
		unit: row.unit,
		coverage_percent: null,
		quarter_values: empty(input.yearN),
		quarter_values_year_n_minus_1: hasYear(input, input.yearN - 1) ? empty(input.yearN - 1) : null,
		quarters_missing: quarterEndsOf(input.yearN).filter(
			(end) => !(input.quarters.get(end)?.length ?? 0),
		),
		explanation: `No figure: the Regulation's formula needs ${row.missing ?? 'data the API does not give'}.${given}`,
		api_indicator: answered.join(', ') || null,
		mapped: true,
	};
}

/**
 * The statement's rows: every metric row of Annex I Table 1 in the Annex's order, then one row per indicator the
 * answers gave that the table does not know (unmapped, never dropped).
 */
export function statementRows(input: StatementInput): StatementRow[] {
	const rows: StatementRow[] = [];
	const known = new Set<string>();
	const answered = new Set(input.answeredIndicators);
	for (const row of PAI_STATEMENT_ROWS) {
		for (const name of row.apiIndicators) known.add(name);
		const base = {
			pai: row.pai,
			adverse_sustainability_indicator: row.adverseSustainabilityIndicator,
			metric: row.metric,
			mapped: true,
		};
		const formula: PaiStatementFormula = row.formula;
		if (formula === 'notFed') {
			rows.push(
				gapRow(
					input,
					row,
					row.apiIndicators.filter((name) => answered.has(name)),
				),
			);
			continue;
		}
		const names = row.apiIndicators;
		const lead = names.some((name) => answered.has(name))
			? []
			: [`No answer gave ${names.join(' or ')}: every holding counts as without data.`];
		rows.push(computedRow(input, base, formula, names, row.unit, lead));
	}
	for (const name of input.answeredIndicators) {
		if (known.has(name)) continue;
		const kind = formulaOfAnswers(name, input.quarters);
		const base = {
			pai: null,
			adverse_sustainability_indicator: name,
			metric: name,
			mapped: false,
		};
		const lead = [
			`Not an Annex I Table 1 row this node knows: the API's indicator ${name}, passed through unmapped.`,
		];
		if (kind === 'intensity' || kind === 'share') {
			rows.push(computedRow(input, base, kind, [name], null, lead));
		} else {
			const gap = gapRow(
				input,
				{
					pai: 0,
					adverseSustainabilityIndicator: name,
					metric: name,
					unit: null,
					formula: 'notFed',
					apiIndicators: [name],
				},
				[],
			);
			rows.push({
				...gap,
				pai: null,
				mapped: false,
				api_indicator: name,
				explanation: `${lead[0]} No figure: ${kind === 'mixed' ? 'the answers give it as numbers for some holdings and true/false for others' : 'no holding has a number or true/false for it'}.`,
			});
		}
	}
	return rows;
}

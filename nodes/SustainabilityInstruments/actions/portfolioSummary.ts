import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { inputItemOf } from './holdingsJsonInput';
import { inputError } from '../../shared/api/errors';
import { errorJson, pairedTo } from '../../shared/run/execution';
import { describeGroupValues, groupItems, splitFieldList } from '../../shared/input/grouping';
import { notInAnswerReason } from '../../shared/api/answers';
import { removedRow, uniformRemovedRows } from '../../shared/input/holdings';
import type { RemovedRow } from '../../shared/input/holdings';
import { numberFormatOption } from '../../shared/ui/descriptions';
import { settledByColumnNote } from '../../shared/input/holdingNumbers';
import { noteAboutInput, numberParameterValue } from '../../shared/input/parameters';
import { ownValue, roundTo, setOwn, showValue } from '../../shared/base/values';
import type { OutsideValue } from '../../shared/api/domains';
import { answerStateOf } from './lookupTypes';
import type { InstrumentOperationSpec, ItemIsin, LookupOutcome, SummaryKind } from './lookupTypes';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import { flatCells } from './instrumentResults';
import { BASIS_LABEL, holdingWeighing, weighItem } from './holdingWeights';
import type { UnsentRow, WeightBasis, Weighing, WeightedRow } from './holdingWeights';

export type { WeightBasis } from './holdingWeights';

const show = { outputMode: ['portfolioSummary'] };
/** Number Format and Group By serve Output > PAI Statement too (paiStatement.ts). */
const withStatement = { outputMode: ['portfolioSummary', 'paiStatement'] };

/** Parameters shown with Output > Portfolio Summary (displayOptions on outputMode). */
export const summaryProperties: INodeProperties[] = [
	{
		displayName: 'Weight Holdings By',
		name: 'weightBy',
		type: 'options',
		options: [
			{
				name: 'Market Value',
				value: 'marketValue',
				description: 'Each holding counts by its market value',
			},
			{
				name: 'Weight',
				value: 'weight',
				description:
					'Each holding counts by its portfolio weight (e.g. 9.5 or "9.5%"); weights need not add up to 100',
			},
		],
		default: 'marketValue',
		description:
			'How much each holding counts in the shares and weighted averages. Rows without it, cash rows and rows without an ISIN are left out and listed in removed_rows.',
		displayOptions: { show },
	},
	{
		displayName: 'Market Value Field',
		name: 'marketValueField',
		type: 'string',
		default: '',
		placeholder: 'Empty: found automatically (e.g. Market Value)',
		description:
			'Input field that holds the market value. Leave empty to find it among the usual headers (Market Value, MV, Value, Position Value, Amount).',
		displayOptions: { show: { ...show, weightBy: ['marketValue'] } },
	},
	{
		displayName: 'Weight Field',
		name: 'weightField',
		type: 'string',
		default: '',
		placeholder: 'Empty: found automatically (e.g. Weight %)',
		description:
			'Input field that holds the portfolio weight. Leave empty to find it among the usual headers (Weight, Weight %, Portfolio Weight, Allocation).',
		displayOptions: { show: { ...show, weightBy: ['weight'] } },
	},
	{ ...numberFormatOption, displayOptions: { show: withStatement } },
	{
		displayName: 'Group By',
		name: 'groupBy',
		builderHint: parameterBuilderHint(
			'Leave empty when all input items are one portfolio. When they hold several portfolios, name the column that tells them apart (e.g. portfolio_id): one summary item per value.',
		),
		type: 'string',
		default: '',
		placeholder: 'e.g. portfolio_id',
		description:
			'Input field(s), comma-separated, whose values split the input into portfolios: one summary each. Leave empty to summarise all items as one portfolio.',
		hint: 'Leave empty when all items are one portfolio; name a column (e.g. portfolio_id) to get one summary per value of it',
		displayOptions: { show: withStatement },
	},
];

export interface SummaryGroup {
	values: Record<string, unknown>;
	itemIndices: number[];
	rows: WeightedRow[];
	/** In the portfolio's total as not checked: a holding given with a value belongs to it whatever its ISIN. */
	unsent: UnsentRow[];
	/** Left out of the total (cash, no or a negative value). */
	removed: RemovedRow[];
}

/** The groups and the weight of each usable row, read before anything is sent. */
export interface PreparedSummary {
	basis: WeightBasis;
	/** How values were read where they could be read two ways (given on every summary item and as a hint). */
	notes: string[];
	groups: SummaryGroup[];
}

/**
 * Reads each row's market value (or weight) and the groups; rows that cannot be weighted (no ISIN, cash, no market
 * value) get a `problem` in `perItem` so their ISIN is not sent for them, and are reported in the summary.
 */
export function prepareSummary<TEntry>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	perItem: ItemIsin[],
	// Only the route's label is read (the error's words): Screen Holdings passes its own.
	spec: { route: Pick<InstrumentOperationSpec<TEntry>['route'], 'label'> },
): PreparedSummary {
	const node = this.getNode();
	const weighing = summaryWeighing.call(this, items);
	const groups = groupItems(
		node,
		items,
		splitFieldList(this.getNodeParameter('groupBy', 0, '')),
	).filter((group) => group.itemIndices.length > 0);

	const prepared: SummaryGroup[] = groups.map((group) => {
		const rows: WeightedRow[] = [];
		const unsent: UnsentRow[] = [];
		const removed: RemovedRow[] = [];
		for (const index of group.itemIndices) {
			const weighed = weighItem(node, items[index].json, index, perItem[index], weighing);
			if ('isin' in weighed) rows.push(weighed);
			else if ('row' in weighed) unsent.push(weighed);
			else {
				removed.push(weighed.removed);
				perItem[index] = weighed.unsent;
			}
		}
		return { values: group.values, itemIndices: group.itemIndices, rows, unsent, removed };
	});

	const { settled, key, column, basis } = weighing;
	const notes = settled ? [settledByColumnNote(key, settled, column)] : [];
	for (const note of notes) noteAboutInput.call(this, note);

	if (items.length > 0 && prepared.every((group) => group.rows.length === 0)) {
		const removed = prepared.flatMap((group) => [
			...group.unsent.map(({ row }) => row),
			...group.removed,
		]);
		const reasons = [...new Set(removed.map((row) => row.reason))].slice(0, 3).join('; ');
		throw inputError(
			node,
			undefined,
			`No holding can be weighted for a Portfolio Summary of the ${spec.route.label}: all ${removed.length} rows are left out (${reasons})`,
			basis === 'weight'
				? 'Each holding needs an ISIN and a weight: set Weight Field to the column that holds the weight, or Weight Holdings By to Market Value.'
				: 'Each holding needs an ISIN and a market value: set Market Value Field to the column that holds it, or Weight Holdings By to Weight.',
		);
	}
	return { basis, notes, groups: prepared };
}

/** The Weight Holdings By setting, its column, and the column's number format decided from all the items. */
function summaryWeighing(this: IExecuteFunctions, items: INodeExecutionData[]): Weighing {
	const basis =
		(this.getNodeParameter('weightBy', 0, 'marketValue') as string) === 'weight'
			? 'weight'
			: 'marketValue';
	return holdingWeighing.call(this, items, basis);
}

/** One item per group, paired with the group's input items. */
export function buildSummaryItems<TEntry>(
	this: IExecuteFunctions,
	prepared: PreparedSummary,
	outcome: LookupOutcome<TEntry>,
): INodeExecutionData[] {
	const kind = outcome.spec.summaryKind;
	const minimumThreshold =
		kind === 'businessInvolvements'
			? (numberParameterValue(
					this.getNode(),
					this.getNodeParameter('minimumThreshold', 0, 0),
					0,
					'Minimum Threshold',
					{ min: 0 },
				) ?? 0)
			: 0;
	const names = summaryNames(kind, outcome.results.values());

	return prepared.groups.map((group) => {
		const pairedItem = pairedTo(group.itemIndices);
		const unanswered = [...new Set(group.rows.map((row) => row.isin))].filter((isin) =>
			outcome.failed.has(isin),
		);
		if (unanswered.length > 0) {
			const failure = outcome.failed.get(unanswered[0])!;
			const where = describeGroupValues(group.values);
			const details = errorJson(failure);
			const json: IDataObject = {
				...(group.values as IDataObject),
				...details,
				error: `No summary for this portfolio${where ? ` (${where})` : ''}: the API gave no answer for ${unanswered.length} of its ${new Set(group.rows.map((row) => row.isin)).size} ISINs, so its figures would be incomplete. ${details.error as string}`,
				unanswered_isins: unanswered,
			};
			return { json: outcome.simplify ? flatCells(json) : json, pairedItem };
		}
		const { holdings, notChecked } = summaryHoldings(group, outcome);
		const summary = summarizeHoldings(kind, holdings, {
			basis: prepared.basis,
			minimumThreshold,
			names,
		});
		const json: IDataObject = {
			...(group.values as IDataObject),
			...(outcome.simplify ? flattenSummary(summary) : summary),
		};
		json.not_checked_rows = outcome.simplify
			? removedRowsText(notChecked)
			: (uniformRemovedRows(notChecked) as unknown as IDataObject[]);
		json.removed_count = group.removed.length;
		json.removed_rows = outcome.simplify
			? removedRowsText(group.removed)
			: (uniformRemovedRows(group.removed) as unknown as IDataObject[]);
		const totalNote = describeTotal(
			prepared.basis,
			holdings.length,
			notChecked.length,
			group.removed.length,
		);
		if (totalNote) json.total_note = totalNote;
		if (prepared.notes.length > 0) json.input_notes = prepared.notes;
		if (outcome.answerNote) json.answer_note = outcome.answerNote;
		return { json: outcome.simplify ? flatCells(json) : json, pairedItem };
	});
}

/**
 * The group's holdings in its total: the rows whose ISIN was answered (with their result), and as not checked the
 * rows whose ISIN the answer left out and those whose ISIN was not sent; the not checked ones listed with why.
 */
function summaryHoldings<TEntry>(
	group: SummaryGroup,
	outcome: LookupOutcome<TEntry>,
): { holdings: SummaryHolding[]; notChecked: RemovedRow[] } {
	const notChecked: RemovedRow[] = group.unsent.map(({ row }) => row);
	const holdings: SummaryHolding[] = group.rows.map((row) => {
		if (answerStateOf(row.isin, outcome) !== 'notInAnswer')
			return {
				weight: row.weight,
				result: outcome.results.get(row.isin),
				outOfRange: outOfRangeFigures(outcome.outside?.get(row.isin)),
			};
		notChecked.push(
			removedRow(
				inputItemOf(outcome.items, row.item),
				row.name,
				row.given,
				row.isin,
				notInAnswerReason('ISIN'),
			),
		);
		return { weight: row.weight, notChecked: true };
	});
	for (const { weight } of group.unsent) holdings.push({ weight, notChecked: true });
	notChecked.sort((a, b) => a.item - b.item);
	return { holdings, notChecked };
}

/** Which total the shares divide by and what it leaves out; undefined when every row was checked and none left out. */
function describeTotal(
	basis: WeightBasis,
	inTotal: number,
	notChecked: number,
	removed: number,
): string | undefined {
	if (notChecked === 0 && removed === 0) return undefined;
	const total = basis === 'weight' ? 'total_weight' : 'total_market_value';
	const parts = [
		`Shares and coverage divide by ${total}: the ${inTotal} holding${inTotal === 1 ? '' : 's'} with a ${BASIS_LABEL[basis]}`,
	];
	if (notChecked > 0)
		parts.push(
			`${notChecked} of them not checked (not sent or not in the API's answer: see not_checked_rows), in the not_checked share`,
		);
	if (removed > 0)
		parts.push(
			`it leaves out the ${removed} row${removed === 1 ? '' : 's'} in removed_rows (cash, no ISIN, no usable ${BASIS_LABEL[basis]})`,
		);
	return `${parts.join('; ')}.`;
}

/** Removed rows as one line each, for a spreadsheet cell: `Item 3 (Cash EUR): cash row`. */
export function removedRowsText(removed: RemovedRow[]): string {
	return removed
		.map((row) => {
			const about = [row.name, row.isin].filter(Boolean).join(', ');
			return `Item ${row.item}${about ? ` (${about})` : ''}: ${row.reason}`;
		})
		.join('\n');
}

/**
 * One weighted holding: its weight and its (not simplified) result; undefined when the API did not answer for it.
 * `notChecked`: in the total, but its ISIN was not sent or the answer left it out (never "no data").
 */
export interface SummaryHolding {
	weight: number;
	result?: IDataObject;
	/**
	 * The figures of its result the API answered outside their range (set to null in `result`), by the name of the
	 * figure (indicator, metric, score, involvement category, `classification`), with the value as it came.
	 */
	outOfRange?: Map<string, number>;
	notChecked?: boolean;
}

/** The figure each number outside its range belongs to, from its place in the entry (routes.ts domains). */
function outOfRangeFigures(outside: OutsideValue[] | undefined): Map<string, number> | undefined {
	if (!outside?.length) return undefined;
	const figures = new Map<string, number>();
	for (const { path, value } of outside) {
		// data[i].sustainability_data.<name>(.value) / .business_involvements.<category>.weight /
		// data[i].sustainability_profile.classification
		const name = path[3] === 'business_involvements' ? path[4] : path[3];
		if (typeof name === 'string' && !figures.has(name)) figures.set(name, value);
	}
	return figures;
}

/**
 * What a figure says of the holdings whose value was outside its range: how many, and which (by ISIN, with the
 * value as it came). Nothing when none.
 */
function leftOutOfRange(holdings: SummaryHolding[], name: string): IDataObject {
	const left = holdings.filter((holding) => holding.outOfRange?.has(name));
	if (left.length === 0) return {};
	const shown = left
		.slice(0, 5)
		.map(
			(holding) =>
				`${showValue(holding.result?.isin ?? '?', 20)} (${showValue(holding.outOfRange!.get(name), 24)})`,
		);
	return {
		out_of_range_count: left.length,
		out_of_range_note: `Left out: ${left.length} holding${left.length === 1 ? "'s value is" : "s' values are"} outside the range the API's figures may have (domain_note on each instrument): ${shown.join(', ')}${left.length > 5 ? ` and ${left.length - 5} more` : ''}`,
	};
}

export interface SummaryOptions {
	basis: WeightBasis;
	/** Business involvements: an involvement counts when its weight is > 0 and at least this. */
	minimumThreshold?: number;
	/** Names of the indicators, metrics, categories and scores, in output order (the same in every group). */
	names?: SummaryNames;
}

export interface SummaryNames {
	measures: string[];
	categories: string[];
}

const NOT_A_MEASURE = new Set([
	'isin',
	'found',
	'is_fund',
	'business_involvements',
	'answer_note',
	'domain_note',
]);

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The indicators (PAI), metrics (ESG) or scores and categories (business involvements) found in any result, in
 * first-seen order: every group gets the same columns.
 */
export function summaryNames(kind: SummaryKind, results: Iterable<IDataObject>): SummaryNames {
	const measures = new Set<string>();
	const categories = new Set<string>();
	if (kind === 'sfdr') return { measures: [], categories: [] };
	for (const result of results) {
		for (const [name, value] of Object.entries(result)) {
			if (NOT_A_MEASURE.has(name)) continue;
			if (kind === 'businessInvolvements' ? !isRecord(value) : isRecord(value)) measures.add(name);
		}
		if (kind === 'businessInvolvements' && isRecord(result.business_involvements))
			for (const category of Object.keys(result.business_involvements)) categories.add(category);
	}
	return { measures: [...measures], categories: [...categories] };
}

/** Percents: 2 decimals; null when the total is 0 (say why: `zeroTotalReason`). */
const percentOf = (part: number, total: number): number | null =>
	total > 0 ? roundTo((part / total) * 100, 2) : null;

/** Why the shares of a portfolio are null: its total is 0 (no holding in it, or every holding in it weighs 0). */
function zeroTotalReason(holdings: SummaryHolding[], basis: WeightBasis): string {
	const total = basis === 'weight' ? 'total_weight' : 'total_market_value';
	return holdings.length === 0
		? `no holding is in the portfolio's total (${total} is 0)`
		: `every holding in the portfolio's total weighs 0 (${total} is 0)`;
}

/** Sums of market values: 2 decimals; of weights: 4. */
const amount = (value: number, basis: WeightBasis) => roundTo(value, basis === 'weight' ? 4 : 2);

/** Weighted averages: 4 decimals. */
const AVERAGE_DECIMALS = 4;

const numberOrUndefined = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** What each PAI indicator's weighted average is, against SFDR's own formula (Annex I, Delegated Regulation 2022/1288). */
const SFDR_DENOMINATOR =
	'This average divides by the holdings with a value; SFDR divides by all investments: multiply by coverage_percent / 100 (and, if rows were removed, by the share of the whole portfolio that the holdings used make up)';
const NOT_FINANCED_EMISSIONS =
	"Weighted average of the companies' own emissions, NOT the financed GHG emissions of SFDR PAI 1: those need each company's enterprise value including cash (EVIC), which the API does not give";
const PAI_NOTES: Record<string, string> = {
	ghg_intensity_investee_companies: `Same form as SFDR PAI 3 (GHG intensity of investee companies): weighted by the current value of each investment. ${SFDR_DENOMINATOR}`,
	carbon_footprint: `Same form as SFDR PAI 2 (carbon footprint): weighted by the current value of each investment. ${SFDR_DENOMINATOR}`,
	scope_1_emissions: NOT_FINANCED_EMISSIONS,
	scope_2_emissions: NOT_FINANCED_EMISSIONS,
};
const ESG_NOTES: Record<string, string> = { carbon_footprint: PAI_NOTES.carbon_footprint };

/**
 * The summary of one portfolio (not flattened): totals, then per kind the article shares, the weighted averages of
 * each indicator or metric, or the involvement shares and weighted scores. Pure: the figures are written out in the
 * docs/nodes/sustainability-instruments.md (Portfolio Summary).
 */
export function summarizeHoldings(
	kind: SummaryKind,
	holdings: SummaryHolding[],
	options: SummaryOptions,
): IDataObject {
	const { basis } = options;
	const valueKey = basis === 'weight' ? 'portfolio_weight' : 'market_value';
	const total = holdings.reduce((sum, holding) => sum + holding.weight, 0);
	const names = options.names ?? summaryNames(kind, holdingResults(holdings));
	// A null figure says why: every share of a total of 0 is null.
	const zeroTotal = total > 0 ? undefined : zeroTotalReason(holdings, basis);
	const summary: IDataObject = {
		holdings_count: holdings.length,
		[basis === 'weight' ? 'total_weight' : 'total_market_value']: amount(total, basis),
	};
	const bucket = (members: SummaryHolding[]): IDataObject => {
		const sum = members.reduce((acc, holding) => acc + holding.weight, 0);
		return {
			holdings_count: members.length,
			[valueKey]: amount(sum, basis),
			percent: percentOf(sum, total),
			...(zeroTotal ? { note: `No percent: ${zeroTotal}` } : {}),
		};
	};
	const coverage = (covered: number) => {
		summary.coverage_percent = percentOf(covered, total);
		if (zeroTotal) summary.coverage_note = `No coverage_percent: ${zeroTotal}`;
	};

	const notChecked = holdings.filter((holding) => holding.notChecked === true);
	if (kind === 'sfdr') {
		const classOf = (holding: SummaryHolding) => holding.result?.classification;
		const articles: IDataObject = {};
		for (const article of [9, 8, 6])
			articles[`article_${article}`] = bucket(holdings.filter((h) => classOf(h) === article));
		const outOfRange = (holding: SummaryHolding) => holding.outOfRange?.has('classification');
		const unclassified = holdings.filter(
			(h) => ![9, 8, 6].includes(classOf(h) as number) && !outOfRange(h),
		);
		articles.no_data = bucket(unclassified.filter((holding) => holding.notChecked !== true));
		articles.not_checked = bucket(notChecked);
		const leftOut = holdings.filter(outOfRange);
		if (leftOut.length)
			articles.out_of_range = { ...bucket(leftOut), ...leftOutOfRange(holdings, 'classification') };
		const classified =
			total - [...unclassified, ...leftOut].reduce((acc, holding) => acc + holding.weight, 0);
		coverage(classified);
		summary.articles = articles;
		return summary;
	}

	summary.not_checked = bucket(notChecked);

	if (kind === 'businessInvolvements') {
		const threshold = options.minimumThreshold ?? 0;
		summary.minimum_threshold = threshold;
		const found = holdings.filter((holding) => holding.result?.found === true);
		coverage(found.reduce((acc, holding) => acc + holding.weight, 0));
		const involvements: IDataObject = {};
		for (const category of names.categories) {
			setOwn(
				involvements,
				category,
				bucket(
					holdings.filter((holding) => {
						const involvement = holding.result?.business_involvements;
						const entry = isRecord(involvement) ? ownValue(involvement, category) : undefined;
						const weight = isRecord(entry) ? numberOrUndefined(entry.weight) : undefined;
						return weight !== undefined && weight > 0 && weight >= threshold;
					}),
				),
			);
			Object.assign(
				ownValue(involvements, category) as IDataObject,
				leftOutOfRange(holdings, category),
			);
		}
		summary.involvements = involvements;
		const scores: IDataObject = {};
		for (const name of names.measures) {
			setOwn(scores, name, {
				...weightedAverage(
					holdings,
					total,
					zeroTotal,
					(result) => ({ value: numberOrUndefined(ownValue(result, name)) }),
					false,
				),
				...leftOutOfRange(holdings, name),
			});
		}
		summary.scores = scores;
		return summary;
	}

	const notes = kind === 'paiIndicators' ? PAI_NOTES : ESG_NOTES;
	const measures: IDataObject = {};
	for (const name of names.measures) {
		const valueOf = (result: IDataObject) => {
			const measure = ownValue(result, name);
			return isRecord(measure) ? measure.value : undefined;
		};
		const figure = isYesNoMeasure(holdings, valueOf)
			? shareTrue(holdings, total, zeroTotal, valueOf)
			: weightedAverage(holdings, total, zeroTotal, (result) => {
					const measure = ownValue(result, name);
					if (!isRecord(measure)) return { value: undefined };
					return {
						value: numberOrUndefined(measure.value),
						unit: typeof measure.unit === 'string' ? measure.unit : null,
					};
				});
		const note = [figure.note, ownValue(notes, name)].filter(Boolean).join('. ');
		if (note) figure.note = note;
		Object.assign(figure, leftOutOfRange(holdings, name));
		setOwn(measures, name, figure);
	}
	summary[kind === 'paiIndicators' ? 'indicators' : 'metrics'] = measures;
	return summary;
}

/** An indicator the API gives as true/false (no holding has a number for it, at least one has true or false). */
function isYesNoMeasure(
	holdings: SummaryHolding[],
	valueOf: (result: IDataObject) => unknown,
): boolean {
	let yesNo = false;
	for (const holding of holdings) {
		if (!holding.result) continue;
		const value = valueOf(holding.result);
		if (typeof value === 'number') return false;
		if (typeof value === 'boolean') yesNo = true;
	}
	return yesNo;
}

/**
 * A true/false indicator (e.g. exposure to the fossil fuel sector): the share of the holdings with a value, by
 * market value or weight, where it is true; null is no value, as for numbers.
 */
function shareTrue(
	holdings: SummaryHolding[],
	total: number,
	zeroTotal: string | undefined,
	valueOf: (result: IDataObject) => unknown,
): IDataObject {
	let covered = 0;
	let yes = 0;
	let count = 0;
	let countTrue = 0;
	for (const holding of holdings) {
		const value = holding.result ? valueOf(holding.result) : undefined;
		if (typeof value !== 'boolean') continue;
		covered += holding.weight;
		count++;
		if (value) {
			yes += holding.weight;
			countTrue++;
		}
	}
	const truePercent = percentOf(yes, covered);
	const coveragePercent = percentOf(covered, total);
	return {
		true_percent: truePercent,
		holdings_true: countTrue,
		holdings_with_value: count,
		coverage_percent: coveragePercent,
		note: [
			'A true/false indicator: true_percent is the share (by value) of the holdings with a value where it is true',
			truePercent === null ? `No true_percent: ${noValueReason(count)}` : '',
			coveragePercent === null && zeroTotal ? `No coverage_percent: ${zeroTotal}` : '',
		]
			.filter(Boolean)
			.join('. '),
	};
}

/** Why a figure over the holdings with a value is null when it has no other reason. */
const noValueReason = (withValue: number) =>
	withValue === 0 ? 'no holding has a value for it' : 'the holdings with a value weigh 0 in all';

function* holdingResults(holdings: SummaryHolding[]): Generator<IDataObject> {
	for (const holding of holdings) if (holding.result) yield holding.result;
}

/**
 * Σ wᵢ·xᵢ / Σ wᵢ over the holdings with a value xᵢ, their count and their share of the total (coverage). When the
 * holdings give the figure in different units, no average is made: the note says so. A missing unit is no unit of
 * its own.
 */
function weightedAverage(
	holdings: SummaryHolding[],
	total: number,
	zeroTotal: string | undefined,
	read: (result: IDataObject) => { value: number | undefined; unit?: string | null },
	withUnit = true,
): IDataObject {
	let weighted = 0;
	let covered = 0;
	let count = 0;
	const units = new Set<string>();
	for (const holding of holdings) {
		if (!holding.result) continue;
		const { value, unit } = read(holding.result);
		if (value === undefined) continue;
		weighted += holding.weight * value;
		covered += holding.weight;
		count++;
		if (unit) units.add(unit);
	}
	const figure: IDataObject = {
		weighted_average: covered > 0 ? roundTo(weighted / covered, AVERAGE_DECIMALS) : null,
		...(withUnit ? { unit: units.size === 1 ? [...units][0] : null } : {}),
		holdings_with_value: count,
		coverage_percent: percentOf(covered, total),
	};
	// A null figure says why.
	const notes: string[] = [];
	if (units.size > 1) {
		figure.weighted_average = null;
		notes.push(`Not averaged: the holdings give it in different units (${[...units].join(', ')})`);
	} else if (figure.weighted_average === null) {
		notes.push(`No average: ${noValueReason(count)}`);
	}
	if (figure.coverage_percent === null && zeroTotal)
		notes.push(`No coverage_percent: ${zeroTotal}`);
	if (notes.length) figure.note = notes.join('. ');
	return figure;
}

export function flattenSummary(summary: IDataObject): IDataObject {
	const flat: IDataObject = {};
	for (const [key, value] of Object.entries(summary)) {
		if (key === 'not_checked') {
			for (const [field, figure] of Object.entries(value as IDataObject))
				setOwn(flat, `${key}_${field}`, figure);
		} else if (['articles', 'indicators', 'metrics', 'involvements', 'scores'].includes(key)) {
			for (const [name, figures] of Object.entries(value as IDataObject))
				for (const [field, figure] of Object.entries(figures as IDataObject))
					setOwn(flat, `${name}_${field}`, figure);
		} else {
			setOwn(flat, key, value);
		}
	}
	return flat;
}

/**
 * Output > PAI Statement of Get PAI Indicators: the holdings of several quarter ends in, one item per metric row of
 * Annex I Table 1 (Delegated Regulation (EU) 2022/1288) out, per statement (the entity, and each Group By value).
 * What is read and refused happens before any request (`preparePaiStatement`); the figures are paiStatementFigures.ts.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { rowName } from './holdingsJsonInput';
import { addRunNote } from '../../shared/base/hints';
import { hasOwn, isBlank, scalarText, showValue } from '../../shared/base/values';
import { describeGroupValues, groupItems, splitFieldList } from '../../shared/input/grouping';
import { FieldResolver, compactKey } from '../../shared/input/holdingFields';
import { isIsoCurrency } from '../../shared/input/currencies';
import {
	describeDateProblem,
	noteSnapshotDate,
	readSnapshotDate,
	twoQuartersFix,
	workflowTimeZone,
} from '../../shared/input/dates';
import { fixOfInputError } from '../../shared/api/errors';
import { inputProblemsError } from '../../shared/input/inputProblems';
import type { InputProblem } from '../../shared/input/inputProblems';
import { readTextParameter } from '../../shared/input/parameters';
import { errorJson, pairedTo } from '../../shared/run/execution';
import { holdingWeighing, weighItem } from './holdingWeights';
import { flatCells } from './instrumentResults';
import { answerStateOf } from './lookupTypes';
import type { ItemIsin, LookupOutcome } from './lookupTypes';
import { statementRows } from './paiStatementFigures';
import type { StatementPosition } from './paiStatementFigures';

const show = { outputMode: ['paiStatement'] };

/** The headers a date column is found under when Date Field is empty (compared as compactKey). */
export const DATE_HEADERS = [
	'Date',
	'As Of',
	'As Of Date',
	'Snapshot Date',
	'Position Date',
	'Valuation Date',
	'Quarter End',
	'snapshot_at',
];

/** Parameters shown with Output > PAI Statement (Group By, Number Format and Simplify are the lookups' own). */
export const paiStatementProperties: INodeProperties[] = [
	{
		displayName: 'Market Value Field',
		name: 'marketValueField',
		type: 'string',
		default: '',
		placeholder: 'Empty: found automatically (e.g. Market Value)',
		description:
			"Input field that holds each holding's current (market) value: the Regulation's formulas divide by the current value of all investments. Leave empty to find it among the usual headers (Market Value, MV, Value, Position Value, Amount).",
		displayOptions: { show },
	},
	{
		displayName: 'Date Field',
		name: 'dateField',
		type: 'string',
		default: '',
		placeholder: 'Empty: found automatically (e.g. Date, As Of)',
		description:
			"Input field that holds each holding's date; its quarter end (31 March, 30 June, 30 September, 31 December) decides which quarter the holding belongs to. Leave empty to find it among the usual headers (Date, As Of, As Of Date, Snapshot Date, Position Date, Valuation Date, Quarter End, snapshot_at).",
		displayOptions: { show },
	},
	{
		displayName: 'Currency Field',
		name: 'currencyField',
		type: 'string',
		default: '',
		placeholder: 'Empty: found automatically (e.g. Currency)',
		description:
			'Input field that holds the currency of the market value. Leave empty to find it among the usual headers (Currency, CCY, Currency Code). Market values in several currencies need an exchange rate for each.',
		displayOptions: { show },
	},
	{
		displayName: 'Statement Currency',
		name: 'statementCurrency',
		type: 'string',
		default: 'EUR',
		placeholder: 'EUR',
		description:
			'ISO 4217 code of the currency the market values are converted to when they come in several currencies. The Regulation states the figures in EUR.',
		displayOptions: { show },
	},
	{
		displayName: 'Exchange Rates',
		name: 'exchangeRates',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Exchange Rate',
		description:
			'For market values in several currencies: 1 unit of each currency = Rate units of the Statement Currency (e.g. USD 0.92 for EUR)',
		options: [
			{
				displayName: 'Rate',
				name: 'rates',
				values: [
					{
						displayName: 'Currency',
						name: 'currency',
						type: 'string',
						default: '',
						placeholder: 'USD',
						description: 'ISO 4217 code of a currency the market values are in',
					},
					{
						displayName: 'Rate',
						name: 'rate',
						type: 'number',
						typeOptions: { numberPrecision: 6 },
						default: 1,
						description: 'Units of the Statement Currency for 1 unit of this currency',
					},
				],
			},
		],
		displayOptions: { show },
	},
	{
		displayName: 'Exchange Rate Field',
		name: 'exchangeRateField',
		type: 'string',
		default: '',
		placeholder: 'e.g. FX Rate',
		description:
			"Input field that holds, per row, the units of the Statement Currency for 1 unit of the row's currency (e.g. 0.92 for USD in EUR). A row's rate comes before Exchange Rates. Leave empty to use Exchange Rates only.",
		displayOptions: { show },
	},
	{
		displayName: 'Entity Statement Too',
		name: 'entityStatement',
		type: 'boolean',
		default: true,
		description:
			'Whether to output, beside the statement of each Group By value (fund), the statement over all holdings (the entity level)',
		displayOptions: { show, hide: { groupBy: [''] } },
	},
];

/** A holding of a statement, read before anything is sent: its item, quarter end and value in the statement currency. */
interface DraftPosition {
	item: number;
	quarterEnd: string;
	isin?: string;
	value: number;
	denominatorOnly?: string;
}

interface DraftStatement {
	kind: 'entity' | 'fund';
	values: Record<string, unknown>;
	itemIndices: number[];
	positions: DraftPosition[];
	/** Sentences about this statement's own rows (left out, dated before year N-1). */
	notes: string[];
}

/** The statements and their holdings, read and checked before anything is sent. */
export interface PreparedStatement {
	yearN: number;
	statements: DraftStatement[];
	/** Sentences every row's explanation carries (currency conversion); a statement's own rows left out are its own. */
	notes: string[];
}

/** The column of `json` holding `chosen` (exact, then compactKey), else the first of `headers` present. */
function columnFor(json: IDataObject, chosen: string, headers: string[]): string | undefined {
	if (chosen && hasOwn(json, chosen)) return chosen;
	const wanted = chosen ? [chosen] : headers;
	const keys = Object.keys(json);
	for (const header of wanted) {
		const found = keys.find((key) => compactKey(key) === compactKey(header));
		if (found !== undefined) return found;
	}
	return undefined;
}

/** The exchange rates given (currency → rate), each checked. */
function readRates(this: IExecuteFunctions, problems: InputProblem[]): Map<string, number> {
	const given = this.getNodeParameter('exchangeRates', 0, {}) as {
		rates?: Array<{ currency?: unknown; rate?: unknown }>;
	};
	const rates = new Map<string, number>();
	for (const [position, entry] of (given.rates ?? []).entries()) {
		const currency = (scalarText(entry.currency) ?? '').trim().toUpperCase();
		const rate = typeof entry.rate === 'number' ? entry.rate : Number(entry.rate);
		const where = `Item 0, Exchange Rates entry ${position + 1}`;
		if (!isIsoCurrency(currency))
			problems.push({
				itemIndex: 0,
				where,
				message: `currency "${showValue(entry.currency, 20)}" is not an ISO 4217 code`,
				fix: 'Give each rate a three-letter currency code such as USD.',
			});
		else if (!Number.isFinite(rate) || rate <= 0)
			problems.push({
				itemIndex: 0,
				where,
				message: `the rate of ${currency} is ${showValue(entry.rate)}, not a number above 0`,
				fix: 'Give the units of the Statement Currency for 1 unit of that currency, e.g. 0.92.',
			});
		else rates.set(currency, rate);
	}
	return rates;
}

/**
 * Reads every row's date (its quarter end), market value and currency, and the statements (Group By, the entity);
 * refuses, in one error before any request, what the Regulation's formula cannot use: no market values (weights
 * only), a date that cannot be read (or falls in two quarters by time zone), two dates in one quarter of one
 * statement, several currencies without a rate for each. Cash rows and rows without an ISIN keep their value for the
 * denominator and are not sent; rows before year N-1 are not sent.
 */
export function preparePaiStatement(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	perItem: ItemIsin[],
): PreparedStatement {
	const node = this.getNode();
	const problems: InputProblem[] = [];
	const notes: string[] = [];
	const groupBy = splitFieldList(this.getNodeParameter('groupBy', 0, ''));
	const groups = groupItems(node, items, groupBy).filter((group) => group.itemIndices.length > 0);
	const currencyField = readTextParameter.call(this, 'currencyField', 0, 'Currency Field', {
		fallback: '',
	});
	const dateField = readTextParameter.call(this, 'dateField', 0, 'Date Field', { fallback: '' });
	const statementCurrency = (
		readTextParameter.call(this, 'statementCurrency', 0, 'Statement Currency', {
			fallback: 'EUR',
		}) || 'EUR'
	).toUpperCase();
	if (!isIsoCurrency(statementCurrency))
		problems.push({
			itemIndex: 0,
			message: `Statement Currency "${showValue(statementCurrency, 20)}" is not an ISO 4217 currency code`,
			fix: 'Set Statement Currency to a three-letter code such as EUR (the Regulation states the figures in EUR).',
		});
	const rates = readRates.call(this, problems);
	const rateField = readTextParameter.call(this, 'exchangeRateField', 0, 'Exchange Rate Field', {
		fallback: '',
	});
	/** The rate column's value per row (units of the statement currency for 1 unit of the row's currency). */
	const rowRates = new Map<number, number>();
	/** Rows whose rate cell is refused: one problem each, not also "no rate for the currency". */
	const badRates = new Set<number>();

	const weighing = holdingWeighing.call(this, items, 'marketValue', { currency: currencyField });
	weighing.valueOfLeftOut = true;

	// Weights only: the Regulation's formula divides by the current value of all investments.
	const marketValueColumn = items.some(
		(item) => weighing.resolver.resolve(item.json).market_value !== undefined,
	);
	if (items.length > 0 && !marketValueColumn) {
		const weights = new FieldResolver({});
		const hasWeights = items.some((item) => weights.resolve(item.json).weight !== undefined);
		problems.push({
			itemIndex: 0,
			message: `No market value column in any of the ${items.length} rows (looked for ${weighing.resolver.lookedFor('market_value')})${hasWeights ? '; the rows give weights only' : ''}`,
			fix: "The PAI statement needs each holding's current value: the Regulation's formulas divide by the current value of all investments, which portfolio weights do not give. Add a market value column or set Market Value Field to it.",
		});
	}

	const timeZone = workflowTimeZone(this);
	const today = new Date();
	const drafts: Array<DraftPosition | undefined> = items.map(() => undefined);
	const currencyOf = new Map<number, string | undefined>();
	/** The date each row was read as, for the check of one date per quarter end and statement. */
	const dateOf = new Map<number, string>();
	let dateColumnSeen = false;
	/** Rows left out of every figure and of the denominator, by item index. */
	const leftOut = new Map<number, string>();

	items.forEach((item, index) => {
		const json = item.json;
		const column = columnFor(json, dateField, DATE_HEADERS);
		const raw = column === undefined ? undefined : json[column];
		if (column !== undefined) dateColumnSeen = true;
		let weighed: ReturnType<typeof weighItem>;
		try {
			weighed = weighItem(node, json, index, perItem[index], weighing);
		} catch (error) {
			problems.push({
				itemIndex: index,
				where: rowName(items, index),
				message: (error as Error).message,
				fix: fixOfInputError((error as { description?: string }).description) || undefined,
			});
			return;
		}
		let value: number | undefined;
		let isin: string | undefined;
		let denominatorOnly: string | undefined;
		if ('isin' in weighed) {
			isin = weighed.isin;
			value = weighed.weight;
		} else if ('row' in weighed) {
			value = weighed.weight;
			denominatorOnly = weighed.row.reason;
			if ('unsent' in weighed) perItem[index] = weighed.unsent;
		} else {
			perItem[index] = weighed.unsent;
			const reason = weighed.removed.reason;
			if (/^no market value/.test(reason) && perItem[index].normalised !== undefined) {
				// No market value column at all is one problem, said once above.
				if (!marketValueColumn) return;
				problems.push({
					itemIndex: index,
					where: rowName(items, index),
					message: reason,
					fix: "Give every holding its market value: the Regulation's formula needs the current value of each investment.",
				});
			} else {
				leftOut.set(index, `${rowName(items, index)} (${reason})`);
			}
			return;
		}
		if (isBlank(raw)) {
			problems.push({
				itemIndex: index,
				where: rowName(items, index),
				message:
					column === undefined
						? `no date (looked for ${dateField ? `"${dateField}"` : DATE_HEADERS.map((h) => `"${h}"`).join(', ')})`
						: `the ${column} cell is empty`,
				fix: 'Give every row the date of its holdings (e.g. 2025-03-31), or set Date Field to the column that holds it.',
			});
			return;
		}
		const read = readSnapshotDate(raw, today, timeZone);
		if ('problem' in read) {
			problems.push({
				itemIndex: index,
				where: rowName(items, index),
				message: `${column}: ${describeDateProblem(read, raw)}`,
				fix: twoQuartersFix(read) ?? 'Use the form YYYY-MM-DD, e.g. 2025-03-31.',
			});
			return;
		}
		// How a date was read where it could be read otherwise (an Excel serial, a moment in the workflow's zone).
		if (read.note) noteSnapshotDate(this, read.note, read.hint);
		const currencyColumn = weighing.resolver.resolve(json).currency;
		const currency =
			currencyColumn === undefined
				? undefined
				: (scalarText(json[currencyColumn]) ?? '').trim().toUpperCase() || undefined;
		currencyOf.set(index, currency);
		const rateColumn = rateField ? columnFor(json, rateField, []) : undefined;
		const rateCell = rateColumn === undefined ? undefined : json[rateColumn];
		if (!isBlank(rateCell)) {
			const rate = typeof rateCell === 'number' ? rateCell : Number(scalarText(rateCell)?.trim());
			if (Number.isFinite(rate) && rate > 0) rowRates.set(index, rate);
			else {
				badRates.add(index);
				problems.push({
					itemIndex: index,
					where: rowName(items, index),
					message: `the ${rateColumn} cell holds ${showValue(rateCell, 30)}, not an exchange rate above 0`,
					fix: `Give the units of the Statement Currency for 1 unit of the row's currency, e.g. 0.92, or leave the cell empty.`,
				});
			}
		}
		drafts[index] = { item: index, quarterEnd: read.quarterEnd, isin, value, denominatorOnly };
		dateOf.set(index, read.date);
	});
	if (items.length > 0 && !dateColumnSeen && dateField === '')
		problems.splice(
			0,
			problems.length,
			...problems.filter((problem) => !/^no date/.test(problem.message)),
			{
				itemIndex: 0,
				message: `No date column in any of the ${items.length} rows (looked for ${DATE_HEADERS.map((h) => `"${h}"`).join(', ')})`,
				fix: 'Give every row the date of its holdings (e.g. 2025-03-31), or set Date Field to the column that holds it.',
			},
		);

	// Currencies: one (or none named) needs no rate; several need a rate for each but the statement currency.
	const currencies = new Set([...currencyOf.values()].filter((c): c is string => !!c));
	const factorOf = (index: number): number => {
		const currency = currencyOf.get(index);
		if (currencies.size <= 1 || !currency || currency === statementCurrency) return 1;
		return rowRates.get(index) ?? rates.get(currency) ?? 1;
	};
	if (currencies.size > 1) {
		// A currency is covered by the Exchange Rates table, or by the rate column on each of its rows.
		const withoutRate = [...currencies].filter(
			(currency) =>
				currency !== statementCurrency &&
				!rates.has(currency) &&
				[...currencyOf].some(
					([index, c]) => c === currency && !rowRates.has(index) && !badRates.has(index),
				),
		);
		if (withoutRate.length)
			problems.push({
				itemIndex: 0,
				message: `The market values are in ${currencies.size} currencies (${[...currencies].join(', ')}) and no exchange rate is given for ${withoutRate.join(', ')}`,
				fix: `Add an Exchange Rates entry for ${withoutRate.join(', ')} (units of ${statementCurrency} per unit), or convert the market values to one currency first. The Regulation states the figures in EUR.`,
			});
		const blank = [...currencyOf].filter(([, currency]) => !currency).map(([index]) => index);
		if (blank.length)
			problems.push({
				itemIndex: blank[0],
				message: `${blank.length} row${blank.length === 1 ? ' has' : 's have'} no currency (items ${blank.slice(0, 10).join(', ')}) while the others are in ${[...currencies].join(', ')}`,
				fix: 'Give every row its currency, so that its market value can be converted.',
			});
		else if (!withoutRate.length)
			notes.push(
				`Market values converted to ${statementCurrency} with the rates given: ${[...currencies]
					.filter((c) => c !== statementCurrency)
					.map((c) =>
						rates.has(c)
							? `1 ${c} = ${rates.get(c)} ${statementCurrency}`
							: `${c} by the rate column ${rateField}`,
					)
					.join(
						', ',
					)}${rowRates.size && rates.size ? ` (the rate column, where a row has one, before Exchange Rates)` : ''}.`,
			);
	}

	// One date per quarter end and statement (fund): month ends in one quarter are not guessed between.
	for (const group of groups) {
		const datesByQuarter = new Map<string, Map<string, number>>();
		for (const index of group.itemIndices) {
			const draft = drafts[index];
			if (!draft) continue;
			const dates = datesByQuarter.get(draft.quarterEnd) ?? new Map<string, number>();
			if (!dates.has(dateOf.get(index)!)) dates.set(dateOf.get(index)!, index);
			datesByQuarter.set(draft.quarterEnd, dates);
		}
		for (const [end, dates] of datesByQuarter) {
			if (dates.size < 2) continue;
			const where = describeGroupValues(group.values);
			problems.push({
				itemIndex: [...dates.values()][0],
				message: `The quarter ending ${end} holds holdings of ${dates.size} dates (${[...dates.keys()].sort().join(', ')})${where ? ` in ${where}` : ''}: a PAI statement takes one set of holdings per quarter end`,
				fix: 'Keep only the holdings of one date per quarter (usually the quarter end itself).',
			});
		}
	}

	if (problems.length) throw inputProblemsError(node, problems);

	const ends = drafts.filter((d): d is DraftPosition => d !== undefined).map((d) => d.quarterEnd);
	const yearN = ends.length ? Math.max(...ends.map((end) => Number(end.slice(0, 4)))) : 0;
	const older = new Map<number, string>();
	drafts.forEach((draft, index) => {
		if (!draft) return;
		draft.value *= factorOf(index);
		if (Number(draft.quarterEnd.slice(0, 4)) < yearN - 1) {
			older.set(index, `${rowName(items, index)} (${dateOf.get(index)})`);
			if (draft.isin)
				perItem[index] = {
					problem: `dated ${dateOf.get(index)}, before year N-1 (${yearN - 1})`,
					given: perItem[index].given,
					normalised: draft.isin,
				};
			drafts[index] = undefined;
		}
	});
	/** The sentences about the rows of one statement that were left out: a fund's statement names only its own. */
	const leftOutNotes = (indices: number[]): string[] => {
		const listed = (label: string, named: Map<number, string>) => {
			const own = indices.flatMap((index) => (named.has(index) ? [named.get(index)!] : []));
			return own.length
				? [
						`${label}: ${own.slice(0, 10).join(', ')}${own.length > 10 ? ` and ${own.length - 10} more` : ''}.`,
					]
				: [];
		};
		return [
			...listed(`Left out, dated before year N-1 (${yearN - 1})`, older),
			...listed('Left out of every figure and of the denominator', leftOut),
		];
	};

	const positionsOf = (indices: number[]) =>
		indices.map((index) => drafts[index]).filter((d): d is DraftPosition => d !== undefined);
	const statements: DraftStatement[] = [];
	const byFund = groupBy.length > 0;
	const entity = !byFund || (this.getNodeParameter('entityStatement', 0, true) as boolean);
	if (entity)
		statements.push({
			kind: 'entity',
			values: {},
			itemIndices: items.map((_, index) => index),
			positions: positionsOf(items.map((_, index) => index)),
			notes: leftOutNotes(items.map((_, index) => index)),
		});
	if (byFund)
		for (const group of groups)
			statements.push({
				kind: 'fund',
				values: group.values,
				itemIndices: group.itemIndices,
				positions: positionsOf(group.itemIndices),
				notes: leftOutNotes(group.itemIndices),
			});
	return { yearN, statements, notes };
}

/** The API's indicator names in the answers, in first-seen order (a {value, unit} member of a result). */
function answeredIndicators(results: Iterable<IDataObject>): string[] {
	const names = new Set<string>();
	for (const result of results)
		for (const [name, value] of Object.entries(result))
			if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'value' in value)
				names.add(name);
	return [...names];
}

/** One item per metric row per statement, paired with the statement's input items. */
export function buildPaiStatementItems<TEntry>(
	this: IExecuteFunctions,
	prepared: PreparedStatement,
	outcome: LookupOutcome<TEntry>,
): INodeExecutionData[] {
	const indicators = answeredIndicators(outcome.results.values());
	const notes = [...prepared.notes];
	if (outcome.answerNote) notes.push(`About the API's answer: ${outcome.answerNote}`);
	const out: INodeExecutionData[] = [];
	const missingNoted = new Set<string>();
	for (const statement of prepared.statements) {
		const pairedItem = pairedTo(statement.itemIndices);
		const own: IDataObject = {
			statement: statement.kind,
			...(statement.kind === 'fund' ? (statement.values as IDataObject) : {}),
		};
		const isins = [...new Set(statement.positions.flatMap((p) => (p.isin ? [p.isin] : [])))];
		const failed = isins.filter((isin) => outcome.failed.has(isin));
		if (failed.length) {
			const details = errorJson(outcome.failed.get(failed[0])!);
			const where = describeGroupValues(statement.values);
			const json: IDataObject = {
				...own,
				...details,
				error: `No PAI statement${where ? ` for ${where}` : ''}: the API gave no answer for ${failed.length} of its ${isins.length} ISINs, so its figures would be incomplete. ${details.error as string}`,
				unanswered_isins: failed,
			};
			out.push({ json: outcome.simplify ? flatCells(json) : json, pairedItem });
			continue;
		}
		const quarters = new Map<string, StatementPosition[]>();
		for (const draft of statement.positions) {
			const position: StatementPosition = { value: draft.value };
			if (draft.isin) {
				position.isin = draft.isin;
				const state = answerStateOf(draft.isin, outcome);
				if (state === 'notInAnswer') position.notInAnswer = true;
				else position.result = outcome.results.get(draft.isin);
			} else if (draft.denominatorOnly) {
				position.denominatorOnly = draft.denominatorOnly;
			}
			const list = quarters.get(draft.quarterEnd) ?? [];
			list.push(position);
			quarters.set(draft.quarterEnd, list);
		}
		const rows = statementRows({
			yearN: prepared.yearN,
			quarters,
			answeredIndicators: indicators,
			notes: [...notes, ...statement.notes],
		});
		const missing = rows[0]?.quarters_missing ?? [];
		if (missing.length && !missingNoted.has(missing.join())) {
			missingNoted.add(missing.join());
			addRunNote(
				this,
				`PAI statement ${prepared.yearN}${statement.kind === 'fund' ? ` (${describeGroupValues(statement.values, 30)})` : ''}: no holdings at ${missing.join(', ')}; year N averages the quarter ends present (see quarters_missing).`,
				'warning',
				{
					short: `PAI statement: no holdings at ${missing.length} quarter end(s) of ${prepared.yearN}; see quarters_missing`,
				},
			);
		}
		for (const row of rows) {
			const json: IDataObject = { ...own, ...(row as unknown as IDataObject) };
			out.push({ json: outcome.simplify ? flatCells(json) : json, pairedItem });
		}
	}
	return out;
}

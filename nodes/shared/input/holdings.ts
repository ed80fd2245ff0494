import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import type { HoldingKey } from '../api/holdingKey';
import { inputError } from '../api/errors';
import { currencySuggestion, isIsoCurrency } from './currencies';
import { describeInvalidIsin, givenIsin, isValidIsin, normalizeIsin, unsendableIsin } from './isin';
import {
	FieldResolver,
	HOLDING_FIELDS,
	HOLDING_FIELDS_WORDS,
	normalizeInstrumentType,
} from './holdingFields';
import type { FieldMappingWords } from './holdingFields';
import type { HoldingRow } from './holdingRows';
import {
	countSettled,
	decideWeightScale,
	detectHoldingNumber,
	numberColumns,
	readHoldingNumber,
	scaledWeight,
	settledByColumnNote,
	weightTotalNote,
} from './holdingNumbers';
import type {
	GivenNumber,
	HoldingNumber,
	NumberColumns,
	NumberField,
	NumberProblem,
	ReadWeight,
	SettledByColumn,
	WeightScale,
} from './holdingNumbers';
import { showNumber } from './numbers';
import type { NumberFormat, PlacedValue } from './numbers';
import type { HoldingsRoute } from '../api/routes';
import { REMOVED_ROW_COLUMNS, uniformRows } from './rows';
import { countOf, isBlank, kindOf, scalarText, showValue } from '../base/values';

export type { HoldingKey } from '../api/holdingKey';

export interface Holding {
	isin: string | null;
	name?: string;
	instrument_type?: string;
	currency?: string;
	weight?: number;
	market_value?: number;
}

export interface SourcedHolding {
	/** Input item this holding came from (for pairedItem and messages). */
	itemIndex: number;
	holding: Holding;
}

/** A row left out of the request: what the user gave first, then why, then where it came from. */
export interface RemovedRow {
	/** The ISIN as the user gave it (givenIsin). */
	isin: string | null;
	/** The cleaned ISIN; removedSummary keeps the column only when it differs from `isin` on some row. */
	isin_normalised?: string | null;
	reason: string;
	item: number;
	name: string | null;
}

/** A removed row of the item at `item`: `raw` is the ISIN value as given, `normalised` its cleaned form. */
export function removedRow(
	item: number,
	name: string | null,
	raw: unknown,
	normalised: string | null | undefined,
	reason: string,
): RemovedRow {
	return { isin: givenIsin(raw), isin_normalised: normalised || null, reason, item, name };
}

export type InvalidIsinPolicy = 'fail' | 'skip' | 'send';
export type CashRowPolicy = 'remove' | 'error';

export interface HoldingsReadOptions {
	/** The route the holdings go to: its holdings rule says what each one needs. */
	route: HoldingsRoute;
	/** Column names the user set; unset ones are found among the usual headers. */
	fieldNames?: Partial<Record<HoldingKey, string>>;
	invalidIsin?: InvalidIsinPolicy;
	cashRows?: CashRowPolicy;
	/** How messages tell the user to point a field at a column; default: the Holding Fields collection (version 1). */
	mappingWords?: FieldMappingWords;
	/** The Number Format option; default: detect each column's format from its values. */
	numberFormat?: NumberFormat;
	/** The Weights Are option; default: detect from all the weights of the rows. */
	weightsAre?: WeightScale;
	/** The number columns' formats when decided from more rows than these (all input items); default: from these rows. */
	columns?: NumberColumns;
}

/** Holdings read from rows: what is sent, what was left out, and what the user should know about the reading. */
export interface ReadHoldingsResult {
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	/** How values were read where they could be read two ways, totals that look wrong, and the like. */
	notes: string[];
}

/** The clause as a sentence: its first letter upper case. */
const sentence = (clause: string) => clause.charAt(0).toUpperCase() + clause.slice(1);

/**
 * Turns rows into the holdings a route accepts, checking every requirement of its holdings rule locally so that
 * no request is spent on a body the API would refuse. Rows the route cannot take (cash, no ISIN, skipped
 * invalid ISINs) come back in `removed`, never silently dropped.
 */
export function readHoldings(
	node: INode,
	rows: HoldingRow[],
	options: HoldingsReadOptions,
): ReadHoldingsResult {
	return new HoldingsReader(node, rows, options).read();
}

type GivenNumbers = Partial<Record<NumberField, GivenNumber>> & {
	keys: Partial<Record<HoldingKey, string>>;
};

/**
 * The weight and market value of every row, each read once (on first use) in the format decided for its column from
 * all the rows' values.
 */
class RowNumbers {
	readonly columns: NumberColumns;
	readonly settled: Partial<Record<NumberField, SettledByColumn>> = {};
	private readonly given: Array<GivenNumbers | undefined>;
	private readonly read: Array<Partial<Record<NumberField, HoldingNumber | NumberProblem>>>;

	constructor(
		private readonly rows: HoldingRow[],
		resolver: FieldResolver,
		numberFormat: NumberFormat,
		columns?: NumberColumns,
	) {
		this.given = rows.map((row) => givenNumbers(row, resolver, numberFormat));
		this.columns =
			columns ??
			numberColumns(
				this.given.flatMap((values, index) =>
					values ? [{ values, where: whereOf(rows[index]) }] : [],
				),
				numberFormat,
			);
		this.read = rows.map(() => ({}));
	}

	/** The keys of the row's object that hold each holding field. */
	keysOf(index: number): Partial<Record<HoldingKey, string>> {
		return this.given[index]!.keys;
	}

	/** The row's number, or why it cannot be read; undefined when blank. */
	of(index: number, field: NumberField): HoldingNumber | NumberProblem | undefined {
		const read = this.read[index];
		if (!(field in read)) {
			const number = this.given[index]?.[field];
			read[field] =
				number === undefined
					? undefined
					: readHoldingNumber(number.value, field, this.columns[field], undefined, number.detected);
		}
		return read[field];
	}

	/** Every readable weight, with where it came from. */
	weights(): ReadWeight[] {
		const weights: ReadWeight[] = [];
		this.rows.forEach((row, index) => {
			const weight = this.of(index, 'weight');
			if (weight && 'value' in weight)
				weights.push({ ...weight, where: whereOf(row), itemIndex: row.itemIndex });
		});
		return weights;
	}

	/** Counts a number that its column's format settled, for the note that says how such values were read. */
	countSettled(field: NumberField, given: unknown, row: HoldingRow, read: HoldingNumber): void {
		this.settled[field] = countSettled(this.settled[field], given, whereOf(row), read.value);
	}
}

/** One row as it is read: its raw fields and the error that names it. */
interface RowFields {
	row: HoldingRow;
	index: number;
	raw(field: HoldingKey): unknown;
	fail(message: string, fix?: string): NodeOperationError;
}

/** Reads rows by a route's holdings rule: each row's fields in turn, then the notes on the whole. */
class HoldingsReader {
	private readonly rule: HoldingsRoute['holdings'];
	private readonly resolver: FieldResolver;
	private readonly words: FieldMappingWords;
	/** A row setting named as the form shows it (see FieldMappingWords.setting). */
	private readonly setting: (name: string) => string;
	private readonly invalidIsin: InvalidIsinPolicy;
	private readonly cashRows: CashRowPolicy;
	private readonly numbers: RowNumbers;
	private readonly weights: ReadWeight[];
	private readonly scale: { factor: 1 | 100 };
	private readonly holdings: SourcedHolding[] = [];
	private readonly removed: RemovedRow[] = [];
	private readonly notes: string[] = [];
	private negative: { first: PlacedValue; count: number } | undefined;

	constructor(
		private readonly node: INode,
		private readonly rows: HoldingRow[],
		options: HoldingsReadOptions,
	) {
		this.rule = options.route.holdings;
		this.invalidIsin = options.invalidIsin ?? 'fail';
		this.cashRows = options.cashRows ?? 'remove';
		this.words = options.mappingWords ?? HOLDING_FIELDS_WORDS;
		this.setting = this.words.setting ?? ((name) => `Options > ${name}`);
		this.resolver = new FieldResolver(options.fieldNames);
		this.numbers = new RowNumbers(
			rows,
			this.resolver,
			options.numberFormat ?? 'detect',
			options.columns,
		);
		this.weights = this.numbers.weights();
		const scale = decideWeightScale(this.weights, options.weightsAre ?? 'detect');
		if ('message' in scale)
			throw inputError(node, scale.at.itemIndex, scale.message, scale.fix, {
				where: scale.at.where,
			});
		if (scale.note) this.notes.push(scale.note);
		this.scale = scale;
	}

	read(): ReadHoldingsResult {
		for (const [index, row] of this.rows.entries()) {
			const read = this.readRow(row, index);
			if ('reason' in read) this.removed.push(read);
			else this.holdings.push({ itemIndex: row.itemIndex, holding: read });
		}
		this.checkValueTotal();
		this.addReadingNotes();
		return { holdings: this.holdings, removed: this.removed, notes: this.notes };
	}

	/** The row's holding, or the row left out and why; throws when the row cannot be sent as it is. */
	private readRow(row: HoldingRow, index: number): Holding | RemovedRow {
		const fail = (message: string, fix?: string) =>
			inputError(this.node, row.itemIndex, message, fix, { where: row.where });
		if (!isObjectRow(row)) {
			throw fail(
				'is not an object with holding fields',
				'Each holding must be an object such as {"isin": "...", "name": "...", "market_value": 100}.',
			);
		}
		const keys = this.numbers.keysOf(index);
		const fields: RowFields = {
			row,
			index,
			raw: (field) => (keys[field] === undefined ? undefined : row.json[keys[field]!]),
			fail,
		};
		const name = this.text(fields, 'name');
		const isin = this.isinOf(fields, name);
		if (typeof isin === 'object' && isin !== null) return isin;
		const instrumentType = this.instrumentTypeOf(fields);
		const leftOut = this.leftOutByRule(fields, name, isin, instrumentType);
		if (leftOut) return leftOut;

		const holding: Holding = { isin };
		if (name !== undefined) holding.name = name;
		if (instrumentType !== undefined) holding.instrument_type = instrumentType;
		const currency = this.currencyOf(fields);
		if (currency !== undefined) holding.currency = currency;
		const weight = this.weightOf(fields);
		if (weight !== undefined) holding.weight = weight;
		this.addMarketValue(fields, holding);
		this.checkComplete(fields, holding);
		return holding;
	}

	/** A text field: trimmed text, undefined when blank; an object or a list there is refused. */
	private text({ raw, fail }: RowFields, field: HoldingKey): string | undefined {
		const value = raw(field);
		if (isBlank(value)) return undefined;
		const written = scalarText(value);
		if (written === undefined) {
			throw fail(
				`the ${HOLDING_FIELDS[field].label} must be text, got ${kindOf(value)}: ${showValue(value)}`,
				`${sentence(this.words.pointAt(field, 'a column of text values'))}.`,
			);
		}
		return written.trim() || undefined;
	}

	/** The cleaned ISIN (null when none), or the row left out for an ISIN that is never sent. */
	private isinOf(
		{ row, raw, fail }: RowFields,
		name: string | undefined,
	): string | null | RemovedRow {
		const rawIsin = raw('isin');
		let isin: string | null = isBlank(rawIsin) ? null : normalizeIsin(rawIsin);
		if (isin === '') isin = null;
		if (
			rawIsin !== undefined &&
			rawIsin !== null &&
			typeof rawIsin !== 'string' &&
			typeof rawIsin !== 'number'
		) {
			throw fail(
				`the ISIN must be text, got ${typeof rawIsin}`,
				`${sentence(this.words.pointAt('isin', 'a column of text values'))}.`,
			);
		}
		const unsendable = isin === null ? undefined : unsendableIsin(rawIsin, isin);
		if (!unsendable) return isin;
		if (this.invalidIsin !== 'skip') {
			throw fail(
				`invalid ISIN: ${unsendable}`,
				`${sentence(this.words.pointAt('isin', 'the column that holds the ISIN'))}. Such a value is never sent, even with ${this.setting('Invalid ISINs')} set to Send Anyway; set it to Skip and Report to report such rows in the output instead.`,
			);
		}
		return removedRow(row.itemIndex, name ?? null, rawIsin, null, `invalid ISIN: ${unsendable}`);
	}

	/** The API's instrument type for the row's, undefined when blank. */
	private instrumentTypeOf({ raw, fail }: RowFields): string | undefined {
		const rawType = raw('instrument_type');
		if (isBlank(rawType)) return undefined;
		const instrumentType = normalizeInstrumentType(rawType);
		if (instrumentType) return instrumentType;
		if (this.rule.sendsUnknownTypes && typeof rawType === 'string')
			return rawType.trim().toLowerCase();
		throw fail(
			`instrument type "${showValue(rawType)}" is not one the API knows`,
			`Use one of: ${INSTRUMENT_TYPES.join(', ')} (common spellings such as Stock, ETF, Mutual Fund, Sovereign Bond are recognised).`,
		);
	}

	/** The row left out when the route takes no cash, no row without ISIN or (skipped) no invalid ISIN. */
	private leftOutByRule(
		{ row, raw, fail }: RowFields,
		name: string | undefined,
		isin: string | null,
		instrumentType: string | undefined,
	): RemovedRow | undefined {
		const isCash = instrumentType === 'cash';
		if ((this.rule.needsIsin && isin === null) || (this.rule.refusesCash && isCash)) {
			if (this.cashRows === 'error') {
				throw fail(
					`this ${isCash ? 'cash row' : 'row has no ISIN and'} cannot be sent to this route`,
					`Remove cash and rows without an ISIN from the input, or set ${this.setting('Cash and Rows Without ISIN')} to Skip and Report.`,
				);
			}
			return removedRow(
				row.itemIndex,
				name ?? null,
				raw('isin'),
				isin,
				isCash ? 'cash row' : 'no ISIN',
			);
		}
		if (isin === null || isValidIsin(isin)) return undefined;
		if (this.invalidIsin === 'fail') {
			throw fail(
				`invalid ISIN: ${describeInvalidIsin(isin)}`,
				`Correct the ISIN, or set ${this.setting('Invalid ISINs')} to Skip and Report (such rows are reported in the output) or to Send Anyway.`,
			);
		}
		if (this.invalidIsin === 'skip') {
			return removedRow(
				row.itemIndex,
				name ?? null,
				raw('isin'),
				isin,
				`invalid ISIN: ${describeInvalidIsin(isin)}`,
			);
		}
		return undefined;
	}

	/** The three-letter currency code, upper case; undefined when blank. */
	private currencyOf(fields: RowFields): string | undefined {
		const given = this.text(fields, 'currency');
		if (given === undefined) return undefined;
		const currency = given.toUpperCase();
		if (!/^[A-Z]{3}$/.test(currency)) {
			throw fields.fail(
				`currency "${showValue(given)}" is not a three-letter ISO 4217 code`,
				'Use a code such as EUR, USD or SEK.',
			);
		}
		if (!isIsoCurrency(currency)) {
			throw fields.fail(
				`currency "${showValue(given)}" is not an ISO 4217 currency code`,
				`${currencySuggestion(currency)} Correct the currency of this row; the API takes ISO 4217 codes only (EUR, USD, SEK, …).`,
			);
		}
		return currency;
	}

	/** The row's number, counted when its column's format settled it; throws when it cannot be read. */
	private number(
		{ row, index, raw, fail }: RowFields,
		field: NumberField,
	): HoldingNumber | undefined {
		const read = this.numbers.of(index, field);
		if (read === undefined) return undefined;
		if ('message' in read) throw fail(read.message, read.fix);
		if (read.byColumn) this.numbers.countSettled(field, raw(field), row, read);
		return read;
	}

	/** The weight as a percentage from 0 to 100 (fractions of 1 scaled as decided for all rows). */
	private weightOf(fields: RowFields): number | undefined {
		const read = this.number(fields, 'weight');
		if (!read) return undefined;
		const weight = scaledWeight(read, this.scale.factor);
		if (weight < 0 || weight > 100) {
			throw fields.fail(
				`weight ${showNumber(weight)}${weight !== read.value ? ` (${showNumber(read.value)} as a fraction of 1)` : ''} is outside 0 to 100`,
				'Weights are percentages of the portfolio, from 0 to 100 (or fractions of 1, from 0 to 1; see Weights Are under Options).',
			);
		}
		return weight;
	}

	/** The market value, and its currency when the value was written with one (€ 1.000, 1,000 USD). */
	private addMarketValue(fields: RowFields, holding: Holding): void {
		const marketValue = this.number(fields, 'market_value');
		if (!marketValue) return;
		if (marketValue.currency) {
			if (holding.currency && holding.currency !== marketValue.currency) {
				throw fields.fail(
					`market value "${showValue(fields.raw('market_value'), 40)}" is in ${marketValue.currency}, but the holding's currency is ${holding.currency}`,
					'Give the market value in the currency of the holding, or correct the currency.',
				);
			}
			holding.currency ??= marketValue.currency;
		}
		if (marketValue.value < 0) {
			if (this.negative) this.negative.count++;
			else
				this.negative = {
					first: { value: showNumber(marketValue.value), where: whereOf(fields.row) },
					count: 1,
				};
		}
		holding.market_value = marketValue.value;
	}

	/** Every field the route requires is there, and a stored snapshot's market value is not 0. */
	private checkComplete({ fail }: RowFields, holding: Holding): void {
		for (const field of this.rule.required) {
			if (field === 'isin' ? holding.isin === null : holding[field] === undefined) {
				throw fail(
					`the ${HOLDING_FIELDS[field].label} is missing (${this.words.missingBecause(field, this.resolver)})`,
					`Fill in the ${HOLDING_FIELDS[field].label} for this row, or ${this.words.pointAt(field, 'the column that holds it')}.`,
				);
			}
		}
		if (this.rule.needsNonZeroMarketValue && holding.market_value === 0) {
			throw fail(
				'the market value is 0; a stored snapshot needs a non-zero market value for every holding',
				'Remove rows with no position, or correct the value.',
			);
		}
	}

	private checkValueTotal(): void {
		const valueTotal = this.holdings.reduce(
			(sum, { holding }) => sum + (holding.market_value ?? 0),
			0,
		);
		if (Number.isFinite(valueTotal)) return;
		throw inputError(
			this.node,
			this.holdings[0].itemIndex,
			'the market values add up to more than a number can hold',
			'Check the market value column: a value there is far too large.',
		);
	}

	/** Values read by their column's format, negative market values, and weights that do not add up. */
	private addReadingNotes(): void {
		for (const field of ['weight', 'market_value'] as const) {
			const seen = this.numbers.settled[field];
			if (seen) this.notes.push(settledByColumnNote(field, seen, this.numbers.columns[field]));
		}
		if (this.negative) {
			const { count, first } = this.negative;
			this.notes.push(
				`${count === 1 ? 'A holding has' : `${count} holdings have`} a negative market value (${first.where}: ${first.value}); sent as given, as a short position.`,
			);
		}
		const holdings = this.holdings;
		if (holdings.length === 0 || !holdings.every(({ holding }) => holding.weight !== undefined))
			return;
		const share = (list: ReadWeight[]) =>
			list.reduce((sum, weight) => sum + scaledWeight(weight, this.scale.factor), 0);
		const sent = new Set(holdings.map(({ itemIndex }) => itemIndex));
		const total = share(this.weights);
		if (total <= 0) return;
		const note = weightTotalNote(
			total,
			share(this.weights.filter((weight) => !sent.has(weight.itemIndex))),
		);
		if (note) this.notes.push(note);
	}
}

function isObjectRow(row: HoldingRow): boolean {
	return !!row.json && typeof row.json === 'object' && !Array.isArray(row.json);
}

/** How messages name a row: "Item 4", or "Item 0, holding 12 of Holdings (JSON)". */
function whereOf(row: HoldingRow): string {
	return row.where ?? `Item ${row.itemIndex}`;
}

/** A row's resolved keys and its weight and market value as given (with their `detect` reading when it counts). */
function givenNumbers(
	row: HoldingRow,
	resolver: FieldResolver,
	numberFormat: NumberFormat,
): GivenNumbers | undefined {
	if (!isObjectRow(row)) return undefined;
	const keys = resolver.resolve(row.json);
	const number = (field: NumberField): GivenNumber | undefined => {
		const value = keys[field] === undefined ? undefined : row.json[keys[field]!];
		if (isBlank(value)) return undefined;
		return numberFormat === 'detect'
			? { value, detected: detectHoldingNumber(value, field) }
			: { value };
	};
	return { keys, weight: number('weight'), market_value: number('market_value') };
}

/** The format of the weight and market value columns, decided from all the rows' values. */
export function holdingNumberColumns(
	rows: HoldingRow[],
	resolver: FieldResolver,
	numberFormat: NumberFormat,
): NumberColumns {
	return numberColumns(
		rows.flatMap((row) => {
			const values = givenNumbers(row, resolver, numberFormat);
			return values ? [{ values, where: whereOf(row) }] : [];
		}),
		numberFormat,
	);
}

/** The holdings of a request body, each a copy of the holding read (the API's field names). */
export function holdingsBody(holdings: SourcedHolding[]): IDataObject[] {
	return holdings.map(({ holding }) => ({ ...holding }));
}

/**
 * Removed rows with the same columns in the same order (isin, isin_normalised, reason, item, name):
 * `isin_normalised` only when cleaning changed an ISIN of one of them.
 */
export function uniformRemovedRows(removed: RemovedRow[]): RemovedRow[] {
	const changed = removed.some(
		(row) => row.isin_normalised != null && row.isin_normalised !== row.isin,
	);
	return uniformRows(
		removed.map(({ isin_normalised: normalised, ...row }) =>
			changed ? { ...row, isin_normalised: normalised ?? null } : row,
		),
		REMOVED_ROW_COLUMNS,
	) as unknown as RemovedRow[];
}

/** The part of the output that says which rows were left out and why, and how the holdings were read (notes). */
export function removedSummary(
	removed: RemovedRow[],
	notes: string[] = [],
): {
	removed_count: number;
	removed_rows: RemovedRow[];
	input_notes?: string[];
} {
	return {
		removed_count: removed.length,
		removed_rows: uniformRemovedRows(removed),
		...(notes.length > 0 ? { input_notes: notes } : {}),
	};
}

/**
 * The error of a group with no holding left to send, before any request: how many rows were left out and why, and
 * what the route's holdings rule needs of each holding.
 */
export function noHoldingLeftError(
	node: INode,
	itemIndex: number,
	route: HoldingsRoute,
	removed: RemovedRow[],
	{ where, group = '' }: { where?: string; group?: string } = {},
): NodeOperationError {
	const reasons = [...new Set(removed.map((row) => row.reason))].slice(0, 3).join('; ');
	const { required, needsNonZeroMarketValue } = route.holdings;
	const fields = required.map((field) => {
		const label = HOLDING_FIELDS[field].label;
		const nonZero = field === 'market_value' && needsNonZeroMarketValue ? 'non-zero ' : '';
		return `${/^[aeiou]/i.test(nonZero || label) ? 'an' : 'a'} ${nonZero}${label}`;
	});
	const needs =
		fields.length > 1 ? `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}` : fields[0];
	return inputError(
		node,
		itemIndex,
		removed.length
			? `no holding is left to send${group}: ${countOf(removed.length, 'row')} left out (${reasons})`
			: `there are no holdings${group}`,
		`The ${route.label} request needs at least one holding with ${needs}.`,
		{ where },
	);
}

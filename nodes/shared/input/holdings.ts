import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import type { InstrumentType } from '../base/constants';
import type { HoldingKey } from '../api/holdingKey';
import { asNodeError, inputError } from '../api/errors';
import { currencySuggestion, isIsoCurrency } from './currencies';
import { describeInvalidIsin, givenIsin, isValidIsin, normalizeIsin, unsendableIsin } from './isin';
import {
	FieldResolver,
	HOLDING_FIELDS,
	HOLDING_FIELDS_WORDS,
	HOLDING_KEYS,
	normalizeInstrumentType,
} from './holdingFields';
import type { FieldMappingWords } from './holdingFields';
import { inputProblemsError } from './inputProblems';
import type { InputProblem } from './inputProblems';
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
	/**
	 * The Instrument Type When the Sheet Has None option of a route that needs a type: the type every holding is sent
	 * as when no row gives one (said in the notes), or 'refuse'; undefined when the node has no such option.
	 */
	instrumentTypeWhenNone?: InstrumentType | 'refuse';
}

/** The option that sets the instrument type of a sheet without one, as the form names it. */
export const INSTRUMENT_TYPE_WHEN_NONE = 'Instrument Type When the Sheet Has None';
/** That option's parameter name (nodes/shared/ui/instrumentTypeWhenNone.ts). */
export const INSTRUMENT_TYPE_WHEN_NONE_PARAMETER = 'instrumentTypeWhenNone';

/** Holdings read from rows: what is sent, what was left out, and what the user should know about the reading. */
export interface ReadHoldingsResult {
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	/** How values were read where they could be read two ways, totals that look wrong, and the like. */
	notes: string[];
}

/** The clause as a sentence: its first letter upper case. */
const sentence = (clause: string) => clause.charAt(0).toUpperCase() + clause.slice(1);
/** A sentence as a clause: its first letter lower case. */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

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

/** What a row's field refused: the row is not sent, and the problem joins the others of the input. */
class RefusedField extends Error {
	constructor(
		message: string,
		readonly fix?: string,
	) {
		super(message);
	}
}

/** One row as it is read: its raw fields and the problem that names it. */
interface RowFields {
	row: HoldingRow;
	index: number;
	raw(field: HoldingKey): unknown;
	/** The key of the row's object that holds the field, if any. */
	key(field: HoldingKey): string | undefined;
	fail(message: string, fix?: string): RefusedField;
}

/** How a holding field is given across all the rows: the first column found for it, how many rows give a value. */
interface FieldPresence {
	key?: string;
	given: number;
}

/**
 * Reads rows by a route's holdings rule: each row's fields in turn, then the notes on the whole. Every problem of
 * every row is gathered, in one pass, and given in one error before any request (inputProblemsError).
 */
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
	private readonly problems: InputProblem[] = [];
	/** Rows that are objects (the others are refused): what "all 5 rows" counts. */
	private readonly objectRows: number;
	private readonly presence: Record<HoldingKey, FieldPresence>;
	/** The type every holding is sent as, when no row gives one and the option sets it. */
	private readonly assumedType?: InstrumentType;
	private readonly instrumentTypeWhenNone?: InstrumentType | 'refuse';
	/** No row gives a weight and the route works the weights out from the market values. */
	private readonly deriveWeights: boolean;
	/** Required fields missing from every row: said once for the column, not per row. */
	private readonly missingColumns = new Map<HoldingKey, number>();
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
		this.objectRows = rows.filter(isObjectRow).length;
		this.presence = this.fieldPresence();
		this.instrumentTypeWhenNone = options.instrumentTypeWhenNone;
		const noneGiven = (field: HoldingKey) =>
			this.objectRows > 0 && this.presence[field].given === 0 && this.rule.required.includes(field);
		if (noneGiven('instrument_type') && options.instrumentTypeWhenNone !== 'refuse')
			this.assumedType = options.instrumentTypeWhenNone;
		this.deriveWeights = noneGiven('weight') && this.rule.weightsFromMarketValues === true;
		this.weights = this.numbers.weights();
		const scale = decideWeightScale(this.weights, options.weightsAre ?? 'detect');
		if ('message' in scale) {
			this.problems.push({
				itemIndex: scale.at.itemIndex,
				where: scale.at.where,
				message: scale.message,
				fix: scale.fix,
			});
			this.scale = { factor: 1 };
		} else {
			if (scale.note) this.notes.push(scale.note);
			this.scale = scale;
		}
	}

	read(): ReadHoldingsResult {
		for (const [index, row] of this.rows.entries()) {
			const read = this.readRow(row, index);
			if (read === undefined) continue;
			if ('reason' in read) this.removed.push(read);
			else this.holdings.push({ itemIndex: row.itemIndex, holding: read });
		}
		// Weights from market values only when every market value was read: any problem is said first.
		if (this.deriveWeights && this.problems.length === 0 && this.missingColumns.size === 0)
			this.weightsFromMarketValues();
		this.throwProblems();
		this.checkValueTotal();
		this.addReadingNotes();
		if (this.assumedType) this.notes.push(this.assumedTypeNote(this.assumedType));
		return { holdings: this.holdings, removed: this.removed, notes: this.notes };
	}

	/** Every problem found, in one error: the columns missing from every row first, then the rows in order. */
	private throwProblems(): void {
		const columns = [...this.missingColumns].map(
			([field, itemIndex]): InputProblem => ({
				itemIndex,
				...this.missingColumnProblem(field),
			}),
		);
		const problems = [...columns, ...this.problems];
		if (problems.length) throw inputProblemsError(this.node, problems);
	}

	/** Where each holding field is given: the first column found for it in any row, and how many rows fill it. */
	private fieldPresence(): Record<HoldingKey, FieldPresence> {
		const presence = Object.fromEntries(
			HOLDING_KEYS.map((field) => [field, { given: 0 } as FieldPresence]),
		) as Record<HoldingKey, FieldPresence>;
		this.rows.forEach((row, index) => {
			if (!isObjectRow(row)) return;
			const keys = this.numbers.keysOf(index);
			for (const field of HOLDING_KEYS) {
				const key = keys[field];
				if (key === undefined) continue;
				presence[field].key ??= key;
				if (!isBlank(row.json[key])) presence[field].given++;
			}
		});
		return presence;
	}

	/** The column of a field no row gives, in words: "No currency column in any of the 5 rows (…)", "The Weight % column is empty in all 5 rows". */
	private missingColumnWords(field: HoldingKey): string {
		return this.words.missingEverywhere(
			field,
			this.presence[field].key,
			this.objectRows,
			this.resolver,
		);
	}

	/** The problem of a required field that no row gives, and its fix. */
	private missingColumnProblem(field: HoldingKey): { message: string; fix: string } {
		const { key } = this.presence[field];
		const label = HOLDING_FIELDS[field].label;
		let fix =
			key === undefined
				? `${sentence(this.words.pointAt(field, 'the column that holds it'))}.`
				: `Fill in the ${label} in every row.`;
		if (field === 'instrument_type' && this.instrumentTypeWhenNone === 'refuse')
			fix += ` Or set ${INSTRUMENT_TYPE_WHEN_NONE} to the type of these holdings (${INSTRUMENT_TYPES.filter((type) => type !== 'cash').join(', ')}).`;
		return { message: this.missingColumnWords(field), fix };
	}

	/** The row's holding, the row left out and why, or undefined when it has problems (gathered in `problems`). */
	private readRow(row: HoldingRow, index: number): Holding | RemovedRow | undefined {
		const before = this.problems.length;
		const fail = (message: string, fix?: string) => new RefusedField(message, fix);
		const refused = new Set<HoldingKey>();
		/** The field as read, or undefined (and the field refused) when it has a problem. */
		const attempt = <T>(field: HoldingKey, read: () => T): T | undefined => {
			try {
				return read();
			} catch (error) {
				if (!(error instanceof RefusedField)) throw asNodeError(this.node, error);
				refused.add(field);
				this.problems.push({
					itemIndex: row.itemIndex,
					where: whereOf(row),
					message: error.message,
					fix: error.fix,
				});
				return undefined;
			}
		};
		if (!isObjectRow(row)) {
			attempt('isin', () => {
				throw fail(
					'is not an object with holding fields',
					'Each holding must be an object such as {"isin": "...", "name": "...", "market_value": 100}.',
				);
			});
			return undefined;
		}
		const keys = this.numbers.keysOf(index);
		const fields: RowFields = {
			row,
			index,
			raw: (field) => (keys[field] === undefined ? undefined : row.json[keys[field]!]),
			key: (field) => keys[field],
			fail,
		};
		const name = attempt('name', () => this.text(fields, 'name'));
		const isin = attempt('isin', () => this.isinOf(fields, name));
		if (typeof isin === 'object' && isin !== null) return isin;
		const instrumentType =
			attempt('instrument_type', () => this.instrumentTypeOf(fields)) ??
			(refused.has('instrument_type') ? undefined : this.assumedType);
		// Also when the type has a problem: an invalid ISIN is one more problem of the row, said with the others.
		if (!refused.has('isin')) {
			const leftOut = attempt('isin', () =>
				this.leftOutByRule(fields, name, isin ?? null, instrumentType),
			);
			if (leftOut && this.problems.length === before) return leftOut;
		}

		const holding: Holding = { isin: isin ?? null };
		if (name !== undefined) holding.name = name;
		if (instrumentType !== undefined) holding.instrument_type = instrumentType;
		const currency = attempt('currency', () => this.currencyOf(fields));
		if (currency !== undefined) holding.currency = currency;
		const weight = attempt('weight', () => this.weightOf(fields));
		if (weight !== undefined) holding.weight = weight;
		attempt('market_value', () => this.addMarketValue(fields, holding));
		this.checkComplete(fields, holding, refused);
		return this.problems.length === before ? holding : undefined;
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
	private checkComplete(fields: RowFields, holding: Holding, refused: Set<HoldingKey>): void {
		const { row } = fields;
		for (const field of this.rule.required) {
			if (refused.has(field)) continue;
			if (field === 'isin' ? holding.isin !== null : holding[field] !== undefined) continue;
			if (field === 'weight' && this.deriveWeights) continue;
			if (this.objectRows > 1 && this.presence[field].given === 0) {
				if (!this.missingColumns.has(field)) this.missingColumns.set(field, row.itemIndex);
				continue;
			}
			this.problems.push({
				itemIndex: row.itemIndex,
				where: whereOf(row),
				...this.missingInRow(field, fields.key(field)),
			});
		}
		if (this.rule.needsNonZeroMarketValue && holding.market_value === 0) {
			this.problems.push({
				itemIndex: row.itemIndex,
				where: whereOf(row),
				message:
					'the market value is 0; a stored snapshot needs a non-zero market value for every holding',
				fix: 'Remove rows with no position, or correct the value.',
			});
		}
	}

	/** A required field some rows give and this one does not: its empty cell, or its column not found in this row. */
	private missingInRow(
		field: HoldingKey,
		key: string | undefined,
	): { message: string; fix: string } {
		const label = HOLDING_FIELDS[field].label;
		if (key === undefined) {
			return {
				message: `the ${label} is missing (${this.words.missingBecause(field, this.resolver)})`,
				fix: `Fill in the ${label} for this row, or ${this.words.pointAt(field, 'the column that holds it')}.`,
			};
		}
		let fix = `Fill in the ${label} where it is empty.`;
		if (field === 'weight' && this.rule.weightsFromMarketValues)
			fix = `Fill in the weight where it is empty, or empty the whole ${key} column to have every weight worked out from the market values (a mix of given and missing weights is never guessed).`;
		if (field === 'instrument_type' && this.instrumentTypeWhenNone !== undefined)
			fix = `Fill in the instrument type where it is empty (${INSTRUMENT_TYPES.filter((type) => type !== 'cash').join(', ')}); ${INSTRUMENT_TYPE_WHEN_NONE} applies only when no row gives a type.`;
		return { message: this.words.emptyCell(field, key), fix };
	}

	/**
	 * No row gives a weight, and the route needs one: each holding's weight is its market value's share of the
	 * holdings sent (market value ÷ total × 100), as the API does on the temperature route, and a note says so. Market
	 * values that cannot give weights (one below 0, or all adding up to 0) are a problem of the input.
	 */
	private weightsFromMarketValues(): void {
		if (this.holdings.length === 0) return;
		const value = ({ holding }: SourcedHolding) => holding.market_value ?? 0;
		const total = this.holdings.reduce((sum, sourced) => sum + value(sourced), 0);
		const negative = this.holdings.find((sourced) => value(sourced) < 0);
		const column = this.missingColumnWords('weight');
		if (negative || !(total > 0) || !Number.isFinite(total)) {
			const row = this.rows.find((candidate) => candidate.itemIndex === negative?.itemIndex);
			this.problems.push({
				itemIndex: negative?.itemIndex ?? this.holdings[0].itemIndex,
				message: `${column}, and ${negative ? `${row ? whereOf(row) : `Item ${negative.itemIndex}`} has a market value below 0` : 'the market values add up to 0'}, so they cannot give the weights either`,
				fix: "Fill in each holding's weight (0 to 100), or give market values above 0 to work the weights out from.",
			});
			return;
		}
		for (const sourced of this.holdings)
			sourced.holding.weight = Math.round((value(sourced) / total) * 100 * 1e6) / 1e6;
		// What was done first: the run's hint shows the note's first 120 characters.
		this.notes.push(
			`Weights worked out from market values: ${lowerFirst(column)} (market value ÷ total × 100 over the ${countOf(this.holdings.length, 'holding')} sent, as the API does on the temperature route).`,
		);
	}

	/** What the output says of the instrument type every holding was sent as. */
	private assumedTypeNote(type: InstrumentType): string {
		return `Every holding sent as instrument type "${type}" (${INSTRUMENT_TYPE_WHEN_NONE}): ${lowerFirst(this.missingColumnWords('instrument_type'))}. The API reads each holding as that type (on EU Taxonomy only the type tells a sovereign bond from a company): give the rows a type column if some are of another type.`;
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

import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import type { InstrumentType } from '../base/constants';
import type { HoldingKey } from '../api/holdingKey';
import { inputError } from '../api/errors';
import { describeInvalidIsin, givenIsin, isValidIsin, normalizeIsin, unsendableIsin } from './isin';
import {
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
	WeightScale,
} from './holdingNumbers';
import { showNumber } from './numbers';
import type { NumberFormat, PlacedValue } from './numbers';
import type { HoldingsRoute } from '../api/routes';
import { REMOVED_ROW_COLUMNS, uniformRows } from './rows';
import { isBlank, kindOf, ordinal, ownValue, scalarText, showValue } from '../base/values';

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

/**
 * How messages name the place where a holding field's column is chosen: the Holding Fields collection (version 1)
 * or the column mapper (version 2), so that each fix names a setting the user can see.
 */
export interface FieldMappingWords {
	/** Said in brackets when the field is missing, e.g. `looked for a field named "isin", "isincode"`. */
	missingBecause(field: HoldingKey, resolver: FieldResolver): string;
	/**
	 * How to point the field at the right data, lower case, e.g. `set "ISIN Field" under Holding Fields to the column
	 * that holds it` for the target "the column that holds it".
	 */
	pointAt(field: HoldingKey, target: string): string;
}

/** The words of the Holding Fields collection (version 1). */
export const HOLDING_FIELDS_WORDS: FieldMappingWords = {
	missingBecause: (field, resolver) => `looked for a field named ${resolver.lookedFor(field)}`,
	pointAt: (field, target) =>
		`set "${holdingFieldParameter(field)}" under Holding Fields to ${target}`,
};

/** One row of holdings input: an input item's JSON, or an entry of the JSON array parameter. */
export interface HoldingRow {
	json: IDataObject;
	itemIndex: number;
	/** How to name the row in messages, e.g. "Item 4" or "Item 0, holding 12 of the JSON array". */
	where?: string;
}

interface FieldSpec {
	/** How messages name the field. */
	label: string;
	/** The usual header shown as an example (and placeholder) under Holding Fields. */
	header: string;
	/** Its field in the column mapper (version 2); with " Field", its parameter under Holding Fields (version 1). */
	title: string;
	/** Headers found without mapping, compared ignoring case, spaces and punctuation. */
	aliases: string[];
}

/** The holding fields in the order the API and the Holding Fields collection list them. */
export const HOLDING_FIELDS: Record<HoldingKey, FieldSpec> = {
	isin: {
		label: 'ISIN',
		header: 'ISIN',
		title: 'ISIN',
		aliases: ['isin', 'isincode', 'securityisin', 'instrumentisin'],
	},
	name: {
		label: 'name',
		header: 'Name',
		title: 'Name',
		aliases: [
			'name',
			'instrumentname',
			'securityname',
			'holdingname',
			'holding',
			'security',
			'instrument',
			'description',
		],
	},
	instrument_type: {
		label: 'instrument type',
		header: 'Type',
		title: 'Instrument Type',
		aliases: [
			'instrumenttype',
			'type',
			'assettype',
			'assetclass',
			'securitytype',
			'instrument_type',
		],
	},
	currency: {
		label: 'currency',
		header: 'Currency',
		title: 'Currency',
		aliases: ['currency', 'ccy', 'currencycode', 'curr'],
	},
	weight: {
		label: 'weight',
		header: 'Weight',
		title: 'Weight',
		aliases: [
			'weight',
			'weightpercent',
			'weightpct',
			'portfolioweight',
			'weight%',
			'percentofportfolio',
			'allocation',
		],
	},
	market_value: {
		label: 'market value',
		header: 'Market Value',
		title: 'Market Value',
		aliases: ['marketvalue', 'mv', 'marketval', 'value', 'positionvalue', 'amount'],
	},
};

/** The holding fields, in the order of HOLDING_FIELDS. */
export const HOLDING_KEYS = Object.keys(HOLDING_FIELDS) as HoldingKey[];

/** A field's parameter under Holding Fields (version 1), e.g. "ISIN Field". */
export function holdingFieldParameter(field: HoldingKey): string {
	return `${HOLDING_FIELDS[field].title} Field`;
}

const TYPE_SYNONYMS: Record<string, InstrumentType> = {
	stock: 'stock',
	stocks: 'stock',
	equity: 'stock',
	equities: 'stock',
	share: 'stock',
	shares: 'stock',
	commonstock: 'stock',
	bond: 'bond',
	bonds: 'bond',
	corporatebond: 'bond',
	fixedincome: 'bond',
	debt: 'bond',
	etf: 'etf',
	etfs: 'etf',
	exchangetradedfund: 'etf',
	mutualfund: 'mutual-fund',
	mutualfunds: 'mutual-fund',
	fund: 'mutual-fund',
	funds: 'mutual-fund',
	ucits: 'mutual-fund',
	cash: 'cash',
	cashequivalent: 'cash',
	cashandequivalents: 'cash',
	deposit: 'cash',
	moneymarket: 'cash',
	liquidity: 'cash',
	option: 'option',
	options: 'option',
	future: 'future',
	futures: 'future',
	forward: 'forward-contract',
	forwards: 'forward-contract',
	forwardcontract: 'forward-contract',
	fxforward: 'forward-contract',
	lending: 'lending',
	securitieslending: 'lending',
	other: 'other',
	warrant: 'warrant',
	warrants: 'warrant',
	sovereignbond: 'sovereign-bond',
	sovereign: 'sovereign-bond',
	governmentbond: 'sovereign-bond',
	govbond: 'sovereign-bond',
	govtbond: 'sovereign-bond',
	government: 'sovereign-bond',
	treasury: 'sovereign-bond',
	treasuries: 'sovereign-bond',
};

export function compactKey(name: string): string {
	return name.toLowerCase().replace(/[\s_\-./()]+/g, '');
}

/** Matches an instrument type to the API's enum: `Stock`, `ETF`, `Mutual Fund`, `Sovereign Bond`, ... */
export function normalizeInstrumentType(value: unknown): InstrumentType | undefined {
	if (typeof value !== 'string') return undefined;
	const key = compactKey(value);
	return (INSTRUMENT_TYPES as readonly string[]).includes(value.trim().toLowerCase())
		? (value.trim().toLowerCase() as InstrumentType)
		: ownValue(TYPE_SYNONYMS, key);
}

/**
 * Finds which key of a row holds each holding field: the column the user named (exact, then ignoring
 * case and spaces), else the first usual header present. Cached per set of keys: sheets repeat them.
 */
export class FieldResolver {
	private cache = new Map<string, Partial<Record<HoldingKey, string>>>();

	constructor(private readonly fieldNames: Partial<Record<HoldingKey, string>> = {}) {}

	resolve(json: IDataObject): Partial<Record<HoldingKey, string>> {
		const keys = Object.keys(json);
		const signature = keys.join('\u0000');
		let resolved = this.cache.get(signature);
		if (!resolved) {
			resolved = {};
			const byCompact = new Map<string, string>();
			for (const key of keys)
				if (!byCompact.has(compactKey(key))) byCompact.set(compactKey(key), key);
			for (const field of HOLDING_KEYS) {
				const chosen = this.fieldNames[field]?.trim();
				const found = chosen
					? keys.includes(chosen)
						? chosen
						: byCompact.get(compactKey(chosen))
					: HOLDING_FIELDS[field].aliases
							.map((alias) => byCompact.get(alias))
							.find((key) => key !== undefined);
				if (found !== undefined) resolved[field] = found;
			}
			if (this.cache.size < 1000) this.cache.set(signature, resolved);
		}
		return resolved;
	}

	/** Names to show when a field is missing: what was looked for. */
	lookedFor(field: HoldingKey): string {
		const chosen = this.fieldNames[field]?.trim();
		return chosen
			? `"${chosen}"`
			: HOLDING_FIELDS[field].aliases
					.slice(0, 4)
					.map((a) => `"${a}"`)
					.join(', ');
	}
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
	const {
		route,
		invalidIsin = 'fail',
		cashRows = 'remove',
		mappingWords: words = HOLDING_FIELDS_WORDS,
	} = options;
	const resolver = new FieldResolver(options.fieldNames);
	const rule = route.holdings;
	const holdings: SourcedHolding[] = [];
	const removed: RemovedRow[] = [];
	const notes: string[] = [];

	const numberFormat = options.numberFormat ?? 'detect';
	const given = rows.map((row) => givenNumbers(row, resolver, numberFormat));
	const columns =
		options.columns ??
		numberColumns(
			given.flatMap((values, index) => (values ? [{ values, where: whereOf(rows[index]) }] : [])),
			numberFormat,
		);
	const readNumbers = given.map(
		() => ({}) as Partial<Record<NumberField, HoldingNumber | NumberProblem>>,
	);
	const numberOf = (index: number, field: NumberField) => {
		const read = readNumbers[index];
		if (!(field in read)) {
			const number = given[index]?.[field];
			read[field] =
				number === undefined
					? undefined
					: readHoldingNumber(number.value, field, columns[field], undefined, number.detected);
		}
		return read[field];
	};
	const weights: ReadWeight[] = [];
	rows.forEach((row, index) => {
		const weight = numberOf(index, 'weight');
		if (weight && 'value' in weight)
			weights.push({ ...weight, where: whereOf(row), itemIndex: row.itemIndex });
	});
	const scale = decideWeightScale(weights, options.weightsAre ?? 'detect');
	if ('message' in scale)
		throw inputError(node, scale.at.itemIndex, scale.message, scale.fix, { where: scale.at.where });
	if (scale.note) notes.push(scale.note);
	const settled: Partial<
		Record<NumberField, { first: PlacedValue & { read: number }; count: number }>
	> = {};
	let negative: { first: PlacedValue; count: number } | undefined;

	for (const [index, row] of rows.entries()) {
		const fail = (message: string, fix?: string) =>
			inputError(node, row.itemIndex, message, fix, { where: row.where });
		if (!isObjectRow(row)) {
			throw fail(
				'is not an object with holding fields',
				'Each holding must be an object such as {"isin": "...", "name": "...", "market_value": 100}.',
			);
		}
		const keys = given[index]!.keys;
		const raw = (field: HoldingKey) =>
			keys[field] === undefined ? undefined : row.json[keys[field]!];
		const number = (field: NumberField): HoldingNumber | undefined => {
			const read = numberOf(index, field);
			if (read === undefined) return undefined;
			if ('message' in read) throw fail(read.message, read.fix);
			if (read.byColumn) {
				const seen = settled[field];
				if (seen) seen.count++;
				else
					settled[field] = {
						first: { value: String(raw(field)), where: whereOf(row), read: read.value },
						count: 1,
					};
			}
			return read;
		};
		const missing = (field: HoldingKey) =>
			fail(
				`the ${HOLDING_FIELDS[field].label} is missing (${words.missingBecause(field, resolver)})`,
				`Fill in the ${HOLDING_FIELDS[field].label} for this row, or ${words.pointAt(field, 'the column that holds it')}.`,
			);

		/** A text field: trimmed text, undefined when blank; an object or a list there is refused. */
		const text = (field: HoldingKey): string | undefined => {
			const value = raw(field);
			if (isBlank(value)) return undefined;
			const written = scalarText(value);
			if (written === undefined) {
				throw fail(
					`the ${HOLDING_FIELDS[field].label} must be text, got ${kindOf(value)}: ${showValue(value)}`,
					`${sentence(words.pointAt(field, 'a column of text values'))}.`,
				);
			}
			return written.trim() || undefined;
		};
		const name = text('name');
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
				`${sentence(words.pointAt('isin', 'a column of text values'))}.`,
			);
		}
		const unsendable = isin === null ? undefined : unsendableIsin(rawIsin, isin);
		if (unsendable) {
			if (invalidIsin !== 'skip') {
				throw fail(
					`invalid ISIN: ${unsendable}`,
					`${sentence(words.pointAt('isin', 'the column that holds the ISIN'))}. Such a value is never sent, even with "Invalid ISINs" set to send anyway; set it to skip to report such rows in the output instead.`,
				);
			}
			removed.push(
				removedRow(row.itemIndex, name ?? null, rawIsin, null, `invalid ISIN: ${unsendable}`),
			);
			continue;
		}

		const rawType = raw('instrument_type');
		let instrumentType: string | undefined;
		if (!isBlank(rawType)) {
			instrumentType = normalizeInstrumentType(rawType);
			if (!instrumentType) {
				if (rule.sendsUnknownTypes && typeof rawType === 'string') {
					instrumentType = rawType.trim().toLowerCase();
				} else {
					throw fail(
						`instrument type "${showValue(rawType)}" is not one the API knows`,
						`Use one of: ${INSTRUMENT_TYPES.join(', ')} (common spellings such as Stock, ETF, Mutual Fund, Sovereign Bond are recognised).`,
					);
				}
			}
		}

		const isCash = instrumentType === 'cash';
		if ((rule.needsIsin && isin === null) || (rule.refusesCash && isCash)) {
			const reason = isCash ? 'cash row' : 'no ISIN';
			if (cashRows === 'error') {
				throw fail(
					`this ${reason === 'cash row' ? 'cash row' : 'row has no ISIN and'} cannot be sent to this route`,
					'Remove cash and rows without an ISIN from the input, or set "Cash and Rows Without ISIN" to Skip and Report.',
				);
			}
			removed.push(removedRow(row.itemIndex, name ?? null, rawIsin, isin, reason));
			continue;
		}

		if (isin !== null && !isValidIsin(isin)) {
			if (invalidIsin === 'fail') {
				throw fail(
					`invalid ISIN: ${describeInvalidIsin(isin)}`,
					'Correct the ISIN, or set the "Invalid ISINs" option to skip such rows (they are reported in the output) or to send them anyway.',
				);
			}
			if (invalidIsin === 'skip') {
				removed.push(
					removedRow(
						row.itemIndex,
						name ?? null,
						rawIsin,
						isin,
						`invalid ISIN: ${describeInvalidIsin(isin)}`,
					),
				);
				continue;
			}
		}

		const holding: Holding = { isin };
		if (name !== undefined) holding.name = name;
		if (instrumentType !== undefined) holding.instrument_type = instrumentType;

		const rawCurrency = text('currency');
		if (rawCurrency !== undefined) {
			const currency = rawCurrency.toUpperCase();
			if (!/^[A-Z]{3}$/.test(currency)) {
				throw fail(
					`currency "${showValue(rawCurrency)}" is not a three-letter ISO 4217 code`,
					'Use a code such as EUR, USD or SEK.',
				);
			}
			holding.currency = currency;
		}

		const readWeight = number('weight');
		if (readWeight) {
			const weight = scaledWeight(readWeight, scale.factor);
			if (weight < 0 || weight > 100) {
				throw fail(
					`weight ${showNumber(weight)}${weight !== readWeight.value ? ` (${showNumber(readWeight.value)} as a fraction of 1)` : ''} is outside 0 to 100`,
					'Weights are percentages of the portfolio, from 0 to 100 (or fractions of 1, from 0 to 1; see Weights Are under Options).',
				);
			}
			holding.weight = weight;
		}

		const marketValue = number('market_value');
		if (marketValue) {
			if (marketValue.currency) {
				if (holding.currency && holding.currency !== marketValue.currency) {
					throw fail(
						`market value "${showValue(raw('market_value'), 40)}" is in ${marketValue.currency}, but the holding's currency is ${holding.currency}`,
						'Give the market value in the currency of the holding, or correct the currency.',
					);
				}
				holding.currency ??= marketValue.currency;
			}
			if (marketValue.value < 0) {
				if (negative) negative.count++;
				else
					negative = {
						first: { value: showNumber(marketValue.value), where: whereOf(row) },
						count: 1,
					};
			}
			holding.market_value = marketValue.value;
		}

		for (const field of rule.required) {
			if (field === 'isin' ? holding.isin === null : holding[field] === undefined)
				throw missing(field);
		}
		if (rule.needsNonZeroMarketValue && holding.market_value === 0) {
			throw fail(
				'the market value is 0; a stored snapshot needs a non-zero market value for every holding',
				'Remove rows with no position, or correct the value.',
			);
		}
		holdings.push({ itemIndex: row.itemIndex, holding });
	}

	const valueTotal = holdings.reduce((sum, { holding }) => sum + (holding.market_value ?? 0), 0);
	if (!Number.isFinite(valueTotal)) {
		const first = holdings[0];
		throw inputError(
			node,
			first.itemIndex,
			'the market values add up to more than a number can hold',
			'Check the market value column: a value there is far too large.',
		);
	}
	for (const field of ['weight', 'market_value'] as const) {
		const seen = settled[field];
		if (seen) notes.push(settledByColumnNote(field, seen.first, seen.count, columns[field]));
	}
	if (negative) {
		notes.push(
			`${negative.count === 1 ? 'A holding has' : `${negative.count} holdings have`} a negative market value (${negative.first.where}: ${negative.first.value}); sent as given, as a short position.`,
		);
	}
	if (holdings.length > 0 && holdings.every(({ holding }) => holding.weight !== undefined)) {
		const share = (list: typeof weights) =>
			list.reduce((sum, weight) => sum + scaledWeight(weight, scale.factor), 0);
		const sent = new Set(holdings.map(({ itemIndex }) => itemIndex));
		const total = share(weights);
		if (total > 0) {
			const note = weightTotalNote(
				total,
				share(weights.filter((weight) => !sent.has(weight.itemIndex))),
			);
			if (note) notes.push(note);
		}
	}
	return { holdings, removed, notes };
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
):
	| (Partial<Record<NumberField, GivenNumber>> & { keys: Partial<Record<HoldingKey, string>> })
	| undefined {
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

/** The rows to read holdings from: every input item, or the JSON array parameter read at item 0. */
export function holdingRowsFromItems(
	items: INodeExecutionData[],
	indices?: number[],
): HoldingRow[] {
	const chosen = indices ?? items.map((_, index) => index);
	return chosen.map((itemIndex) => ({ json: items[itemIndex].json, itemIndex }));
}

const JSON_EXAMPLE = '[{"isin": "US0378331005", "name": "Apple", "market_value": 1000}]';

/** A markdown code fence around the whole text, as AI models write JSON: ```json ... ``` */
const CODE_FENCE = /^```[\w-]*[^\S\r\n]*\r?\n?([\s\S]*?)\r?\n?```$/;

/**
 * The holdings of the Holdings (JSON) parameter, in the forms people and AI models give them: a JSON array; one
 * holding (an object) as a list of one; an object that wraps the list (`{"holdings": [...]}`, or the only list of
 * the object); JSON inside a markdown code fence; JSON encoded twice (a JSON string holding the JSON). An expression
 * may give the array or object itself.
 */
export function holdingRowsFromJson(node: INode, value: unknown, itemIndex: number): HoldingRow[] {
	let parsed = value;
	// A JSON text, possibly fenced, possibly holding JSON text again (encoded twice, or three times).
	for (let depth = 0; typeof parsed === 'string' && depth < 3; depth++) {
		let text = parsed.trim();
		const fenced = CODE_FENCE.exec(text);
		if (fenced) text = fenced[1].trim();
		if (depth > 0 && !/^[[{"]/.test(text)) break;
		try {
			parsed = JSON.parse(text);
		} catch (error) {
			throw inputError(
				node,
				itemIndex,
				`Holdings (JSON) is not valid JSON: ${(error as Error).message}`,
				`Give an array such as ${JSON_EXAMPLE} (one holding as an object, {"holdings": [...]} and JSON inside a \`\`\`json code fence are read too).`,
			);
		}
	}
	const list = holdingList(node, parsed, itemIndex);
	return list.map((json, entry) => ({
		json: json as IDataObject,
		itemIndex,
		// Counted from 1, as the ISINs of a typed list: n8n's item index stays as n8n shows it (from 0).
		where: `Item ${itemIndex}, ${ordinal(entry + 1)} holding of Holdings (JSON)`,
	}));
}

function holdingList(node: INode, parsed: unknown, itemIndex: number): unknown[] {
	if (Array.isArray(parsed)) return parsed;
	if (parsed !== null && typeof parsed === 'object') {
		const record = parsed as IDataObject;
		const keys = Object.keys(record);
		const named = keys.find((key) => compactKey(key) === 'holdings' && Array.isArray(record[key]));
		if (named !== undefined) return record[named] as unknown[];
		const lists = keys.filter(
			(key) =>
				Array.isArray(record[key]) &&
				(record[key] as unknown[]).every(
					(entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry),
				),
		);
		// The only list of an object that is not a holding itself (`{"positions": [...], "date": ...}`).
		if (lists.length === 1 && !keys.some((key) => compactKey(key) === 'isin'))
			return record[lists[0]] as unknown[];
		if (lists.length > 1) {
			throw inputError(
				node,
				itemIndex,
				`Holdings (JSON) is an object with several lists (${lists.map((key) => `"${showValue(key, 30)}"`).join(', ')}), not a list of holdings`,
				`Give the list of holdings itself, such as ${JSON_EXAMPLE}, or put it under "holdings".`,
			);
		}
		// One holding.
		return [record];
	}
	throw inputError(
		node,
		itemIndex,
		`Holdings (JSON) must be an array of holdings, got ${typeof parsed === 'string' ? `the text "${showValue(parsed)}"` : kindOf(parsed)}`,
		`Give the holdings as an array such as ${JSON_EXAMPLE}, or one holding as an object.`,
	);
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

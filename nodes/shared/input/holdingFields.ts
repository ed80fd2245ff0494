/**
 * The holding fields (ISIN, name, instrument type, currency, weight, market value): their labels, the usual headers
 * they are found under, and which key of a row holds each.
 */
import type { IDataObject } from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import type { InstrumentType } from '../base/constants';
import type { HoldingKey } from '../api/holdingKey';
import { ownValue } from '../base/values';

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
	/**
	 * A field no row of `count` gives, said once for them all: `key` is the column found (then empty in every row), or
	 * undefined when none was, e.g. `No currency column in any of the 5 rows (…)`, `The Weight % column is empty in all
	 * 5 rows`. Columns are named as the sheet names them.
	 */
	missingEverywhere(
		field: HoldingKey,
		key: string | undefined,
		count: number,
		resolver: FieldResolver,
	): string;
	/** A row whose column `key` for the field is there but empty, e.g. `the Weight % cell is empty`. */
	emptyCell(field: HoldingKey, key: string): string;
	/**
	 * A row setting (Invalid ISINs, Cash and Rows Without ISIN) named as the form shows it: top-level in version 1,
	 * `Options > …` in version 2 (the default).
	 */
	setting?(name: string): string;
}

/** "all 5 rows", or "the only row" (`noun` in the singular). */
export const allOf = (count: number, noun: string) =>
	count === 1 ? `the only ${noun}` : `all ${count} ${noun}s`;
/** "any of the 5 rows", or "the only row". */
export const anyOf = (count: number, noun: string) =>
	count === 1 ? `the only ${noun}` : `any of the ${count} ${noun}s`;

/** The words of a sheet's columns, found by their headers (version 1, and version 2's Map Automatically). */
export function sheetColumnWords(
	lookedFor: (field: HoldingKey, resolver: FieldResolver) => string,
): Pick<FieldMappingWords, 'missingEverywhere' | 'emptyCell'> {
	return {
		missingEverywhere: (field, key, count, resolver) =>
			key === undefined
				? `No ${HOLDING_FIELDS[field].label} column in ${anyOf(count, 'row')} (${lookedFor(field, resolver)})`
				: `The ${key} column is empty in ${allOf(count, 'row')}`,
		emptyCell: (_field, key) => `the ${key} cell is empty`,
	};
}

/** The words of the Holding Fields collection (version 1). */
export const HOLDING_FIELDS_WORDS: FieldMappingWords = {
	missingBecause: (field, resolver) => `looked for a field named ${resolver.lookedFor(field)}`,
	pointAt: (field, target) =>
		`set "${holdingFieldParameter(field)}" under Holding Fields to ${target}`,
	...sheetColumnWords((field, resolver) => `looked for a field named ${resolver.lookedFor(field)}`),
	setting: (name) => `"${name}"`,
};

interface FieldSpec {
	/** How messages name the field. */
	label: string;
	/** The usual header shown as an example (and placeholder) under Holding Fields. */
	header: string;
	/** Its field in the column mapper (version 2); with " Field", its parameter under Holding Fields (version 1). */
	title: string;
	/**
	 * Headers found without mapping, compared ignoring case, spaces and punctuation (compactKey), written as a sheet
	 * would head the column: messages show them as they are.
	 */
	headers: string[];
}

/** The holding fields in the order the API and the Holding Fields collection list them. */
export const HOLDING_FIELDS: Record<HoldingKey, FieldSpec> = {
	isin: {
		label: 'ISIN',
		header: 'ISIN',
		title: 'ISIN',
		headers: ['ISIN', 'ISIN Code', 'Security ISIN', 'Instrument ISIN'],
	},
	name: {
		label: 'name',
		header: 'Name',
		title: 'Name',
		headers: [
			'Name',
			'Instrument Name',
			'Security Name',
			'Holding Name',
			'Holding',
			'Security',
			'Instrument',
			'Description',
		],
	},
	instrument_type: {
		label: 'instrument type',
		header: 'Type',
		title: 'Instrument Type',
		headers: ['Instrument Type', 'Type', 'Asset Type', 'Asset Class', 'Security Type'],
	},
	currency: {
		label: 'currency',
		header: 'Currency',
		title: 'Currency',
		headers: ['Currency', 'CCY', 'Currency Code', 'Curr'],
	},
	weight: {
		label: 'weight',
		header: 'Weight',
		title: 'Weight',
		headers: [
			'Weight',
			'Weight %',
			'Weight Percent',
			'Weight Pct',
			'Portfolio Weight',
			'Percent of Portfolio',
			'Allocation',
		],
	},
	market_value: {
		label: 'market value',
		header: 'Market Value',
		title: 'Market Value',
		headers: ['Market Value', 'MV', 'Market Val', 'Value', 'Position Value', 'Amount'],
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
					: HOLDING_FIELDS[field].headers
							.map((header) => byCompact.get(compactKey(header)))
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
			: HOLDING_FIELDS[field].headers
					.slice(0, 4)
					.map((header) => `"${header}"`)
					.join(', ');
	}
}

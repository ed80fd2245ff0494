/**
 * The vocabulary of the answer contracts in the route table (routes.ts): what a success answer of a route must
 * hold, as plain data. Imports nothing: the route table stays at the bottom of the house. answers.ts reads every
 * success answer against its route's contract.
 */

export type AnswerShape =
	| { kind: 'any' }
	| { kind: 'string'; nonEmpty?: boolean; numeric?: boolean }
	/** A finite number; integer and decimal alike. */
	| { kind: 'number' }
	| { kind: 'boolean' }
	| { kind: 'null' }
	| {
			kind: 'object';
			/** Members the object must have. */
			required?: Record<string, AnswerShape>;
			/** Members it may have; when present they must fit. */
			optional?: Record<string, AnswerShape>;
			/** Every other member must fit this; without it, other members are not looked at (the API may add fields). */
			others?: AnswerShape;
	  }
	| { kind: 'list'; of?: AnswerShape }
	| { kind: 'oneOf'; options: AnswerShape[]; words: string }
	/** Fits every one of the shapes. */
	| { kind: 'allOf'; shapes: AnswerShape[] };

export const anyValue: AnswerShape = { kind: 'any' };
export const text: AnswerShape = { kind: 'string' };
export const nonEmptyText: AnswerShape = { kind: 'string', nonEmpty: true };
export const numeric: AnswerShape = { kind: 'number' };
/** A whole number written as text ("8", " 9 "), as an answer may give a classification. */
export const NUMERIC_TEXT = /^\s*\d+\s*$/;
export const numericText: AnswerShape = { kind: 'string', numeric: true };
export const bool: AnswerShape = { kind: 'boolean' };
export const nullValue: AnswerShape = { kind: 'null' };

export function object(
	required: Record<string, AnswerShape> = {},
	optional: Record<string, AnswerShape> = {},
	others?: AnswerShape,
): AnswerShape {
	return { kind: 'object', required, optional, ...(others ? { others } : {}) };
}

export function listOf(of?: AnswerShape): AnswerShape {
	return { kind: 'list', ...(of ? { of } : {}) };
}

export function oneOf(words: string, ...options: AnswerShape[]): AnswerShape {
	return { kind: 'oneOf', options, words };
}

export function allOf(...shapes: AnswerShape[]): AnswerShape {
	return { kind: 'allOf', shapes };
}

export function orNull(shape: AnswerShape, words: string): AnswerShape {
	return oneOf(words, shape, nullValue);
}

/** A list of entries each carrying an ISIN: what the answer is matched on, never position. */
export interface EntryList {
	/** Where the list is, from the (unwrapped) answer's top: ['data'], ['data', 'portfolio', 'companies']. */
	at: string[];
	/** Where an entry's ISIN is: ['isin'], ['metadata', 'isin'], ['public_isin']. */
	isin: string[];
	/** "instrument entries", "companies": for messages. */
	words: string;
}

/** A success message the outcome is read from, and the outcomes it can name. */
export interface OutcomeMessages {
	/** Each pattern is tried on the message; the first that matches names the outcome. */
	known: Array<{ pattern: RegExp; outcome: string }>;
}

export interface AnswerContract {
	/** What the answer must be, after a documented variant is brought to this form. */
	shape: AnswerShape;
	/** In words, for the error when the answer does not fit: "`data`, a list of instrument entries each with an ISIN". */
	expected: string;
	/**
	 * Documented variants of the whole answer: when the answer does not fit `shape` but fits `shape` of a variant, it
	 * is wrapped under `wrapIn` first (the vendor's temperature answer has no `data` wrapper).
	 */
	variants?: Array<{ shape: AnswerShape; wrapIn: string; words: string }>;
	/** The lists of entries matched by ISIN: an answer that lists entries, none of them with a readable ISIN, is unreadable. */
	entries?: EntryList[];
	/** The outcome read from the success message, where the route has one. */
	outcomes?: OutcomeMessages;
	/** Read by a reader of its own instead of `shape` (the methodologies' record shape is not documented). */
	reader?: 'methodologies';
	/**
	 * What the answer's numbers may be, first matching rule first; every number, matched or not, must be finite and
	 * within MAX_MAGNITUDE. A number outside is never a figure of the output (api/domains.ts).
	 */
	domains?: DomainRule[];
}

// ---------------------------------------------------------------------------------------------------------------
// Number domains: what the numbers of an answer may be.
// ---------------------------------------------------------------------------------------------------------------

/**
 * Above this size (either sign) no number the API gives can be meant: it is above any market value in any currency
 * and any emissions in tonnes or kilograms. It also keeps every sum the nodes make finite: 10,000 products of two such
 * numbers stay below 1e41, where one 1e308 makes a sum Infinity and an average null.
 */
export const MAX_MAGNITUDE = 1e18;

export interface NumberDomain {
	min?: number;
	max?: number;
	/** How far beyond `min` / `max` a value may lie and still be read as in range (rounding by the API). */
	tolerance?: number;
	/** Only whole numbers (a count, a year). */
	integer?: boolean;
	/** Only these values (an SFDR article). */
	oneOf?: number[];
	/** In words, for notes: "a percentage, 0 to 100". */
	words: string;
}

/**
 * Where a domain applies: member names from the answer's top (after a documented variant is brought to the
 * contract's form); '*' stands for any member or list index, a RegExp for any member whose name it matches.
 */
export interface DomainRule {
	at: Array<string | RegExp>;
	domain: NumberDomain;
}

/** Every number of every answer: finite and within MAX_MAGNITUDE. */
export const ANY_NUMBER: NumberDomain = { words: 'a finite number' };
export const PERCENT: NumberDomain = {
	min: 0,
	max: 100,
	tolerance: 0.01,
	words: 'a percentage, 0 to 100',
};
export const NOT_NEGATIVE: NumberDomain = { min: 0, words: 'a number not below 0' };
export const COUNT: NumberDomain = { min: 0, integer: true, words: 'a whole number not below 0' };

/** Whether `value` lies within `domain` (and MAX_MAGNITUDE); true for what is not a number (not the domain's to judge). */
export function withinDomain(domain: NumberDomain, value: unknown): boolean {
	if (typeof value !== 'number') return true;
	if (!Number.isFinite(value) || Math.abs(value) > MAX_MAGNITUDE) return false;
	const slack = domain.tolerance ?? 0;
	if (domain.min !== undefined && value < domain.min - slack) return false;
	if (domain.max !== undefined && value > domain.max + slack) return false;
	if (domain.integer && !Number.isInteger(value)) return false;
	if (domain.oneOf && !domain.oneOf.includes(value)) return false;
	return true;
}

function matches(step: string | RegExp, key: string | number): boolean {
	if (step === '*') return true;
	if (typeof step === 'string') return step === String(key);
	return typeof key === 'string' && step.test(key);
}

/** The domain of the number at `path` (member names and list indices from the answer's top): the first rule that matches, else ANY_NUMBER. */
export function domainAt(
	rules: readonly DomainRule[] | undefined,
	path: ReadonlyArray<string | number>,
): NumberDomain {
	if (!rules) return ANY_NUMBER;
	rules: for (const rule of rules) {
		if (rule.at.length !== path.length) continue;
		for (let index = 0; index < path.length; index++)
			if (!matches(rule.at[index], path[index])) continue rules;
		return rule.domain;
	}
	return ANY_NUMBER;
}

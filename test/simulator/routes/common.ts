/**
 * Messages, holding schemas and checks shared by several routes.
 */
import { apiError, type ApiResult } from '../http';
import type { Schema } from '../validation';

export const AT_LEAST_ONE_INSTRUMENT = 'Please provide at least one instrument';
export const AT_LEAST_ONE_HOLDING = 'Please provide at least one holding';
export const MISSING_PROPERTIES = 'Some instruments are missing required properties';
export const TOO_MANY_INSTRUMENTS =
	'You can only request data for a maximum of 10000 instruments at a time.';
export const MAX_INSTRUMENTS = 10000;

export const INSTRUMENT_TYPES = [
	'stock',
	'bond',
	'etf',
	'mutual-fund',
	'cash',
	'option',
	'future',
	'forward-contract',
	'lending',
	'other',
	'warrant',
	'sovereign-bond',
] as const;

export const FUND_TYPES: readonly string[] = ['etf', 'mutual-fund'];

/**
 * Holding of POST /sustainable-investments/insights and POST /taxonomy/insights: the four required properties
 * may be missing or null for the schema (the route then answers MISSING_PROPERTIES); a wrong type is a schema error.
 */
export const COMPUTED_HOLDING_SCHEMA: Schema = {
	type: 'object',
	properties: {
		isin: { type: 'string', nullable: true },
		name: { type: 'string', nullable: true },
		instrument_type: { type: 'string', enum: INSTRUMENT_TYPES, nullable: true },
		market_value: { type: 'number', nullable: true },
		weight: { type: 'number', nullable: true },
		currency: { type: 'string', nullable: true },
	},
};

export interface ComputedHolding {
	isin: string;
	name: string;
	instrument_type: string;
	market_value: number;
	weight?: number | null;
	currency?: string | null;
}

const REQUIRED_COMPUTED_PROPERTIES = ['isin', 'name', 'instrument_type', 'market_value'] as const;

/** MISSING_PROPERTIES (with the index and names of what is missing) when a holding lacks a required property. */
export function missingPropertiesError(
	holdings: readonly Record<string, unknown>[],
	required: readonly string[] = REQUIRED_COMPUTED_PROPERTIES,
): ApiResult | null {
	const problems = holdings
		.map((holding, index) => ({
			path: `.body.holdings[${index}]`,
			missing: required.filter((name) => holding[name] === undefined || holding[name] === null),
		}))
		.filter((problem) => problem.missing.length > 0);
	return problems.length > 0 ? apiError(400, MISSING_PROPERTIES, problems) : null;
}

export function holdingsOf(body: Record<string, unknown>): Record<string, unknown>[] {
	return (body.holdings ?? []) as Record<string, unknown>[];
}

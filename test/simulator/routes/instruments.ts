/**
 * POST /instruments/sustainability-profile, sustainability-data, business-involvements, esg-data.
 */
import {
	ESG_METRICS,
	PAI_INDICATORS,
	instrumentData,
	type InstrumentData,
	type Involvement,
} from '../data';
import { apiError, type ApiResult } from '../http';
import type { Schema } from '../validation';
import {
	AT_LEAST_ONE_INSTRUMENT,
	MAX_INSTRUMENTS,
	TOO_MANY_INSTRUMENTS,
	holdingsOf,
} from './common';
import { SUCCESS_STATUS } from './status';
import type { RouteContext, RouteDefinition } from './types';

const HOLDINGS_SCHEMA: Schema = {
	type: 'array',
	items: { type: 'object', properties: { isin: { type: 'string', nullable: true } } },
};

const INSTRUMENTS_SCHEMA: Schema = {
	type: 'object',
	required: ['holdings'],
	properties: { holdings: HOLDINGS_SCHEMA },
};

const BUSINESS_INVOLVEMENTS_SCHEMA: Schema = {
	type: 'object',
	required: ['holdings'],
	properties: { holdings: HOLDINGS_SCHEMA, minimum_threshold: { type: 'number' } },
};

/**
 * The instruments to answer for: one per holding with a string isin, as sent (duplicates kept),
 * non-funds first then funds. An ApiResult when the request is refused.
 */
function selectInstruments(
	context: RouteContext,
	allowNoIsin: boolean,
): InstrumentData[] | ApiResult {
	const holdings = holdingsOf(context.body);
	if (holdings.length > MAX_INSTRUMENTS) return apiError(403, TOO_MANY_INSTRUMENTS);
	if (holdings.length === 0) return apiError(400, AT_LEAST_ONE_INSTRUMENT);
	const instruments = holdings
		.map((holding) => holding.isin)
		.filter((isin): isin is string => typeof isin === 'string')
		.map((isin) => instrumentData(isin, context.services.dataVersion));
	if (instruments.length === 0 && !allowNoIsin) return apiError(400, AT_LEAST_ONE_INSTRUMENT);
	return [
		...instruments.filter((item) => !item.isFund),
		...instruments.filter((item) => item.isFund),
	];
}

function withUnits<N extends string>(values: Record<N, number | null>, units: Record<N, string>) {
	const result = {} as Record<N, { value: number | null; unit: string }>;
	for (const name of Object.keys(units) as N[])
		result[name] = { value: values[name], unit: units[name] };
	return result;
}

/** One entry of POST /instruments/sustainability-profile. */
export function profileEntry(item: InstrumentData) {
	return {
		isin: item.isin,
		sustainability_profile: {
			classification: item.sfdr,
			description: item.sfdrDescription,
			metadata: null,
		},
	};
}

/** One entry of POST /instruments/sustainability-data (PAI indicators with units). */
export function paiEntry(item: InstrumentData) {
	return {
		sustainability_data: withUnits(item.pai, PAI_INDICATORS),
		metadata: { isin: item.isin, is_fund: item.isFund },
	};
}

/** The categories of `involvements` weighing at least `threshold` (all when there is none), as the answer lists them. */
export function involvementsAbove(
	involvements: Partial<Record<string, Involvement>>,
	threshold: number | undefined,
): Record<string, Involvement> {
	const kept: Record<string, Involvement> = {};
	for (const [category, involvement] of Object.entries(involvements))
		if (involvement && (threshold === undefined || involvement.weight >= threshold))
			kept[category] = { ...involvement };
	return kept;
}

/** One entry of POST /instruments/business-involvements; `threshold` drops categories weighing less. */
export function involvementsEntry(item: InstrumentData, threshold: number | undefined) {
	const involvements = involvementsAbove(item.businessInvolvements, threshold);
	return {
		sustainability_data: {
			total_score: item.scores?.total ?? null,
			environment_score: item.scores?.environment ?? null,
			social_score: item.scores?.social ?? null,
			governance_score: item.scores?.governance ?? null,
			business_involvements: involvements,
		},
		metadata: { isin: item.isin, is_fund: item.isFund },
	};
}

/** One entry of POST /instruments/esg-data (ESG metrics with units). */
export function esgEntry(item: InstrumentData) {
	return {
		sustainability_data: withUnits(item.esg, ESG_METRICS),
		metadata: { isin: item.isin, is_fund: item.isFund },
	};
}

function sustainabilityProfile(context: RouteContext): ApiResult {
	const instruments = selectInstruments(context, true);
	if (!Array.isArray(instruments)) return instruments;
	return {
		status: SUCCESS_STATUS['POST /instruments/sustainability-profile'],
		body: {
			data: instruments.map(profileEntry),
			metadata: { message: 'Sustainability profile of instruments fetched successfully' },
		},
	};
}

function sustainabilityData(context: RouteContext): ApiResult {
	const instruments = selectInstruments(context, false);
	if (!Array.isArray(instruments)) return instruments;
	return {
		status: SUCCESS_STATUS['POST /instruments/sustainability-data'],
		body: {
			data: instruments.map(paiEntry),
			metadata: { message: 'Sustainability data of instruments fetched successfully' },
		},
	};
}

function businessInvolvements(context: RouteContext): ApiResult {
	const instruments = selectInstruments(context, false);
	if (!Array.isArray(instruments)) return instruments;
	const threshold = context.body.minimum_threshold as number | undefined;
	return {
		status: SUCCESS_STATUS['POST /instruments/business-involvements'],
		body: {
			data: instruments.map((item) => involvementsEntry(item, threshold)),
			message: 'Business involvements of instruments fetched successfully',
		},
	};
}

function esgData(context: RouteContext): ApiResult {
	const instruments = selectInstruments(context, false);
	if (!Array.isArray(instruments)) return instruments;
	return {
		status: SUCCESS_STATUS['POST /instruments/esg-data'],
		body: {
			data: instruments.map(esgEntry),
			message: 'ESG data of instruments fetched successfully',
		},
	};
}

export const INSTRUMENT_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /instruments/sustainability-profile',
		method: 'POST',
		path: '/instruments/sustainability-profile',
		family: 'sfdr',
		schema: INSTRUMENTS_SCHEMA,
		handle: sustainabilityProfile,
	},
	{
		key: 'POST /instruments/sustainability-data',
		method: 'POST',
		path: '/instruments/sustainability-data',
		family: 'sfdr',
		schema: INSTRUMENTS_SCHEMA,
		handle: sustainabilityData,
	},
	{
		key: 'POST /instruments/business-involvements',
		method: 'POST',
		path: '/instruments/business-involvements',
		family: 'esg',
		schema: BUSINESS_INVOLVEMENTS_SCHEMA,
		handle: businessInvolvements,
	},
	{
		key: 'POST /instruments/esg-data',
		method: 'POST',
		path: '/instruments/esg-data',
		family: 'esg',
		schema: INSTRUMENTS_SCHEMA,
		handle: esgData,
	},
];

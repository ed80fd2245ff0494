/**
 * POST /sustainable-investments/insights and GET /sustainable-investments/methodologies.
 */
import { METHODOLOGIES, instrumentData, round } from '../data';
import { apiError, type ApiResult } from '../http';
import type { Schema } from '../validation';
import {
	AT_LEAST_ONE_HOLDING,
	COMPUTED_HOLDING_SCHEMA,
	holdingsOf,
	missingPropertiesError,
	type ComputedHolding,
} from './common';
import { SUCCESS_STATUS } from './status';
import type { RouteContext, RouteDefinition } from './types';

export const METHODOLOGY_NOT_FOUND = 'Methodology not found';

const INSIGHTS_SCHEMA: Schema = {
	type: 'object',
	required: ['methodology_id', 'holdings'],
	properties: {
		methodology_id: { type: 'number' },
		holdings: { type: 'array', items: COMPUTED_HOLDING_SCHEMA },
	},
};

/** The holding's weight when given, else its share of the total market value in percent (4 decimals). */
function weights(holdings: readonly ComputedHolding[]): number[] {
	const total = holdings.reduce((sum, holding) => sum + holding.market_value, 0);
	return holdings.map((holding) => {
		if (typeof holding.weight === 'number') return holding.weight;
		return total === 0 ? 0 : round((holding.market_value / total) * 100, 4);
	});
}

/** One entry of the insights answer. */
export function insightEntry(name: string, isin: string, weight: number) {
	const { classification, description } = instrumentData(isin).sustainableInvestment;
	return {
		name,
		isin,
		weight,
		sustainability_profile: { classification, description, metadata: null },
	};
}

function insights(context: RouteContext): ApiResult {
	const methodologyId = context.body.methodology_id as number;
	if (!METHODOLOGIES.some((methodology) => methodology.id === methodologyId))
		return apiError(400, METHODOLOGY_NOT_FOUND);
	const raw = holdingsOf(context.body);
	if (raw.length === 0) return apiError(400, AT_LEAST_ONE_HOLDING);
	const missing = missingPropertiesError(raw);
	if (missing) return missing;
	const holdings = raw as unknown as ComputedHolding[];
	const holdingWeights = weights(holdings);
	return {
		status: SUCCESS_STATUS['POST /sustainable-investments/insights'],
		body: {
			data: holdings.map((holding, i) =>
				insightEntry(holding.name, holding.isin, holdingWeights[i]),
			),
			metadata: { message: 'Sustainable investments insights calculated successfully' },
		},
	};
}

/** The methodology list in the shape the simulator was started with (`methodologiesShape`; the spec leaves it open). */
function methodologies(context: RouteContext): ApiResult {
	const status = SUCCESS_STATUS['GET /sustainable-investments/methodologies'];
	const records = METHODOLOGIES.map((methodology) => ({ ...methodology }));
	const metadata = { message: 'Methodologies fetched successfully' };
	switch (context.services.methodologiesShape) {
		case 'id-keyed':
			return {
				status,
				body: { data: Object.fromEntries(records.map((m) => [String(m.id), m.name])), metadata },
			};
		case 'id-keyed-records':
			return {
				status,
				body: {
					data: Object.fromEntries(records.map(({ id, ...rest }) => [String(id), rest])),
					metadata,
				},
			};
		case 'bare-array':
			return { status, body: records };
		case 'unreadable':
			return { status, body: { payload: records.map((m) => [m.id, m.name]), metadata } };
		default:
			return { status, body: { data: records, metadata } };
	}
}

export const SUSTAINABLE_INVESTMENT_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /sustainable-investments/insights',
		method: 'POST',
		path: '/sustainable-investments/insights',
		family: 'sustainable-investments',
		schema: INSIGHTS_SCHEMA,
		handle: insights,
	},
	{
		key: 'GET /sustainable-investments/methodologies',
		method: 'GET',
		path: '/sustainable-investments/methodologies',
		family: 'sustainable-investments',
		schema: null,
		handle: methodologies,
	},
];

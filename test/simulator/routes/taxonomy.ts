/**
 * POST /taxonomy/insights: the holdings taken together as one portfolio.
 */
import { taxonomyKpis } from '../data';
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

export const NO_DATA_FOUND = 'No data found for the given parameters';

const TAXONOMY_SCHEMA: Schema = {
	type: 'object',
	required: ['holdings'],
	properties: { holdings: { type: 'array', items: COMPUTED_HOLDING_SCHEMA } },
};

function insights(context: RouteContext): ApiResult {
	const raw = holdingsOf(context.body);
	if (raw.length === 0) return apiError(400, AT_LEAST_ONE_HOLDING);
	const missing = missingPropertiesError(raw);
	if (missing) return missing;
	const kpis = taxonomyKpis(raw as unknown as ComputedHolding[]);
	if (!kpis) return apiError(400, NO_DATA_FOUND);
	return {
		status: SUCCESS_STATUS['POST /taxonomy/insights'],
		body: { data: kpis, metadata: { message: 'Taxonomy insights calculated successfully' } },
	};
}

export const TAXONOMY_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /taxonomy/insights',
		method: 'POST',
		path: '/taxonomy/insights',
		family: 'taxonomy',
		schema: TAXONOMY_SCHEMA,
		handle: insights,
	},
];

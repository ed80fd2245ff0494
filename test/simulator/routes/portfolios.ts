/**
 * POST/GET /portfolios, PUT/DELETE /portfolios/{identifier}. Not a data family: any valid key may call them.
 */
import { normalizeCurrency } from '../currencies';
import { resolveSnapshot } from '../dates';
import { apiError, type ApiResult } from '../http';
import { ORGANIZATION_MEMBERS } from '../keys';
import {
	DEFAULT_PORTFOLIO_CURRENCY,
	FALLBACK_PORTFOLIO_CURRENCY,
	portfolioIdentifier,
	type DeleteOutcome,
} from '../portfolios';
import type { Schema } from '../validation';
import { AT_LEAST_ONE_HOLDING, INSTRUMENT_TYPES, MISSING_PROPERTIES, holdingsOf } from './common';
import { SUCCESS_STATUS } from './status';
import type { RouteContext, RouteDefinition } from './types';

export const FUND_NOT_FOUND = 'Fund not found';

export const DELETE_MESSAGES: Record<DeleteOutcome, string> = {
	'snapshot-deleted': 'Fund snapshot deleted successfully',
	'portfolio-deleted-with-snapshots': 'Fund deleted successfully with all snapshots',
	'portfolio-deleted': 'Fund deleted successfully',
	'snapshot-not-found': 'Fund snapshot not found',
};

const CREATE_SCHEMA: Schema = {
	type: 'object',
	required: ['name', 'snapshot_at', 'holdings'],
	properties: {
		name: { type: 'string' },
		snapshot_at: { type: 'string' },
		holdings: {
			type: 'array',
			items: {
				type: 'object',
				required: ['name', 'currency', 'market_value'],
				properties: {
					isin: { type: 'string', nullable: true },
					name: { type: 'string' },
					instrument_type: { type: 'string', enum: INSTRUMENT_TYPES },
					currency: { type: 'string' },
					weight: { type: 'number' },
					market_value: { type: 'number' },
				},
			},
		},
		identifier: { type: 'string' },
		currency: { type: 'string' },
	},
};

const UPDATE_SCHEMA: Schema = {
	type: 'object',
	properties: { name: { type: 'string' }, currency: { type: 'string' } },
};

const DELETE_SCHEMA: Schema = {
	type: 'object',
	required: ['snapshot_at'],
	properties: { snapshot_at: { type: 'string' } },
};

function createOrReplace(context: RouteContext): ApiResult {
	const { body } = context;
	const snapshot = resolveSnapshot(body.snapshot_at as string, context.now);
	if (!snapshot.ok) return apiError(400, snapshot.message);
	const holdings = holdingsOf(body);
	if (holdings.length === 0) return apiError(400, AT_LEAST_ONE_HOLDING);
	const zeroValues = holdings
		.map((holding, index) => ({ holding, index }))
		.filter(({ holding }) => holding.market_value === 0)
		.map(({ index }) => ({
			path: `.body.holdings[${index}].market_value`,
			message: 'must be non-zero',
		}));
	if (zeroValues.length > 0) return apiError(400, MISSING_PROPERTIES, zeroValues);

	const identifier = portfolioIdentifier(context.org, body.identifier as string | undefined);
	const requestedCurrency = body.currency as string | undefined;
	const currency =
		requestedCurrency === undefined
			? DEFAULT_PORTFOLIO_CURRENCY
			: (normalizeCurrency(requestedCurrency) ?? FALLBACK_PORTFOLIO_CURRENCY);
	const { created } = context.services.portfolios.upsert(context.org, {
		identifier,
		name: body.name as string,
		currency,
		quarterEnd: snapshot.quarterEnd,
		holdings: structuredClone(holdings),
	});
	const message = `${created ? 'Fund created successfully at' : 'Fund updated successfully at'} ${snapshot.quarterEnd}`;
	return {
		status: SUCCESS_STATUS['POST /portfolios'],
		body: { identifier, metadata: { message } },
	};
}

function list(context: RouteContext): ApiResult {
	return {
		status: SUCCESS_STATUS['GET /portfolios'],
		body: {
			data: {
				members: ORGANIZATION_MEMBERS[context.org] ?? 1,
				funds: context.services.portfolios.list(context.org, context.now),
			},
			metadata: { message: 'Organization metadata successfully retrieved' },
		},
	};
}

function update(context: RouteContext): ApiResult {
	const identifier = context.params.identifier;
	const name = context.body.name as string | undefined;
	const requestedCurrency = context.body.currency as string | undefined;
	const currency =
		requestedCurrency === undefined
			? undefined
			: (normalizeCurrency(requestedCurrency) ?? undefined);
	if (!context.services.portfolios.update(context.org, identifier, { name, currency }))
		return apiError(400, FUND_NOT_FOUND);
	return {
		status: SUCCESS_STATUS['PUT /portfolios/{identifier}'],
		body: {
			identifier,
			metadata: { message: `Fund metadata updated successfully with id: ${identifier}` },
		},
	};
}

function remove(context: RouteContext): ApiResult {
	const identifier = context.params.identifier;
	const snapshot = resolveSnapshot(context.body.snapshot_at as string, context.now);
	if (!snapshot.ok) return apiError(400, snapshot.message);
	const outcome = context.services.portfolios.deleteSnapshot(
		context.org,
		identifier,
		snapshot.quarterEnd,
		context.now,
	);
	return {
		status: SUCCESS_STATUS['DELETE /portfolios/{identifier}'],
		body: { identifier, metadata: { message: DELETE_MESSAGES[outcome] } },
	};
}

export const PORTFOLIO_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /portfolios',
		method: 'POST',
		path: '/portfolios',
		family: null,
		schema: CREATE_SCHEMA,
		handle: createOrReplace,
	},
	{
		key: 'GET /portfolios',
		method: 'GET',
		path: '/portfolios',
		family: null,
		schema: null,
		handle: list,
	},
	{
		key: 'PUT /portfolios/{identifier}',
		method: 'PUT',
		path: '/portfolios/{identifier}',
		family: null,
		schema: UPDATE_SCHEMA,
		handle: update,
	},
	{
		key: 'DELETE /portfolios/{identifier}',
		method: 'DELETE',
		path: '/portfolios/{identifier}',
		family: null,
		schema: DELETE_SCHEMA,
		handle: remove,
	},
];

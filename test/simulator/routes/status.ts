/**
 * The status each route answers on success: the one place the route handlers, `successStatus()` and the faults that
 * answer "success" with something unreadable take it from.
 */
import type { RouteKey } from '../types';

export const SUCCESS_STATUS: Readonly<Record<RouteKey, 200 | 201>> = {
	'POST /portfolios': 201,
	'GET /portfolios': 200,
	'PUT /portfolios/{identifier}': 200,
	'DELETE /portfolios/{identifier}': 200,
	'POST /instruments/sustainability-profile': 200,
	'POST /instruments/sustainability-data': 200,
	'POST /instruments/business-involvements': 200,
	'POST /instruments/esg-data': 200,
	'POST /sustainable-investments/insights': 201,
	'GET /sustainable-investments/methodologies': 200,
	'POST /taxonomy/insights': 201,
	'POST /temperature-score/insights': 201,
	'POST /reports': 201,
};

/** The status `route` answers on success (201 for the five creating POST routes, 200 otherwise). */
export function successStatus(route: RouteKey): 200 | 201 {
	return SUCCESS_STATUS[route];
}

/**
 * The route table of the API listener.
 */
import { INSTRUMENT_ROUTES } from './instruments';
import { PORTFOLIO_ROUTES } from './portfolios';
import { REPORT_ROUTES } from './reports';
import { SUSTAINABLE_INVESTMENT_ROUTES } from './sustainableInvestments';
import { TAXONOMY_ROUTES } from './taxonomy';
import { TEMPERATURE_ROUTES } from './temperature';
import type { RouteDefinition } from './types';

export const ALL_ROUTES: readonly RouteDefinition[] = [
	...PORTFOLIO_ROUTES,
	...INSTRUMENT_ROUTES,
	...SUSTAINABLE_INVESTMENT_ROUTES,
	...TAXONOMY_ROUTES,
	...TEMPERATURE_ROUTES,
	...REPORT_ROUTES,
];

/** Routes the gateway knows; the temperature route only when enabled. */
export function routeTable(temperatureRoute: boolean): RouteDefinition[] {
	return ALL_ROUTES.filter(
		(route) => temperatureRoute || route.key !== 'POST /temperature-score/insights',
	);
}

export { TemperatureLocks } from './temperature';
export type { RouteContext, RouteDefinition, RouteServices } from './types';

import type { IHttpRequestMethods } from 'n8n-workflow';

import type { HoldingKey } from './holdings';

/** What the node does on 504: instruments lookups split the batch; the rest can only ask for fewer holdings. */
export type TimeoutPolicy = 'split-batch' | 'fewer-holdings' | 'retry-later';

/**
 * What to do when a request may have reached the API but no answer came (connection dropped after sending, client
 * timeout). A request that never reached it (refused connection, unknown host, failed secure connection) is sent
 * again on every route.
 * - `send-again`: reads, and routes that only compute an answer (or set the same values again): nothing changes
 *   if the API gets it twice.
 * - `check-snapshot-stored`: POST /portfolios. GET /portfolios shows whether a snapshot is stored at that quarter end
 *   (settle.ts); the request is then sent again, which stores the same holdings again.
 * - `check-snapshot-deleted`: DELETE /portfolios/{identifier}. GET /portfolios shows whether the snapshot or
 *   portfolio is gone; only if it is still there is the DELETE sent again.
 * - `report-uncertain`: nothing can tell what happened; the request is not sent again and the error says so.
 */
export type UncertainOutcomePolicy =
	| 'send-again'
	| 'check-snapshot-stored'
	| 'check-snapshot-deleted'
	| 'report-uncertain';

/**
 * What a route that takes holdings needs of each one; readHoldings checks it all before a request is spent.
 */
export interface HoldingsRule {
	/** Fields every holding sent must carry. */
	required: HoldingKey[];
	/** A row without an ISIN cannot be sent: it is taken out (or refused, per Cash and Rows Without ISIN). */
	needsIsin: boolean;
	/** Cash rows are taken out (or refused) even when they carry an ISIN: the API says cash rows must be removed. */
	refusesCash: boolean;
	/** An instrument type the API does not know is sent as given: the route skips such holdings itself (unless the ISIN is a fund). */
	sendsUnknownTypes: boolean;
	/** A market value of 0 is refused: a stored snapshot needs a non-zero market value for every holding. */
	needsNonZeroMarketValue: boolean;
	/** What the route does with a field, said where its column is chosen (Holding Fields; version 2: the notice above Holding Columns). */
	fieldHints?: Partial<Record<HoldingKey, string>>;
}

export interface ApiRoute {
	method: IHttpRequestMethods;
	/** Path, with `{identifier}` where a portfolio identifier goes. */
	path: string;
	/** Short name for messages and logs, e.g. "SFDR classification". */
	label: string;
	onTimeout: TimeoutPolicy;
	onUncertainOutcome: UncertainOutcomePolicy;
	/** For `report-uncertain`: what the request may have done, how to check it and what a run again costs. */
	uncertainAdvice?: string;
	/** The message when the gateway does not know the route (403 "Missing Authentication Token"), if not the usual one. */
	notServedMessage?: string;
	/** The message on 504, if not the one of the route's `onTimeout`. */
	timeoutMessage?: string;
	/** The API's words (400) when it has nothing for the request: not an error of the input, a finding. */
	noDataAnswer?: string;
	/** For routes that take holdings: what each holding needs. */
	holdings?: HoldingsRule;
}

/** A route that takes holdings. */
export type HoldingsRoute = ApiRoute & { holdings: HoldingsRule };

type RouteFacts = Partial<Omit<ApiRoute, 'method' | 'path' | 'label' | 'onTimeout'>>;

function route<F extends RouteFacts>(
	method: IHttpRequestMethods,
	path: string,
	label: string,
	onTimeout: TimeoutPolicy,
	facts: F = {} as F,
): ApiRoute & F {
	return { method, path, label, onTimeout, onUncertainOutcome: 'send-again', ...facts };
}

/** The holdings rule of the routes that compute from ISINs: every holding needs an ISIN, a name, a type and a market value. */
const ISIN_HOLDINGS: HoldingsRule = {
	required: ['isin', 'name', 'instrument_type', 'market_value'],
	needsIsin: true,
	refusesCash: false,
	sendsUnknownTypes: false,
	needsNonZeroMarketValue: false,
};

export const ROUTES = {
	sfdrClassification: route(
		'POST',
		'/instruments/sustainability-profile',
		'SFDR classification',
		'split-batch',
	),
	paiIndicators: route('POST', '/instruments/sustainability-data', 'PAI indicators', 'split-batch'),
	businessInvolvements: route(
		'POST',
		'/instruments/business-involvements',
		'business involvements',
		'split-batch',
	),
	esgData: route('POST', '/instruments/esg-data', 'ESG data', 'split-batch'),
	sustainableInvestments: route(
		'POST',
		'/sustainable-investments/insights',
		'sustainable investments classification',
		'fewer-holdings',
		{
			holdings: { ...ISIN_HOLDINGS, refusesCash: true },
		},
	),
	methodologies: route(
		'GET',
		'/sustainable-investments/methodologies',
		'list of methodologies',
		'retry-later',
	),
	taxonomy: route('POST', '/taxonomy/insights', 'EU Taxonomy alignment', 'fewer-holdings', {
		holdings: { ...ISIN_HOLDINGS, refusesCash: true },
		noDataAnswer: 'No data found for the given parameters',
	}),
	temperature: route('POST', '/temperature-score/insights', 'temperature score', 'fewer-holdings', {
		holdings: {
			...ISIN_HOLDINGS,
			sendsUnknownTypes: true,
			fieldHints: {
				currency:
					'Optional here: when a holding has no currency, none is sent and the API assumes EUR.',
				weight:
					'Optional here: if any holding has no weight or a weight of 0, the API works out all weights from market values.',
			},
		},
		notServedMessage:
			'The temperature score route is not available on this API address yet. The vendor has not opened it on production; ask them for an address that serves it.',
	}),
	reports: route('POST', '/reports', 'PDF report', 'fewer-holdings', {
		holdings: {
			...ISIN_HOLDINGS,
			required: ['isin', 'name', 'currency', 'weight', 'market_value'],
		},
		timeoutMessage:
			'The report took longer than the API allows (29 seconds). It may still have been generated, but it cannot be retrieved. Run again with fewer holdings.',
		onUncertainOutcome: 'report-uncertain',
		uncertainAdvice:
			'The report may have been generated, and then it counts against the monthly quota like any request, but its download link never arrived and cannot be asked for again. It was not requested a second time. Running again generates a new report and costs one more request per report.',
	}),
	createSnapshot: route('POST', '/portfolios', 'portfolio snapshot', 'fewer-holdings', {
		holdings: {
			required: ['name', 'currency', 'market_value'],
			needsIsin: false,
			refusesCash: false,
			sendsUnknownTypes: false,
			needsNonZeroMarketValue: true,
		},
		onUncertainOutcome: 'check-snapshot-stored',
	}),
	listPortfolios: route('GET', '/portfolios', 'list of portfolios', 'retry-later'),
	updatePortfolio: route('PUT', '/portfolios/{identifier}', 'portfolio update', 'retry-later'),
	deleteSnapshot: route('DELETE', '/portfolios/{identifier}', 'snapshot deletion', 'retry-later', {
		onUncertainOutcome: 'check-snapshot-deleted',
	}),
} as const;

/** Whether a route takes some rows out (cash, no ISIN), so that the user chooses between removing and refusing them. */
export function removesRows(rule: HoldingsRule): boolean {
	return rule.needsIsin || rule.refusesCash;
}

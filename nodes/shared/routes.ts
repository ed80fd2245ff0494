import type { IHttpRequestMethods } from 'n8n-workflow';

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
export type UncertainOutcomePolicy = 'send-again' | 'check-snapshot-stored' | 'check-snapshot-deleted' | 'report-uncertain';

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
}

function route(
	method: IHttpRequestMethods,
	path: string,
	label: string,
	onTimeout: TimeoutPolicy,
	onUncertainOutcome: UncertainOutcomePolicy = 'send-again',
	uncertainAdvice?: string,
): ApiRoute {
	return { method, path, label, onTimeout, onUncertainOutcome, ...(uncertainAdvice ? { uncertainAdvice } : {}) };
}

export const ROUTES = {
	sfdrClassification: route('POST', '/instruments/sustainability-profile', 'SFDR classification', 'split-batch'),
	paiIndicators: route('POST', '/instruments/sustainability-data', 'PAI indicators', 'split-batch'),
	businessInvolvements: route('POST', '/instruments/business-involvements', 'business involvements', 'split-batch'),
	esgData: route('POST', '/instruments/esg-data', 'ESG data', 'split-batch'),
	sustainableInvestments: route('POST', '/sustainable-investments/insights', 'sustainable investments classification', 'fewer-holdings'),
	methodologies: route('GET', '/sustainable-investments/methodologies', 'list of methodologies', 'retry-later'),
	taxonomy: route('POST', '/taxonomy/insights', 'EU Taxonomy alignment', 'fewer-holdings'),
	temperature: route('POST', '/temperature-score/insights', 'temperature score', 'fewer-holdings'),
	reports: route(
		'POST',
		'/reports',
		'PDF report',
		'fewer-holdings',
		'report-uncertain',
		'The report may have been generated, and then it counts against the monthly quota like any request, but its download link never arrived and cannot be asked for again. It was not requested a second time. Running again generates a new report and costs one more request per report.',
	),
	createSnapshot: route('POST', '/portfolios', 'portfolio snapshot', 'fewer-holdings', 'check-snapshot-stored'),
	listPortfolios: route('GET', '/portfolios', 'list of portfolios', 'retry-later'),
	updatePortfolio: route('PUT', '/portfolios/{identifier}', 'portfolio update', 'retry-later'),
	deleteSnapshot: route('DELETE', '/portfolios/{identifier}', 'snapshot deletion', 'retry-later', 'check-snapshot-deleted'),
} as const;

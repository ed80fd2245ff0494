import type { IHttpRequestMethods } from 'n8n-workflow';

/** What the node does on 504: instruments lookups split the batch; the rest can only ask for fewer holdings. */
export type TimeoutPolicy = 'split-batch' | 'fewer-holdings' | 'retry-later';

export interface ApiRoute {
	method: IHttpRequestMethods;
	/** Path, with `{identifier}` where a portfolio identifier goes. */
	path: string;
	/** Short name for messages and logs, e.g. "SFDR classification". */
	label: string;
	onTimeout: TimeoutPolicy;
}

function route(method: IHttpRequestMethods, path: string, label: string, onTimeout: TimeoutPolicy): ApiRoute {
	return { method, path, label, onTimeout };
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
	reports: route('POST', '/reports', 'PDF report', 'fewer-holdings'),
	createSnapshot: route('POST', '/portfolios', 'portfolio snapshot', 'fewer-holdings'),
	listPortfolios: route('GET', '/portfolios', 'list of portfolios', 'retry-later'),
	updatePortfolio: route('PUT', '/portfolios/{identifier}', 'portfolio update', 'retry-later'),
	deleteSnapshot: route('DELETE', '/portfolios/{identifier}', 'snapshot deletion', 'retry-later'),
} as const;

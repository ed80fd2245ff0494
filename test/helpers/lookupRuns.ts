import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { ROUTES } from '../../nodes/shared/api/routes';
import type { HoldingsRoute } from '../../nodes/shared/api/routes';
import type { RouteKey } from '../simulator';
import { byIdentifier, chainWorkflow, credentialsFor } from './workflows';
import type { NodeSpec } from './workflows';
import { runWorkflow } from '../workflow/runner';
import type { RunWorkflowOptions, WorkflowRunResult } from '../workflow/runner';

export const LAST_YEAR = new Date().getUTCFullYear() - 1;

/** The identifier the simulator gives portfolio `clientId` of organisation org-a (the simulator keys' organisation). */
export const portfolioIdentifier = (clientId: string) => `svc-portfolio:org-a_${clientId}`;

/** The Sustainability Instruments node running `operation` with more `parameters`; `spec` sets onError, name, ... */
export const instrumentsSpec = (
	operation: string,
	parameters: IDataObject = {},
	spec: Partial<NodeSpec> = {},
): NodeSpec => ({
	type: 'sustainabilityInstruments',
	parameters: { operation, ...parameters },
	...spec,
});

/** Generate PDF Report of the report "Nordic Fund" (id nordic), with more `parameters`. */
export const reportSpec = (
	parameters: IDataObject = {},
	spec: Partial<NodeSpec> = {},
): NodeSpec => ({
	type: 'sustainabilityReports',
	parameters: {
		operation: 'generatePdfReport',
		reportName: 'Nordic Fund',
		reportId: 'nordic',
		...parameters,
	},
	...spec,
});

/** Delete Snapshot of the portfolio and the date each item names in `identifier` and `date`. */
export const DELETE_SNAPSHOT: NodeSpec = {
	type: 'portfolioSnapshots',
	parameters: {
		operation: 'deleteSnapshot',
		portfolio: byIdentifier('={{ $json.identifier }}'),
		snapshotDate: '={{ $json.date }}',
	},
};

/**
 * Trigger -> Input (`items`) -> `specs` (the first named 'Node'), run against the API at `url` (the simulator, or a
 * proxy in front of it) with `apiKey`; `out` is what the first of `specs` gave.
 */
export async function runNode(
	url: string,
	items: IDataObject[],
	specs: NodeSpec | NodeSpec[],
	{ apiKey, ...options }: Omit<RunWorkflowOptions, 'credentials'> & { apiKey?: string } = {},
): Promise<{ result: WorkflowRunResult; out: INodeExecutionData[] }> {
	const chain = [specs].flat();
	const result = await runWorkflow(chainWorkflow(items, ...chain), {
		credentials: credentialsFor(url, apiKey),
		...options,
	});
	return { result, out: result.items(chain[0].name ?? 'Node') };
}

/** The messages of the execution hints of every run of `node`. */
export function hintMessages(result: WorkflowRunResult, node = 'Node'): string[] {
	const tasks = (result.runData[node] ?? []) as Array<{ hints?: Array<{ message: string }> }>;
	return tasks.flatMap((task) => (task.hints ?? []).map((hint) => hint.message));
}

/** The description of an error (NodeApiError, NodeOperationError), if it has one. */
export const descriptionOf = (error: unknown): string | undefined =>
	(error as { description?: string } | undefined)?.description;

export interface HoldingsNode {
	label: string;
	type: string;
	/** The simulator's name of the route the holdings go to. */
	route: RouteKey;
	holdingsRoute: HoldingsRoute;
	/** The operation and what else it requires, for one portfolio. */
	parameters: IDataObject;
}

/** The five nodes that send holdings. */
export const HOLDINGS_NODES: HoldingsNode[] = [
	{
		label: 'Sustainable Investments',
		type: 'sustainableInvestments',
		route: 'POST /sustainable-investments/insights',
		holdingsRoute: ROUTES.sustainableInvestments,
		parameters: {
			operation: 'classifyHoldings',
			methodology: { __rl: true, mode: 'list', value: 1 },
		},
	},
	{
		label: 'EU Taxonomy',
		type: 'euTaxonomy',
		route: 'POST /taxonomy/insights',
		holdingsRoute: ROUTES.taxonomy,
		parameters: { operation: 'getPortfolioAlignment' },
	},
	{
		label: 'Temperature Score',
		type: 'temperatureScore',
		route: 'POST /temperature-score/insights',
		holdingsRoute: ROUTES.temperature,
		parameters: { operation: 'getPortfolioTemperature' },
	},
	{
		label: 'Sustainability Reports',
		type: 'sustainabilityReports',
		route: 'POST /reports',
		holdingsRoute: ROUTES.reports,
		parameters: {
			operation: 'generatePdfReport',
			reportName: 'Sample Fund',
			reportId: 'sample-fund',
			downloadPdf: false,
		},
	},
	{
		label: 'Portfolio Snapshots',
		type: 'portfolioSnapshots',
		route: 'POST /portfolios',
		holdingsRoute: ROUTES.createSnapshot,
		parameters: {
			operation: 'createOrUpdateSnapshot',
			portfolioId: 'sample-fund',
			portfolioName: 'Sample Fund',
			snapshotDate: '2024-03-31',
			currency: 'EUR',
		},
	},
];

/** An error's title and description as one text: what n8n shows, title first (issue 36 moved details below it). */
export const fullText = (error: unknown): string => {
	const title = (error as { message?: string } | undefined)?.message ?? '';
	const rest = descriptionOf(error) ?? '';
	if (!rest) return title;
	// A title cut at a colon reads on as it was written: "title: the rest".
	return /[.!?…)]$/.test(title) || !title
		? `${title} ${rest}`.trim()
		: `${title}: ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
};

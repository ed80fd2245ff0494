/** What the portfolio routes' workflow tests share (EU Taxonomy and Sustainable Investments: the same guards). */
import type { IDataObject, IPairedItemData } from 'n8n-workflow';

import type { RouteKey, Simulator } from '../simulator';
import { descriptionOf, fullText, runNode } from './lookupRuns';
import type { NodeSpec } from './workflows';

/** The input items an output item is paired to, in ascending order. */
export function pairedTo(item: { pairedItem?: unknown }): number[] {
	const list = (
		Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem]
	) as IPairedItemData[];
	return list.map((entry) => entry.item).sort((a, b) => a - b);
}

export type PortfolioNode = (parameters?: IDataObject, onError?: NodeSpec['onError']) => NodeSpec;

/** `items` -> the node, against `sim` (or another Base URL / key): runNode's result. */
export function portfolioRunner(sim: Simulator) {
	return async (
		items: IDataObject[],
		node: NodeSpec,
		options: { baseUrl?: string; apiKey?: string } = {},
	) => (await runNode(options.baseUrl ?? sim.url, items, node, { apiKey: options.apiKey })).result;
}

export interface PortfolioRouteGuards {
	node: PortfolioNode;
	/** Holdings with a cash row, and the error "Stop With an Error" for cash rows gives for them. */
	portfolio: IDataObject[];
	cashRowError: RegExp;
	/** The route, and the node's message when its answer takes longer than the API allows (the gateway's 504). */
	route: RouteKey;
	timeoutMessage: string;
	/** Bad input, each refused naming the item and the field before any request. */
	badInput: Array<[string, IDataObject[], RegExp]>;
}

/** The tests both portfolio routes share, one `it` per behaviour with each node's own inputs and messages. */
export function portfolioRouteGuardTests(sim: Simulator, guards: PortfolioRouteGuards): void {
	const run = portfolioRunner(sim);

	it('"Stop With an Error" for cash rows: the error names the row and nothing is sent', async () => {
		const result = await run(guards.portfolio, guards.node({ cashRows: 'error' }));
		expect(result.status).toBe('error');
		// Every cash row is named: in the title for one, in the description's list for more (one pass, one error).
		expect(fullText(result.error)).toMatch(guards.cashRowError);
		expect(sim.requestCount()).toBe(0);
	});

	it('403 for a key without the family: the plain message, one request', async () => {
		const result = await run(guards.portfolio, guards.node(), { apiKey: 'sim-esg-only' });
		expect(result.status).toBe('error');
		// The title says what failed; the API's words and the fix follow in the description.
		expect(result.error?.message).toBe(
			"Your organization's subscription does not include this data family.",
		);
		expect(descriptionOf(result.error)).toBe(
			"API response (403): You don't have access to any of the frameworks requested.\nAsk the vendor to enable it, or use an operation your key has access to.",
		);
		expect(sim.requestCount()).toBe(1);
	});

	it('504: "send fewer holdings", exactly one request (no blind retry)', async () => {
		sim.setFaults(guards.route, { sequence: ['504'] });
		const result = await run(guards.portfolio, guards.node());
		expect(result.status).toBe('error');
		// Title and description read together, without the API's own words between them.
		const text = fullText(result.error)
			.replace(/ API response \(504\): [^\n]*(\n|$)/, ' ')
			.trim();
		expect(text).toBe(guards.timeoutMessage);
		expect(descriptionOf(result.error)).toContain('API response (504): ');
		expect(sim.requestCount()).toBe(1);
		expect(sim.requests()[0].status).toBe(504);
	});

	it.each(guards.badInput)(
		'bad input (%s): 0 requests, the message names the item and the field',
		async (_, items, message) => {
			const result = await run(items, guards.node());
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toMatch(message);
			expect(sim.requestCount()).toBe(0);
		},
	);
}

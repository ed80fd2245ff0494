import type { IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_MAX_REQUESTS } from '../base/constants';
import { openRequestAccount } from '../api/requestBudget';
import type { RequestPlan } from '../api/requestBudget';
import { numberParameterValue } from '../input/parameters';
import { countOf } from '../base/values';

/**
 * Checks the plan against the node's Max Requests per Run before the first request, and opens the run's account:
 * the transport then refuses any try (retry, split) that would go over the budget.
 */
export function planRequests(this: IExecuteFunctions, plan: RequestPlan): void {
	const node = this.getNode();
	const raw = this.getNodeParameter('options.maxRequests', 0, DEFAULT_MAX_REQUESTS) as unknown;
	const budget =
		numberParameterValue(node, raw, 0, 'Options > Max Requests per Run', {
			min: 0,
			integer: true,
		}) ?? DEFAULT_MAX_REQUESTS;
	openRequestAccount(this, node, budget, plan);
}

/** The plan of an operation that sends one request per group (or per item, per report): "3 groups × 1 request". */
export function planOneRequestEach(
	this: IExecuteFunctions,
	requests: number,
	noun = 'group',
	fewerRequests = 'Group By a field with fewer distinct values (one request per group)',
): void {
	planRequests.call(this, {
		requests,
		breakdown: `${countOf(requests, noun)} × 1 request`,
		fewerRequests,
	});
}

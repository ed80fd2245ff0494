import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, JsonObject } from 'n8n-workflow';

import { UnreadableAnswerError } from './answers';
import { addRunNote, noteRunTally } from '../base/hints';
import { countOf } from '../base/values';
import { QUOTA_USED_UP } from './errors';
import type { Pacer } from './pacing';

/**
 * Request accounting of one run: what a node run planned and sent (for Max Requests per Run), and, per execution
 * and credential, whether the API already said the monthly quota is used up (then nothing more of that key is sent
 * in that execution, by any node).
 */

interface NodeRunAccount {
	/** 0 = no limit. */
	budget: number;
	planned: number;
	/** "up to": the plan counts worst-case polls. */
	plannedIsMaximum: boolean;
	/** Every HTTP try, retries included. */
	sent: number;
	/** A try was refused because the budget was reached. */
	limited: boolean;
}

/** Keyed by the node run's context object: each run of a node gets its own. */
const accounts = new WeakMap<object, NodeRunAccount>();

interface ExecutionState {
	quotaUsedUp: boolean;
	lastUsedAt: number;
}

/** Keyed by the credential's pacer (its identity), then by execution id. */
const executions = new WeakMap<Pacer, Map<string, ExecutionState>>();
/** An execution not heard of for this long has ended (or waits long enough to ask the API afresh). */
const EXECUTION_FORGET_MS = 60 * 60_000;

/** Errors that stop a run: no further batch or group is started after one of them. */
const stopErrors = new WeakSet<Error>();

function executionState(context: object, pacer: Pacer): ExecutionState {
	let id = '';
	try {
		id = (context as { getExecutionId?: () => string | undefined }).getExecutionId?.() ?? '';
	} catch {
		// A context without an execution (e.g. loading options): nothing to remember.
	}
	if (!id) return { quotaUsedUp: false, lastUsedAt: 0 };
	let byExecution = executions.get(pacer);
	if (!byExecution) executions.set(pacer, (byExecution = new Map()));
	const now = Date.now();
	for (const [key, state] of byExecution)
		if (now - state.lastUsedAt > EXECUTION_FORGET_MS) byExecution.delete(key);
	let state = byExecution.get(id);
	if (!state) byExecution.set(id, (state = { quotaUsedUp: false, lastUsedAt: now }));
	state.lastUsedAt = now;
	return state;
}

export interface RequestPlan {
	requests: number;
	/** How the number comes about, e.g. "1,000 groups × 1 request". */
	breakdown: string;
	/** What lowers the number, e.g. "use a larger Batch Size". */
	fewerRequests: string;
	/** The number counts worst-case polls. */
	isMaximum?: boolean;
}

/**
 * Checks the plan against the run's Max Requests per Run (0 = no limit) before the first request, and opens the
 * run's account: the transport then refuses any try (retry, split) that would go over the budget.
 */
export function openRequestAccount(
	context: object,
	node: INode,
	budget: number,
	plan: RequestPlan,
): void {
	if (budget > 0 && plan.requests > budget) {
		throw new NodeOperationError(
			node,
			`This run would send ${plan.isMaximum ? 'up to ' : ''}${countOf(plan.requests, 'request')}, more than Max Requests per Run (${budget.toLocaleString('en-US')})`,
			{
				description: `Planned: ${plan.breakdown}. Nothing was sent. Each request counts against the API key's monthly quota. To go ahead, raise Options > Max Requests per Run (0 = no limit), or ${plan.fewerRequests}.`,
			},
		);
	}
	accounts.set(context, {
		budget,
		planned: plan.requests,
		plannedIsMaximum: plan.isMaximum === true,
		sent: 0,
		limited: false,
	});
}

/** Requests sent so far by this node run (every try), or undefined when the run planned none. */
export function requestsSent(context: object): number | undefined {
	return accounts.get(context)?.sent;
}

/** The requests the run planned (0 when it planned none). */
export function requestsPlanned(context: object): number {
	return accounts.get(context)?.planned ?? 0;
}

/** The share of Max Requests per Run from which the run's note names the budget: "close to it". */
export const BUDGET_NOTE_SHARE = 0.8;

/**
 * The note above the output on the requests the run sent: "1 request sent."; the budget only when it stopped a
 * request or the run used at least 80 % of it (BUDGET_NOTE_SHARE).
 */
export function requestsNote(account: { budget: number; sent: number; limited: boolean }): {
	message: string;
	type: 'info' | 'warning';
} {
	const { budget, sent, limited } = account;
	const max = budget.toLocaleString('en-US');
	if (limited)
		return {
			message: `Max Requests per Run (${max}) reached: ${countOf(sent, 'request')} sent, the rest of this run was not sent.`,
			type: 'warning',
		};
	if (budget > 0 && sent >= budget * BUDGET_NOTE_SHARE)
		return {
			message: `${countOf(sent, 'request')} sent: ${Math.floor((sent / budget) * 100)}% of Max Requests per Run (${max}).`,
			type: 'warning',
		};
	return { message: `${sent === 0 ? 'No request' : countOf(sent, 'request')} sent.`, type: 'info' };
}

/** For the output pane: what the run left out or is missing (hints.ts), then how many requests it sent. */
export function reportRequestsSpent(this: IExecuteFunctions): void {
	noteRunTally(this);
	const account = accounts.get(this);
	if (!account) return;
	const { message, type } = requestsNote(account);
	const detail = `${message} Planned: ${account.plannedIsMaximum ? 'up to ' : ''}${account.planned.toLocaleString('en-US')}; Max Requests per Run: ${account.budget > 0 ? account.budget.toLocaleString('en-US') : 'no limit'}.`;
	addRunNote(this, detail, type, { kind: 'requests', short: message });
}

/**
 * Called by the transport before each try: the error to refuse it with (nothing sent) when this execution already
 * learned that the key's monthly quota is used up, or when the try would go over the run's Max Requests per Run;
 * otherwise counts the try and returns undefined.
 */
export function refusalBeforeTry(
	context: object,
	node: INode,
	pacer: Pacer,
	label: string,
	itemIndex?: number,
): NodeApiError | NodeOperationError | undefined {
	if (executionState(context, pacer).quotaUsedUp) {
		const error = new NodeApiError(
			node,
			{ message: 'Limit Exceeded', httpCode: '429' } as JsonObject,
			{
				message: QUOTA_USED_UP,
				description: `The ${label} request was not sent. An earlier request of this execution with the same API key was answered 429 "Limit Exceeded": no further request of that key is sent in this execution.`,
				httpCode: '429',
				itemIndex,
			},
		);
		stopErrors.add(error);
		return error;
	}
	const account = accounts.get(context);
	if (!account) return;
	if (account.budget > 0 && account.sent + 1 > account.budget) {
		account.limited = true;
		const error = new NodeOperationError(
			node,
			`Max Requests per Run (${account.budget.toLocaleString('en-US')}) reached: the next ${label} request was not sent`,
			{
				itemIndex,
				description:
					`This run sent ${countOf(account.sent, 'request')} to the API (${account.planned.toLocaleString('en-US')} planned); the next one (a retry, or a split of a batch that timed out) was not sent. ` +
					'Retries after throttling or errors, and split batches, count as requests too. Raise Options > Max Requests per Run, or run again when the API is less busy.',
			},
		);
		stopErrors.add(error);
		return error;
	}
	account.sent++;
	return undefined;
}

/** Called by the transport after each answer: remembers a used-up monthly quota for the rest of the execution. */
export function afterEachAnswer(context: object, pacer: Pacer, quotaUsedUp: boolean): void {
	if (quotaUsedUp) executionState(context, pacer).quotaUsedUp = true;
}

/**
 * An answer after which nothing more is scheduled in this run: the quota is used up (429 Limit Exceeded), the key
 * or subscription is refused (403), the run's request budget is reached, or, when every task sends the same kind
 * of request (instrument batches differ only in their ISINs), the request is refused as malformed (400). A 400 for
 * one group's or item's own data says nothing about the others.
 */
export function isStopError(error: unknown, badRequestStops: boolean): boolean {
	if (!(error instanceof Error)) return false;
	if (stopErrors.has(error)) return true;
	// An API that answers one request in a shape nobody can read will most likely answer the next ones so.
	if (error instanceof UnreadableAnswerError) return true;
	if (!(error instanceof NodeApiError)) return false;
	if (error.httpCode === '403' || (badRequestStops && error.httpCode === '400')) return true;
	return (
		error.httpCode === '429' &&
		(error.errorResponse as IDataObject | undefined)?.message === 'Limit Exceeded'
	);
}

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import { asNodeError, fitTitle, operationError } from '../api/errors';
import { takeExtraOutputs } from '../base/operation';
import { describeGroupValues } from '../input/grouping';
import { groupsInputError } from '../input/inputProblems';
import type { Operation } from '../base/operation';
import { countOf } from '../base/values';
import {
	isStopError,
	reportRequestsSpent,
	requestsPlanned,
	requestsSent,
} from '../api/requestBudget';
import { executeAsTool, isToolExecution } from './tool';

/**
 * A shallow copy of an item's JSON to add fields to: the same as `{ ...json }` (own enumerable keys; an own
 * `__proto__` key stays a plain key, hence the spread for that case), but several times faster in V8 for the usual
 * object (measured by bench/overhead.ts). For loops over every input item.
 */
export function copyJson(json: IDataObject): IDataObject {
	return Object.prototype.hasOwnProperty.call(json, '__proto__')
		? { ...json }
		: Object.assign({}, json);
}

export function pairedTo(indices: number[]): IPairedItemData[] {
	return indices.map((item) => ({ item }));
}

export function errorJson(error: Error): IDataObject {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) fitTitle(error);
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError | NodeOperationError).description;
	if (description) json.error_details = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.http_code = httpCode;
	return json;
}

/** Under "Continue (using error output)" / "Continue": the error as one item per input item it concerns. */
export function errorItemsFor(
	error: Error,
	items: INodeExecutionData[],
	indices: number[],
): INodeExecutionData[] {
	const json = errorJson(error);
	return indices.map((item) => ({ json: { ...items[item].json, ...json }, pairedItem: { item } }));
}

/**
 * Dispatches to the chosen operation. Each node's execute catches what this throws: with continueOnFail it becomes
 * error items (errorItemsForRun), otherwise the node error.
 */
export async function routeOperation(
	this: IExecuteFunctions,
	operations: Record<string, Operation>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operations[operation];
	if (!chosen) {
		throw operationError(this.getNode(), `The operation "${operation}" is not supported`, {
			description:
				'Choose an operation of the list in the node (the workflow may come from a newer version of this package).',
		});
	}
	// As an AI Agent tool: one result item for the model, never a thrown error (tool.ts).
	if (isToolExecution(this)) return [await executeAsTool.call(this, chosen, items)];
	const output = await chosen.execute.call(this, items);
	reportRequestsSpent.call(this);
	return [output, ...takeExtraOutputs(this)];
}

/**
 * Under continueOnFail, a run that failed as a whole: the error on every input item it concerns (item 0 only for an
 * operation that runs once, on item 0's parameters), and the requests it spent.
 */
export function errorItemsForRun(
	this: IExecuteFunctions,
	error: unknown,
	operations: Record<string, Operation>,
): INodeExecutionData[][] {
	reportRequestsSpent.call(this);
	const items = this.getInputData();
	const runsOnce = operations[this.getNodeParameter('operation', 0) as string]?.runsOnce;
	const concerned = runsOnce ? [0] : items.map((_, index) => index);
	return [errorItemsFor(error as Error, items, concerned)];
}

export type RunError = NodeApiError | NodeOperationError;

export type TaskOutcome<T> =
	| { state: 'done'; value: T }
	/** The task's own request failed. */
	| { state: 'failed'; error: RunError }
	/** Never started: an earlier answer stopped the run (see isStopError). */
	| { state: 'not-sent'; error: RunError };

export interface TaskResults<T> {
	/** One per task, in the tasks' order. */
	outcomes: Array<TaskOutcome<T>>;
	/** The error that stopped the scheduling, if one did. */
	stoppedBy?: RunError;
}

/**
 * The one executor for batches and groups. Runs `run` for each task, `concurrency` at a time, and keeps every
 * result. A failure stops the scheduling (no new task starts, those in flight are awaited) when it is a stop error
 * (used-up quota, 403, request budget reached; 400 too when the tasks send `sameRequests`) or when the node does not
 * continue on fail; otherwise the other tasks go on. Never leaves a request running after it returns.
 */
export async function runTasks<TTask, T>(
	this: IExecuteFunctions,
	tasks: TTask[],
	run: (task: TTask) => Promise<T>,
	{ concurrency = 1, sameRequests = false }: { concurrency?: number; sameRequests?: boolean } = {},
): Promise<TaskResults<T>> {
	const node = this.getNode();
	const continueOnFail = this.continueOnFail();
	const outcomes: Array<TaskOutcome<T> | undefined> = new Array(tasks.length);
	let stoppedBy: RunError | undefined;
	let next = 0;
	const worker = async () => {
		while (!stoppedBy && next < tasks.length) {
			const index = next++;
			try {
				outcomes[index] = { state: 'done', value: await run(tasks[index]) };
			} catch (caught) {
				const error = asNodeError(node, caught);
				outcomes[index] = { state: 'failed', error };
				if (!stoppedBy && (isStopError(error, sameRequests) || !continueOnFail)) stoppedBy = error;
			}
		}
	};
	const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, tasks.length));
	await Promise.all(Array.from({ length: workers }, worker));
	const notSent = stoppedBy && notSentError(node, stoppedBy);
	return {
		outcomes: Array.from(
			tasks,
			(_, index) => outcomes[index] ?? { state: 'not-sent', error: notSent! },
		),
		stoppedBy,
	};
}

function notSentError(node: INode, cause: RunError): NodeOperationError {
	return operationError(
		node,
		'Not sent: an earlier request of this run failed, so no further requests were sent.',
		{
			description: [`The earlier failure: ${cause.message}`, cause.description]
				.filter(Boolean)
				.join('\n'),
		},
	);
}

/**
 * The first failure, with what the run did before it and what running again costs in its description: the title
 * stays the API's failure, what was done comes first below it.
 * `done` says what has data or was stored, e.g. "2 of 5 snapshots were stored (a, b)."
 */
export function withProgress(this: IExecuteFunctions, error: RunError, done: string): RunError {
	const sent = requestsSent(this);
	const planned = requestsPlanned(this);
	const cost =
		sent === undefined
			? ''
			: ` This run sent ${countOf(sent, 'request')}; running it again sends up to ${planned.toLocaleString('en-US')}.`;
	fitTitle(error);
	error.description = [`${done}${cost}`, error.description].filter(Boolean).join('\n');
	return error;
}

/**
 * Runs one portfolio-level request per group through the executor. With continueOnFail a failed group (and a
 * group not sent after a stop error) becomes error items for its own input items while the others carry their
 * results; without it the first failure is thrown with what `describeDone` says was done before it.
 */
export async function runGroups<TGroup extends { itemIndices: number[] }>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	groups: TGroup[],
	run: (group: TGroup) => Promise<INodeExecutionData[]>,
	/** What was done before the failure of `failed`: "2 of 5 snapshots were stored (a, b)." */
	describeDone: (done: TGroup[], failed: TGroup) => string,
): Promise<INodeExecutionData[]> {
	const { outcomes } = await (runTasks<TGroup, INodeExecutionData[]>).call(this, groups, (group) =>
		run(group),
	);
	const failed = outcomes.findIndex((outcome) => outcome.state === 'failed');
	if (failed >= 0 && !this.continueOnFail()) {
		// One group: the error alone says it all.
		if (groups.length === 1) throw (outcomes[failed] as { error: RunError }).error;
		const done = groups.filter((_, index) => outcomes[index].state === 'done');
		throw withProgress.call(
			this,
			(outcomes[failed] as { error: RunError }).error,
			describeDone(done, groups[failed]),
		);
	}
	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, index) => {
		if (outcome.state === 'done') output.push(...outcome.value);
		else output.push(...errorItemsFor(outcome.error, items, groups[index].itemIndices));
	});
	return output;
}

/** "a, b, c and 7 more" for naming groups in a message. */
export function listNames(names: string[], shown = 5): string {
	if (names.length <= shown) return names.join(', ');
	return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

export interface PreparedGroup<TGroup extends { itemIndices: number[] }, TInput> {
	group: TGroup;
	itemIndices: number[];
	input?: TInput;
	/** Only under continueOnFail: the group's bad input, thrown again when runGroups runs the group. */
	error?: Error;
}

/**
 * Reads every group's input before the first request is sent, so bad input anywhere fails the run with
 * nothing spent. Under continueOnFail a group with bad input keeps its error (runGroups turns it into
 * error items for that group) and the other groups go on.
 */
export function prepareGroups<TGroup extends { itemIndices: number[] }, TInput>(
	this: IExecuteFunctions,
	groups: TGroup[],
	read: (group: TGroup) => TInput,
): Array<PreparedGroup<TGroup, TInput>> {
	const prepared = groups.map((group): PreparedGroup<TGroup, TInput> => {
		try {
			return { group, itemIndices: group.itemIndices, input: read(group) };
		} catch (error) {
			return { group, itemIndices: group.itemIndices, error: error as Error };
		}
	});
	if (this.continueOnFail()) return prepared;
	const failed = prepared.filter((group) => group.error);
	if (failed.length)
		throw oneErrorForGroups(this.getNode(), failed as Array<{ group: object; error: unknown }>);
	return prepared;
}

/**
 * One pass over the whole input: the errors of every group read before any request, as one error listing all their
 * problems (a column's problem naming its group). An error that is not about the input is thrown as it is.
 */
export function oneErrorForGroups(
	node: INode,
	failed: Array<{ group: object; error: unknown }>,
): NodeApiError | NodeOperationError {
	const errors = failed.map(({ group, error }) => ({ group, error: asNodeError(node, error) }));
	if (errors.length === 1 || !errors.every(({ error }) => error instanceof NodeOperationError))
		return errors[0].error;
	return groupsInputError(
		node,
		errors.map(({ group, error }) => ({
			error: error as NodeOperationError,
			group: groupWords(group),
		})),
	);
}

/** A group as messages name it ("portfolio = A"), when it was made by Group By values. */
function groupWords(group: object): string | undefined {
	const values = (group as { values?: unknown }).values;
	if (!values || typeof values !== 'object') return undefined;
	return describeGroupValues(values as Record<string, unknown>) || undefined;
}

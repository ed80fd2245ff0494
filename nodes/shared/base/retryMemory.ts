import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

/**
 * What a node run keeps for n8n's Settings > Retry On Fail: the engine runs the node's whole execute() again, in the
 * same execution, after it throws (or, under continueOnFail, when its first output item has an error). Requests that
 * must never go twice (a report is generated and charged per request) look here first: what is already done is
 * output again as it was, what may have been done is not sent again.
 *
 * Kept only when the node has Retry On Fail on, per execution and node, for at most MAX_EXECUTIONS executions (the
 * least recently used is dropped); the node forgets its entry when it finishes without a failure.
 */
export type Remembered<TAnswer> =
	/** Finished: the output of the task, used as it is. */
	| { state: 'done'; items: INodeExecutionData[] }
	/** The API answered (the request was carried out and charged) but the work after it failed. */
	| { state: 'answered'; answer: TAnswer }
	/**
	 * The request went out and no one knows whether it was carried out: a report is never sent again; a snapshot is
	 * (storing the same holdings again is safe), and a failure of it is still counted as outcome unknown.
	 */
	| { state: 'uncertain'; message: string; description?: string; httpCode?: string }
	/**
	 * The API answered 2xx (carried out and charged) but its answer could not be read: never sent again, the retry
	 * fails again with the same error.
	 */
	| { state: 'carried-out'; message: string; description?: string; httpCode?: string };

export const MAX_EXECUTIONS = 100;

const memory = new Map<string, Map<string, Remembered<unknown>>>();

export interface RetryMemory<TAnswer> {
	get(task: string): Remembered<TAnswer> | undefined;
	set(task: string, value: Remembered<TAnswer>): void;
	/** The node finished without a failure: nothing is kept for a retry. */
	forget(): void;
}

/** Whether the node has Settings > Retry On Fail on. */
export function retriesOnFail(this: IExecuteFunctions): boolean {
	return this.getNode().retryOnFail === true;
}

/** The memory of this execution and node, or undefined when the node does not retry on fail (nothing is kept). */
export function retryMemory<TAnswer>(this: IExecuteFunctions): RetryMemory<TAnswer> | undefined {
	if (!retriesOnFail.call(this)) return undefined;
	const executionId = typeof this.getExecutionId === 'function' ? this.getExecutionId() : '';
	if (!executionId) return undefined;
	const node = this.getNode();
	const key = `${executionId}\u0000${node.id ?? ''}\u0000${node.name}`;
	const touch = (): Map<string, Remembered<unknown>> => {
		let tasks = memory.get(key);
		if (tasks) memory.delete(key);
		else tasks = new Map();
		memory.set(key, tasks);
		while (memory.size > MAX_EXECUTIONS) memory.delete(memory.keys().next().value!);
		return tasks;
	};
	return {
		get: (task) => memory.get(key)?.get(task) as Remembered<TAnswer> | undefined,
		set: (task, value) => {
			touch().set(task, value);
		},
		forget: () => {
			memory.delete(key);
		},
	};
}

/** For tests: how many executions are remembered. */
export function rememberedExecutions(): number {
	return memory.size;
}

/** A failure that must never be sent again in this execution, as a retry finds it. */
export type RememberedFailure = Extract<
	Remembered<unknown>,
	{ state: 'uncertain' | 'carried-out' }
>;

/** What to keep of an error (its texts and status) for a retry to fail again with it, unsent. */
export function rememberedFailure(
	state: RememberedFailure['state'],
	error: { message: string; description?: string | null; httpCode?: string | null },
): RememberedFailure {
	return {
		state,
		message: error.message,
		description: error.description ?? undefined,
		httpCode: error.httpCode ?? undefined,
	};
}

/** The kept failure as its error again, with `why` it was not sent again added to its description. */
export function failedAgain(
	context: IExecuteFunctions,
	kept: RememberedFailure,
	itemIndex: number,
	why: string,
): NodeApiError {
	const { message } = kept;
	return new NodeApiError(context.getNode(), { message } as JsonObject, {
		message,
		description: [kept.description, why].filter(Boolean).join('\n'),
		httpCode: kept.httpCode,
		itemIndex,
	});
}

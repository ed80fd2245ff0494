import * as n8nWorkflow from 'n8n-workflow';

type AbortableSleep = (ms: number, abortSignal?: AbortSignal) => Promise<void>;

/**
 * n8n-workflow names that the package looks up at run time because they differ across the supported n8n
 * versions: before 2.34 the abort-aware sleep is `sleepWithAbort` (and `sleep` ignores a signal); from 2.34
 * `sleepWithAbort` is gone and `sleep(ms, abortSignal)` takes the signal. The compatibility test checks that
 * every supported n8n-workflow has one of them.
 */
export const ABORTABLE_SLEEP_NAMES = ['sleepWithAbort', 'sleep'] as const;

function resolveAbortableSleep(): AbortableSleep {
	const api = n8nWorkflow as unknown as Partial<Record<(typeof ABORTABLE_SLEEP_NAMES)[number], AbortableSleep>>;
	for (const name of ABORTABLE_SLEEP_NAMES) {
		const candidate = api[name];
		if (typeof candidate === 'function') return candidate;
	}
	throw new Error('n8n-workflow offers neither sleepWithAbort nor sleep: this n8n version is not supported');
}

let abortableSleep: AbortableSleep | undefined;

/** Waits `ms`, or rejects as soon as the execution is cancelled. */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	abortableSleep ??= resolveAbortableSleep();
	await abortableSleep(ms, signal);
}

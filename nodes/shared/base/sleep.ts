import * as n8nWorkflow from 'n8n-workflow';

type AbortableSleep = (ms: number, abortSignal?: AbortSignal) => Promise<void>;

/**
 * n8n-workflow's abort-aware sleep, by the names it has had across the supported n8n versions, in order of
 * preference: before 2.34 it is `sleepWithAbort` (and `sleep` ignores a signal); from 2.34 `sleepWithAbort` is
 * gone and `sleep(ms, abortSignal)` takes the signal. The compatibility test checks that every supported
 * n8n-workflow has one of them.
 */
export const ABORTABLE_SLEEP_NAMES = ['sleepWithAbort', 'sleep'] as const;

const exported = n8nWorkflow as unknown as Partial<
	Record<(typeof ABORTABLE_SLEEP_NAMES)[number], AbortableSleep>
>;
const abortableSleep = ABORTABLE_SLEEP_NAMES.map((name) => exported[name]).find(
	(fn) => typeof fn === 'function',
);

/** Waits `ms`, or rejects as soon as the execution is cancelled. */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	if (!abortableSleep) {
		throw new Error(
			'n8n-workflow offers neither sleepWithAbort nor sleep: this n8n version is not supported',
		);
	}
	await abortableSleep(ms, signal);
}

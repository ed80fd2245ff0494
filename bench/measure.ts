/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- bench tooling runs in Node, outside n8n's sandbox */
/** Timing, memory sampling and small statistics for the benchmarks. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gcFunction: (() => void) | undefined;

/** A full garbage collection (v8's gc, exposed at run time), so memory deltas start from the same floor. */
export function collectGarbage(): void {
	if (!gcFunction) {
		setFlagsFromString('--expose-gc');
		gcFunction = runInNewContext('gc') as () => void;
	}
	gcFunction();
	gcFunction();
}

export interface MemoryPeak {
	/** Peak heapUsed minus heapUsed before the run (after a full GC), in bytes. */
	heapDelta: number;
	/** Peak rss minus rss before the run, in bytes. */
	rssDelta: number;
	samples: number;
}

/**
 * Samples process.memoryUsage() every `everyMs` while `work` runs (and once right after it), and returns the peaks
 * over the level measured just before, after a full GC. Samples are taken when the event loop is free, so a peak
 * inside one long synchronous stretch can be missed; the sample right after `work` catches what is still held.
 */
export async function withMemoryPeak<T>(
	work: () => Promise<T>,
	everyMs = 5,
): Promise<{ value: T; memory: MemoryPeak }> {
	collectGarbage();
	const before = process.memoryUsage();
	let heapPeak = before.heapUsed;
	let rssPeak = before.rss;
	let samples = 0;
	const sample = () => {
		const now = process.memoryUsage();
		samples++;
		if (now.heapUsed > heapPeak) heapPeak = now.heapUsed;
		if (now.rss > rssPeak) rssPeak = now.rss;
	};
	const timer = setInterval(sample, everyMs);
	try {
		const value = await work();
		sample();
		return {
			value,
			memory: { heapDelta: heapPeak - before.heapUsed, rssDelta: rssPeak - before.rss, samples },
		};
	} finally {
		clearInterval(timer);
	}
}

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function min(values: number[]): number {
	return values.length ? Math.min(...values) : NaN;
}

export function max(values: number[]): number {
	return values.length ? Math.max(...values) : NaN;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ms = (value: number) =>
	value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
export const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
export const int = (value: number) => value.toLocaleString('en-US');

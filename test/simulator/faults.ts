/**
 * Fault injection per route, or '*' for every route whose own spec is absent or spent.
 */
import {
	INTERNAL_ERROR,
	LIMIT_EXCEEDED,
	SERVICE_UNAVAILABLE,
	TIMED_OUT,
	TOO_MANY_MESSAGE,
	TOO_MANY_STATUS,
} from './gateway';
import { unreadableResponse } from './answers';
import type { ApiResult } from './http';
import type { FaultKind, FaultSpec, RouteKey } from './types';

export const FAULT_KINDS: readonly FaultKind[] = [
	'429-message',
	'429-status',
	'429-limit',
	'503',
	'500',
	'504',
	'302',
	'307',
	'drop',
	'processed-drop',
	'slow',
	'echo-key',
	'echo-key-success',
	'unreadable-empty',
	'unreadable-data-text',
	'unreadable-data-number',
	'unreadable-list',
	'html-page',
	'proxy-502-html',
	'proxy-503-html',
	'proxy-504-html',
	'firewall-403-html',
	'not-found-404-html',
	'cut-body',
	'garbage',
	'bad-chunk',
	'corrupt-gzip',
	'header-overflow',
	'answer-extra-isin',
	'answer-duplicate-isin',
	'answer-entry-without-isin',
	'answer-unknown-message',
	'answer-long-text',
	'trickle',
	'oversized-answer',
	'oversized-answer-unannounced',
];
/** Success statuses with something no client can read: `{}`, `{"data":"maintenance"}`, `{"data":42}`, `[1,2,3]`, HTML. */
export const UNREADABLE_FAULT_KINDS: readonly FaultKind[] = [
	'unreadable-empty',
	'unreadable-data-text',
	'unreadable-data-number',
	'unreadable-list',
	'html-page',
];
/** 502 / 503 HTML pages, as a proxy in front of the API answers. */
export const PROXY_PAGE_FAULT_KINDS: readonly FaultKind[] = ['proxy-502-html', 'proxy-503-html'];
/**
 * Answers broken on the wire, after the route logic ran (a report is generated, a snapshot stored): the body cut
 * short after the headers, bytes that are not HTTP, a bad chunk size, a gzip body that is not gzip, a header
 * larger than any client reads (server.ts `sendAnswer`).
 */
export const WIRE_FAULT_KINDS: readonly FaultKind[] = [
	'cut-body',
	'garbage',
	'bad-chunk',
	'corrupt-gzip',
	'header-overflow',
];
/** Kinds that change a success answer after the route logic ran (answers.ts `alterAnswer`). */
export const ANSWER_CHANGE_KINDS: readonly FaultKind[] = [
	'answer-extra-isin',
	'answer-duplicate-isin',
	'answer-entry-without-isin',
	'answer-unknown-message',
	'answer-long-text',
];
/** Kinds that let the request go on to the route logic (and change its answer or drop it afterwards). */
export const PASS_THROUGH_KINDS: readonly FaultKind[] = [
	'slow',
	'processed-drop',
	'echo-key-success',
	'trickle',
	...WIRE_FAULT_KINDS,
	...ANSWER_CHANGE_KINDS,
];
/** Kinds whose answer is not sent whole at once (server.ts `sendAnswer`). */
export const STREAMED_KINDS: readonly FaultKind[] = [
	'trickle',
	'oversized-answer',
	'oversized-answer-unannounced',
];
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ['503'];
export const DEFAULT_SLOW_MS = 2000;
export const DEFAULT_TRICKLE_MS = 1000;
export const DEFAULT_FAULT_SEED = 1;

export interface Fault {
	kind: FaultKind;
	slowMs: number;
	trickleMs: number;
}

/** mulberry32: a small seeded generator, so every run with the same seed sees the same chance (fault draws, the
 * pacing's simulated clients). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface ActiveSpec {
	spec: FaultSpec;
	position: number;
	random: () => number;
}

function isSpent(active: ActiveSpec): boolean {
	const { spec } = active;
	return (
		active.position >= (spec.sequence?.length ?? 0) &&
		!(spec.probability !== undefined && spec.probability > 0)
	);
}

export class FaultInjector {
	private readonly specs = new Map<RouteKey | '*', ActiveSpec>();

	set(route: RouteKey | '*', spec: FaultSpec | null): void {
		if (spec === null) {
			this.specs.delete(route);
			return;
		}
		for (const kind of [...(spec.sequence ?? []), ...(spec.kinds ?? [])]) {
			if (kind !== null && !FAULT_KINDS.includes(kind))
				throw new Error(`Unknown fault kind: ${String(kind)}`);
		}
		this.specs.set(route, {
			spec: { ...spec },
			position: 0,
			random: seededRandom(spec.seed ?? DEFAULT_FAULT_SEED),
		});
	}

	reset(): void {
		this.specs.clear();
	}

	/**
	 * The fault for this request of `route`, if any (consumes one sequence entry / one random draw).
	 * The route's own spec wins; once it is spent (sequence used up and no probability) '*' applies.
	 */
	next(route: RouteKey): Fault | null {
		const own = this.specs.get(route);
		const active = own && !isSpent(own) ? own : this.specs.get('*');
		if (!active) return null;
		const { spec } = active;
		const slowMs = spec.slowMs ?? DEFAULT_SLOW_MS;
		const trickleMs = spec.trickleMs ?? DEFAULT_TRICKLE_MS;
		const sequence = spec.sequence ?? [];
		if (active.position < sequence.length) {
			const kind = sequence[active.position++];
			return kind === null ? null : { kind, slowMs, trickleMs };
		}
		if (spec.probability === undefined || spec.probability <= 0) return null;
		if (active.random() >= spec.probability) return null;
		const kinds = spec.kinds && spec.kinds.length > 0 ? spec.kinds : DEFAULT_FAULT_KINDS;
		return { kind: kinds[Math.floor(active.random() * kinds.length)], slowMs, trickleMs };
	}
}

/**
 * The response of a fault kind that answers at once (not `drop`, `processed-drop`, `slow`, `echo-key-success`,
 * `trickle` nor the answer changes). The `oversized-answer` kinds stand for the start of their answer (server.ts
 * streams the rest). The redirects point at `redirectTo`:
 * another origin, where a client that follows them would take the request (and its key) along.
 */
export function faultResponse(
	kind: FaultKind,
	redirectTo: string,
	headers: Record<string, unknown> = {},
	route?: RouteKey,
): ApiResult {
	const unreadable = route ? unreadableResponse(kind, route) : undefined;
	if (unreadable) return unreadable;
	switch (kind) {
		case 'echo-key':
			// An API that quotes the request back in its error, headers (and so the key) included.
			return { status: 400, body: { message: 'Bad request', request: { headers } } };
		case '302':
		case '307':
			return {
				status: Number(kind),
				body: { message: 'Moved' },
				headers: { location: redirectTo },
			};
		case '429-message':
			return TOO_MANY_MESSAGE();
		case '429-status':
			return TOO_MANY_STATUS();
		case '429-limit':
			return LIMIT_EXCEEDED();
		case '503':
			return SERVICE_UNAVAILABLE();
		case '500':
			return INTERNAL_ERROR();
		case '504':
			return TIMED_OUT();
		case 'oversized-answer':
		case 'oversized-answer-unannounced':
			return { status: 200, body: { data: [] } };
		default:
			throw new Error(`The fault kind ${kind} does not answer at once`);
	}
}

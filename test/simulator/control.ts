/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Control surface on the API listener under /__sim/ (no key needed), for processes that cannot call the
 * Simulator object directly (e.g. a real n8n in end-to-end tests).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { answerShapeProblem } from './answers';
import { DOWNLOAD_FAULT_KINDS } from './downloads';
import { FAULT_KINDS } from './faults';
import { isRecord, parseJson, readBody, sendJson, type ApiResult } from './http';
import { ALL_ROUTES } from './routes';
import type {
	AnswerShape,
	BurstLimit,
	DownloadFaultKind,
	FaultSpec,
	LatencyTable,
	RecordedRequest,
	RequestFilter,
	RouteKey,
	Simulator,
} from './types';

export const CONTROL_PREFIX = '/__sim';

export function isControlPath(pathname: string): boolean {
	return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

export interface Stats {
	total: number;
	byRoute: Record<string, number>;
	byKey: Record<string, number>;
	byRouteAndKey: Record<string, Record<string, number>>;
	byStatus: Record<string, number>;
}

const UNROUTED = '(unrouted)';
const NO_KEY = '(none)';

export function computeStats(requests: readonly RecordedRequest[]): Stats {
	const stats: Stats = {
		total: requests.length,
		byRoute: {},
		byKey: {},
		byRouteAndKey: {},
		byStatus: {},
	};
	for (const request of requests) {
		const route = request.route ?? UNROUTED;
		const key = request.key ?? NO_KEY;
		stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1;
		stats.byKey[key] = (stats.byKey[key] ?? 0) + 1;
		const perKey = (stats.byRouteAndKey[route] ??= {});
		perKey[key] = (perKey[key] ?? 0) + 1;
		stats.byStatus[String(request.status)] = (stats.byStatus[String(request.status)] ?? 0) + 1;
	}
	return stats;
}

const ROUTE_KEYS: readonly string[] = ALL_ROUTES.map((route) => route.key);

function isRouteKey(value: unknown): value is RouteKey {
	return typeof value === 'string' && ROUTE_KEYS.includes(value);
}

function ok(body: unknown = { ok: true }): ApiResult {
	return { status: 200, body };
}

function bad(message: string): ApiResult {
	return { status: 400, body: { error: message } };
}

function filterOf(url: URL): RequestFilter | { error: string } {
	const route = url.searchParams.get('route');
	const key = url.searchParams.get('key');
	if (route !== null && !isRouteKey(route)) return { error: `Unknown route: ${route}` };
	return { ...(route !== null ? { route } : {}), ...(key !== null ? { key } : {}) };
}

/** A body that is the value itself or wraps it under `field` (e.g. `{"limit": ...}`). */
function unwrap(body: unknown, field: string): unknown {
	return isRecord(body) && field in body ? body[field] : body;
}

function isBurstLimit(value: unknown): value is BurstLimit {
	return (
		isRecord(value) && typeof value.requests === 'number' && typeof value.windowMs === 'number'
	);
}

function isFaultSpec(value: unknown): value is FaultSpec {
	if (!isRecord(value)) return false;
	const kinds = [
		...(Array.isArray(value.sequence) ? value.sequence : []),
		...(Array.isArray(value.kinds) ? value.kinds : []),
	];
	return kinds.every((kind) => kind === null || FAULT_KINDS.includes(kind as never));
}

function dispatch(simulator: Simulator, method: string, url: URL, body: unknown): ApiResult {
	const action = `${method} ${url.pathname.replace(/\/$/, '')}`;
	switch (action) {
		case `GET ${CONTROL_PREFIX}/health`:
			return ok({ ok: true, url: simulator.url, downloadUrl: simulator.downloadUrl });
		case `GET ${CONTROL_PREFIX}/stats`:
			return ok(computeStats(simulator.requests()));
		case `GET ${CONTROL_PREFIX}/requests`: {
			const filter = filterOf(url);
			if ('error' in filter) return bad(filter.error);
			const requests = simulator.requests(filter);
			return ok({ count: requests.length, requests });
		}
		case `GET ${CONTROL_PREFIX}/downloads`:
			return ok({ downloads: simulator.downloads() });
		case `GET ${CONTROL_PREFIX}/portfolios`:
			return ok({ portfolios: simulator.portfolioState(url.searchParams.get('org') ?? 'org-a') });
		case `POST ${CONTROL_PREFIX}/reset`:
			simulator.reset();
			return ok();
		case `POST ${CONTROL_PREFIX}/faults`: {
			if (!isRecord(body))
				return bad('Body must be {"route": <route key or "*">, "spec": <fault spec or null>}');
			if (body.route !== '*' && !isRouteKey(body.route))
				return bad(`Unknown route: ${String(body.route)}`);
			const spec = body.spec ?? null;
			if (spec !== null && !isFaultSpec(spec)) return bad('Invalid fault spec');
			simulator.setFaults(body.route, spec);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/download-faults`: {
			const sequence = unwrap(body, 'sequence') ?? null;
			const valid = (kind: unknown) =>
				kind === null || DOWNLOAD_FAULT_KINDS.includes(kind as DownloadFaultKind);
			if (sequence !== null && !(Array.isArray(sequence) && sequence.every(valid))) {
				return bad(
					`Body must be {"sequence": [${DOWNLOAD_FAULT_KINDS.map((kind) => `"${kind}"`).join(' | ')} | null, ...]} or null`,
				);
			}
			const trickleMs = isRecord(body) ? body.trickleMs : undefined;
			simulator.setDownloadFaults(
				sequence as (DownloadFaultKind | null)[] | null,
				typeof trickleMs === 'number' ? { trickleMs } : {},
			);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/report-link`: {
			const template = unwrap(body, 'template') ?? null;
			if (template !== null && typeof template !== 'string')
				return bad('Body must be {"template": "<link with {url}, {path}, {port}>"} or null');
			simulator.setReportLink(template);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/burst`: {
			const limit = unwrap(body, 'limit') ?? null;
			if (limit !== null && !isBurstLimit(limit))
				return bad(
					'Body must be a burst limit {requests, windowMs, body?, retryAfterSeconds?} or null',
				);
			simulator.setBurstLimit(limit);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/quota`: {
			const quota = unwrap(body, 'monthlyQuota') ?? null;
			if (quota !== null && !(typeof quota === 'number' && Number.isInteger(quota) && quota >= 0)) {
				return bad(
					'Body must be a whole number of requests per key and month, or null, or {"monthlyQuota": ...}',
				);
			}
			simulator.setMonthlyQuota(quota);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/data-version`: {
			const version = unwrap(body, 'version');
			if (version !== 1 && version !== 2) return bad('Body must be {"version": 1 | 2}');
			simulator.setDataVersion(version);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/answer-shape`: {
			const shape = unwrap(body, 'shape') ?? null;
			const problem = shape === null ? null : answerShapeProblem(shape);
			if (problem)
				return bad(
					`Body must be {"shape": {"temperature"?: "wrapped" | "top-level", "measures"?: "spec" | "vendor", "involvements"?: "spec" | "extended"}} or null: ${problem}`,
				);
			simulator.setAnswerShape(shape as AnswerShape | null);
			return ok();
		}
		case `POST ${CONTROL_PREFIX}/latency`: {
			const latency = unwrap(body, 'latency') ?? {};
			if (!isRecord(latency))
				return bad('Body must be a latency table {"<route key>|default": {baseMs, perHoldingMs}}');
			simulator.setLatency(latency as LatencyTable);
			return ok();
		}
		default:
			return { status: 404, body: { error: `Unknown control endpoint: ${action}` } };
	}
}

export async function handleControl(
	simulator: Simulator,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const parsed = parseJson((await readBody(req)).buffer);
	if (!parsed.ok) {
		sendJson(res, bad(`Invalid JSON: ${parsed.error}`));
		return;
	}
	let result: ApiResult;
	try {
		result = dispatch(simulator, req.method ?? 'GET', url, parsed.value);
	} catch (error) {
		result = bad(error instanceof Error ? error.message : String(error));
	}
	sendJson(res, result);
}

/**
 * The API gateway in front of the service: route table, key check, short-burst limit, monthly quota.
 */
import { monthKey } from './dates';
import { apiError, gatewayError, type ApiResult } from './http';
import type { KeyProfile } from './keys';
import type { BurstLimit, RouteKey } from './types';

export const MISSING_TOKEN = (): ApiResult =>
	gatewayError(403, 'Missing Authentication Token', 'MissingAuthenticationTokenException');
export const FORBIDDEN = (): ApiResult => gatewayError(403, 'Forbidden', 'ForbiddenException');
export const TOO_LONG = (): ApiResult => gatewayError(413, 'Request Too Long');
export const LIMIT_EXCEEDED = (): ApiResult =>
	gatewayError(429, 'Limit Exceeded', 'LimitExceededException');
export const TOO_MANY_MESSAGE = (): ApiResult =>
	gatewayError(429, 'Too Many Requests', 'TooManyRequestsException');
export const TOO_MANY_STATUS = (): ApiResult => ({
	status: 429,
	body: { status: 429, error: 'Too many requests, please try again later.' },
});
export const SERVICE_UNAVAILABLE = (): ApiResult => gatewayError(503, 'Service Unavailable');
export const INTERNAL_ERROR = (): ApiResult => apiError(500, 'Internal server error');
export const TIMED_OUT = (): ApiResult => gatewayError(504, 'Endpoint request timed out');

// ---- Route table -------------------------------------------------------------------------------------------

export interface RoutePattern {
	key: RouteKey;
	method: string;
	/** e.g. '/portfolios/{identifier}' */
	path: string;
}

export interface RouteMatch<R extends RoutePattern> {
	route: R;
	params: Record<string, string>;
}

function splitPath(pathname: string): string[] {
	const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
	return trimmed.split('/').slice(1);
}

/** Finds the route of a request; `{name}` segments take one non-empty URL-encoded segment, which is decoded. */
export function matchRoute<R extends RoutePattern>(
	routes: readonly R[],
	method: string,
	pathname: string,
): RouteMatch<R> | null {
	const segments = splitPath(pathname);
	for (const route of routes) {
		if (route.method !== method) continue;
		const pattern = splitPath(route.path);
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let matched = true;
		for (let i = 0; i < pattern.length && matched; i++) {
			const parameter = /^\{(\w+)\}$/.exec(pattern[i]);
			if (!parameter) {
				matched = pattern[i] === segments[i];
				continue;
			}
			const decoded = safeDecode(segments[i]);
			if (decoded === null || decoded === '') matched = false;
			else params[parameter[1]] = decoded;
		}
		if (matched) return { route, params };
	}
	return null;
}

function safeDecode(segment: string): string | null {
	try {
		return decodeURIComponent(segment);
	} catch {
		return null;
	}
}

// ---- Short-burst limit -------------------------------------------------------------------------------------

/** Sliding-window log per key; only accepted requests enter the window. */
export class BurstLimiter {
	private limit: BurstLimit | null = null;
	private readonly windows = new Map<string, number[]>();
	private rejections = 0;

	constructor(limit: BurstLimit | null | undefined) {
		this.setLimit(limit);
	}

	setLimit(limit: BurstLimit | null | undefined): void {
		this.limit = limit ? { ...limit } : null;
		this.reset();
	}

	reset(): void {
		this.windows.clear();
		this.rejections = 0;
	}

	/** A 429 result when the key is over the limit, else null (and the request is counted). */
	check(key: string, nowMs: number): ApiResult | null {
		const limit = this.limit;
		if (!limit) return null;
		const window = (this.windows.get(key) ?? []).filter((at) => at > nowMs - limit.windowMs);
		this.windows.set(key, window);
		if (window.length < limit.requests) {
			window.push(nowMs);
			return null;
		}
		this.rejections++;
		const style = limit.body ?? 'message';
		const useStatusBody =
			style === 'status' || (style === 'alternate' && this.rejections % 2 === 0);
		const result = useStatusBody ? TOO_MANY_STATUS() : TOO_MANY_MESSAGE();
		if (limit.retryAfterSeconds !== undefined) {
			result.headers = { ...result.headers, 'retry-after': String(limit.retryAfterSeconds) };
		}
		return result;
	}
}

// ---- Monthly quota -----------------------------------------------------------------------------------------

export class QuotaCounter {
	private readonly usage = new Map<string, number>();
	private override: number | undefined;

	constructor(private readonly defaultQuota: number) {}

	limitFor(profile: KeyProfile): number {
		return profile.monthlyQuota ?? this.override ?? this.defaultQuota;
	}

	/** Quota of the keys without a fixed one until reset(); null restores the start option. */
	setQuota(quota: number | null): void {
		this.override = quota ?? undefined;
	}

	/** Counts one request of the key in the calendar month of `now`; returns the usage including it. */
	consume(key: string, now: Date): number {
		const slot = `${key}|${monthKey(now)}`;
		const used = (this.usage.get(slot) ?? 0) + 1;
		this.usage.set(slot, used);
		return used;
	}

	reset(): void {
		this.usage.clear();
		this.override = undefined;
	}
}

import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';

import { CREDENTIAL_NAME, MAX_BODY_BYTES } from './constants';
import { apiErrorFor, apiMessage, asNodeError, isQuotaExhausted } from './errors';
import type { ApiResponse } from './errors';
import { sendApiRequest } from './httpClient';
import { pacerFor } from './pacing';
import { afterEachAnswer, refusalBeforeTry } from './requestBudget';
import { sleepUnlessCancelled } from './sleep';
import type { PaceSlot } from './pacing';
import type { ApiRoute } from './routes';
import { formatSeconds, hasLoneSurrogate, showValue } from './values';

export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

export interface RetryPolicy {
	/** Retries after the first try, for throttles (429), 503 and dropped connections together. */
	maxRetries: number;
	/** Retries of a 500: the spec says retry once. */
	maxServerErrorRetries: number;
	/** Retries of a dropped connection or a client-side timeout. */
	maxNetworkRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Total time the request may spend waiting between tries. */
	maxTotalWaitMs: number;
	/** Client-side timeout of one try; the gateway itself gives up at 29 s. */
	requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 10,
	maxServerErrorRetries: 1,
	maxNetworkRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	maxTotalWaitMs: 120_000,
	requestTimeoutMs: 60_000,
};

export interface ApiRequestOptions {
	body?: IDataObject;
	/** Value for `{identifier}` in the route path; encoded here, exactly once. */
	identifier?: string;
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
}

/** One request to the API with the retry policy of spec sections 7 and 8. Returns the parsed success body. */
export async function apiRequest<T = IDataObject>(
	this: RequestContext,
	route: ApiRoute,
	options: ApiRequestOptions = {},
): Promise<T> {
	const node = this.getNode();
	const policy = { ...DEFAULT_RETRY_POLICY, ...userRetryLimits(this), ...options.retry };
	const { baseUrl, apiKey } = await resolveCredential.call(this, options.itemIndex);
	if (options.identifier !== undefined && hasLoneSurrogate(options.identifier)) {
		// encodeURIComponent would throw "URI malformed": refuse by name, nothing is sent.
		throw new NodeOperationError(
			node,
			`${options.itemIndex === undefined ? '' : `Item ${options.itemIndex}: `}the portfolio identifier "${showValue(options.identifier)}" contains a broken character and cannot be put in the address of the ${route.label} request`,
			{ itemIndex: options.itemIndex, description: 'The text has half of a two-part character (for example an emoji cut in two). Correct the identifier. Nothing was sent.' },
		);
	}
	const path =
		options.identifier === undefined
			? route.path
			: route.path.replace('{identifier}', encodeURIComponent(options.identifier));
	if (options.body !== undefined) assertBodySize(node, route, options.body, options.itemIndex);

	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const request: IHttpRequestOptions = {
		method: route.method,
		url: `${baseUrl}${path}`,
		json: true,
		timeout: policy.requestTimeoutMs,
		headers: { accept: 'application/json' },
		...(options.body !== undefined ? { body: options.body } : {}),
		...(signal ? { abortSignal: signal } : {}),
	};

	// Every request of the credential in this process shares one pacing (see pacing.ts): unpaced until the API
	// throttles us, then at most the learned number of request starts per second.
	const pacer = pacerFor(baseUrl, apiKey);
	let slot: PaceSlot = pacer.reserve(Date.now());
	await waitForSlot(pacer, slot, signal);

	let retries = 0;
	let serverErrorRetries = 0;
	let networkRetries = 0;
	let throttles = 0;
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		let response: ApiResponse | undefined;
		let networkFailure: string | undefined;
		// Request accounting (requestBudget.ts): nothing is sent after a used-up quota or over Max Requests per Run.
		const refusal = refusalBeforeTry(this, node, pacer, route.label, options.itemIndex);
		if (refusal) {
			pacer.release(slot);
			throw refusal;
		}
		try {
			response = await sendApiRequest.call(this, request);
		} catch (error) {
			networkFailure = signal?.aborted ? undefined : networkErrorCode(error);
			if (!networkFailure) {
				pacer.accepted(slot);
				throw asNodeError(node, error);
			}
		}

		if (response) afterEachAnswer(this, pacer, isQuotaExhausted(response));
		const throttled = !networkFailure && response!.statusCode === 429 && !isQuotaExhausted(response!);
		// A throttled request did not count against the API's limit; anything else may have.
		let paced = false;
		if (throttled) paced = pacer.throttled(slot);
		else pacer.accepted(slot);
		if (response && response.statusCode >= 200 && response.statusCode < 300) return response.body as T;

		let retryable = false;
		if (networkFailure) {
			retryable = networkRetries++ < policy.maxNetworkRetries && retries < policy.maxRetries;
		} else if (throttled) {
			throttles++;
			retryable = retries < policy.maxRetries;
		} else if (response!.statusCode === 503) {
			retryable = retries < policy.maxRetries;
		} else if (response!.statusCode === 500) {
			retryable = serverErrorRetries++ < policy.maxServerErrorRetries;
		}

		// Paced, a request refused for the first time just takes the next free slot; otherwise (and as a floor when a
		// request is refused again) the bounded backoff.
		const floor = !retryable
			? 0
			: paced && throttles === 1 && !hasRetryAfter(response?.headers)
				? 0
				: backoffDelay(policy, retries, response?.headers);
		let next: PaceSlot | undefined;
		let delay = floor;
		if (retryable) {
			const now = Date.now();
			next = pacer.reserve(now + floor, now);
			delay = next.at - now;
		}
		// Max Wait 0 means no retry at all, even when the next slot is free at once.
		if (!retryable || waitedMs + delay > policy.maxTotalWaitMs || policy.maxTotalWaitMs <= 0) {
			if (next) pacer.release(next);
			if (networkFailure) {
				throw new NodeApiError(node, { message: networkFailure } as JsonObject, {
					// The code stays out of the message: NodeApiError swaps a message naming ECONNRESET & co. for a generic one.
					message: `Could not reach the API for the ${route.label}, after ${attempt} tries.`,
					description: `Connection error: ${networkFailure}. Waited ${formatSeconds(waitedMs)} in all between tries. Check the Base URL and the network, then run again.`,
					itemIndex: options.itemIndex,
				});
			}
			if (retries > 0 && (response!.statusCode === 429 || response!.statusCode === 503)) {
				throw exhaustedRetriesError(node, route, response!, attempt, waitedMs, options.itemIndex);
			}
			throw apiErrorFor(node, route, response!, options.itemIndex);
		}

		retries++;
		this.logger.debug('Sustainability Compliance API: retrying request', {
			route: `${route.method} ${route.path}`,
			status: networkFailure ?? response!.statusCode,
			apiMessage: response ? apiMessage(response.body) : undefined,
			waitMs: delay,
			attempt,
			...(paced ? { pacing: `${pacer.limit} requests per ${pacer.windowMs} ms` } : {}),
		});
		slot = next!;
		await waitForSlot(pacer, slot, signal);
		waitedMs += delay;
	}
}

/** Sleeps until the slot's time; a cancelled execution gives the slot back. */
async function waitForSlot(pacer: ReturnType<typeof pacerFor>, slot: PaceSlot, signal?: AbortSignal): Promise<void> {
	const wait = slot.at - Date.now();
	if (wait <= 0) return;
	const giveBack = () => pacer.release(slot);
	signal?.addEventListener('abort', giveBack, { once: true });
	try {
		await sleepUnlessCancelled(wait, signal);
	} finally {
		signal?.removeEventListener('abort', giveBack);
	}
}

function hasRetryAfter(headers?: Record<string, unknown>): boolean {
	const retryAfter = Number(headers?.['retry-after']);
	return Number.isFinite(retryAfter) && retryAfter >= 0;
}

/** The node's "Max Wait When Throttled" option, when the node has one. */
function userRetryLimits(context: RequestContext): Partial<RetryPolicy> {
	let seconds: unknown;
	try {
		seconds = context.getNodeParameter('options.maxThrottleWait', 0, undefined);
	} catch {
		return {};
	}
	return typeof seconds === 'number' && seconds >= 0 ? { maxTotalWaitMs: seconds * 1000 } : {};
}

/** Full-jitter exponential backoff; a Retry-After header, if the API ever sends one, wins. */
export function backoffDelay(policy: RetryPolicy, retry: number, headers?: Record<string, unknown>): number {
	const retryAfter = Number(headers?.['retry-after']);
	if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, policy.maxDelayMs);
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
	return Math.round(Math.random() * ceiling);
}

function exhaustedRetriesError(
	node: INode,
	route: ApiRoute,
	response: ApiResponse,
	attempts: number,
	waitedMs: number,
	itemIndex?: number,
): NodeApiError {
	const base = apiErrorFor(node, route, response, itemIndex);
	const cause = response.statusCode === 429 ? 'kept answering "too many requests" (429)' : 'stayed unavailable (503)';
	base.message = `The API ${cause} for the ${route.label}: gave up after ${attempts} tries and ${formatSeconds(waitedMs)} of waiting. This is a short-term limit, not the monthly quota; run again in a few minutes, or lower Concurrency.`;
	return base;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'UND_ERR_SOCKET',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** The code of a dropped connection or timeout anywhere in the error's cause chain, else undefined. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		// n8n-core wraps axios errors in a NodeApiError: the code lands in httpCode, the raw text in messages.
		const { code, httpCode, message, messages, response } = current as {
			code?: unknown;
			httpCode?: unknown;
			message?: unknown;
			messages?: unknown;
			response?: unknown;
		};
		if (response && typeof response === 'object' && 'status' in response) return undefined;
		for (const candidate of [code, httpCode]) {
			if (typeof candidate === 'string' && NETWORK_CODES.has(candidate)) return candidate;
		}
		for (const text of [message, ...(Array.isArray(messages) ? messages : [])]) {
			if (typeof text === 'string' && /socket hang up|timeout of \d+ms exceeded|ECONNRESET/i.test(text)) {
				return /timeout/i.test(text) ? 'ETIMEDOUT' : 'ECONNRESET';
			}
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

async function resolveCredential(this: RequestContext, itemIndex?: number): Promise<{ baseUrl: string; apiKey: string }> {
	const credentials = await this.getCredentials<{ baseUrl?: string; apiKey?: unknown }>(CREDENTIAL_NAME, itemIndex);
	return { baseUrl: checkBaseUrl(this.getNode(), String(credentials.baseUrl ?? '')), apiKey: String(credentials.apiKey ?? '') };
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** https only, except for loopback hosts (a local simulator); trailing slashes dropped. */
export function checkBaseUrl(node: INode, raw: string): string {
	const trimmed = raw.trim().replace(/\/+$/, '');
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		throw new NodeOperationError(node, `The credential's Base URL "${trimmed}" is not a web address`, {
			description: 'Enter the address the vendor gave, for example https://api.example.com',
		});
	}
	const loopback = LOOPBACK_HOST.test(url.hostname);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
		throw new NodeOperationError(node, `The credential's Base URL must start with https:// (got "${url.protocol}//")`, {
			description: 'Only local test addresses (localhost, 127.0.0.1) may use http://. The API key must not travel unencrypted.',
		});
	}
	return trimmed;
}

function assertBodySize(node: INode, route: ApiRoute, body: IDataObject, itemIndex?: number): void {
	const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
	if (bytes > MAX_BODY_BYTES) {
		throw new NodeOperationError(
			node,
			`The ${route.label} request would be ${(bytes / 1024 / 1024).toFixed(1)} MB; the API accepts at most 10 MB`,
			{
				itemIndex,
				description: 'Nothing was sent. Send fewer holdings per run (Group By splits a portfolio input into one request per group), or shorten long text fields.',
			},
		);
	}
}


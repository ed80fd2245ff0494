import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IHttpRequestOptions, INode, JsonObject } from 'n8n-workflow';

import { boundTexts, isGatewayPage, isProxyPage, noteAboutAnswer, readAnswer } from './answers';
import {
	CREDENTIAL_NAME,
	MAX_ANSWER_BYTES,
	MAX_BODY_BYTES,
	MAX_OUTPUT_TEXT_LENGTH,
} from '../base/constants';
import {
	apiErrorFor,
	apiMessage,
	asNodeError,
	contentTypeWords,
	inputError,
	isHtmlAnswer,
	isQuotaExhausted,
	operationError,
	sentenceStart,
} from './errors';
import type { ApiResponse } from './errors';
import { networkFailureOf, sendApiRequest, tryDeadline } from './httpClient';
import { checkBaseUrlText } from './baseUrl';
import type { ApiAnswer, NetworkFailure, RequestContext } from './httpClient';
import { RECHECK_MS, pacerFor } from './pacing';
import { afterEachAnswer, refusalBeforeTry } from './requestBudget';
import { countWaited } from '../base/hints';
import { sleepUnlessCancelled } from '../base/sleep';
import type { Pacer, PaceSlot } from './pacing';
import type { ApiRoute } from './routes';
import { countOf, formatSeconds, hasLoneSurrogate, showValue } from '../base/values';

export interface RetryPolicy {
	/** Retries after the first try, for 503 and dropped connections together. */
	maxRetries: number;
	/**
	 * Retries of a throttled request (429). A throttle paces every request of the key (pacing.ts), so a request
	 * refused again and again while other processes share the key is not hopeless; Max Wait When Throttled bounds it
	 * in time.
	 */
	maxThrottleRetries: number;
	/** Retries of a 500: the vendor asks to retry once, then contact support. */
	maxServerErrorRetries: number;
	/** Retries of a dropped connection or a client-side timeout. */
	maxNetworkRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Total time the request may spend waiting between tries. */
	maxTotalWaitMs: number;
	/**
	 * Deadline of one try, from sending to the answer's last byte (bytes arriving do not extend it); the gateway
	 * itself gives up at 29 s.
	 */
	requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 10,
	maxThrottleRetries: 30,
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

/** One request to the API, retried as the vendor asks (throttles and 503 with backoff, a 500 once, never a used-up quota). Returns the parsed success body. */
export async function apiRequest<T = IDataObject>(
	this: RequestContext,
	route: ApiRoute,
	options: ApiRequestOptions = {},
): Promise<T> {
	const node = this.getNode();
	const { itemIndex } = options;
	const policy = { ...DEFAULT_RETRY_POLICY, ...userRetryLimits(this), ...options.retry };
	const { baseUrl, apiKey } = await resolveCredential.call(this, itemIndex);
	const request = requestOf(node, route, baseUrl, policy, options);
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;

	// Every request of the credential in this process shares one pacing (see pacing.ts): unpaced until the API
	// throttles us, then at most the learned number of request starts per second. The wait for the first slot counts
	// against Max Wait like any other.
	const pacer = pacerFor(baseUrl, apiKey);
	let slot: PaceSlot = pacer.reserve(Date.now());
	let waitedMs = Math.max(0, slot.at - Date.now());
	if (waitedMs > policy.maxTotalWaitMs) {
		pacer.release(slot);
		throw pacingWaitError(node, route, waitedMs, policy.maxTotalWaitMs, pacer, itemIndex);
	}
	countWaited(this, waitedMs);
	await waitForSlot(pacer, slot, signal);

	const tries = new RetryAllowance(policy, route);
	for (let attempt = 1; ; attempt++) {
		const sentAt = Date.now();
		const { response, failure } = await sendOnce.call(this, {
			node,
			route,
			request,
			pacer,
			slot,
			policy,
			signal,
			apiKey,
			itemIndex,
		});
		// A try that timed out was time spent waiting, as much as a pause between tries.
		if (failure?.kind === 'timeout') waitedMs += Date.now() - sentAt;
		if (response) afterEachAnswer(this, pacer, isQuotaExhausted(response));
		const throttled = !failure && response!.statusCode === 429 && !isQuotaExhausted(response!);
		// A throttled request did not count against the API's limit; anything else may have.
		if (throttled) pacer.throttled(slot, Date.now(), retryAfterMs(response!.headers));
		else if (failure?.reached === 'never') pacer.release(slot);
		else pacer.accepted(slot);
		// Not sent again: the same request would most likely get the same answer.
		if (response?.tooLarge)
			throw answerTooLargeError(node, route, response.statusCode, response.tooLarge, itemIndex);
		// A proxy's or maintenance page (HTML with 200, any page that is not JSON with 503) is no answer of the API:
		// taken like a 503.
		const proxyPage = !!response && isProxyPage(response);
		if (response && response.statusCode >= 200 && response.statusCode < 300 && !proxyPage)
			return answerBody.call(this, node, route, response, itemIndex) as T;
		// On a route that a 2xx carries out (a report generated), a page answered 2xx may stand for the API's work:
		// never sent again, its outcome is not known.
		if (proxyPage && route.chargedOutcome && response!.statusCode < 300)
			throw new UncertainOutcomeError(
				node,
				route,
				pageFailure(response!),
				attempt,
				policy.requestTimeoutMs,
				itemIndex,
			);

		if (failure?.reached === 'maybe' && route.onUncertainOutcome !== 'send-again') {
			throw new UncertainOutcomeError(
				node,
				route,
				failure,
				attempt,
				policy.requestTimeoutMs,
				itemIndex,
			);
		}

		const retryable = tries.allowAnother(failure, throttled, response, proxyPage);
		const floor = !retryable
			? 0
			: throttled
				? throttleRetryFloor(
						policy,
						tries.retries,
						tries.throttles,
						response!.headers,
						pacer.windowMs,
					)
				: backoffDelay(policy, tries.retries, response?.headers);
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
			const asked = retryable && response ? retryAfterMs(response.headers) : undefined;
			const error = lastTryError(
				node,
				route,
				baseUrl,
				policy,
				{ response, failure, proxyPage },
				{
					attempt,
					waitedMs,
					retried: tries.retries > 0,
					itemIndex,
				},
			);
			if (asked !== undefined && waitedMs + asked > policy.maxTotalWaitMs)
				error.description = [
					error.description,
					`The API asked to wait ${formatSeconds(asked)} before asking again (Retry-After), more than Max Wait When Throttled leaves (${formatSeconds(Math.max(0, policy.maxTotalWaitMs - waitedMs))}): it was not asked again early, as every try counts against the monthly quota. Raise Max Wait When Throttled, or run again later.`,
				]
					.filter(Boolean)
					.join('\n');
			throw error;
		}

		tries.retries++;
		this.logger.debug('Sustainability Compliance API: retrying request', {
			route: `${route.method} ${route.path}`,
			status: failure?.code ?? response!.statusCode,
			apiMessage: response ? apiMessage(response.body) : undefined,
			waitMs: delay,
			attempt,
			...(throttled ? { pacing: `${pacer.limit} requests per ${pacer.windowMs} ms` } : {}),
		});
		slot = next!;
		countWaited(this, Math.max(delay, slot.at - Date.now()));
		await waitForSlot(pacer, slot, signal);
		waitedMs += delay;
	}
}

/** The HTTP request of a route: its address (identifier encoded exactly once) and body, both checked first. */
function requestOf(
	node: INode,
	route: ApiRoute,
	baseUrl: string,
	policy: RetryPolicy,
	{ identifier, body, itemIndex }: ApiRequestOptions,
): IHttpRequestOptions {
	if (identifier !== undefined && hasLoneSurrogate(identifier)) {
		// encodeURIComponent would throw "URI malformed": refuse by name, nothing is sent.
		throw inputError(
			node,
			itemIndex,
			`the portfolio identifier "${showValue(identifier)}" contains a broken character and cannot be put in the address of the ${route.label} request`,
			'The text has half of a two-part character (for example an emoji cut in two). Correct the identifier.',
			{ atRequest: true },
		);
	}
	const path =
		identifier === undefined
			? route.path
			: route.path.replace('{identifier}', encodeURIComponent(identifier));
	if (body !== undefined) assertBodySize(node, route, body, itemIndex);
	return {
		method: route.method,
		url: `${baseUrl}${path}`,
		json: true,
		// Idle bound of the connection; the deadline of a try is tryDeadline's, in sendOnce.
		timeout: policy.requestTimeoutMs,
		headers: { accept: 'application/json' },
		...(body !== undefined ? { body } : {}),
	};
}

interface OneTry {
	node: INode;
	route: ApiRoute;
	request: IHttpRequestOptions;
	pacer: Pacer;
	slot: PaceSlot;
	policy: RetryPolicy;
	signal: AbortSignal | undefined;
	apiKey: string;
	itemIndex: number | undefined;
}

/**
 * Sends the request once, unless the run's request account refuses it: the answer (the key redacted from it), or
 * the network failure, a proxy's 502 page counting as one. Anything else (a cancelled execution) is thrown.
 */
async function sendOnce(
	this: RequestContext,
	{ node, route, request, pacer, slot, policy, signal, apiKey, itemIndex }: OneTry,
): Promise<{ response?: ApiAnswer; failure?: NetworkFailure }> {
	// Request accounting (requestBudget.ts): nothing is sent after a used-up quota or over Max Requests per Run.
	const refusal = refusalBeforeTry(this, node, pacer, route.label, itemIndex);
	if (refusal) {
		pacer.release(slot);
		throw refusal;
	}
	const deadline = tryDeadline(policy.requestTimeoutMs, signal);
	let response: ApiAnswer;
	try {
		response = await sendApiRequest.call(this, request, deadline.signal);
	} catch (error) {
		const failure = deadline.expired()
			? ({ code: 'ETIMEDOUT', reached: 'maybe', kind: 'timeout' } as const)
			: signal?.aborted
				? undefined
				: networkFailureOf(error);
		if (failure) return { failure };
		pacer.accepted(slot);
		throw redactError(asNodeError(node, error), apiKey);
	} finally {
		deadline.dispose();
	}
	response = { ...response, body: redactKey(response.body, apiKey, response.text) };
	// A proxy's 502 page: the proxy got no usable answer from the API, which may have carried the request out.
	if (!response.tooLarge && isGatewayPage(response))
		return { response, failure: pageFailure(response) };
	return { response };
}

/** A success answer read against the route's contract, over-long texts cut (and a note saying so). */
function answerBody(
	this: RequestContext,
	node: INode,
	route: ApiRoute,
	response: ApiAnswer,
	itemIndex: number | undefined,
): unknown {
	const bounded = boundTexts(readAnswer(node, route, response, itemIndex));
	if (bounded.cut > 0 && 'addExecutionHints' in this) {
		const texts = countOf(bounded.cut, 'text');
		const limit = MAX_OUTPUT_TEXT_LENGTH.toLocaleString('en-US');
		noteAboutAnswer.call(
			this,
			`The API's answer to the ${route.label} request held ${texts} longer than ${limit} characters: cut there in the output, each marked "(truncated, N characters)".`,
			`The answer held ${texts} longer than ${limit} characters: cut in the output, marked "(truncated…)".`,
		);
	}
	return bounded.value;
}

/** What the retry policy still allows after each kind of failed try; `retries` counts the tries sent again. */
class RetryAllowance {
	retries = 0;
	throttles = 0;
	private serverErrorRetries = 0;
	private networkRetries = 0;
	private unavailableRetries = 0;

	constructor(
		private readonly policy: RetryPolicy,
		private readonly route: ApiRoute,
	) {}

	/** Whether this failed try may be sent again; counts it against its kind's limit. */
	allowAnother(
		failure: NetworkFailure | undefined,
		throttled: boolean,
		response: ApiAnswer | undefined,
		proxyPage: boolean,
	): boolean {
		const { policy } = this;
		if (failure) {
			const limit =
				failure.kind === 'secure-connection'
					? 0
					: failure.kind === 'host-not-found'
						? HOST_NOT_FOUND_RETRIES
						: policy.maxNetworkRetries;
			return this.networkRetries++ < limit && this.retries < policy.maxRetries;
		}
		if (throttled) {
			this.throttles++;
			return this.retries < policy.maxThrottleRetries;
		}
		if (response!.statusCode === 503 || proxyPage) {
			return (
				this.unavailableRetries++ < (this.route.maxUnavailableRetries ?? policy.maxRetries) &&
				this.retries < policy.maxRetries
			);
		}
		if (response!.statusCode === 500)
			return this.serverErrorRetries++ < policy.maxServerErrorRetries;
		return false;
	}
}

/** The error of the last try, when it is not sent again: by what went wrong, and whether it was retried. */
function lastTryError(
	node: INode,
	route: ApiRoute,
	baseUrl: string,
	policy: RetryPolicy,
	{
		response,
		failure,
		proxyPage,
	}: { response?: ApiAnswer; failure?: NetworkFailure; proxyPage: boolean },
	{
		attempt,
		waitedMs,
		retried,
		itemIndex,
	}: { attempt: number; waitedMs: number; retried: boolean; itemIndex?: number },
): NodeApiError | NodeOperationError {
	if (failure)
		return networkError(
			node,
			route,
			baseUrl,
			failure,
			attempt,
			waitedMs,
			policy.requestTimeoutMs,
			itemIndex,
		);
	if (proxyPage) return proxyPageError(node, route, response!, attempt, waitedMs, itemIndex);
	if (retried && (response!.statusCode === 429 || response!.statusCode === 503))
		return exhaustedRetriesError(node, route, response!, attempt, waitedMs, itemIndex);
	return apiErrorFor(node, route, response!, itemIndex);
}

/** A name that does not resolve is usually a typo, which a retry cannot fix; one retry covers a resolver hiccup. */
const HOST_NOT_FOUND_RETRIES = 1;

const KEY_PLACEHOLDER = '[API key hidden]';

/** Keys of these characters are written the same in any JSON text (no escape can hide them from a text search). */
const PLAIN_KEY = /^[A-Za-z0-9._~+=-]+$/;

/**
 * The API's answer with every occurrence of the key replaced, so that no output, error message or stored error body
 * can show it (an answer may quote the request's headers). An answer without the key (the rule) is returned as it is
 * after one native search: of the answer's text as it came when given (under 1 ms for 10,000 instruments), else of
 * its JSON text (about 25 ms); only an answer that holds it is walked, and only the strings holding it are copied.
 */
function redactKey<T>(value: T, apiKey: string, sourceText?: string): T {
	if (!apiKey) return value;
	if (sourceText !== undefined && PLAIN_KEY.test(apiKey) && !sourceText.includes(apiKey))
		return value;
	// The key as it appears inside JSON text (escaped like any string).
	if (
		value &&
		typeof value === 'object' &&
		!JSON.stringify(value).includes(JSON.stringify(apiKey).slice(1, -1))
	)
		return value;
	const redact = (current: unknown): unknown => {
		if (typeof current === 'string')
			return current.includes(apiKey) ? current.split(apiKey).join(KEY_PLACEHOLDER) : current;
		if (!current || typeof current !== 'object') return current;
		if (Array.isArray(current)) {
			let copy: unknown[] | undefined;
			for (let index = 0; index < current.length; index++) {
				const entry = redact(current[index]);
				if (entry !== current[index]) (copy ??= current.slice())[index] = entry;
			}
			return copy ?? current;
		}
		let copy: Record<string, unknown> | undefined;
		for (const [name, entry] of Object.entries(current)) {
			const redacted = redact(entry);
			const shownName = name.includes(apiKey) ? name.split(apiKey).join(KEY_PLACEHOLDER) : name;
			if (redacted !== entry || shownName !== name) {
				copy ??= { ...(current as Record<string, unknown>) };
				if (shownName !== name) delete copy[name];
				copy[shownName] = redacted;
			}
		}
		return copy ?? current;
	};
	return redact(value) as T;
}

/** An error thrown by n8n's request helper, with the key taken out of its texts. */
function redactError<E extends NodeApiError | NodeOperationError>(error: E, apiKey: string): E {
	if (!apiKey) return error;
	error.message = redactKey(error.message, apiKey);
	if (typeof error.description === 'string')
		error.description = redactKey(error.description, apiKey);
	if (error instanceof NodeApiError && Array.isArray(error.messages))
		error.messages = redactKey(error.messages, apiKey);
	return error;
}

/** The first slot is further away than Max Wait allows: nothing is sent, the slot is given back. */
function pacingWaitError(
	node: INode,
	route: ApiRoute,
	waitMs: number,
	maxWaitMs: number,
	pacer: ReturnType<typeof pacerFor>,
	itemIndex?: number,
): NodeApiError {
	return new NodeApiError(node, { message: 'paced' } as JsonObject, {
		message: `The ${route.label} request was not sent: its turn was ${formatSeconds(waitMs)} away, more than Max Wait When Throttled (${formatSeconds(maxWaitMs)}).`,
		description: `The API recently answered "too many requests" to this API key, so every request of the key in this n8n (other executions and nodes too) now takes turns: at most ${pacer.limit ?? '?'} every ${formatSeconds(pacer.windowMs)}. This wait is that pacing, not the monthly quota. Nothing was sent and no request was spent. Raise Max Wait When Throttled, or run again when the other runs with this key are done.`,
		itemIndex,
	});
}

/**
 * The request may have reached the API and been carried out, but no answer came. Thrown instead of sending again
 * on a route whose repetition could do something twice (see `onUncertainOutcome` in routes.ts); settle.ts turns it
 * into an answer where a read can tell what happened.
 */
export class UncertainOutcomeError extends NodeApiError {
	/** What became of the request, as a sentence without its full stop (the title only says its outcome is not known). */
	readonly whatHappened: string;

	constructor(
		node: INode,
		readonly route: ApiRoute,
		readonly networkFailure: NetworkFailure,
		attempts: number,
		timeoutMs: number,
		itemIndex?: number,
	) {
		const what =
			networkFailure.kind === 'timeout'
				? `The API did not finish its answer to the ${route.label} request within ${formatSeconds(timeoutMs)}`
				: networkFailure.kind === 'broken-answer'
					? `No readable answer came to the ${route.label} request (${networkFailure.reason})`
					: networkFailure.kind === 'gateway-page'
						? `A proxy or gateway in front of the API ${networkFailure.reason} to the ${route.label} request`
						: `The connection to the API dropped after the ${route.label} request was sent, before an answer came`;
		const advice =
			route.uncertainAdvice ??
			"It was not sent again. Check with the Portfolio Snapshots node's Get Many operation what is stored now, then run again only for what is missing.";
		super(node, { message: networkFailure.code } as JsonObject, {
			message: `Whether the API carried out the ${route.label} request is not known${route.uncertainOutcome ? `: ${route.uncertainOutcome}` : ''}.`,
			description: `${what}.\n${advice}\n${failureDetail(networkFailure)}, on try ${attempts}.`,
			...(networkFailure.status ? { httpCode: String(networkFailure.status) } : {}),
			itemIndex,
		});
		this.whatHappened = what;
	}
}

/**
 * A page where the API's JSON was expected, as a failure of the "may have been carried out" kind: a proxy's 502 page,
 * or a page answered with a success status on a charged route. What came, in words (status and content type, never
 * the page).
 */
function pageFailure(response: ApiAnswer): NetworkFailure {
	const { statusCode } = response;
	return {
		code: statusCode === 502 ? `GATEWAY_PAGE_${statusCode}` : `PAGE_${statusCode}`,
		reached: 'maybe',
		kind: 'gateway-page',
		status: statusCode,
		reason:
			statusCode === 502
				? `answered 502 (Bad Gateway) with a page of its own (content type ${contentTypeWords(response)})`
				: `answered ${statusCode} with a page of its own (content type ${contentTypeWords(response)}) instead of the API's JSON`,
	};
}

/** The failure's code for support, with what it means where the code alone says little. */
function failureDetail(failure: NetworkFailure): string {
	if (failure.kind === 'gateway-page')
		return `What came: status ${failure.status}, a page that is not the API's JSON (not shown)`;
	if (failure.kind === 'broken-answer') return `What happened: ${failure.code}`;
	return `Connection error: ${failure.code}`;
}

/**
 * Sleeps until the slot's time, looking again at least every RECHECK_MS: a change of the pacing (a throttle, a step
 * up, a Retry-After) may move the slot while it waits. A cancelled execution gives the slot back.
 */
async function waitForSlot(
	pacer: ReturnType<typeof pacerFor>,
	slot: PaceSlot,
	signal?: AbortSignal,
): Promise<void> {
	if (slot.at <= Date.now()) return;
	const giveBack = () => pacer.release(slot);
	signal?.addEventListener('abort', giveBack, { once: true });
	try {
		for (let wait = slot.at - Date.now(); wait > 0; wait = slot.at - Date.now())
			await sleepUnlessCancelled(Math.min(wait, RECHECK_MS), signal);
	} finally {
		signal?.removeEventListener('abort', giveBack);
	}
}

/**
 * The API's `Retry-After` in milliseconds from `now`, when it sent one: delta-seconds, or an HTTP date (RFC 9110:
 * the IMF-fixdate and the two obsolete forms); a date already past asks for no wait. Undefined for anything else.
 */
export function retryAfterMs(
	headers?: Record<string, unknown>,
	now: number = Date.now(),
): number | undefined {
	const raw = headers?.['retry-after'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (typeof value === 'number')
		return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
	const at = httpDate(text);
	return at === undefined ? undefined : Math.max(0, at - now);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAME = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*';
const HTTP_DATES: Array<{ pattern: RegExp; parts: (match: RegExpExecArray) => string[] }> = [
	// IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
	{
		pattern: new RegExp(
			`^${DAY_NAME},\\s*(\\d{1,2}) ([a-z]{3}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`,
			'i',
		),
		parts: (m) => [m[3], m[2], m[1], m[4], m[5], m[6]],
	},
	// RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
	{
		pattern: new RegExp(
			`^${DAY_NAME},\\s*(\\d{1,2})-([a-z]{3})-(\\d{2}|\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`,
			'i',
		),
		parts: (m) => [m[3], m[2], m[1], m[4], m[5], m[6]],
	},
	// asctime: Sun Nov  6 08:49:37 1994 (always UTC)
	{
		pattern: new RegExp(
			`^${DAY_NAME} ([a-z]{3}) +(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`,
			'i',
		),
		parts: (m) => [m[6], m[1], m[2], m[3], m[4], m[5]],
	},
];

/** An HTTP date (RFC 9110 section 5.6.7) in epoch milliseconds, or undefined when it is none. */
export function httpDate(text: string): number | undefined {
	for (const { pattern, parts } of HTTP_DATES) {
		const match = pattern.exec(text);
		if (!match) continue;
		const [yearText, monthName, day, hour, minute, second] = parts(match);
		const month = MONTHS.indexOf(monthName.toLowerCase());
		let year = Number(yearText);
		// RFC 9110: a two-digit year more than 50 years in the future is in the past century.
		if (yearText.length === 2) year += year + 2000 > new Date().getUTCFullYear() + 50 ? 1900 : 2000;
		const at = Date.UTC(year, month, Number(day), Number(hour), Number(minute), Number(second));
		const check = new Date(at);
		if (month < 0 || check.getUTCDate() !== Number(day) || Number(hour) > 23) return undefined;
		if (Number(minute) > 59 || Number(second) > 60) return undefined;
		return at;
	}
	return undefined;
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

/**
 * The least wait before the next try of a throttled request (its slot in the pacing may come later): a
 * `Retry-After` as the API asks. Otherwise the first throttle of a request waits for nothing but the next free slot,
 * a further one for a random part of one pacing window (`windowMs`): the throttle paced every request of the key,
 * and a longer backoff would only leave the limit unused at the end of a run while others' requests go ahead.
 */
export function throttleRetryFloor(
	policy: RetryPolicy,
	retries: number,
	throttles: number,
	headers: Record<string, unknown> | undefined,
	windowMs: number,
	random: () => number = Math.random,
): number {
	if (retryAfterMs(headers) !== undefined) return backoffDelay(policy, retries, headers);
	if (throttles <= 1) return 0;
	return Math.round(random() * Math.min(windowMs, policy.baseDelayMs * 2 ** retries));
}

/**
 * Full-jitter exponential backoff; a Retry-After header, if the API sends one, wins, as it asks: a try before then
 * would be refused and cost quota (Max Wait When Throttled bounds the wait: beyond it the request is not sent again).
 */
export function backoffDelay(
	policy: RetryPolicy,
	retry: number,
	headers?: Record<string, unknown>,
): number {
	const asked = retryAfterMs(headers);
	if (asked !== undefined) return asked;
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
	const gaveUp = `gave up after ${attempts} tries and ${formatSeconds(waitedMs)} of waiting`;
	if (response.statusCode === 429) {
		base.message = `The API kept answering "too many requests" (429) to the ${route.label} request: ${gaveUp}.`;
		base.description = [
			'This is a short-term limit, not the monthly quota: run again in a few minutes, or lower Concurrency.',
			apiSaid(response),
		]
			.filter(Boolean)
			.join('\n');
		return base;
	}
	base.message = `The API stayed unavailable (503) for the ${route.label} request: ${gaveUp}.`;
	base.description = [
		'The API, or a gateway in front of it, is temporarily out of service: run again in a few minutes.',
		apiSaid(response),
		`A 503 means the request was not carried out, but each try may count against the monthly quota${route.maxUnavailableRetries !== undefined ? `, so the ${route.label} request is tried at most ${route.maxUnavailableRetries + 1} times` : ''}.`,
	]
		.filter(Boolean)
		.join('\n');
	return base;
}

/** The API's own words of an answer, as the description names them, or ''. */
function apiSaid(response: ApiResponse): string {
	const said = apiMessage(response.body);
	return said ? `API response (${response.statusCode}): ${said}` : '';
}

function proxyPageError(
	node: INode,
	route: ApiRoute,
	response: ApiResponse,
	attempts: number,
	waitedMs: number,
	itemIndex?: number,
): NodeApiError {
	const { statusCode } = response;
	const tries = `${attempts} ${attempts === 1 ? 'try' : 'tries'}`;
	const page = isHtmlAnswer(response) ? 'an HTML page' : 'a page that is not JSON';
	return new NodeApiError(
		node,
		{ message: 'proxy page', httpCode: String(statusCode) } as JsonObject,
		{
			message: `A proxy or maintenance page answered the ${route.label} request instead of the API (status ${statusCode}, after ${tries}).`,
			description: `What came: ${page} with content type ${contentTypeWords(response)}, instead of the API's JSON: a proxy, gateway or maintenance page in front of the API says it is not available. Taken like "temporarily unavailable" (503): the request was not carried out, and it was asked again with pauses (waited ${formatSeconds(waitedMs)} in all, within Max Wait When Throttled). Each try may count against the monthly quota. Run again in a few minutes; if it persists, check the credential's Base URL (it should be the API's own address) and tell the vendor. The page itself is not shown.`,
			httpCode: String(statusCode),
			itemIndex,
		},
	);
}

function networkError(
	node: INode,
	route: ApiRoute,
	baseUrl: string,
	failure: NetworkFailure,
	attempts: number,
	waitedMs: number,
	timeoutMs: number,
	itemIndex?: number,
): NodeApiError {
	const { origin, hostname } = new URL(baseUrl);
	const tries = `${attempts} ${attempts === 1 ? 'try' : 'tries'}`;
	let message: string;
	let description: string;
	if (failure.kind === 'host-not-found') {
		message = `Could not find the API host "${showValue(hostname, 40)}" for the ${route.label} request.`;
		description = `The name in the credential's Base URL does not resolve to an address. Check the Base URL in the credential (${origin}) for a typo, and that this n8n can reach the internet (DNS, proxy). Nothing reached the API and no request was spent (${tries}).`;
	} else if (failure.kind === 'secure-connection') {
		message = `Could not set up a secure connection to the API for the ${route.label} request.`;
		description = `${origin}: ${failure.reason}. Nothing was sent to the API and no request was spent. Check the Base URL in the credential (https:// and the right port); if the address is right, the server's certificate is the problem: tell the vendor. Error code: ${failure.code}.`;
	} else if (failure.kind === 'timeout') {
		message = `The API did not finish its answer to the ${route.label} request within ${formatSeconds(timeoutMs)}, after ${tries}.`;
		description = `${formatSeconds(timeoutMs)} is the limit of one try. Waited ${formatSeconds(waitedMs)} in all, counting the tries that timed out, within Max Wait When Throttled. Try again later, or send fewer holdings per request.`;
	} else if (failure.kind === 'broken-answer') {
		message = `The API's answer to the ${route.label} request could not be read, after ${tries}.`;
		description = `${sentenceStart(failure.reason ?? 'it broke off')}. The last try got an answer that broke off or was damaged on the way; waited ${formatSeconds(waitedMs)} in all between tries. Something between this n8n and the API (a proxy, a firewall, an unstable network) may be damaging answers: check the Base URL and the network, then run again. What happened: ${failure.code}.`;
	} else if (failure.kind === 'gateway-page') {
		message = `A proxy or gateway in front of the API got no usable answer to the ${route.label} request, after ${tries}.`;
		description = `It ${failure.reason}. Asked again with pauses: waited ${formatSeconds(waitedMs)} in all, within Max Wait When Throttled. Each try may count against the monthly quota. Run again in a few minutes; if it persists, check the credential's Base URL (it should be the API's own address) and tell whoever runs the proxy, or the vendor. The page itself is not shown.`;
	} else {
		// The code stays out of the message: NodeApiError swaps a message naming ECONNRESET & co. for a generic one.
		message = `Could not reach the API for the ${route.label} request, after ${tries}.`;
		description = `Connection error: ${failure.code}. Waited ${formatSeconds(waitedMs)} in all between tries. Check the Base URL and the network, then run again.`;
	}
	return new NodeApiError(node, { message: failure.code } as JsonObject, {
		message,
		description,
		...(failure.status ? { httpCode: String(failure.status) } : {}),
		itemIndex,
	});
}

async function resolveCredential(
	this: RequestContext,
	itemIndex?: number,
): Promise<{ baseUrl: string; apiKey: string }> {
	const credentials = await this.getCredentials<{
		baseUrl?: string;
		apiKey?: unknown;
		allowPrivateAddress?: unknown;
	}>(CREDENTIAL_NAME, itemIndex);
	return {
		baseUrl: checkBaseUrl(
			this.getNode(),
			String(credentials.baseUrl ?? ''),
			credentials.allowPrivateAddress,
		),
		apiKey: String(credentials.apiKey ?? ''),
	};
}

/**
 * The Base URL by the one rule of baseUrl.ts (the credential's Test button runs the same rule): trimmed, trailing
 * slashes dropped; anything the rule refuses is an error naming the value, its problem and the fix, before any request.
 */
export function checkBaseUrl(
	node: INode,
	raw: string,
	allowPrivateAddress: unknown = false,
): string {
	const verdict = checkBaseUrlText(raw, allowPrivateAddress);
	if (verdict.url !== undefined) return verdict.url;
	throw operationError(node, `The credential's Base URL ${verdict.problem}`, {
		description: `${verdict.fix} Nothing was sent.`,
	});
}

function assertBodySize(node: INode, route: ApiRoute, body: IDataObject, itemIndex?: number): void {
	const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
	if (bytes > MAX_BODY_BYTES) {
		throw inputError(
			node,
			itemIndex,
			`The ${route.label} request would be ${megabytes(bytes)}; the API accepts at most ${megabytes(MAX_BODY_BYTES)}`,
			'Send fewer holdings per run (Group By splits a portfolio input into one request per group), or shorten long text fields.',
			{ where: '', atRequest: true },
		);
	}
}

/** Bytes in decimal megabytes (1 MB = 1,000,000 bytes), as every size the nodes print. */
export function megabytes(bytes: number): string {
	const mb = bytes / 1_000_000;
	return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** An answer over MAX_ANSWER_BYTES: reading stopped there and nothing of it was kept. */
function answerTooLargeError(
	node: INode,
	route: ApiRoute,
	statusCode: number,
	size: { bytes: number; declared: boolean },
	itemIndex?: number,
): NodeApiError {
	const how = size.declared
		? `announced as ${megabytes(size.bytes)}`
		: `reading stopped at ${megabytes(size.bytes)}`;
	return new NodeApiError(
		node,
		{ message: 'answer too large', httpCode: String(statusCode) } as JsonObject,
		{
			message: `The API's answer to the ${route.label} request is larger than ${megabytes(MAX_ANSWER_BYTES)}: nothing of it was kept.`,
			description: `It was ${how}, far more than any answer to a request of 10,000 instruments. Status ${statusCode}. The request was answered, so it counts against the monthly quota; it was not sent again, as the same request would most likely get the same answer. Check the credential's Base URL (a proxy may stand in front of the API), and tell the vendor.`,
			httpCode: String(statusCode),
			itemIndex,
		},
	);
}

import type { IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import { ADDRESS_KIND_WORDS, hostKind, isMetadataHost } from './baseUrl';
import { CREDENTIAL_NAME, MAX_ANSWER_BYTES } from '../base/constants';
import type { ApiResponse } from './errors';
import { sleepUnlessCancelled } from '../base/sleep';

/**
 * The one HTTP client of the package, with a redirect policy per kind of request:
 * - API requests carry the key (n8n's `httpRequestWithAuthentication`) and never follow a redirect: n8n-core strips
 *   only Authorization and cookies on a redirect, so x-api-key would go along to any host, and a 302 turns a POST
 *   into a GET. The 3xx comes back as an answer; the transport turns it into an error naming only the target origin.
 * - Downloads (the report's pre-signed `document.location_url`) carry no key (`httpRequest`), go to https addresses
 *   on the public internet only, follow no redirect, and stop reading at MAX_DOWNLOAD_BYTES.
 */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/** An API answer, with its body as sent: a search of that text is far cheaper than walking the parsed body. */
export interface ApiAnswer extends ApiResponse {
	/** Undefined when the helper gave the body already parsed. */
	text?: string;
	/** Set when the answer was larger than MAX_ANSWER_BYTES: nothing of it was kept (body undefined). */
	tooLarge?: { bytes: number; declared: boolean };
}

/**
 * The signal of one try: aborted at the try's deadline (a total: bytes arriving do not extend it, unlike the HTTP
 * `timeout`, which only bounds a silence) or as soon as the execution is cancelled. `expired` tells the deadline from
 * a cancellation; `dispose` unhooks the fallback's listeners from the execution's signal.
 */
export interface TryDeadline {
	signal: AbortSignal;
	expired: () => boolean;
	dispose: () => void;
}

export function tryDeadline(ms: number, cancel?: AbortSignal): TryDeadline {
	const deadline = AbortSignal.timeout(Math.max(1, ms));
	const expired = () => deadline.aborted && !cancel?.aborted;
	if (!cancel) return { signal: deadline, expired, dispose: () => {} };
	// AbortSignal.any is in Node 20.3 and later; n8n supports runtimes without it.
	const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
	if (typeof any === 'function')
		return { signal: any.call(AbortSignal, [cancel, deadline]), expired, dispose: () => {} };
	const controller = new AbortController();
	const unhooks: Array<() => void> = [];
	for (const source of [cancel, deadline]) {
		if (source.aborted) {
			controller.abort(source.reason);
			break;
		}
		const onAbort = () => controller.abort(source.reason);
		source.addEventListener('abort', onAbort, { once: true });
		unhooks.push(() => source.removeEventListener('abort', onAbort));
	}
	const dispose = () => unhooks.forEach((unhook) => unhook());
	return { signal: controller.signal, expired, dispose };
}

/** One try of an API request; `signal` (a tryDeadline's) bounds it from sending to the answer's last byte. */
export async function sendApiRequest(
	this: RequestContext,
	request: IHttpRequestOptions,
	signal?: AbortSignal,
): Promise<ApiAnswer> {
	const response = await untilAborted(
		this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_NAME, {
			...request,
			...(signal ? { abortSignal: signal } : {}),
			// Read here rather than by axios: up to MAX_ANSWER_BYTES, within the try's deadline, and the text stays at
			// hand (see ApiAnswer).
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		}) as Promise<ApiResponse>,
		signal,
	);
	let { body } = response;
	if (isStream(body)) {
		const declared = Number(response.headers?.['content-length']);
		if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
			discard(body);
			return { ...response, body: undefined, tooLarge: { bytes: declared, declared: true } };
		}
		const read = await readAtMost(body, MAX_ANSWER_BYTES, signal).then(
			(value) => ({ ...value, error: undefined as unknown }),
			(error: unknown) => ({ body: Buffer.alloc(0), truncated: false, error }),
		);
		// The deadline's or the cancellation's abort stays as it is: the caller tells those apart by the signal.
		if (read.error !== undefined && signal?.aborted) throw abortError(signal);
		if (read.error !== undefined)
			throw new BrokenAnswerError(
				isDecompressionError(read.error) ? 'decompression' : 'cut-short',
				read.error,
			);
		if (read.truncated)
			return {
				...response,
				body: undefined,
				tooLarge: { bytes: read.body.length, declared: false },
			};
		body = decodeBody(read.body, response.headers?.['content-type']);
	}
	if (typeof body !== 'string') return { ...response, body };
	const parsed = parseJsonText(body);
	return { ...response, body: parsed.value, bodyIsJson: parsed.json, text: body };
}

/** Unicode byte order marks, which name the encoding whatever the label says (as a browser reads them). */
const BYTE_ORDER_MARKS: Array<[number[], string]> = [
	[[0xef, 0xbb, 0xbf], 'utf-8'],
	[[0xff, 0xfe], 'utf-16le'],
	[[0xfe, 0xff], 'utf-16be'],
];

/**
 * The answer's text: by its byte order mark when it has one, else by the charset its content type declares
 * (`charset=ISO-8859-1`, `windows-1252`, `UTF-16`…), else UTF-8. A single-byte charset on a body that is valid
 * UTF-8 with non-ASCII characters is a server's default label on UTF-8 text (a Latin-1 text is almost never valid
 * UTF-8): read as UTF-8. An unknown charset is read as UTF-8. The usual answer (UTF-8, declared or not) takes the
 * fast path of Buffer.toString.
 */
export function decodeBody(bytes: Buffer, contentType: unknown): string {
	for (const [mark, encoding] of BYTE_ORDER_MARKS) {
		if (mark.every((byte, index) => bytes[index] === byte))
			return encoding === 'utf-8'
				? bytes.toString('utf8', mark.length)
				: new TextDecoder(encoding).decode(bytes.subarray(mark.length));
	}
	const declared = declaredCharset(contentType);
	if (declared === undefined) return bytes.toString('utf8');
	let decoder: InstanceType<typeof TextDecoder>;
	try {
		decoder = new TextDecoder(declared);
	} catch {
		return bytes.toString('utf8');
	}
	if (decoder.encoding === 'utf-8') return bytes.toString('utf8');
	if (!decoder.encoding.startsWith('utf-16')) {
		try {
			return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		} catch {
			// Not UTF-8: the declared charset it is.
		}
	}
	return decoder.decode(bytes);
}

/** The `charset` parameter of a content type, lower case, without quotes; undefined without one. */
function declaredCharset(contentType: unknown): string | undefined {
	const text = Array.isArray(contentType) ? contentType[0] : contentType;
	if (typeof text !== 'string') return undefined;
	const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(text);
	return match ? match[1].toLowerCase() : undefined;
}

/**
 * The helper's answer, or a rejection as soon as `signal` aborts. n8n's httpRequestWithAuthentication puts the
 * execution's cancel signal in place of the request's own, so a try's deadline is kept here; an answer that comes
 * after it is closed unread (the request's HTTP `timeout` closes the connection of a server that stays silent).
 */
async function untilAborted<T extends { body?: unknown }>(
	pending: Promise<T>,
	signal?: AbortSignal,
): Promise<T> {
	if (!signal) return await pending;
	return await new Promise<T>((resolve, reject) => {
		const onAbort = () => {
			reject(abortError(signal));
			pending.then(
				(late) => discard(late?.body),
				() => undefined,
			);
		};
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort, { once: true });
		pending.then(
			(value) => {
				signal.removeEventListener('abort', onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}

/**
 * The body decides what an answer is: JSON when it parses as JSON, whatever its content type says; otherwise the
 * text as it came (an error page, an empty body), which the content type then tells apart.
 */
function parseJsonText(text: string): { value: unknown; json: boolean } {
	if (text.trim() === '') return { value: text, json: false };
	try {
		return { value: JSON.parse(text), json: true };
	} catch {
		return { value: text, json: false };
	}
}

export interface NetworkFailure {
	code: string;
	/** `never`: the request surely did not reach the API; `maybe`: it may have been received and carried out. */
	reached: 'never' | 'maybe';
	/**
	 * `broken-answer`: an answer began to come but could not be read whole (cut short, not HTTP, a corrupt compressed
	 * body): the request reached something that answered, so it may have been carried out.
	 */
	kind:
		| 'connection'
		| 'timeout'
		| 'host-not-found'
		| 'secure-connection'
		| 'broken-answer'
		| 'gateway-page';
	/** For a failed secure connection, a broken answer or a gateway's page: what happened, in plain words. */
	reason?: string;
	/** For a gateway's page: the status it came with. */
	status?: number;
}

type BrokenAnswerKind = 'cut-short' | 'not-http' | 'decompression';

/** The code and the plain words of each kind of broken answer (never the parser's or zlib's own text). */
const BROKEN_ANSWERS: Record<BrokenAnswerKind, { code: string; reason: string }> = {
	'cut-short': {
		code: 'ANSWER_CUT_SHORT',
		reason: 'the connection dropped partway through the answer, so only part of it arrived',
	},
	'not-http': {
		code: 'ANSWER_NOT_HTTP',
		reason: 'what came back was not a readable HTTP answer',
	},
	decompression: {
		code: 'ANSWER_NOT_DECOMPRESSIBLE',
		reason: 'the answer was marked as compressed but could not be decompressed',
	},
};

function brokenAnswer(kind: BrokenAnswerKind): NetworkFailure {
	return { ...BROKEN_ANSWERS[kind], reached: 'maybe', kind: 'broken-answer' };
}

/** Reading an answer's body failed after its headers came (the text of the cause is never shown). */
class BrokenAnswerError extends Error {
	constructor(
		readonly brokenKind: BrokenAnswerKind,
		readonly cause: unknown,
	) {
		super(BROKEN_ANSWERS[brokenKind].reason);
	}
}

/** zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR…) and texts, as a corrupt gzip, deflate or brotli body gives them. */
function isDecompressionError(error: unknown): boolean {
	for (
		let current = error, depth = 0;
		current && typeof current === 'object' && depth < 5;
		depth++
	) {
		const { code, message } = current as { code?: unknown; message?: unknown };
		if (typeof code === 'string' && /^(Z_|ERR_BROTLI|ERR__?ZLIB)/.test(code)) return true;
		if (typeof message === 'string' && ZLIB_TEXT.test(message)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

const ZLIB_TEXT =
	/incorrect header check|invalid (stored block lengths|distance|code lengths|block type)|unexpected end of file|unknown compression method|invalid window size|Decompression failed/i;

/**
 * What a broken answer is, by an error's code or text: Node's HTTP parser (HPE_ codes, "Parse Error: …"), zlib, or
 * axios's "stream has been aborted" when the helper read the body itself.
 */
function brokenAnswerOf(code: unknown, texts: string[]): NetworkFailure | undefined {
	if (typeof code === 'string') {
		if (/^HPE_/.test(code)) return brokenAnswer('not-http');
		if (/^(Z_|ERR_BROTLI|ERR__?ZLIB)/.test(code)) return brokenAnswer('decompression');
	}
	if (texts.some((text) => /^Parse Error\b/i.test(text))) return brokenAnswer('not-http');
	if (texts.some((text) => ZLIB_TEXT.test(text))) return brokenAnswer('decompression');
	if (texts.some((text) => /stream has been aborted|^aborted$/i.test(text)))
		return brokenAnswer('cut-short');
	return undefined;
}

/** Failures before anything was sent: no connection, no address, no route. */
const NEVER_REACHED_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);
/** Failures after the request may have been sent. */
const MAYBE_REACHED_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT']);

/** Certificate and handshake failures, in plain words (never the OpenSSL text). */
const SECURE_CONNECTION_REASONS: Array<[RegExp, string]> = [
	[/^CERT_HAS_EXPIRED$/, 'its certificate has expired'],
	[/^CERT_NOT_YET_VALID$/, 'its certificate is not valid yet'],
	[
		/^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)$/,
		'its certificate is self-signed, not issued by a trusted authority',
	],
	[
		/^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE)$/,
		'its certificate could not be verified against a trusted authority',
	],
	[/^ERR_TLS_CERT_ALTNAME_INVALID$/, 'its certificate is issued for another host name'],
	[/^CERT_REVOKED$/, 'its certificate has been revoked'],
	[
		/^(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER)$/,
		'the address does not answer in https (is it an http:// address, or the wrong port?)',
	],
	[/^(ERR_SSL_|ERR_TLS_|CERT_|EPROTO)/, 'the secure handshake failed'],
];

function secureConnectionReason(code: string): string | undefined {
	return SECURE_CONNECTION_REASONS.find(([pattern]) => pattern.test(code))?.[1];
}

/** What kind of network failure the error is, from anywhere in its cause chain; undefined when it is not one. */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
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
		if (current instanceof BrokenAnswerError) return brokenAnswer(current.brokenKind);
		const texts = [message, ...(Array.isArray(messages) ? messages : [])].filter(
			(text): text is string => typeof text === 'string',
		);
		// Before the check for an answer: a body cut short or not decompressible comes with the answer's status.
		const broken = brokenAnswerOf(code, texts) ?? brokenAnswerOf(httpCode, []);
		if (broken) return broken;
		if (response && typeof response === 'object' && 'status' in response) return undefined;
		for (const candidate of [code, httpCode]) {
			if (typeof candidate !== 'string') continue;
			const reason = secureConnectionReason(candidate);
			if (reason) return { code: candidate, reached: 'never', kind: 'secure-connection', reason };
			if (NEVER_REACHED_CODES.has(candidate)) {
				return {
					code: candidate,
					reached: 'never',
					kind: candidate === 'ENOTFOUND' ? 'host-not-found' : 'connection',
				};
			}
			if (
				TIMEOUT_CODES.has(candidate) ||
				(candidate === 'ECONNABORTED' && texts.some((text) => /timeout/i.test(text)))
			) {
				return { code: 'ETIMEDOUT', reached: 'maybe', kind: 'timeout' };
			}
			if (MAYBE_REACHED_CODES.has(candidate)) {
				// Reset during the handshake: nothing of the request was sent yet.
				if (texts.some((text) => /before secure TLS connection was established/i.test(text))) {
					return {
						code: candidate,
						reached: 'never',
						kind: 'secure-connection',
						reason: 'the server closed the connection during the secure handshake',
					};
				}
				return { code: candidate, reached: 'maybe', kind: 'connection' };
			}
		}
		for (const text of texts) {
			if (/timeout of \d+ms exceeded/i.test(text))
				return { code: 'ETIMEDOUT', reached: 'maybe', kind: 'timeout' };
			if (/socket hang up|ECONNRESET/i.test(text))
				return { code: 'ECONNRESET', reached: 'maybe', kind: 'connection' };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The code of a dropped connection, timeout or failed connection anywhere in the error's cause chain, else undefined. */
export function networkErrorCode(error: unknown): string | undefined {
	return networkFailureOf(error)?.code;
}

/** A report PDF is a few MB at most; far above it the link is not a report. */
export const MAX_DOWNLOAD_BYTES = 50_000_000;
/** Tries after the first, for a dropped connection or a 5xx (a GET: safe to repeat). */
const DOWNLOAD_RETRIES = 2;
/** How much of an error answer is read to find the storage service's code and message. */
const ERROR_BODY_BYTES = 16 * 1024;

export type DownloadResult =
	| { ok: true; body: Buffer; contentType: string; attempts: number }
	| { ok: false; reason: 'refused'; problem: string }
	| { ok: false; reason: 'redirect'; status: number; target: string; attempts: number }
	| { ok: false; reason: 'too-large'; bytes: number; declared: boolean; attempts: number }
	| { ok: false; reason: 'status'; status: number; storageError?: string; attempts: number }
	| { ok: false; reason: 'network'; code: string; attempts: number }
	| { ok: false; reason: 'timeout'; timeoutMs: number; attempts: number }
	| { ok: false; reason: 'failed'; code?: string; attempts: number };

interface StreamResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/**
 * Fetches a file the API links to, without the key. Checks the address first (downloadTargetProblem), then GETs the
 * normalised address; a dropped connection or a 5xx is tried again up to twice. Each try must be done within
 * `timeoutMs` in all; one that is not is not tried again (a link that trickles would only trickle again, and may
 * expire meanwhile). Never throws for an answer: the caller words the outcome (the report behind the link was
 * already paid for).
 */
export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	accept: string,
	timeoutMs: number,
	itemIndex?: number,
): Promise<DownloadResult> {
	const credential = await credentialAddress.call(this, itemIndex);
	const target = checkDownloadTarget(url, credential.baseUrl, credential.allowPrivateAddress);
	if (typeof target === 'string') return { ok: false, reason: 'refused', problem: target };

	const signal = this.getExecutionCancelSignal();
	const request: IHttpRequestOptions = {
		method: 'GET',
		// The normalised form: what was checked is what is fetched (0x7f000001 and 127.1 are 127.0.0.1 here too).
		url: target.href,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: timeoutMs,
		headers: { accept },
	};

	for (let attempt = 1; ; attempt++) {
		let outcome: DownloadResult | undefined;
		let dropped: string | undefined;
		const deadline = tryDeadline(timeoutMs, signal);
		try {
			const response = await untilAborted(
				this.helpers.httpRequest({
					...request,
					abortSignal: deadline.signal,
				}) as Promise<StreamResponse>,
				deadline.signal,
			);
			outcome = await readAnswer(response, attempt, deadline.signal);
		} catch (error) {
			if (deadline.expired()) return { ok: false, reason: 'timeout', timeoutMs, attempts: attempt };
			dropped = signal?.aborted ? undefined : networkErrorCode(error);
			if (!dropped)
				return { ok: false, reason: 'failed', code: errorCode(error), attempts: attempt };
		} finally {
			deadline.dispose();
		}
		const retryable =
			dropped !== undefined ||
			(outcome?.ok === false && outcome.reason === 'status' && outcome.status >= 500);
		if (!retryable || attempt > DOWNLOAD_RETRIES) {
			return outcome ?? { ok: false, reason: 'network', code: dropped!, attempts: attempt };
		}
		this.logger.debug('Sustainability Compliance API: retrying download', {
			status: dropped ?? (outcome as { status?: number }).status,
			attempt,
		});
		await sleepUnlessCancelled(500 * attempt, signal);
	}
}

/**
 * Only to tell whether the API runs on this computer (a simulator) or on the user's own private gateway: the download
 * itself carries no credential.
 */
async function credentialAddress(
	this: IExecuteFunctions,
	itemIndex?: number,
): Promise<{ baseUrl: string; allowPrivateAddress: unknown }> {
	const credentials = await this.getCredentials<{
		baseUrl?: unknown;
		allowPrivateAddress?: unknown;
	}>(CREDENTIAL_NAME, itemIndex);
	return {
		baseUrl: typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '',
		allowPrivateAddress: credentials.allowPrivateAddress,
	};
}

async function readAnswer(
	response: StreamResponse,
	attempts: number,
	signal: AbortSignal,
): Promise<DownloadResult> {
	const { statusCode: status, headers, body } = response;
	if (status >= 300 && status < 400) {
		discard(body);
		return { ok: false, reason: 'redirect', status, target: originOf(headers?.location), attempts };
	}
	if (status < 200 || status >= 300) {
		const text = (await readAtMost(body, ERROR_BODY_BYTES, signal)).body.toString('utf8');
		return { ok: false, reason: 'status', status, storageError: storageErrorText(text), attempts };
	}
	const declared = Number(headers?.['content-length']);
	if (Number.isFinite(declared) && declared > MAX_DOWNLOAD_BYTES) {
		discard(body);
		return { ok: false, reason: 'too-large', bytes: declared, declared: true, attempts };
	}
	const read = await readAtMost(body, MAX_DOWNLOAD_BYTES, signal);
	if (read.truncated)
		return { ok: false, reason: 'too-large', bytes: read.body.length, declared: false, attempts };
	return {
		ok: true,
		body: read.body,
		contentType: String(headers?.['content-type'] ?? ''),
		attempts,
	};
}

interface ReadableBody extends AsyncIterable<unknown> {
	destroy?: (error?: Error) => void;
}

function isStream(body: unknown): body is ReadableBody {
	return !!body && typeof (body as ReadableBody)[Symbol.asyncIterator] === 'function';
}

function discard(body: unknown): void {
	if (isStream(body)) body.destroy?.();
}

/**
 * Reads a streamed body up to `limit` bytes; beyond it, stops reading and closes the connection. When `signal`
 * aborts (the try's deadline, a cancellation), the connection is closed and the read fails with the signal's reason.
 */
async function readAtMost(
	body: unknown,
	limit: number,
	signal?: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
	if (!isStream(body)) {
		const buffer = toBuffer(body);
		return buffer.length > limit
			? { body: buffer.subarray(0, limit), truncated: true }
			: { body: buffer, truncated: false };
	}
	const stop = () => body.destroy?.(abortError(signal));
	if (signal?.aborted) stop();
	signal?.addEventListener('abort', stop, { once: true });
	try {
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of body) {
			const buffer = toBuffer(chunk);
			if (size + buffer.length > limit) {
				chunks.push(buffer.subarray(0, limit - size));
				body.destroy?.();
				return { body: Buffer.concat(chunks), truncated: true };
			}
			chunks.push(buffer);
			size += buffer.length;
		}
		if (signal?.aborted) throw abortError(signal);
		return { body: Buffer.concat(chunks), truncated: false };
	} finally {
		signal?.removeEventListener('abort', stop);
	}
}

function abortError(signal?: AbortSignal): Error {
	const reason: unknown = signal?.reason;
	return reason instanceof Error ? reason : new Error('The request was aborted');
}

/** The error's code (CERT_HAS_EXPIRED, ERR_CANCELED…), never its text, which may quote the answer. */
function errorCode(error: unknown): string | undefined {
	for (
		let current = error, depth = 0;
		current && typeof current === 'object' && depth < 5;
		depth++
	) {
		const { code } = current as { code?: unknown };
		if (typeof code === 'string' && /^[A-Z0-9_]{2,60}$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function toBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (typeof body === 'string') return Buffer.from(body, 'latin1');
	return Buffer.alloc(0);
}

/** The origin of a redirect target (never its path or query, which may carry tokens). */
function originOf(location: unknown): string {
	if (typeof location !== 'string' || location === '') return 'an address it did not name';
	try {
		const origin = new URL(location).origin;
		return origin === 'null' ? 'an address that is not a web address' : origin;
	} catch {
		return 'another path of the same address';
	}
}

/**
 * The code and message of a storage service's error answer (S3, Azure and GCS XML `<Error><Code>…</Code>
 * <Message>…</Message>`; GCS JSON `{"error": {"message", "errors": [{"reason"}]}}`; `{"code", "message"}`), else undefined: any
 * other text (an HTML page, a stack trace, a local service's page) is never repeated.
 */
export function storageErrorText(text: string): string | undefined {
	const xmlField = (name: string) => new RegExp(`<${name}>([^<]{1,300})</${name}>`).exec(text)?.[1];
	let code: unknown = xmlField('Code');
	let message: unknown = xmlField('Message');
	if (code === undefined && message === undefined) {
		try {
			const parsed = JSON.parse(text) as Record<string, unknown>;
			const record = (
				parsed?.error && typeof parsed.error === 'object' ? parsed.error : parsed
			) as Record<string, unknown>;
			// GCS puts the HTTP status in `code` and the word in errors[0].reason; only the reason says more.
			const reason = Array.isArray(record?.errors)
				? (record.errors[0] as { reason?: unknown } | undefined)?.reason
				: undefined;
			code = typeof record?.code === 'string' ? record.code : (record?.Code ?? reason);
			message = record?.message ?? record?.Message;
		} catch {
			return undefined;
		}
	}
	const clean = (value: unknown, max: number) =>
		typeof value === 'string'
			? value
					.replace(/&lt;/g, '<')
					.replace(/&gt;/g, '>')
					.replace(/&quot;/g, '"')
					.replace(/&apos;/g, "'")
					.replace(/&amp;/g, '&')
					.replace(/\p{Cc}+/gu, ' ')
					.trim()
					.slice(0, max)
			: '';
	const said = [clean(code, 100), clean(message, 300)].filter(Boolean).join(': ');
	return said || undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Which addresses a download may go to. Pure: no DNS (nodes cannot resolve names), only the address as written,
// after WHATWG normalisation (`new URL` turns 0x7f000001, 2130706433, 0177.0.0.1 and 127.1 into 127.0.0.1, and
// writes IPv6 in its short form, e.g. [::ffff:7f00:1]).
// ---------------------------------------------------------------------------------------------------------------

/**
 * The parsed address a download may go to, or why not. https only, to a public address (the kinds of baseUrl.ts,
 * the rule the Base URL is checked by). When the credential's Base URL is itself on this computer (a local
 * simulator), its links may also be http:// or https:// on the same host name as the Base URL (any port); with
 * Allow Private Network Address (a self-hosted gateway), https:// links on the Base URL's own private host name.
 * Any other loopback, private or link-local address, and a cloud metadata address always, stay refused.
 */
export function checkDownloadTarget(
	url: string,
	baseUrl: string,
	allowPrivateAddress: unknown = false,
): URL | string {
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return 'is not a web address';
	}
	if (target.protocol !== 'https:' && target.protocol !== 'http:')
		return `is not an https:// address (it starts with ${target.protocol}//)`;
	const kind = hostKind(target.hostname);
	let base: URL | undefined;
	try {
		base = new URL(baseUrl);
	} catch {
		base = undefined;
	}
	const sameHost = !!base && base.hostname === target.hostname;
	if (sameHost && kind === 'loopback' && hostKind(base!.hostname) === 'loopback') return target;
	const ownPrivateHost =
		sameHost &&
		allowPrivateAddress === true &&
		(kind === 'private' || kind === 'link-local') &&
		!isMetadataHost(target.hostname);
	if (kind !== 'public' && !ownPrivateHost)
		return `points to ${ADDRESS_KIND_WORDS[kind as Exclude<typeof kind, 'public'>]} (${target.hostname})`;
	if (target.protocol !== 'https:')
		return 'is not an https:// address (it starts with http://, unencrypted)';
	return target;
}

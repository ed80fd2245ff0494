import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { ApiRoute } from './routes';

export interface ApiResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
	/** Whether the body parsed as JSON (then `body` is its value), whatever the content type said. */
	bodyIsJson?: boolean;
}

/** The answer's media type in lower case, without parameters ("text/html"), or '' without one. */
export function contentTypeOf(response: ApiResponse): string {
	const type = response.headers?.['content-type'];
	return typeof type === 'string' ? type.split(';')[0].trim().toLowerCase() : '';
}

/**
 * Whether the body is JSON: the body decides, never its label (a framework's default `text/html` on the API's JSON
 * is no page). Without the transport's word on it, any body that is not a text is JSON already parsed.
 */
export function isJsonBody(response: ApiResponse): boolean {
	if (response.bodyIsJson !== undefined) return response.bodyIsJson;
	const { body } = response;
	return body !== undefined && body !== null && typeof body !== 'string';
}

/**
 * An HTML page, as a proxy or a maintenance page in front of the API answers: a body that is not JSON, labelled HTML
 * or starting like an HTML document.
 */
export function isHtmlAnswer(response: ApiResponse): boolean {
	if (isJsonBody(response)) return false;
	if (contentTypeOf(response).includes('html')) return true;
	return (
		typeof response.body === 'string' && /^\s*<(!doctype\s+html|html[\s>])/i.test(response.body)
	);
}

/** Not the API's JSON: an HTML page, or a body that is no JSON at all (a proxy's text, an empty body). */
export function isPageAnswer(response: ApiResponse): boolean {
	if (isJsonBody(response)) return false;
	const { body } = response;
	return isHtmlAnswer(response) || typeof body === 'string' || body === undefined || body === null;
}

/** The content type of an answer, without its parameters ("text/html"), or "none". */
export function contentTypeWords(response: ApiResponse): string {
	const type = contentTypeOf(response);
	if (!type) return 'none';
	return /^[\w.+-]{1,60}\/[\w.+-]{1,60}$/.test(type) ? type : 'one that is not a media type';
}

/**
 * The API's own words: gateway errors carry `message`, API errors `data.message`. A body that is not JSON (a proxy's
 * or firewall's page) has none: it is never quoted, as it may name internal hosts and addresses.
 */
export function apiMessage(body: unknown): string | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const record = body as { message?: unknown; error?: unknown; data?: { message?: unknown } };
	if (typeof record.data?.message === 'string') return record.data.message;
	if (typeof record.message === 'string') return record.message;
	if (typeof record.error === 'string') return record.error;
	return undefined;
}

/** `data.error` of a schema mismatch: one line per problem, `.body.holdings[3].market_value: must be number`. */
export function schemaProblems(body: unknown): string[] {
	const detail = (body as { data?: { error?: unknown } } | undefined)?.data?.error;
	if (Array.isArray(detail)) {
		return detail.map((entry) => {
			const { path, message } = (entry ?? {}) as { path?: unknown; message?: unknown };
			return `${typeof path === 'string' ? path : '?'}: ${typeof message === 'string' ? message : JSON.stringify(entry)}`;
		});
	}
	if (typeof detail === 'string') return [detail];
	if (detail && typeof detail === 'object') return [JSON.stringify(detail)];
	return [];
}

/** The start of the message for a used-up quota: the API does not say how large the quota is, so neither do we. */
export const QUOTA_USED_UP =
	'This API key\'s monthly request quota is used up (the API answered 429 "Limit Exceeded").';

export function isQuotaExhausted(response: ApiResponse): boolean {
	return response.statusCode === 429 && apiMessage(response.body) === 'Limit Exceeded';
}

/** The API's words of a 403, as a title and the fix. */
const FORBIDDEN_MESSAGES: Record<string, { title: string; fix: string }> = {
	Forbidden: {
		title: 'The API gateway does not know this API key',
		fix: 'Check the key in the credential (copied whole, no spaces) and that the Base URL is the one the vendor gave with it.',
	},
	'You must provide a valid API key': {
		title: 'The API does not recognise this API key, although the gateway accepted it',
		fix: 'Ask the vendor to check the key.',
	},
	'You must provide an active API key': {
		title: 'This API key is disabled',
		fix: 'Ask the vendor to re-enable it or to issue a new one.',
	},
	"You don't have access to any of the frameworks requested.": {
		title: "Your organization's subscription does not include this data family",
		fix: 'Ask the vendor to enable it, or use an operation your key has access to.',
	},
	'You can only request data for a maximum of 10000 instruments at a time.': {
		title: 'The API refused more than 10,000 instruments in one request',
		fix: 'Lower the Batch Size option to 10,000 or less.',
	},
};

/** The origin a redirect points to (never its path or query, which may carry tokens). */
function redirectTarget(response: ApiResponse): string {
	const location = response.headers?.location;
	if (typeof location !== 'string' || location === '') return 'an address it did not name';
	try {
		return new URL(location).origin;
	} catch {
		return 'another path of the same address';
	}
}

/**
 * Turns a non-success answer into an error a non-developer can act on: the title says what failed (at most
 * TITLE_LIMIT characters), the description what the API said, why and what to do; the API's words stay in it.
 */
export function apiErrorFor(
	node: INode,
	route: ApiRoute,
	response: ApiResponse,
	itemIndex?: number,
): NodeApiError {
	const { statusCode, body } = response;
	const said = apiMessage(body);
	const requestId = findRequestId(body);
	let message: string;
	/** What to do, said after what the API said. */
	let advice = '';
	const details: string[] = [];
	const page = isPageAnswer(response);
	if (page) details.push(pageWords(response));
	if (page && ![500, 503, 504].includes(statusCode) && !(statusCode >= 300 && statusCode < 400)) {
		message = `The API address answered the ${route.label} request with ${statusCode} and ${pageKind(response)}, not the API's JSON`;
		advice = `${sentenceStart(PAGE_CAUSES[statusCode] ?? 'something other than the API answered')}.`;
	} else if (statusCode === 403 && said === 'Missing Authentication Token') {
		const notServed = splitTitle(
			route.notServedMessage ??
				`This API address does not serve ${route.method} ${route.path}. Check the Base URL in the credential (no extra path after the host).`,
		);
		message = notServed.title;
		advice = notServed.rest;
	} else if (statusCode >= 300 && statusCode < 400) {
		message = `The API address answered the ${route.label} request with a redirect (${statusCode}) to ${redirectTarget(response)}`;
		advice =
			"Nothing was sent there: the key goes to the credential's Base URL only. Put the address the API is served at in the credential's Base URL.";
	} else if (statusCode === 403) {
		const known = said ? FORBIDDEN_MESSAGES[said] : undefined;
		message = known?.title ?? `The API refused the ${route.label} request (403)`;
		advice = known?.fix ?? '';
	} else if (statusCode === 400) {
		const problems = schemaProblems(body);
		message = `The API rejected the ${route.label} request: ${shortened(said ?? 'invalid request', 80)}`;
		if (problems.length)
			details.push(
				`Problems: ${problems.slice(0, 20).join('; ')}${problems.length > 20 ? ` (and ${problems.length - 20} more)` : ''}`,
			);
	} else if (statusCode === 413) {
		message = `The ${route.label} request is larger than the API accepts (10 MB)`;
		advice = 'Send fewer holdings per run, or use Group By to split them.';
	} else if (statusCode === 429 && said === 'Limit Exceeded') {
		message = QUOTA_USED_UP;
		advice =
			'Requests with this key will fail until the quota renews next month; contact the vendor to raise the quota.';
	} else if (statusCode === 504) {
		const timeout = splitTitle(timeoutMessage(route));
		message = timeout.title;
		advice = timeout.rest;
	} else if (statusCode === 500) {
		message = `The API had an unexpected error on the ${route.label} request, also when asked again`;
		advice = "If it persists, contact the vendor's support with the time of the request.";
	} else if (statusCode === 503) {
		message = `The API is temporarily unavailable (503) for the ${route.label} request`;
		advice = 'Try again in a few minutes.';
	} else {
		message = `The API answered ${statusCode} to the ${route.label} request${said ? `: ${shortened(said, 80)}` : ''}`;
	}
	if (said) details.unshift(`API response (${statusCode}): ${said}`);
	if (advice) details.push(advice);
	if (requestId) details.push(`Request ID (quote it to support): ${requestId}`);
	const error = fitTitle(
		new NodeApiError(node, toJsonObject(body, statusCode), {
			message: message.replace(/\.?$/, '.'),
			description: details.join('\n') || `Status ${statusCode}.`,
			httpCode: String(statusCode),
			itemIndex,
		}),
	);
	apiAnswers.set(error, { statusCode, said });
	return error;
}

/** A text of the API put in a title: at most `max` characters, cut at a word with "…" (the whole stays in the description). */
export function shortened(text: string, max: number): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat.length <= max) return flat;
	const head = flat.slice(0, max - 1);
	const space = head.lastIndexOf(' ');
	return `${head.slice(0, space > max / 2 ? space : head.length).trimEnd()}…`;
}

/** What the API answered, by the error made of it: read from the answer, never from our message. */
const apiAnswers = new WeakMap<NodeApiError, { statusCode: number; said?: string }>();

/** The status and the API's own words of the answer an error was made of (undefined for errors not made of an answer). */
export function apiAnswerOf(error: unknown): { statusCode: number; said?: string } | undefined {
	return error instanceof NodeApiError ? apiAnswers.get(error) : undefined;
}

function timeoutMessage(route: ApiRoute): string {
	if (route.timeoutMessage) return route.timeoutMessage;
	if (route.onTimeout === 'fewer-holdings') {
		return `The ${route.label} took longer than the API allows (29 seconds). Send fewer holdings, for example by splitting the portfolio with Group By.`;
	}
	return `The ${route.label} took longer than the API allows (29 seconds). Try again later.`;
}

export function findRequestId(body: unknown): string | undefined {
	const id =
		(body as { document?: { request_id?: unknown }; request_id?: unknown } | undefined)?.document
			?.request_id ?? (body as { request_id?: unknown } | undefined)?.request_id;
	return typeof id === 'string' ? id : undefined;
}

/** What a status means when a page that is not the API's answers with it. */
const PAGE_CAUSES: Record<number, string> = {
	400: 'a proxy or firewall in front of the API refused the request as malformed',
	401: 'a proxy in front of the API asks for a login of its own',
	403: "a firewall or proxy in front of the API refused the request. Check the credential's Base URL and whether this n8n may reach the API from its network",
	404: "the address does not lead to the API. Check the credential's Base URL (the address the vendor gave, no extra path after the host)",
	407: 'a proxy between this n8n and the API asks for a login',
	502: 'a proxy or gateway in front of the API got no usable answer from it',
};

function pageKind(response: ApiResponse): string {
	return isHtmlAnswer(response)
		? 'an HTML page'
		: typeof response.body === 'string' && response.body.trim() !== ''
			? 'a text that is not JSON'
			: 'an empty body';
}

/** A page's status and content type in words, never the page. */
function pageWords(response: ApiResponse): string {
	return `What came: status ${response.statusCode}, content type ${contentTypeWords(response)}, ${pageKind(response)} (not shown: it is not the API's answer and may name internal hosts).`;
}

/** The answer as NodeApiError keeps it: a JSON object as it came, never the text of a page. */
function toJsonObject(body: unknown, statusCode: number): JsonObject {
	if (body && typeof body === 'object' && !Array.isArray(body))
		return { ...(body as JsonObject), httpCode: String(statusCode) };
	return { message: `HTTP ${statusCode}`, httpCode: String(statusCode) };
}

export interface InputErrorOptions {
	/**
	 * Names the place in the input beyond n8n's item index, e.g. "2nd holding of Holdings (JSON)"; '' for none. A
	 * leading "Item N" of it is dropped: n8n names the item itself (see `inputError`).
	 */
	where?: string;
	/**
	 * Found when the request was about to go, after other requests of the run may have gone: the error can only
	 * say that this request was not sent.
	 */
	atRequest?: boolean;
}

/**
 * Bad input: a title saying what is wrong (at most TITLE_LIMIT characters), with the fix and what was not sent as the
 * description. Made before the request it concerns, so nothing was spent on it.
 *
 * The title never starts with "Item N": the error carries `itemIndex`, and n8n names the item itself (its error view
 * adds " [item N]" to the title when the node had more than one input item, and shows "Item Index" in the details).
 */
export function inputError(
	node: INode,
	itemIndex: number | undefined,
	message: string,
	fix?: string,
	{ where = '', atRequest = false }: InputErrorOptions = {},
): NodeOperationError {
	const notSent = atRequest ? 'This request was not sent.' : 'Nothing was sent.';
	const place = withoutItemIndex(where, itemIndex);
	const placed = place ? `${place}: ${message}` : sentenceStart(message);
	// A place that would push the problem out of the title goes below it (n8n names the item anyway).
	const title = placed.length <= TITLE_LIMIT || !place ? placed : sentenceStart(message);
	return operationError(node, title, {
		itemIndex,
		description: [title === placed ? '' : `${place}.`, fix, notSent].filter(Boolean).join(' '),
	});
}

/** An input error's description without its closing "Nothing was sent." (for a list that says it once). */
export function fixOfInputError(description: string | null | undefined): string {
	return (description ?? '').replace(/\s*(Nothing was sent|This request was not sent)\.\s*$/, '');
}

/** "Item 3, 2nd holding of Holdings (JSON)" without the item index n8n shows anyway: "2nd holding of Holdings (JSON)". */
function withoutItemIndex(where: string, itemIndex: number | undefined): string {
	const place = where.replace(/^Item \d+(, |$)/, '');
	return itemIndex === undefined && place !== where ? where : sentenceStart(place);
}

/** Upper case first letter: a title starts a sentence. */
export function sentenceStart(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** n8n shows an error's message as the title of the red box and its description below it: the title stays short. */
export const TITLE_LIMIT = 150;

/** Clause boundaries a long message is split at, best first: a sentence's end, then a colon or semicolon. */
const TITLE_BOUNDARIES = [/[.!?](?=\s)/g, /[:;](?=\s)/g, /\s\((?=[^)]*\))/g];

/**
 * A message as a title read at a glance and the rest: the longest leading sentence (or clause) of at most
 * TITLE_LIMIT characters; the rest follows in the description. A first sentence longer than that is cut at a word
 * with "…", and the whole text goes to the description.
 */
export function splitTitle(text: string): { title: string; rest: string } {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat.length <= TITLE_LIMIT) return { title: flat, rest: '' };
	for (const boundary of TITLE_BOUNDARIES) {
		let cut = -1;
		for (const match of flat.matchAll(boundary)) {
			if (match.index >= TITLE_LIMIT) break;
			cut = match.index;
		}
		if (cut >= 30) {
			const keepsMark = /[.!?]/.test(flat[cut]);
			return {
				title: flat.slice(0, keepsMark ? cut + 1 : cut),
				rest: sentenceStart(flat.slice(keepsMark || flat[cut] !== ' ' ? cut + 1 : cut).trim()),
			};
		}
	}
	const head = flat.slice(0, TITLE_LIMIT - 1);
	const space = head.lastIndexOf(' ');
	return { title: `${head.slice(0, space > 60 ? space : head.length).trimEnd()}…`, rest: flat };
}

/**
 * The error with its title fitted (see splitTitle): what does not fit goes first in the description, which is never
 * left empty. Applied where errors leave our nodes (asNodeError, error items, tool results), whatever made them.
 */
export function fitTitle<E extends NodeApiError | NodeOperationError>(error: E): E {
	const { title, rest } = splitTitle(error.message);
	const description = typeof error.description === 'string' ? error.description.trim() : '';
	error.message = title;
	error.description = [rest, description].filter(Boolean).join('\n') || FALLBACK_DESCRIPTION;
	return error;
}

const FALLBACK_DESCRIPTION =
	"See the node's documentation (linked from its settings) for what this means and how to fix it.";

/** A NodeOperationError whose title fits (see fitTitle). */
export function operationError(
	node: INode,
	message: string,
	options: { itemIndex?: number; description?: string } = {},
): NodeOperationError {
	return fitTitle(new NodeOperationError(node, message, options));
}

/** Errors leave our nodes as NodeApiError or NodeOperationError, whatever threw them, with a title that fits. */
export function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return fitTitle(error);
	return fitTitle(new NodeOperationError(node, error as Error));
}

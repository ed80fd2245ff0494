import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, INode, JsonObject } from 'n8n-workflow';

import { NUMERIC_TEXT } from './answerShapes';
import type { AnswerContract, AnswerShape, EntryList } from './answerShapes';
import { MAX_OUTPUT_TEXT_LENGTH } from '../base/constants';
import {
	contentTypeOf,
	findRequestId,
	isHtmlAnswer,
	isJsonBody,
	isPageAnswer,
	TITLE_LIMIT,
} from './errors';
import { addRunNote, MAX_HINT_LENGTH } from '../base/hints';
import type { ApiResponse } from './errors';
import { readMethodologies } from './methodologies';
import type { ApiRoute } from './routes';
import { hasOwn, isRecord, setOwn, showValue } from '../base/values';

/**
 * Every success answer is read against its route's contract (routes.ts) before any operation sees it: a documented
 * variant is brought to the contract's form, anything else is an UnreadableAnswerError that names what came (status,
 * content type, top-level keys, where it does not fit) and never the answer itself. No operation ever turns an
 * answer it cannot read into empty results or nulls that look like "no data".
 */

/** Where an answer does not fit: the path of the member, what it is and what was expected there. */
export interface ShapeProblem {
	path: Array<string | number>;
	found: string;
	expected: string;
}

/** What a value is, in words, never the value itself. */
export function kindWords(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.length ? `a list of ${value.length}` : 'an empty list';
	if (typeof value === 'string') return value.trim() === '' ? 'an empty text' : 'a text';
	if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'not a finite number';
	if (typeof value === 'boolean') return 'true/false';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function shapeWords(shape: AnswerShape): string {
	switch (shape.kind) {
		case 'any':
			return 'a value';
		case 'string':
			return shape.numeric
				? 'a number as text'
				: shape.nonEmpty
					? 'a text that is not empty'
					: 'a text';
		case 'number':
			return 'a number';
		case 'boolean':
			return 'true/false';
		case 'null':
			return 'null';
		case 'object':
			return 'an object';
		case 'list':
			return 'a list';
		case 'oneOf':
			return shape.words;
		case 'allOf':
			return shapeWords(shape.shapes[0]);
	}
}

/** The kind of JSON value a shape takes, to pick the option of a oneOf whose deeper problem is worth naming. */
function takes(shape: AnswerShape, value: unknown): boolean {
	switch (shape.kind) {
		case 'any':
			return true;
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number';
		case 'boolean':
			return typeof value === 'boolean';
		case 'null':
			return value === null;
		case 'object':
			return isRecord(value);
		case 'list':
			return Array.isArray(value);
		case 'oneOf':
			return shape.options.some((option) => takes(option, value));
		case 'allOf':
			return shape.shapes.every((part) => takes(part, value));
	}
}

function problem(value: unknown, shape: AnswerShape): ShapeProblem {
	return { path: [], found: kindWords(value), expected: shapeWords(shape) };
}

function within(key: string | number, found: ShapeProblem): ShapeProblem {
	found.path.unshift(key);
	return found;
}

/**
 * The first place where `value` does not fit `shape`, else undefined. Allocates nothing on the way when it fits:
 * it runs over every entry of a 10,000-instrument answer.
 */
export function checkShape(shape: AnswerShape, value: unknown): ShapeProblem | undefined {
	switch (shape.kind) {
		case 'any':
			return undefined;
		case 'string':
			return typeof value === 'string' &&
				(!shape.nonEmpty || value.trim() !== '') &&
				(!shape.numeric || NUMERIC_TEXT.test(value))
				? undefined
				: problem(value, shape);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value)
				? undefined
				: problem(value, shape);
		case 'boolean':
			return typeof value === 'boolean' ? undefined : problem(value, shape);
		case 'null':
			return value === null ? undefined : problem(value, shape);
		case 'list': {
			if (!Array.isArray(value)) return problem(value, shape);
			if (shape.of) {
				for (let index = 0; index < value.length; index++) {
					const found = checkShape(shape.of, value[index]);
					if (found) return within(index, found);
				}
			}
			return undefined;
		}
		case 'object': {
			if (!isRecord(value)) return problem(value, shape);
			const { required = {}, optional = {}, others } = shape;
			for (const key in required) {
				const member = hasOwn(value, key) ? value[key] : undefined;
				if (member === undefined)
					return { path: [key], found: 'missing', expected: shapeWords(required[key]) };
				const found = checkShape(required[key], member);
				if (found) return within(key, found);
			}
			for (const key in optional) {
				if (!hasOwn(value, key) || value[key] === undefined) continue;
				const found = checkShape(optional[key], value[key]);
				if (found) return within(key, found);
			}
			if (others) {
				for (const key of Object.keys(value)) {
					if (hasOwn(required, key) || hasOwn(optional, key)) continue;
					const found = checkShape(others, value[key]);
					if (found) return within(key, found);
				}
			}
			return undefined;
		}
		case 'oneOf': {
			let candidate: AnswerShape | undefined;
			let candidates = 0;
			for (const option of shape.options) {
				if (!checkShape(option, value)) return undefined;
				if (takes(option, value)) {
					candidate = option;
					candidates++;
				}
			}
			// One option takes this kind of value: its own problem says more than "expected a or b".
			return candidates === 1 ? checkShape(candidate!, value) : problem(value, shape);
		}
		case 'allOf': {
			for (const part of shape.shapes) {
				const found = checkShape(part, value);
				if (found) return found;
			}
			return undefined;
		}
	}
}

/** `data[3].sustainability_data.scope_1_emissions.value`, with long names cut. */
export function pathWords(path: Array<string | number>): string {
	let out = '';
	for (const part of path) {
		if (typeof part === 'number') out += `[${part}]`;
		else out += `${out ? '.' : ''}${showValue(part, 40)}`;
	}
	return out || 'the answer';
}

function valueAt(value: unknown, path: string[]): unknown {
	let current = value;
	for (const key of path) {
		if (!isRecord(current) || !hasOwn(current, key)) return undefined;
		current = current[key];
	}
	return current;
}

/**
 * An SFDR classification as the answer gave it, read as a number: a number, or a whole number written as text ("8")
 * as the route contracts accept it; anything else (null, missing) is null. The one place a classification is read,
 * so a row and a Portfolio Summary always agree.
 */
export function readClassification(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value.trim());
	return null;
}

/** An entry's ISIN as the API gave it: a text that is not empty, else undefined (counted as an entry without one). */
export function entryIsin(entry: unknown, list: EntryList): string | undefined {
	const isin = valueAt(entry, list.isin);
	return typeof isin === 'string' && isin.trim() !== '' ? isin : undefined;
}

/**
 * An HTML page answered with 200, or any page that is not JSON answered with 503: a proxy, load balancer or
 * maintenance page in front of the API (the API itself answers JSON) saying the API is not available, so it is
 * taken like a 503 (the request was not carried out), retried with backoff within Max Wait.
 */
export function isProxyPage(response: ApiResponse): boolean {
	return (
		(response.statusCode === 200 && isHtmlAnswer(response)) ||
		(response.statusCode === 503 && isPageAnswer(response))
	);
}

/**
 * A page that is not JSON answered with 502: a proxy or gateway in front of the API got no usable answer from it.
 * The request may have reached the API, so it is a network failure of the "may have been carried out" kind.
 */
export function isGatewayPage(response: ApiResponse): boolean {
	return response.statusCode === 502 && isPageAnswer(response);
}

/** What came, in words, without the answer itself: "a JSON object with the top-level keys data, metadata". */
export function describeAnswer(response: ApiResponse): string {
	const { body } = response;
	if (isHtmlAnswer(response)) return 'an HTML page';
	if (typeof body === 'string' && !isJsonBody(response))
		return body.trim() === ''
			? 'an empty body'
			: `a text that is not JSON (${body.length.toLocaleString('en-US')} characters)`;
	if (Array.isArray(body))
		return `a JSON list of ${body.length.toLocaleString('en-US')} entr${body.length === 1 ? 'y' : 'ies'}`;
	if (isRecord(body)) {
		const keys = Object.keys(body);
		if (keys.length === 0) return 'an empty JSON object ({})';
		const shown = keys.slice(0, 10).map((key) => showValue(key, 40));
		return `a JSON object with the top-level key${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > 10 ? ` and ${keys.length - 10} more` : ''}`;
	}
	if (body === undefined || body === null) return 'an empty body';
	return `a bare JSON ${kindWords(body).replace(/^an? /, '')}`;
}

/**
 * A success answer (2xx) the node cannot read. Not retried: the same request would get the same answer. It stops the
 * run's further requests (requestBudget.isStopError): an API that answers so will most likely answer every request so.
 */
/** "<title>: <what>" when that fits in a title, else the title alone and `what` first in the description. */
function titled(title: string, what: string): { message: string; problem: string[] } {
	const whole = `${title}: ${what}`;
	return whole.length <= TITLE_LIMIT
		? { message: whole, problem: [] }
		: { message: `${title}.`, problem: [`What is wrong: ${what}.`] };
}

export class UnreadableAnswerError extends NodeApiError {
	constructor(
		node: INode,
		readonly route: ApiRoute,
		response: ApiResponse,
		what: string,
		itemIndex?: number,
	) {
		const contentType = contentTypeOf(response) || 'none';
		const { message, problem } = titled(
			`The API's answer to the ${route.label} request cannot be read`,
			what,
		);
		const requestId = findRequestId(response.body) ?? headerText(response, 'x-amzn-requestid');
		const answered = route.chargedOutcome
			? `The API answered ${response.statusCode}, so ${route.chargedOutcome} although its answer cannot be read: it counts against the monthly quota, and it is not sent again in this execution (Settings > Retry On Fail included); running the workflow again sends it anew. No result was made of it.`
			: 'The request was answered, so it counts against the monthly quota; it was not sent again, as the same request would get the same answer. No result was made of it.';
		super(
			node,
			{ message: 'unreadable answer', httpCode: String(response.statusCode) } as JsonObject,
			{
				message,
				description: [
					...problem,
					`What came: status ${response.statusCode}, content type ${contentType}, ${describeAnswer(response)}.`,
					`Expected: ${route.answer.expected}.`,
					`${answered} If this persists, the API may have changed or a proxy may stand in front of it: check the Base URL, and tell the vendor or the package maintainers what is named here (the answer itself is not shown).`,
					...(requestId ? [`Request ID (quote it to support): ${requestId}`] : []),
				].join('\n'),
				httpCode: String(response.statusCode),
				itemIndex,
			},
		);
		this.carriedOut = route.chargedOutcome !== undefined;
	}

	/** The route's request was carried out (a 2xx on a route with `chargedOutcome`): never to be sent again. */
	readonly carriedOut: boolean;
}

/** Whether the error is a 2xx on a charged route (a report generated, a snapshot stored) whose answer cannot be read. */
export function isCarriedOut(error: unknown): boolean {
	return error instanceof UnreadableAnswerError && error.carriedOut;
}

function headerText(response: ApiResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return typeof value === 'string' && /^[\w.:-]{1,100}$/.test(value) ? value : undefined;
}

function problemWords(found: ShapeProblem): string {
	if (found.path.length === 0) return `the answer is ${found.found}, expected ${found.expected}`;
	return `${pathWords(found.path)} is ${found.found}, expected ${found.expected}`;
}

/** The contract's shape, or the first documented variant the answer fits (brought to the contract's form). */
function fitContract(
	contract: AnswerContract,
	body: unknown,
): { body: unknown } | { problem: ShapeProblem } {
	const found = checkShape(contract.shape, body);
	if (!found) return { body };
	for (const variant of contract.variants ?? []) {
		if (!checkShape(variant.shape, body)) return { body: { [variant.wrapIn]: body } };
	}
	return { problem: found };
}

/**
 * The answer of a success status, read against the route's contract: the body to work with (a documented variant
 * brought to the contract's form), or an UnreadableAnswerError.
 */
export function readAnswer(
	node: INode,
	route: ApiRoute,
	response: ApiResponse,
	itemIndex?: number,
): unknown {
	const contract = route.answer;
	const fail = (what: string) => new UnreadableAnswerError(node, route, response, what, itemIndex);
	const { body } = response;
	if (!isJsonBody(response)) {
		throw fail(
			isHtmlAnswer(response)
				? 'it is an HTML page, not the JSON the API answers'
				: typeof body !== 'string' || body.trim() === ''
					? 'it is empty'
					: 'it is not JSON',
		);
	}
	if (contract.reader === 'methodologies') {
		const read = readMethodologies(body);
		if ('unreadable' in read) throw fail(`no list of methodologies in it (${read.unreadable})`);
		return body;
	}
	const fitted = fitContract(contract, body);
	if ('problem' in fitted) throw fail(problemWords(fitted.problem));
	for (const list of contract.entries ?? []) {
		const entries = valueAt(fitted.body, list.at);
		if (!Array.isArray(entries) || entries.length === 0) continue;
		if (!entries.some((entry) => entryIsin(entry, list) !== undefined)) {
			throw fail(
				`${pathWords(list.at)} lists ${entries.length.toLocaleString('en-US')} ${list.words}, none with an ISIN under ${pathWords(list.isin)}`,
			);
		}
	}
	return fitted.body;
}

/**
 * The read answer with every text longer than MAX_OUTPUT_TEXT_LENGTH cut there and marked "… (truncated, N
 * characters)", and how many were cut: operations copy answer values into output items as they are. Only what holds
 * a long text is copied.
 */
export function boundTexts(value: unknown): { value: unknown; cut: number } {
	let cut = 0;
	// Runs over every value of a 10,000-instrument answer: primitives are passed over without a call, objects
	// walked without allocating (no Object.entries) unless something in them is cut.
	const bound = (current: unknown): unknown => {
		if (typeof current === 'string') {
			if (current.length <= MAX_OUTPUT_TEXT_LENGTH) return current;
			cut++;
			return `${current.slice(0, MAX_OUTPUT_TEXT_LENGTH)}… (truncated, ${current.length.toLocaleString('en-US')} characters)`;
		}
		if (Array.isArray(current)) {
			let copy: unknown[] | undefined;
			for (let index = 0; index < current.length; index++) {
				const entry: unknown = current[index];
				if (!mayHoldLongText(entry)) continue;
				const bounded = bound(entry);
				if (bounded !== entry) (copy ??= current.slice())[index] = bounded;
			}
			return copy ?? current;
		}
		const record = current as Record<string, unknown>;
		let copy: Record<string, unknown> | undefined;
		for (const name in record) {
			if (!hasOwn(record, name)) continue;
			const entry = record[name];
			if (!mayHoldLongText(entry)) continue;
			const bounded = bound(entry);
			if (bounded !== entry) setOwn((copy ??= { ...record }), name, bounded);
		}
		return copy ?? current;
	};
	const bounded = mayHoldLongText(value) ? bound(value) : value;
	return { value: bounded, cut };
}

/** A text over the output limit, or an object or list that may hold one. */
function mayHoldLongText(value: unknown): boolean {
	return typeof value === 'string'
		? value.length > MAX_OUTPUT_TEXT_LENGTH
		: value !== null && typeof value === 'object';
}

/** The outcome a success message names, by the route's known messages; 'unknown' for any other message. */
export function readOutcome(
	route: ApiRoute,
	message: string | null,
): { outcome: string; match?: RegExpExecArray } {
	const text = message?.trim() ?? '';
	for (const { pattern, outcome } of route.answer.outcomes?.known ?? []) {
		const match = pattern.exec(text);
		if (match) return { outcome, match };
	}
	return { outcome: 'unknown' };
}

/** The state of an ISIN or holding sent that a readable answer left out (an answer defect): the start of its reason. */
export const NOT_IN_ANSWER = "not in the API's answer";

/** The reason of a result the API answered without data (found = false). */
export const NO_DATA_REASON = 'no data from the API';

/**
 * The reason given on the row of an ISIN (or holding) sent that a readable answer left out: not checked, never
 * "no data". `documented` says what the route promises for every ISIN asked.
 */
export function notInAnswerReason(
	what: 'ISIN' | 'holding',
	documented = 'the API documents an entry for every ISIN asked, with null values when it has no data',
): string {
	return `${NOT_IN_ANSWER}: the API answered the request for this ${what} but left it out (an answer defect: ${documented}). Not checked; run again later.`;
}

/**
 * What an answer held beside the entries asked for, per list of entries: entries without an ISIN, entries for ISINs
 * not asked for, and ISINs answered twice with different values. Counted as the answers come, named in the output.
 */
export class EntryTally {
	withoutIsin = 0;
	readonly unasked = new Set<string>();
	readonly conflicting = new Set<string>();

	get empty(): boolean {
		return this.withoutIsin === 0 && this.unasked.size === 0 && this.conflicting.size === 0;
	}

	/**
	 * The note on the result of `isin`: that it was answered twice differently, and what the answers held beside the
	 * entries asked for (`answerNote`, from `describe`); undefined when neither applies.
	 */
	noteFor(isin: string, answerNote: string): string | undefined {
		const general = this.withoutIsin > 0 || this.unasked.size > 0 ? answerNote : undefined;
		if (!this.conflicting.has(isin)) return general;
		const twice =
			'The API answered twice for this ISIN with different values; the first answer is shown.';
		return general ? `${twice} ${general}` : twice;
	}

	/** One line for the output and an execution hint, or undefined when there is nothing to say. */
	describe(route: ApiRoute): string | undefined {
		if (this.empty) return undefined;
		const parts: string[] = [];
		if (this.withoutIsin)
			parts.push(
				`${this.withoutIsin} entr${this.withoutIsin === 1 ? 'y' : 'ies'} without a readable ISIN (left out)`,
			);
		if (this.unasked.size)
			parts.push(
				`${this.unasked.size} entr${this.unasked.size === 1 ? 'y' : 'ies'} for ISINs not asked for (${listFew([...this.unasked])}; left out)`,
			);
		if (this.conflicting.size)
			parts.push(
				`${this.conflicting.size} ISIN${this.conflicting.size === 1 ? '' : 's'} answered twice with different values (${listFew([...this.conflicting])}; the first answer is used)`,
			);
		return `The API's answer to the ${route.label} request also held ${parts.join(', ')}.`;
	}
}

function listFew(names: string[], shown = 5): string {
	const cut = names.slice(0, shown).map((name) => showValue(name, 20));
	return names.length > shown
		? `${cut.join(', ')} and ${names.length - shown} more`
		: cut.join(', ');
}

/** Whether two entries of the same ISIN say the same (an API may list an ISIN sent twice twice). */
export function sameEntry(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	try {
		return JSON.stringify(a) === JSON.stringify(b);
	} catch {
		return false;
	}
}

/** The note when a success message is none of the route's documented ones: the outcome is "unknown". */
export function noteUnknownOutcome(
	this: IExecuteFunctions,
	where: string,
	what: string,
	message: string | null,
): void {
	noteAboutAnswer.call(
		this,
		`${where}: the API answered ${what} with success and the message "${showValue(message, 200)}", which is none of the documented ones, so the outcome is "unknown". Check with Get Many what is stored now.`,
		`${where}: the outcome is "unknown" (see outcome in the output); check with Get Many what is stored.`,
	);
}

/** What the run should know about an answer (a partly readable one, an unknown outcome): a note above the output and in the log. */
export function noteAboutAnswer(this: IExecuteFunctions, note: string, short?: string): void {
	addRunNote(this, note, 'warning', { short: note.length > MAX_HINT_LENGTH ? short : undefined });
}

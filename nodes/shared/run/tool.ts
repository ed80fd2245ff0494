/**
 * Tool mode: our nodes run as an AI Agent tool (`usableAsTool`). n8n runs such a node in one of two ways, the same
 * on n8n 2.20.x and 2.41.x (n8n-core):
 *
 * - AI Agent up to 2.x (langchain tools): `getInputConnectionData` wraps the node with `createNodeAsTool`, and each
 *   call of the tool runs the node's `execute` with a `SupplyDataContext` whose connection type is `ai_tool`; its
 *   `isToolExecution()` answers true (an `ExecuteContext`'s answers false). The input is one item: the tool's
 *   arguments. A thrown error is thrown to the agent (the model got an empty tool result).
 * - AI Agent 3.x (engine requests): the agent asks the engine to run the tool node as a node of its own
 *   (`requests-response.ts` sets `node.rewireOutputLogTo = 'ai_tool'`), with an `ExecuteContext`, so
 *   `isToolExecution()` is false there. The input is one item: the agent's input merged with the tool's arguments
 *   and `toolCallId`. A thrown error ends the whole execution on n8n 2.20.x; 2.41.x turns it into `{ error }`.
 *
 * In both the node is the `…Tool` variant n8n derives from the node (`convertNodeToAiTool`: description name plus
 * `Tool`), so the workflow node's type ends in `Tool`, which our own node types never do.
 *
 * In tool mode bad input never throws and an API failure comes back as a short `{ error }` the model can relay;
 * results are compact, say found / not found, and are bounded (see `toolResult`).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { NO_DATA_REASON, NOT_IN_ANSWER } from '../api/answers';
import { QUOTA_USED_UP, fixOfInputError } from '../api/errors';
import type { Operation } from '../base/operation';
import { reportRequestsSpent } from '../api/requestBudget';

/** n8n's `NodeConnectionTypes.AiTool` (a string here: the export moved between n8n-workflow versions). */
const AI_TOOL = 'ai_tool';

/** How many results a tool call returns at most; the counts cover all of them. */
export const TOOL_RESULT_LIMIT = 50;

/** The parts of a node execution context the detection reads; both may be missing (older or other contexts). */
export interface ToolModeContext {
	getNode(): INode;
	isToolExecution?: () => boolean;
}

/** True when the node runs as an AI Agent tool, on any supported n8n (see the file comment for the three markers). */
export function isToolExecution(context: ToolModeContext): boolean {
	try {
		if (typeof context.isToolExecution === 'function' && context.isToolExecution() === true)
			return true;
	} catch {
		// A context without the method's state: fall through to the node.
	}
	const node = context.getNode() as INode & { rewireOutputLogTo?: string };
	if (node.rewireOutputLogTo === AI_TOOL) return true;
	const typeName = typeof node.type === 'string' ? (node.type.split('.').pop() ?? '') : '';
	return typeName.endsWith('Tool');
}

/** Parameters that tool mode reads differently from what the node is set to. */
function toolParameter(name: string, value: unknown): unknown {
	if (name === 'options' && value && typeof value === 'object' && !Array.isArray(value)) {
		const options = value as IDataObject;
		// An invalid ISIN is skipped and reported (unless the node sends such ISINs anyway): the rest still go.
		return options.invalidIsins === 'send' ? options : { ...options, invalidIsins: 'skip' };
	}
	// Holdings operations of node version 1 have Invalid ISINs as a parameter of its own.
	if (name === 'invalidIsins') return value === 'send' ? value : 'skip';
	// A model cannot read a PDF: the report's link and metadata come back instead.
	if (name === 'downloadPdf') return false;
	return value;
}

/**
 * The context the operation runs with in tool mode: the node's own, reading a few parameters differently and
 * continuing on fail (so a failed batch or group still leaves the answers of the others).
 */
function toolContext(context: IExecuteFunctions): IExecuteFunctions {
	const view = Object.create(context) as IExecuteFunctions;
	const read = context.getNodeParameter.bind(context) as (...args: unknown[]) => unknown;
	view.getNodeParameter = ((name: string, ...rest: unknown[]) =>
		toolParameter(name, read(name, ...rest))) as IExecuteFunctions['getNodeParameter'];
	view.continueOnFail = () => true;
	return view;
}

const FIXES: Array<[RegExp, string]> = [
	[
		/invalid ISIN|not a valid ISIN|ISIN is not valid/i,
		'check the ISIN for a typo (12 characters: a two-letter country code, 9 letters or digits, a check digit) and ask again with the corrected ISIN',
	],
	[
		/list is empty|ISINs parameter .*is empty|no input item has an ISIN|no ISIN in field|there are no input items/i,
		'pass at least one ISIN, e.g. ["US0378331005"]',
	],
];

/** What the model is told to do about a problem with what it passed. */
function fixFor(problem: string, description?: string | null): string | undefined {
	for (const [pattern, fix] of FIXES) if (pattern.test(problem)) return fix;
	const said = fixOfInputError(description);
	return said ? shorten(said, 240) : undefined;
}

function shorten(text: string, max: number): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The first sentences of a message, without what a run again costs (a workflow author's concern, not the model's). */
function plainMessage(message: string): string {
	return shorten(
		message
			.replace(/\s*This run sent [\d,]+ requests?;[^.]*\.?/g, '')
			.replace(/^Item \d+: /, '')
			.replace(
				/^Not sent: an earlier request of this run failed, so no further requests were sent\. /,
				'',
			),
		300,
	);
}

/** A failure of the API (or of reaching it) in words a model can pass on to the user. */
export function toolErrorMessage(message: string, httpCode?: string | null): string {
	if (message.includes(QUOTA_USED_UP) || /Limit Exceeded/.test(message)) {
		return 'the monthly request quota of the API key is used up; requests fail until it renews next month (the vendor can raise it)';
	}
	const plain = plainMessage(message);
	return httpCode ? `${plain} (HTTP ${httpCode})` : plain;
}

/** An entry of the tool's input that was not sent, and why. */
export interface RejectedEntry {
	/** What was given (shortened), or its place when nothing was. */
	isin: string;
	reason: string;
}

/** How many rejected entries an error and a tool answer name; the rest are counted ("and N more"). */
export const REJECTED_NAMED = 20;

const rejectedByError = new WeakMap<object, RejectedEntry[]>();

/** Keeps with the error the entries it refused: a model sees no output items, so the tool's answer names them. */
export function withRejectedEntries(error: object, rejected: RejectedEntry[]): void {
	if (rejected.length) rejectedByError.set(error, rejected);
}

/** A thrown error as the tool's one result: bad input says what to fix, an API failure is a plain `error`. */
function thrownResult(error: unknown): IDataObject {
	const caught = error as Partial<NodeApiError & NodeOperationError> & Error;
	const rejected = rejectedByError.get(caught);
	if (rejected) {
		const more = rejected.length - REJECTED_NAMED;
		return {
			problem: plainMessage(caught.message),
			not_sent: rejected.slice(0, REJECTED_NAMED).map(({ isin, reason }) => {
				const fix = fixFor(reason);
				return { isin, problem: fix ? `${reason}; fix: ${fix}` : reason };
			}),
			...(more > 0 ? { more_not_sent: `and ${more} more, not named here` } : {}),
			fix: 'correct each ISIN named in not_sent and ask again with the corrected ISINs',
		};
	}
	if (caught instanceof NodeOperationError && !isApiFailure(caught)) {
		const problem = plainMessage(caught.message);
		const fix = fixFor(problem, caught.description);
		return fix ? { problem, fix } : { problem };
	}
	const httpCode = caught instanceof NodeApiError ? caught.httpCode : undefined;
	return { error: toolErrorMessage(caught.message ?? String(error), httpCode) };
}

/** A NodeOperationError that stands for a failure of the API run, not of the input (e.g. "Not sent: ..."). */
function isApiFailure(error: NodeOperationError): boolean {
	return /^Not sent: |quota|The API |API address|request budget|Max Wait|throttl/i.test(
		error.message,
	);
}

const isEmpty = (value: unknown) => value === null || value === undefined;

/** One output item as the model reads it: without what the tool was passed (its own arguments) and without
 * the all-null columns of an ISIN that was not found or could not be sent. */
function compact(json: IDataObject, input: IDataObject | undefined): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		if (input && Object.prototype.hasOwnProperty.call(input, key) && input[key] === value) continue;
		out[key] = value;
	}
	// "Add to Input Items" puts the result under one key: that result is what the model wants.
	const keys = Object.keys(out);
	if (keys.length === 1) {
		const only = out[keys[0]];
		if (only && typeof only === 'object' && !Array.isArray(only) && 'found' in only)
			return compact(only as IDataObject, undefined);
	}
	if (out.found === false || out.found === null || out.error !== undefined) {
		for (const key of Object.keys(out)) if (key !== 'found' && isEmpty(out[key])) delete out[key];
	}
	return out;
}

type Kind = 'found' | 'not_found' | 'not_checked' | 'invalid' | 'failed' | 'other';

/** One result, said plainly: `found`, and for a problem what was wrong and how to fix it. */
function explain(json: IDataObject): { json: IDataObject; kind: Kind } {
	if (json.error !== undefined) {
		const rest = { ...json };
		const { error, http_code: httpCode } = json;
		delete rest.error;
		delete rest.error_details;
		delete rest.http_code;
		return {
			json: {
				...rest,
				found: false,
				error: toolErrorMessage(String(error), httpCode as string | undefined),
			},
			kind: 'failed',
		};
	}
	if (
		json.found === false &&
		typeof json.reason === 'string' &&
		!json.reason.startsWith(NO_DATA_REASON)
	) {
		const { reason, ...rest } = json;
		const given = /"([^"]*)"/.exec(reason)?.[1];
		const fix = fixFor(reason);
		const problem = fix ? `${reason}; fix: ${fix}` : reason;
		const isin = isEmpty(rest.isin) ? (given ?? null) : rest.isin;
		return { json: { ...rest, isin, found: false, problem }, kind: 'invalid' };
	}
	// A holding left out of the request (invalid ISIN, cash, no ISIN): what was wrong, and the fix.
	if (json.removed === true && typeof json.removed_reason === 'string') {
		const reason = json.removed_reason;
		const rest: IDataObject = {};
		for (const [key, value] of Object.entries(json))
			if (!isEmpty(value) && key !== 'removed_reason') rest[key] = value;
		const fix = fixFor(reason);
		return { json: { ...rest, problem: fix ? `${reason}; fix: ${fix}` : reason }, kind: 'invalid' };
	}
	// Left out of the API's answer: not known either way (never "not found"); asking again later may answer it.
	if (
		json.found === null &&
		typeof json.reason === 'string' &&
		json.reason.startsWith(NOT_IN_ANSWER)
	) {
		const { reason, ...rest } = json;
		return { json: { ...rest, problem: reason }, kind: 'not_checked' };
	}
	if (json.found === true) return { json, kind: 'found' };
	if (json.found === false) return { json, kind: 'not_found' };
	return { json, kind: 'other' };
}

/**
 * The operation's output as one item for the model: for several results the counts (asked, found, not found,
 * invalid, failed), the first `TOOL_RESULT_LIMIT` results and, when there were more, what to do about it; one result
 * alone as it is; every problem said with its fix; binary data left out (a model cannot read it).
 */
export function toolResult(
	output: INodeExecutionData[],
	items: INodeExecutionData[],
	/** The operation looks instruments up by ISIN: an empty output means no ISIN was passed. */
	looksUpIsins = false,
): INodeExecutionData {
	const pairedItem = items.length ? items.map((_, item) => ({ item })) : [{ item: 0 }];
	const inputOf = (item: INodeExecutionData) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const index = typeof paired === 'number' ? paired : (paired?.item ?? 0);
		return items[index]?.json;
	};
	const results = output.map((item) => explain(compact(item.json, inputOf(item))));
	const counts = { found: 0, not_found: 0, not_checked: 0, invalid: 0, failed: 0, other: 0 };
	for (const { kind } of results) counts[kind]++;

	if (results.length === 0) {
		return {
			json: looksUpIsins
				? { found: false, problem: 'the ISIN list is empty', fix: fixFor('list is empty') }
				: { results: [], note: 'nothing matched the request' },
			pairedItem,
		};
	}
	// Every result failed the same way (used-up quota, bad key, unreachable API): one plain error.
	const errors = new Set(results.map(({ json }) => json.error));
	if (counts.failed === results.length && errors.size === 1) {
		return { json: { error: [...errors][0] as string }, pairedItem };
	}
	// One result of a portfolio operation (an alignment, a temperature, a report) is the answer itself.
	if (results.length === 1 && (counts.other === 1 || !looksUpIsins))
		return { json: results[0].json, pairedItem };

	const json: IDataObject = {};
	if (counts.other === 0) {
		json.summary = {
			asked: results.length,
			found: counts.found,
			not_found: counts.not_found,
			...(counts.not_checked ? { not_checked: counts.not_checked } : {}),
			invalid: counts.invalid,
			...(counts.failed ? { failed: counts.failed } : {}),
		};
	} else {
		json.summary = {
			results: results.length,
			...(counts.invalid ? { invalid: counts.invalid } : {}),
			...(counts.failed ? { failed: counts.failed } : {}),
		};
	}
	const shown = results.slice(0, TOOL_RESULT_LIMIT).map((result) => result.json);
	json.results = shown;
	if (results.length > shown.length) {
		const problems = results.filter(
			({ kind }) => kind === 'invalid' || kind === 'failed' || kind === 'not_checked',
		);
		// Problems beyond the first results still reach the model: they need its action.
		const laterProblems = problems.filter((result) => !shown.includes(result.json));
		if (laterProblems.length)
			json.problems = laterProblems.slice(0, TOOL_RESULT_LIMIT).map((result) => result.json);
		json.note = `showing ${shown.length} of ${results.length.toLocaleString('en-US')} results; ask for fewer ISINs at a time, or use Portfolio Summary for figures over a whole portfolio`;
	}
	return { json, pairedItem };
}

/**
 * Runs the operation as an AI tool: never throws for bad input or a failed API call (the one result item says what
 * happened), and shapes the results for a model (`toolResult`).
 */
export async function executeAsTool(
	this: IExecuteFunctions,
	operation: Operation,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const pairedItem = items.length ? items.map((_, item) => ({ item })) : [{ item: 0 }];
	const context = toolContext(this);
	try {
		const output = await operation.execute.call(context, items);
		const looksUpIsins = this.getNodeParameter('isinSource', 0, '') !== '';
		return [toolResult(output, items, looksUpIsins)];
	} catch (error) {
		return [{ json: thrownResult(error), pairedItem }];
	} finally {
		reportRequestsSpent.call(context);
	}
}

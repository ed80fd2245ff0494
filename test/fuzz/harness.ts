/* eslint-disable @n8n/community-nodes/require-node-api-error -- test tooling, not a node: rethrows its own errors */
/**
 * Runs one of our nodes inside the workflow runner against the simulator with fuzzed input, and checks
 * the three properties of the HTTP fuzz suites:
 *
 * 1. an error is a NodeOperationError / NodeApiError that names the item (or is one of the few run-level
 *    errors that concern no single item), and its message names `context.itemIndex` when that is set;
 * 2. no request is answered with a 400 the node could have prevented: the schema error
 *    (`An error occurred while processing your request`) or any 400 whose cause is checked locally;
 * 3. every input item is accounted for in the output, per the operation's contract.
 */
import type { IDataObject, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import type { RecordedRequest, Simulator } from '../simulator';
import { ALL_ROUTES } from '../simulator/routes';
import { normalizeCurrency } from '../simulator/currencies';
import { validate } from '../simulator/validation';
import { chainWorkflow, credentialsFor } from '../helpers/workflows';
import { runWorkflow } from '../workflow/runner';
import type { WorkflowInput, WorkflowRunResult } from '../workflow/runner';
import { fuzzInputItems } from './arbitraries';

export const SCHEMA_ERROR = 'An error occurred while processing your request';

/** 400 answers about things the node checks before sending: any of them means a local check missed a case. */
export const LOCALLY_CHECKED_400 = [
	SCHEMA_ERROR,
	'Some instruments are missing required properties',
	'Please provide at least one holding',
	'Please provide at least one instrument',
	'You are not using a valid date as snapshot parameter',
	'Snapshot date cannot be higher than actual date',
];

/** Words of a JavaScript error that escaped (wrapped or not) instead of an error naming the item. */
const RAW_JS_ERROR =
	/Cannot (read|convert|set)|is not a function|is not iterable|is not defined|TypeError|RangeError|URI malformed|Maximum call stack/;

/** Errors about the run as a whole (no single item to name). */
const RUN_LEVEL_ERRORS = [
	/^No input item has an ISIN: /,
	/^No entry of the ISINs list is a valid ISIN: /,
	/^There are no input items: /,
	/^No holding can be weighted for a Portfolio Summary of the /,
];

export type OnError = undefined | 'continueRegularOutput' | 'continueErrorOutput';

export interface FuzzCase {
	/** Our node's description.name. */
	type: string;
	parameters: IDataObject;
	items: unknown[];
	onError?: OnError;
}

export interface FuzzOutcome {
	/** n8n refused to start the workflow (parameter issues): nothing may have been sent. */
	refused?: string;
	result?: WorkflowRunResult;
	/** Output 0 and, with continueErrorOutput, output 1 of the node. */
	output: INodeExecutionData[];
	requests: RecordedRequest[];
	/** `data.message` of every 400 answer (replayed to read it). */
	badRequests: string[];
	violations: string[];
}

export const NODE_NAME = 'Node';

export function fuzzWorkflow(fuzz: FuzzCase): WorkflowInput {
	return chainWorkflow(fuzzInputItems(fuzz.items), {
		type: fuzz.type,
		parameters: fuzz.parameters,
		name: NODE_NAME,
		onError: fuzz.onError,
	});
}

/** The API's words of a 400, read by sending the recorded request again (400s change no state). */
async function replayMessage(sim: Simulator, request: RecordedRequest): Promise<string> {
	const response = await fetch(`${sim.url}${request.path}`, {
		method: request.method,
		headers: { 'content-type': 'application/json', 'x-api-key': request.key ?? '' },
		body:
			request.body === null || request.method === 'GET' ? undefined : JSON.stringify(request.body),
	});
	const body = (await response.json().catch(() => ({}))) as {
		data?: { message?: string };
		message?: string;
	};
	return body.data?.message ?? body.message ?? `HTTP ${response.status}`;
}

function schemaProblems(request: RecordedRequest): string[] {
	const route = ALL_ROUTES.find((candidate) => candidate.key === request.route);
	if (!route?.schema) return [];
	return [
		...validate(route.schema, request.body ?? {}).map(
			(problem) => `${problem.path}: ${problem.message}`,
		),
		...currencyProblems(request.body),
	];
}

/** The spec's currencies are ISO 4217 codes: the portfolio's and every holding's (a typo such as EUE is never sent). */
function currencyProblems(body: unknown): string[] {
	if (!body || typeof body !== 'object') return [];
	const { currency, holdings } = body as { currency?: unknown; holdings?: unknown };
	const problems: string[] = [];
	const check = (path: string, value: unknown) => {
		if (value !== undefined && value !== null && normalizeCurrency(String(value)) !== value)
			problems.push(`${path}: ${JSON.stringify(value)} is not an ISO 4217 code`);
	};
	check('currency', currency);
	if (Array.isArray(holdings))
		holdings.forEach((holding, index) =>
			check(`holdings[${index}].currency`, (holding as { currency?: unknown })?.currency),
		);
	return problems;
}

export function pairedIndices(items: INodeExecutionData[]): number[] {
	const indices: number[] = [];
	for (const item of items) {
		const paired = item.pairedItem;
		const list = Array.isArray(paired) ? paired : paired === undefined ? [] : [paired];
		for (const entry of list)
			indices.push(typeof entry === 'number' ? entry : (entry as IPairedItemData).item);
	}
	return indices;
}

/** What n8n shows as an error's title (its message) at most: the rest belongs in the description (issue 36). */
export const TITLE_LIMIT = 150;

/** Property 4 (issue 36): a title read at a glance, and a description with the rest. */
export function errorTextViolations(
	message: unknown,
	description: unknown,
	where: string,
): string[] {
	const violations: string[] = [];
	const title = String(message ?? '');
	if (title.length > TITLE_LIMIT)
		violations.push(
			`${where} title of ${title.length} characters (at most ${TITLE_LIMIT}): ${title}`,
		);
	if (/^Item \d+\b/.test(title))
		violations.push(`${where} title starts with "Item N" (n8n names the item itself): ${title}`);
	if (typeof description !== 'string' || description.trim() === '')
		violations.push(`${where} has no description: ${title}`);
	return violations;
}

/** The nodes' own classes made from NodeApiError (the run's error may come as a copy that names its class only). */
const API_ERROR_CLASSES = ['UncertainOutcomeError', 'UnreadableAnswerError'];

/** NodeApiError or NodeOperationError when the error is one of them or of a class made from them (UncertainOutcomeError). */
function ourErrorClass(error: unknown): string | undefined {
	if (API_ERROR_CLASSES.includes((error as { name?: string }).name ?? '')) return 'NodeApiError';
	for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
		const className = (proto as { constructor?: { name?: string } }).constructor?.name;
		if (className === 'NodeApiError' || className === 'NodeOperationError') return className;
	}
	return undefined;
}

/** Property 1: the error is ours and concerns its item; property 4: its title fits and it has a description. */
export function errorViolations(error: unknown): string[] {
	if (!error) return [];
	const {
		name: ownName,
		message,
		context,
		description,
	} = error as {
		name?: string;
		message?: string;
		description?: unknown;
		context?: { itemIndex?: number };
	};
	const violations: string[] = [];
	const name = ourErrorClass(error) ?? ownName;
	if (name !== 'NodeOperationError' && name !== 'NodeApiError')
		violations.push(`error is a ${name}, not a NodeOperationError/NodeApiError: ${message}`);
	const text = String(message ?? '');
	const itemIndex = context?.itemIndex;
	const problems = problemList(error);
	if (name === 'NodeOperationError' && problems) {
		// Every problem of the input in one error (inputProblemsError): a short title, the item said once by n8n's own
		// "[item N]", each problem on a line of the description naming its item or its column.
		if (text.length > 150) violations.push(`error title of ${text.length} characters: ${text}`);
		if (/^Item \d/.test(text)) violations.push(`the title names the item n8n names too: ${text}`);
		for (const line of problems) {
			if (!PROBLEM_LINE.test(line)) violations.push(`a problem names no item nor column: ${line}`);
		}
		const names = (index: number) => problems.some((line) => line.startsWith(`- Item ${index}`));
		if (typeof itemIndex === 'number' && !names(itemIndex) && !problems.some(isColumnLine))
			violations.push(`no problem is of the error's item ${itemIndex}: ${problems.join(' | ')}`);
	} else if (name === 'NodeOperationError') {
		// The item is n8n's item index (its error view names it); a run-level error concerns no single item.
		const named = typeof itemIndex === 'number' || /\bItem \d+\b/.test(text);
		if (!named && !RUN_LEVEL_ERRORS.some((pattern) => pattern.test(text)))
			violations.push(`error does not name the item: ${text}`);
		const other = /\bItem (\d+)\b/.exec(text);
		if (typeof itemIndex === 'number' && other && Number(other[1]) !== itemIndex) {
			violations.push(`error names another item than its itemIndex ${itemIndex}: ${text}`);
		}
	}
	if (name === 'NodeOperationError' || name === 'NodeApiError')
		violations.push(...errorTextViolations(message, description, 'error'));
	if (RAW_JS_ERROR.test(text)) violations.push(`a JavaScript error escaped: ${text}`);
	if (text.length > 2000)
		violations.push(`error message of ${text.length} characters (values not truncated?)`);
	return violations;
}

/** A line of inputProblemsError's list: an item's problem, a column's, or the count of the rest. */
const PROBLEM_LINE =
	/^- (Item \d+|No |The |[A-Z][\w ]* is (not )?mapped|and [\d,]+ more problems? in items? )/;
const isColumnLine = (line: string) => /^- (No |The |[A-Z][\w ]* is (not )?mapped)/.test(line);

/** The lines of an error's list of input problems (inputProblemsError), or undefined for any other error. */
export function problemList(error: unknown): string[] | undefined {
	const description = (error as { description?: unknown }).description;
	if (typeof description !== 'string' || !description.startsWith('Nothing was sent.')) return;
	const lines = description.split('\n').filter((line) => line.startsWith('- '));
	return lines.length ? lines : undefined;
}

/** Runs a case and checks properties 1 and 2; property 3 is the caller's (it depends on the operation). */
export async function runCase(
	sim: Simulator,
	fuzz: FuzzCase,
	options: { apiKey?: string; setup?: (sim: Simulator) => Promise<void> } = {},
): Promise<FuzzOutcome> {
	sim.reset();
	await options.setup?.(sim);
	const before = sim.requestCount();
	let result: WorkflowRunResult | undefined;
	let refused: string | undefined;
	try {
		result = await runWorkflow(fuzzWorkflow(fuzz), {
			credentials: credentialsFor(sim.url, options.apiKey),
			timeoutMs: 30_000,
			coreNodes: 'standIns',
		});
	} catch (error) {
		const message = (error as Error).message;
		if (!/(workflow|node) has issues/i.test(message)) throw error;
		refused = message;
	}
	const requests = sim.requests().slice(before);
	const violations: string[] = [];
	if (refused && requests.length)
		violations.push(`n8n refused the workflow, yet ${requests.length} request(s) were sent`);

	const badRequests: string[] = [];
	for (const request of requests) {
		for (const problem of schemaProblems(request))
			violations.push(`request ${request.method} ${request.path} breaks the schema: ${problem}`);
		if (request.status === 400) {
			const said = await replayMessage(sim, request);
			badRequests.push(said);
			if (LOCALLY_CHECKED_400.includes(said))
				violations.push(`the API answered 400 "${said}" to ${request.method} ${request.path}`);
		} else if (request.status !== 200 && request.status !== 201) {
			violations.push(`the API answered ${request.status} to ${request.method} ${request.path}`);
		}
	}

	const output = result
		? [
				...result.items(NODE_NAME, 0),
				...(fuzz.onError === 'continueErrorOutput' ? result.items(NODE_NAME, 1) : []),
			]
		: [];
	if (result) {
		if (result.status === 'canceled') violations.push('the run timed out');
		violations.push(...errorViolations(result.error));
		if (result.error && fuzz.onError)
			violations.push(
				`the run failed although the node continues on fail: ${result.error.message}`,
			);
		const inputKeys = new Set(
			fuzz.items.flatMap((input) =>
				input && typeof input === 'object' ? Object.keys(input as object) : [],
			),
		);
		for (const item of output) {
			if (typeof item.json?.error === 'string' && RAW_JS_ERROR.test(item.json.error as string)) {
				violations.push(`error item with a raw JavaScript error: ${item.json.error as string}`);
			}
			violations.push(...rowViolations(item.json, inputKeys));
			const fromInput = fuzz.items.some(
				(input) => (input as { error?: unknown } | null)?.error === item.json?.error,
			);
			if (typeof item.json?.error === 'string' && !fromInput)
				violations.push(
					...errorTextViolations(item.json.error, item.json.error_details, 'error item'),
				);
		}
	}
	return { refused, result, output, requests, badRequests, violations };
}

/**
 * Property 5 (issue 36): an output row has no undefined value (n8n's table shows it as a red `undefined`), and a
 * result not found says why: `found` (or `<prefix>_found`) false comes with a non-empty `reason` (`<prefix>_reason`).
 * Top-level keys the input items carry are theirs, not checked.
 */
export function rowViolations(json: unknown, inputKeys: ReadonlySet<string> = new Set()): string[] {
	const violations: string[] = [];
	const walk = (value: unknown, path: string, top: boolean) => {
		if (value === undefined) {
			violations.push(`${path || 'row'} is undefined`);
			return;
		}
		if (!value || typeof value !== 'object') return;
		if (Array.isArray(value)) {
			value.forEach((entry, index) => walk(entry, `${path}[${index}]`, false));
			return;
		}
		const record = value as Record<string, unknown>;
		for (const key of Object.keys(record)) {
			if (top && inputKeys.has(key)) continue;
			walk(record[key], path ? `${path}.${key}` : key, false);
			const found = /^(.*_)?found$/.exec(key);
			if (found && record[key] === false && typeof record.error !== 'string') {
				const reasonKey = `${found[1] ?? ''}reason`;
				const reason = record[reasonKey];
				if (typeof reason !== 'string' || reason.trim() === '')
					violations.push(`${path ? `${path}.` : ''}${key} is false without a ${reasonKey}`);
			}
		}
	};
	walk(json, '', true);
	return violations;
}

/** Property 3 helpers. */
export function expectAll(
	violations: string[],
	indices: number[],
	count: number,
	what: string,
): void {
	const seen = new Set(indices);
	const missing = Array.from({ length: count }, (_, index) => index).filter(
		(index) => !seen.has(index),
	);
	if (missing.length)
		violations.push(`${what}: input item(s) ${missing.join(', ')} missing from the output`);
	const unknown = indices.filter((index) => index < 0 || index >= count);
	if (unknown.length)
		violations.push(`${what}: output paired to unknown item(s) ${unknown.join(', ')}`);
}

export function expectOnePerItem(
	violations: string[],
	output: INodeExecutionData[],
	count: number,
	what: string,
): void {
	const indices = pairedIndices(output);
	if (output.length !== count)
		violations.push(`${what}: ${output.length} output items for ${count} input items`);
	const sorted = [...indices].sort((a, b) => a - b);
	if (sorted.join() !== Array.from({ length: count }, (_, index) => index).join()) {
		violations.push(`${what}: paired items ${indices.join(', ')} are not each input item once`);
	}
}

/** JSON with long strings cut, for failure messages. */
export function shortJson(value: unknown, max = 3000): string {
	const shown = JSON.stringify(value, (_key, inner: unknown) => {
		if (typeof inner === 'string' && inner.length > 80)
			return `${inner.slice(0, 40)}…(${inner.length} chars)`;
		if (typeof inner === 'number' && !Number.isFinite(inner)) return String(inner);
		return inner;
	});
	return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

/** A readable summary of a failing case. */
export function describeCase(fuzz: FuzzCase, outcome: FuzzOutcome): string {
	return `${outcome.violations.join('\n')}\nerror: ${shortJson(outcome.result?.error?.message ?? outcome.refused ?? '-', 500)}\ncase: ${shortJson(fuzz)}`;
}

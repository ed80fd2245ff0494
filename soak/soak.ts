/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- soak tooling runs in Node, outside n8n's sandbox */
/**
 * Fault soak: runs the example workflows (examples/*.json) again and again against the simulator with
 * faults injected on about 30 % of the API requests, and checks that every faulted run gives exactly the
 * output of a fault-free run (every node's output items, paired items and binary files, normalised) and
 * leaves the same stored portfolios.
 *
 * Fault mix (per request, seeded per run): 429 "Too Many Requests", 429 {status, error}, 503, 500, a dropped
 * connection, a request carried out and then dropped unanswered (processed-drop), a slow answer, HTML proxy pages
 * (200, 503) and answers no node can read. Never the
 * used-up quota (429 "Limit Exceeded": not retried by design) nor a 504 (not retried blindly by design).
 *
 * Dropped connections on routes that are not sent again blindly (routes.ts `onUncertainOutcome`) have their own
 * correct answers, accepted as such:
 * - POST /portfolios: the list of portfolios settles it; a snapshot found stored is output with outcome `stored` and
 *   our own message instead of the API's `created`/`updated` message (`acceptSettledSnapshots`); whether it created
 *   the portfolio is then not known, so that item and the portfolio's later ones may give `name` null with a
 *   `name_note`. Everything else,
 *   the stored portfolios included, must equal the fault-free run.
 * - POST /reports: nothing can settle it. The run fails with the "not known" error, and that is correct when the
 *   simulator dropped a POST /reports of that run, or answered it with a 200 HTML page (charged: never sent again),
 *   and the same report was never requested again
 *   (`isUncertainReport`); such a run counts as passed, tallied in `uncertainReports`.
 * - POST /temperature-score/insights: a poll carried out and dropped still moved the calculation on, so fewer polls
 *   are needed: the summary's `requests` may be lower by the number of such drops (`acceptAdvancedPolls`).
 *
 * Unreadable answers (`unreadable-data-text`, `unreadable-list`: 200/201 with `{"data":"maintenance"}` or `[1,2,3]`):
 * a run that got one must say so, failing with "The API's answer to the … request cannot be read" or, under Continue
 * On Fail, with an item carrying that error (`isExpectedUnreadable`); it counts as passed, tallied in
 * `unreadableAnswers`. A run that got one and ended green without a word fails the soak. HTML pages answered with 200
 * or 503 (`html-page`, `proxy-503-html`, a proxy in front of the API) are retried like a 503, so those runs must equal
 * the fault-free run; but a 200 page to POST /reports is an uncertain report (above).
 *
 * 500 policy: the spec says "retry once", so the transport retries a 500 once and a second 500 for the same
 * request fails the run, on purpose. With 500 at ~5 % of requests that happens now and then. Such a run
 * counts as EXPECTED ("500 twice"), reported apart and not as a failure, only when (a) the run's error is the
 * documented one ("unexpected error ... also when asked again") and (b) the simulator did answer 500 at least
 * twice on the route of the failing node. Any other failure or any output difference is a failure.
 *
 * Volatile values, replaced before comparing (VOLATILE_KEYS / VOLATILE_PATTERNS below, also in soak/README.md):
 * report request_id and location_url, report metadata identifier (rpt_<hex>), any UUID, any URL of the
 * simulator, binary data ids, the temperature summary's waited_seconds, and the output of trigger nodes (the
 * Schedule Trigger's clock). Everything else must be equal, including pairedItem, the bytes of every binary
 * file (compared by SHA-256), the emails the Send Email stand-in recorded and the stored portfolios.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { startSimulator } from '../test/simulator';
import type {
	FaultKind,
	PortfolioState,
	RecordedRequest,
	RouteKey,
	Simulator,
} from '../test/simulator';
import { EXAMPLE_RUNS } from '../test/workflow/exampleRuns';
import { withSampleFiles } from '../test/workflow/fileExamples';
import { inProcessSkipReason } from '../test/workflow/inProcess';
import { resetDataTables } from '../test/workflow/standins';
import { loadWorkflowFile, runWorkflow } from '../test/workflow/runner';
import type { WorkflowInput, WorkflowRunResult } from '../test/workflow/runner';

export const API_KEY = 'sim-all-families';
export const ORGANIZATION = 'org-a';

/** The fault kinds drawn from, uniformly; see the header for what is left out and why. */
export const FAULT_KINDS: FaultKind[] = [
	'429-message',
	'429-status',
	'503',
	'500',
	'drop',
	'processed-drop',
	'slow',
	'html-page',
	'proxy-503-html',
	'unreadable-data-text',
	'unreadable-list',
];

/** Answers no node can read: a run that got one must fail loudly with our message (isExpectedUnreadable). */
const UNREADABLE: ReadonlyArray<FaultKind | null> = ['unreadable-data-text', 'unreadable-list'];

/** Keys whose values change from run to run; replaced by `<volatile>`. */
export const VOLATILE_KEYS = [
	'request_id',
	'location_url',
	'waited_seconds',
	'startTime',
	'executionTime',
];
/** Values that change from run to run wherever they appear (also inside text such as an email body). */
export const VOLATILE_PATTERNS: Array<[RegExp, string]> = [
	[/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
	[/\brpt_[0-9a-f]+\b/g, '<report-id>'],
	[/https?:\/\/127\.0\.0\.1:\d+\/[^\s"']*/g, '<sim-url>'],
];

export interface SoakOptions {
	/** Time budget of the whole soak (reference runs included), seconds. */
	seconds: number;
	/** Base seed: run n uses seed + n. */
	seed: number;
	/** Chance of a fault per request. */
	probability: number;
	/** Real wait of a `slow` fault, ms. */
	slowMs: number;
	/** Example files to use (default: every workflow in examples/). */
	examples?: string[];
	examplesDir?: string;
	/** Simulator option: requests answered is_lock=true before the temperature scores (default 1: example 05 polls once). */
	temperatureLockRequests?: number;
	/** Only one faulted run per example, with this fault seed (to replay a failure). */
	replaySeed?: number;
	/** Rounds (one faulted run of each example) made whatever the time budget says (for the short test on a busy machine). */
	minRounds?: number;
	log?: (line: string) => void;
}

export interface RunRecord {
	run: number;
	example: string;
	seed: number;
	/** cut: stopped by the soak's own time limit (not counted). */
	outcome: 'passed' | 'failed' | 'expected-500-twice' | 'cut';
	requests: number;
	referenceRequests: number;
	faults: Partial<Record<FaultKind, number>>;
	ms: number;
	problems: string[];
}

export interface SoakSummary {
	references: Array<{
		example: string;
		requests: number;
		ms: number;
		ok: boolean;
		problem?: string;
	}>;
	runs: RunRecord[];
	passed: number;
	failed: number;
	expected500: number;
	/** Runs stopped by the time limit of the soak itself: neither passed nor failed. */
	cut: number;
	requestsSeen: number;
	faultFreeRequests: number;
	/** Passed runs whose correct answer was the uncertain outcome of a dropped POST /reports. */
	uncertainReports: number;
	/** Runs that got an unreadable answer and said so (failed with "cannot be read", or an item carries it). */
	unreadableAnswers: number;
	/** Output items of POST /portfolios settled by the list of portfolios (outcome `stored`). */
	settledSnapshots: number;
	faults: Partial<Record<FaultKind, number>>;
	stoppedBy: 'time' | 'examples';
	elapsedMs: number;
}

interface Reference {
	example: string;
	workflow: WorkflowInput;
	outputs: Snapshot;
	requests: number;
	ms: number;
}

export interface Snapshot {
	nodes: Record<string, unknown>;
	emails: unknown[];
	portfolios: unknown;
}

/** The example workflows: every examples/*.json with a nodes array (holdings.sample.json is data, not a workflow). */
function exampleWorkflows(
	dir: string,
	only?: string[],
	log: (line: string) => void = () => {},
): Array<{ example: string; workflow: WorkflowInput }> {
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.filter((file) => !only?.length || only.some((name) => file.includes(name)))
		.flatMap((file) => {
			let workflow: WorkflowInput;
			try {
				workflow = loadWorkflowFile(join(dir, file));
			} catch {
				return [];
			}
			const skip = inProcessSkipReason(workflow as { nodes?: Array<{ type?: string }> });
			if (skip) {
				log(`skipping ${file}: ${skip}`);
				return [];
			}
			// The file examples: 11 reads examples/holdings.sample.xlsx, 10 gets the upload of its first demo run.
			const pinData = EXAMPLE_RUNS[file.slice(0, 2)]?.[0]?.pinData?.();
			workflow = { ...withSampleFiles(workflow), ...(pinData ? { pinData } : {}) } as WorkflowInput;
			return [{ example: file.replace(/\.json$/, ''), workflow }];
		});
}

/** Done: a run that ends at a form's completion page (example 10) waits there for the browser, its work done. */
const finished = (status: string) => status === 'success' || status === 'waiting';

function scrub(text: string): string {
	return VOLATILE_PATTERNS.reduce(
		(current, [pattern, replacement]) => current.replace(pattern, replacement),
		text,
	);
}

export function normalise(value: unknown): unknown {
	if (typeof value === 'string') return scrub(value);
	if (Array.isArray(value)) return value.map(normalise);
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) {
			out[key] = VOLATILE_KEYS.includes(key)
				? '<volatile>'
				: normalise((value as Record<string, unknown>)[key]);
		}
		return out;
	}
	return value;
}

async function binaryDigest(binary: IBinaryData): Promise<Record<string, unknown>> {
	const bytes = await Container.get(BinaryDataService).getAsBuffer(binary);
	const meta: Partial<IBinaryData> = { ...binary };
	delete meta.id;
	delete meta.data;
	return { ...meta, sha256: createHash('sha256').update(bytes).digest('hex') };
}

async function normaliseItems(items: INodeExecutionData[]): Promise<unknown[]> {
	const out: unknown[] = [];
	for (const item of items) {
		const binary: Record<string, unknown> = {};
		for (const [property, data] of Object.entries(item.binary ?? {}))
			binary[property] = await binaryDigest(data);
		out.push(normalise({ json: item.json, binary, pairedItem: item.pairedItem ?? null }));
	}
	return out;
}

/** Trigger nodes output the clock (a Schedule Trigger gives the time it fired): their output is not compared. */
function triggerNodes(workflow: WorkflowInput): Set<string> {
	return new Set(
		workflow.nodes.filter((node) => /trigger$/i.test(node.type)).map((node) => node.name),
	);
}

/** Every node's outputs (all output indexes), the emails the Send Email stand-in recorded, and the stored portfolios. */
async function snapshot(
	result: WorkflowRunResult,
	sim: Simulator,
	workflow: WorkflowInput,
): Promise<Snapshot> {
	const nodes: Record<string, unknown> = {};
	const triggers = triggerNodes(workflow);
	for (const name of Object.keys(result.outputs).sort()) {
		if (triggers.has(name)) {
			nodes[name] = '<trigger: clock>';
			continue;
		}
		nodes[name] = await Promise.all(result.outputs[name].map((items) => normaliseItems(items)));
	}
	const emails = result.emails.map((email) =>
		normalise({
			...email,
			attachments: email.attachments.map(({ content, ...rest }) => ({
				...rest,
				sha256: createHash('sha256').update(content).digest('hex'),
			})),
		}),
	);
	return {
		nodes,
		emails,
		portfolios: normalise(sim.portfolioState(ORGANIZATION) as PortfolioState[]),
	};
}

/** Paths where two snapshots differ, for the report (at most `max`). */
export function differences(
	expected: unknown,
	actual: unknown,
	path = '',
	max = 8,
	out: string[] = [],
): string[] {
	if (out.length >= max) return out;
	if (Object.is(expected, actual)) return out;
	if (
		typeof expected !== typeof actual ||
		expected === null ||
		actual === null ||
		typeof expected !== 'object'
	) {
		out.push(
			`${path || '(root)'}: expected ${JSON.stringify(expected)?.slice(0, 120)}, got ${JSON.stringify(actual)?.slice(0, 120)}`,
		);
		return out;
	}
	if (Array.isArray(expected) !== Array.isArray(actual)) {
		out.push(`${path}: expected ${Array.isArray(expected) ? 'a list' : 'an object'}`);
		return out;
	}
	if (Array.isArray(expected) && Array.isArray(actual) && expected.length !== actual.length) {
		out.push(`${path}: expected ${expected.length} entries, got ${actual.length}`);
	}
	const keys = new Set([...Object.keys(expected as object), ...Object.keys(actual as object)]);
	for (const key of keys) {
		differences(
			(expected as Record<string, unknown>)[key],
			(actual as Record<string, unknown>)[key],
			`${path}${Array.isArray(expected) ? `[${key}]` : `.${key}`}`,
			max,
			out,
		);
	}
	return out;
}

function countFaults(requests: RecordedRequest[]): Partial<Record<FaultKind, number>> {
	const faults: Partial<Record<FaultKind, number>> = {};
	for (const { fault } of requests) if (fault) faults[fault] = (faults[fault] ?? 0) + 1;
	return faults;
}

/** The route of the node that failed (from its outgoing requests), to check the "500 twice" explanation. */
function isExpected500Twice(result: WorkflowRunResult, requests: RecordedRequest[]): boolean {
	const message = result.error?.message ?? '';
	if (!/had an unexpected error on the .* request, also when asked again/.test(message))
		return false;
	const byRoute = new Map<RouteKey | null, number>();
	for (const request of requests)
		if (request.fault === '500') byRoute.set(request.route, (byRoute.get(request.route) ?? 0) + 1);
	return [...byRoute.values()].some((count) => count >= 2);
}

const DROPS: ReadonlyArray<FaultKind | null> = ['drop', 'processed-drop'];
/**
 * Faults after which a POST /reports has no knowable outcome: a dropped connection, or a proxy's page with a success
 * status (the report is charged, so it is never sent again: issue 35, charges).
 */
const UNCERTAIN_REPORT_FAULTS: ReadonlyArray<FaultKind | null> = [...DROPS, 'html-page'];

const CANNOT_BE_READ = /The API's answer to the .+ request cannot be read: /;

/** Whether the simulator answered a request of this run with an answer no node can read. */
function gotUnreadable(requests: RecordedRequest[]): boolean {
	return requests.some((request) => UNREADABLE.includes(request.fault));
}

/**
 * A run that got an unreadable answer is right only when it says so: it failed with our "cannot be read" error, or
 * (under Continue On Fail) an output item carries it. Anything else means an unreadable answer went unnoticed.
 */
export function isExpectedUnreadable(result: WorkflowRunResult): boolean {
	if (CANNOT_BE_READ.test(result.error?.message ?? '')) return true;
	// An unreadable list of portfolios while settling a dropped snapshot: the error is "outcome unknown" and its
	// description names the unreadable answer ("The check: …").
	const description = (result.error as { description?: unknown } | undefined)?.description;
	if (typeof description === 'string' && CANNOT_BE_READ.test(description)) return true;
	return Object.values(result.outputs).some((outputs) =>
		outputs.some((items) =>
			items.some((item) => CANNOT_BE_READ.test(String(item.json.error ?? ''))),
		),
	);
}

/**
 * A failed run whose error is the uncertain outcome of a snapshot (issue 35: counted "outcome unknown (may have been
 * stored)", never "not stored"), correct when the simulator dropped a POST /portfolios of this run or answered it with
 * a page, so that neither the sends allowed nor the list of portfolios could settle it.
 */
export function isUncertainSnapshot(
	result: WorkflowRunResult,
	requests: RecordedRequest[],
): boolean {
	if (!/outcome unknown \(may have been stored\)/.test(result.error?.message ?? '')) return false;
	return requests.some(
		(request) =>
			request.route === 'POST /portfolios' && UNCERTAIN_REPORT_FAULTS.includes(request.fault),
	);
}

/**
 * A failed run whose error is the uncertain outcome of POST /reports, correct when the simulator dropped a POST
 * /reports of this run (the transport cannot tell whether it was processed) and that report was never asked for again.
 */
export function isUncertainReport(result: WorkflowRunResult, requests: RecordedRequest[]): boolean {
	if (
		!/Whether the API carried out the PDF report request is not known/.test(
			result.error?.message ?? '',
		)
	)
		return false;
	const reports = requests.filter((request) => request.route === 'POST /reports');
	const dropped = reports.filter((request) => UNCERTAIN_REPORT_FAULTS.includes(request.fault));
	if (dropped.length === 0) return false;
	return dropped.every((drop) => {
		const body = JSON.stringify(drop.body);
		return !reports.some(
			(other) => other.at >= drop.at && other !== drop && JSON.stringify(other.body) === body,
		);
	});
}

/** Calls `visit` with each output item's json of `actual` and the json at the same node, output and index of `reference`. */
function forEachItemPair(
	reference: Snapshot,
	actual: Snapshot,
	visit: (json: Record<string, unknown>, expected: Record<string, unknown>) => void,
): void {
	for (const [name, outputs] of Object.entries(actual.nodes)) {
		if (!Array.isArray(outputs)) continue;
		outputs.forEach((items: unknown, output) => {
			if (!Array.isArray(items)) return;
			items.forEach((item, index) => {
				const json = (item as { json?: Record<string, unknown> }).json;
				const expected = (
					(reference.nodes[name] as unknown[][] | undefined)?.[output]?.[index] as
						| { json?: Record<string, unknown> }
						| undefined
				)?.json;
				if (json && expected) visit(json, expected);
			});
		});
	}
}

/**
 * Output items of POST /portfolios whose connection dropped and which the list of portfolios settled: outcome
 * `stored` with our own message, where the fault-free run has the API's `created` or `updated`. They take the
 * reference's outcome and message (everything else must match). Returns how many, at most one per dropped POST.
 */
function acceptSettledSnapshots(
	reference: Snapshot,
	actual: Snapshot,
	requests: RecordedRequest[],
): { accepted: number; problems: string[] } {
	const drops = requests.filter(
		(request) => request.route === 'POST /portfolios' && DROPS.includes(request.fault),
	).length;
	let accepted = 0;
	const settledPortfolios = new Set<string>();
	forEachItemPair(reference, actual, (json, expected) => {
		if (json.outcome !== 'stored' || !['created', 'updated'].includes(String(expected.outcome)))
			return;
		if (json.identifier !== expected.identifier || json.quarter_end !== expected.quarter_end)
			return;
		json.outcome = expected.outcome;
		json.message = expected.message;
		settledPortfolios.add(String(json.identifier));
		accepted++;
	});
	// Whether a settled snapshot created its portfolio cannot be known, so neither can the portfolio's name: that
	// item and the later ones of the portfolio give name null with a name_note where the fault-free run knew it.
	forEachItemPair(reference, actual, (json, expected) => {
		if (!settledPortfolios.has(String(json.identifier))) return;
		if (
			json.name !== null ||
			typeof json.name_note !== 'string' ||
			typeof expected.name !== 'string'
		)
			return;
		json.name = expected.name;
		if (expected.name_note === undefined) delete json.name_note;
		else json.name_note = expected.name_note;
	});
	return {
		accepted,
		problems:
			accepted > drops
				? [`${accepted} snapshots reported settled, but only ${drops} POST /portfolios dropped`]
				: [],
	};
}

/**
 * A temperature poll carried out and then dropped still moved the calculation on (the simulator's is_lock counter),
 * so the run needs fewer polls than the fault-free one: the summary's `requests` may be lower by at most the number
 * of such drops. It takes the reference's value (everything else must match).
 */
function acceptAdvancedPolls(
	reference: Snapshot,
	actual: Snapshot,
	requests: RecordedRequest[],
): number {
	const drops = requests.filter(
		(request) =>
			request.route === 'POST /temperature-score/insights' && request.fault === 'processed-drop',
	).length;
	if (drops === 0) return 0;
	let accepted = 0;
	forEachItemPair(reference, actual, (json, expected) => {
		if (typeof json.requests !== 'number' || typeof expected.requests !== 'number') return;
		const fewer = expected.requests - json.requests;
		if (fewer <= 0 || fewer > drops) return;
		json.requests = expected.requests;
		accepted++;
	});
	return accepted;
}

function formatFaults(faults: Partial<Record<FaultKind, number>>): string {
	const parts = Object.entries(faults).map(([kind, count]) => `${kind}×${count}`);
	return parts.length ? parts.join(' ') : 'none';
}

export async function runSoak(options: SoakOptions): Promise<SoakSummary> {
	const log = options.log ?? (() => {});
	const started = Date.now();
	const deadline = started + options.seconds * 1000;
	const remaining = () => deadline - Date.now();
	const dir = options.examplesDir ?? resolve(__dirname, '..', 'examples');
	const examples = exampleWorkflows(dir, options.examples, log);
	const summary: SoakSummary = {
		references: [],
		runs: [],
		passed: 0,
		failed: 0,
		expected500: 0,
		cut: 0,
		requestsSeen: 0,
		faultFreeRequests: 0,
		uncertainReports: 0,
		unreadableAnswers: 0,
		settledSnapshots: 0,
		faults: {},
		stoppedBy: 'time',
		elapsedMs: 0,
	};
	if (examples.length === 0) throw new Error(`no example workflows in ${dir}`);

	// Example 05 needs the temperature route (not open on production, so off by default in the simulator).
	const sim = await startSimulator({
		temperatureRoute: true,
		temperatureLockRequests: options.temperatureLockRequests ?? 1,
	});
	// Each run as the first of its workflow: no static data, and (examples/12) an empty Data Table.
	const run = (workflow: WorkflowInput, timeoutMs: number) => {
		resetDataTables();
		return runWorkflow(workflow, {
			credentials: { sustainabilityComplianceApi: { apiKey: API_KEY, baseUrl: sim.url } },
			timeoutMs,
		});
	};
	try {
		// 1. Fault-free reference of each example.
		const references: Reference[] = [];
		for (const { example, workflow } of examples) {
			sim.reset();
			const begin = Date.now();
			const result = await run(workflow, Math.max(1000, remaining()));
			const ms = Date.now() - begin;
			const requests = sim.requestCount();
			if (result.error || !finished(result.status)) {
				const problem = `fault-free run failed: ${result.error?.message ?? result.status}`;
				summary.references.push({ example, requests, ms, ok: false, problem });
				summary.failed++;
				log(`reference ${example}: FAILED ${problem}`);
				continue;
			}
			references.push({
				example,
				workflow,
				outputs: await snapshot(result, sim, workflow),
				requests,
				ms,
			});
			summary.references.push({ example, requests, ms, ok: true });
			log(`reference ${example}: ${requests} requests, ${ms} ms`);
		}
		if (references.length === 0) {
			summary.stoppedBy = 'examples';
			return summary;
		}

		// 2. Faulted runs, round after round, until the time budget would be exceeded.
		let runIndex = 0;
		const slowest = new Map(references.map((reference) => [reference.example, reference.ms]));
		for (let round = 1; ; round++) {
			let ranThisRound = 0;
			const forced = round <= (options.minRounds ?? 0);
			for (const reference of references) {
				// Start a run only if it should end in time: twice its slowest duration so far, plus a margin.
				if (!forced && remaining() < 2 * (slowest.get(reference.example) ?? 0) + 2000) continue;
				runIndex++;
				ranThisRound++;
				const seed = options.replaySeed ?? options.seed + runIndex;
				sim.reset();
				sim.setFaults('*', {
					probability: options.probability,
					kinds: FAULT_KINDS,
					slowMs: options.slowMs,
					seed,
				});
				const begin = Date.now();
				const result = await run(
					reference.workflow,
					forced ? 60_000 : Math.max(1000, remaining() - 500),
				);
				const ms = Date.now() - begin;
				slowest.set(reference.example, Math.max(slowest.get(reference.example) ?? 0, ms));
				const requests = sim.requests();
				const record: RunRecord = {
					run: runIndex,
					example: reference.example,
					seed,
					outcome: 'passed',
					requests: requests.length,
					referenceRequests: reference.requests,
					faults: countFaults(requests),
					ms,
					problems: [],
				};
				let note = '';
				if (result.timedOut && !forced && remaining() < 1000) {
					record.outcome = 'cut';
					note = ' (stopped by the time limit of the soak)';
				} else if (result.timedOut) {
					record.problems.push(`timed out after ${ms} ms`);
				} else if (gotUnreadable(requests)) {
					if (isExpectedUnreadable(result)) {
						summary.unreadableAnswers++;
						note = ' (an unreadable answer: the run said so; accepted)';
					} else {
						record.problems.push(
							`an unreadable answer went unnoticed: ${result.error?.message ?? result.status}`,
						);
					}
				} else if (result.error || !finished(result.status)) {
					if (isExpected500Twice(result, requests)) {
						record.outcome = 'expected-500-twice';
						note = ` (${result.error?.message})`;
					} else if (isUncertainReport(result, requests)) {
						summary.uncertainReports++;
						note = ' (dropped POST /reports: uncertain outcome reported, not sent again; accepted)';
					} else if (isUncertainSnapshot(result, requests)) {
						summary.settledSnapshots++;
						note = ' (dropped POST /portfolios: outcome unknown reported; accepted)';
					} else {
						record.problems.push(`run failed: ${result.error?.message ?? result.status}`);
					}
				} else {
					const actual = await snapshot(result, sim, reference.workflow);
					const settled = acceptSettledSnapshots(reference.outputs, actual, requests);
					acceptAdvancedPolls(reference.outputs, actual, requests);
					summary.settledSnapshots += settled.accepted;
					if (settled.accepted)
						note = ` (${settled.accepted} snapshot(s) settled by the list of portfolios)`;
					record.problems.push(...settled.problems, ...differences(reference.outputs, actual));
				}
				if (record.problems.length) record.outcome = 'failed';
				summary.runs.push(record);
				if (record.outcome === 'cut') {
					summary.cut++;
					log(`run ${String(runIndex).padStart(3)} seed ${seed} ${reference.example}: CUT${note}`);
					continue;
				}
				summary.requestsSeen += record.requests;
				summary.faultFreeRequests += record.referenceRequests;
				for (const [kind, count] of Object.entries(record.faults))
					summary.faults[kind as FaultKind] = (summary.faults[kind as FaultKind] ?? 0) + count;
				if (record.outcome === 'passed') summary.passed++;
				else if (record.outcome === 'failed') summary.failed++;
				else summary.expected500++;
				const retries = record.requests - record.referenceRequests;
				log(
					`run ${String(runIndex).padStart(3)} seed ${seed} ${reference.example}: ${record.outcome.toUpperCase()} ` +
						`${record.requests} requests (fault-free ${record.referenceRequests}, ${retries >= 0 ? '+' : ''}${retries}) faults ${formatFaults(record.faults)} ${ms} ms${note}` +
						(record.problems.length ? `\n    ${record.problems.join('\n    ')}` : ''),
				);
			}
			if (ranThisRound === 0 || options.replaySeed !== undefined) break;
		}
		return summary;
	} finally {
		summary.elapsedMs = Date.now() - started;
		await sim.close();
	}
}

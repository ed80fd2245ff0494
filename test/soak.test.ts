/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * The short fault soak of `npm test`: a few seconds of soak/soak.ts (the full one is `npm run soak`).
 * Every example workflow once fault-free, then faulted runs (about 30 % of requests get 429, 503, 500, a
 * dropped connection or a slow answer) whose outputs must equal the fault-free ones.
 * The temperature route answers at once here (no is_lock poll) to keep it short; the full soak polls.
 */
import {
	isExpectedUnreadable,
	isUncertainReport,
	isUncertainSnapshot,
	runSoak,
} from '../soak/soak';
import type { RecordedRequest } from './simulator';
import type { WorkflowRunResult } from './workflow/runner';

const SEED = Number(process.env.SOAK_SEED ?? 20251121);

it('example workflows give the fault-free output under injected faults (short soak)', async () => {
	const lines: string[] = [];
	// 6 s, and at least one faulted run of every example even on a busy machine.
	const summary = await runSoak({
		seconds: 6,
		minRounds: 1,
		seed: SEED,
		probability: 0.3,
		slowMs: 20,
		temperatureLockRequests: 0,
		log: (line) => lines.push(line),
	});
	const failures = summary.runs.filter((run) => run.outcome === 'failed');
	if (summary.failed > 0)
		throw new Error(`soak seed ${SEED}: ${summary.failed} failed\n${lines.join('\n')}`);
	expect(summary.references.every((reference) => reference.ok)).toBe(true);
	expect(summary.references.length).toBeGreaterThanOrEqual(5);
	expect(summary.runs.length).toBeGreaterThan(0);
	expect(failures).toEqual([]);
	// Faults were injected and retried: a run that passed needed more requests than its fault-free run. (Not the
	// totals: a run stopped by an uncertain report or snapshot, correctly, sends fewer.)
	expect(
		Object.values(summary.faults).reduce((sum, count) => sum + (count ?? 0), 0),
	).toBeGreaterThan(0);
	expect(
		summary.runs.some((run) => run.outcome === 'passed' && run.requests > run.referenceRequests),
	).toBe(true);
}, 60_000);

describe('soak checks of requests dropped after sending', () => {
	const reportRequest = (
		at: number,
		fault: RecordedRequest['fault'],
		body: unknown = { name: 'A' },
	): RecordedRequest => ({
		route: 'POST /reports',
		method: 'POST',
		path: '/reports',
		key: 'sim-all-families',
		status: 0,
		body,
		headers: {},
		fault,
		at,
	});
	const failedRun = {
		error: new Error(
			'Whether the API carried out the PDF report request is not known: the report may have been generated.',
		),
	} as WorkflowRunResult;

	it('accept the uncertain report error only after a dropped POST /reports that was not sent again', () => {
		expect(isUncertainReport(failedRun, [reportRequest(1, 'processed-drop')])).toBe(true);
		expect(
			isUncertainReport(failedRun, [reportRequest(1, 'processed-drop'), reportRequest(2, null)]),
		).toBe(false);
		expect(isUncertainReport(failedRun, [reportRequest(1, null)])).toBe(false);
	});

	it('accept it after a 200 HTML page to POST /reports (charged: never sent again), not after a 503', () => {
		const pageRun = {
			error: new Error(
				'Whether the API carried out the PDF report request is not known: the report may have been generated.',
			),
		} as WorkflowRunResult;
		expect(isUncertainReport(pageRun, [reportRequest(1, 'html-page')])).toBe(true);
		expect(
			isUncertainReport(pageRun, [reportRequest(1, 'html-page'), reportRequest(2, null)]),
		).toBe(false);
		expect(isUncertainReport(pageRun, [reportRequest(1, '503')])).toBe(false);
	});
});

describe('soak check of uncertain snapshots', () => {
	const unknown = {
		error: new Error(
			'Whether the snapshot of portfolio "p" at 2025-03-31 holds these holdings is not known (it may have been stored): … Item 16: outcome unknown (may have been stored).',
		),
	} as WorkflowRunResult;
	const post = (fault: RecordedRequest['fault']) =>
		({ route: 'POST /portfolios', fault }) as unknown as RecordedRequest;

	it('accepts outcome unknown only after a dropped or paged POST /portfolios', () => {
		expect(isUncertainSnapshot(unknown, [post('drop')])).toBe(true);
		expect(isUncertainSnapshot(unknown, [post(null)])).toBe(false);
		expect(
			isUncertainSnapshot({ error: new Error('other') } as WorkflowRunResult, [post('drop')]),
		).toBe(false);
	});
});

describe('soak check of unreadable answers', () => {
	const run = (error?: string, itemError?: string) =>
		({
			error: error ? new Error(error) : undefined,
			outputs: { Node: [[{ json: itemError ? { error: itemError } : { isin: 'x' } }]] },
		}) as unknown as WorkflowRunResult;
	const said =
		"The API's answer to the SFDR classification request cannot be read: data is a text, expected a list";

	it('accepts a run that failed with the "cannot be read" error, or whose item carries it', () => {
		expect(isExpectedUnreadable(run(said))).toBe(true);
		expect(isExpectedUnreadable(run(undefined, said))).toBe(true);
	});

	it('accepts an outcome-unknown snapshot error whose description names the unreadable list', () => {
		const unknown = Object.assign(
			new Error('Whether the snapshot of portfolio "p" at 2025-09-30 was stored is not known'),
			{ description: `The snapshot may have been stored.\nThe check: ${said}` },
		);
		expect(
			isExpectedUnreadable({ error: unknown, outputs: {} } as unknown as WorkflowRunResult),
		).toBe(true);
	});

	it('refuses a green run without a word, and any other error', () => {
		expect(isExpectedUnreadable(run())).toBe(false);
		expect(isExpectedUnreadable(run('The API is temporarily unavailable (503)'))).toBe(false);
	});
});

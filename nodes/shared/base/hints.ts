import type { IExecuteFunctions } from 'n8n-workflow';
import { countOf } from './values';

/** n8n's limit for the text of a hint; a longer note is shown cut, whole in the log. */
export const MAX_HINT_LENGTH = 120;

type NoteContext = Pick<IExecuteFunctions, 'addExecutionHints' | 'logger'>;

export interface RunNoteOptions {
	/** One note per kind and node run, whatever the number of items, groups or batches: the first one counts. */
	kind?: string;
	/** What the hint says, when it should say less than the note (the note itself goes to the log). */
	short?: string;
}

/** Kinds (or texts) already noted, per node run (its context object). */
const noted = new WeakMap<object, Set<string>>();

/** The hint of a note (its short form if any) in at most MAX_HINT_LENGTH characters: cut at a word, marked "…". */
export function hintText(note: string, short?: string): string {
	const text = short ?? note;
	if (text.length <= MAX_HINT_LENGTH) return text;
	const cut = text.slice(0, MAX_HINT_LENGTH - 1);
	const space = cut.lastIndexOf(' ');
	return `${space > MAX_HINT_LENGTH / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * What the run should know: whole in the log, and as a hint above the node's output (where this n8n has execution
 * hints): at most 120 characters, once per kind and node run.
 */
export function addRunNote(
	context: NoteContext,
	note: string,
	type: 'warning' | 'info' = 'warning',
	{ kind, short }: RunNoteOptions = {},
): void {
	context.logger?.[type === 'warning' ? 'warn' : 'info'](`Sustainability Compliance: ${note}`);
	const key = kind ?? note;
	let kinds = noted.get(context);
	if (!kinds) noted.set(context, (kinds = new Set()));
	if (kinds.has(key)) return;
	kinds.add(key);
	if (typeof context.addExecutionHints === 'function')
		context.addExecutionHints({ message: hintText(note, short), type, location: 'outputPane' });
}

// ---------------------------------------------------------------------------------------------------------------
// What a person must notice after a run, counted over the whole node run (every group, batch and item) and noted
// once at its end by noteRunTally (execution.ts routeOperation).

interface LeftOut {
	/** "row" (holdings) or "ISIN" (lookups). */
	noun: string;
	/** Where the output lists them, e.g. "removed_rows". */
	listedIn: string;
	verb: string;
	byReason: Map<string, number>;
}

interface RunTally {
	leftOut?: LeftOut;
	/** Asked for, and answered without data. */
	noData: number;
	asked: number;
	/** ISINs of requests that failed under continue on fail. */
	unanswered: number;
	/** Time spent waiting for a turn after throttling and between tries. */
	waitedMs: number;
	/** Portfolios whose temperature the API was still calculating. */
	calculating: number;
	/** Holdings sent that the API skips by its documented rules (e.g. Temperature Score's skipped_rows). */
	skippedByApi: number;
	skippedListedIn?: string;
	/** ISINs or holdings sent that a readable answer left out (an answer defect): not checked. */
	notInAnswer: number;
	notInAnswerNoun?: string;
	notInAnswerListedIn?: string;
}

const tallies = new WeakMap<object, RunTally>();

function tallyOf(context: object): RunTally {
	let tally = tallies.get(context);
	if (!tally)
		tallies.set(
			context,
			(tally = {
				noData: 0,
				asked: 0,
				unanswered: 0,
				waitedMs: 0,
				calculating: 0,
				skippedByApi: 0,
				notInAnswer: 0,
			}),
		);
	return tally;
}

/** The kind of a reason: `invalid ISIN: "X" fails ...` → invalid ISIN; `no ISIN in field "isin"` → no ISIN. */
function reasonKind(reason: string): string {
	const kind =
		reason
			.split(':')[0]
			.replace(/ in field .*$/, '')
			.trim() || reason;
	return kind === 'no ISIN' ? 'without ISIN' : kind;
}

/**
 * Rows (or ISINs) the run left out of its requests, with why: e.g. `countLeftOut(this, reasons, 'row',
 * 'removed_rows', 'left out')`.
 */
export function countLeftOut(
	context: object,
	reasons: readonly string[],
	noun: string,
	listedIn: string,
	verb = 'left out',
): void {
	if (reasons.length === 0) return;
	const tally = tallyOf(context);
	tally.leftOut ??= { noun, listedIn, verb, byReason: new Map() };
	for (const reason of reasons) {
		const kind = reasonKind(reason);
		tally.leftOut.byReason.set(kind, (tally.leftOut.byReason.get(kind) ?? 0) + 1);
	}
}

/** ISINs asked for, how many of them the API answered without data, how many were not answered (failed request). */
export function countAnswers(
	context: object,
	asked: number,
	noData: number,
	unanswered: number,
): void {
	const tally = tallyOf(context);
	tally.asked += asked;
	tally.noData += noData;
	tally.unanswered += unanswered;
}

/** Time a request waited for its turn (throttling) or between tries. */
export function countWaited(context: object, waitedMs: number): void {
	if (waitedMs > 0) tallyOf(context).waitedMs += waitedMs;
}

/** Holdings sent that the API skips by its documented rules, listed in the output under `listedIn`. */
export function countSkippedByApi(context: object, skipped: number, listedIn: string): void {
	if (skipped <= 0) return;
	const tally = tallyOf(context);
	tally.skippedByApi += skipped;
	tally.skippedListedIn ??= listedIn;
}

/**
 * ISINs (noun 'ISIN') or holdings (noun 'holding') sent that a readable answer left out: an answer defect, not
 * checked (never "no data"); where the output names each, under `listedIn`.
 */
export function countNotInAnswer(
	context: object,
	count: number,
	noun: 'ISIN' | 'holding',
	listedIn: string,
): void {
	if (count <= 0) return;
	const tally = tallyOf(context);
	tally.notInAnswer += count;
	tally.notInAnswerNoun ??= noun;
	tally.notInAnswerListedIn ??= listedIn;
}

/** A portfolio whose temperature the API was still calculating when the run took its answer. */
export function countStillCalculating(context: object): void {
	tallyOf(context).calculating++;
}

/** Waits shorter than this are not worth a note. */
const NOTED_WAIT_MS = 1_000;

/** The notes of the run's tally (rows left out, answers missing, waits, calculations): one each, at the run's end. */
export function noteRunTally(context: NoteContext): void {
	const tally = tallies.get(context);
	if (!tally) return;
	const { leftOut } = tally;
	if (leftOut) {
		const total = [...leftOut.byReason.values()].reduce((sum, count) => sum + count, 0);
		const why = [...leftOut.byReason]
			.map(([reason, count]) => `${count} ${count === 1 ? reason : pluralReason(reason)}`)
			.join(', ');
		const note = `${countOf(total, leftOut.noun)} ${leftOut.verb} (${why}): see ${leftOut.listedIn} in the output.`;
		addRunNote(context, note, 'warning', {
			kind: 'left-out',
			short:
				note.length > MAX_HINT_LENGTH
					? `${countOf(total, leftOut.noun)} ${leftOut.verb}: see ${leftOut.listedIn} in the output.`
					: undefined,
		});
	}
	if (tally.unanswered > 0)
		addRunNote(
			context,
			`${countOf(tally.unanswered, 'ISIN')} not answered: a request failed (see error in the output).`,
			'warning',
			{ kind: 'unanswered' },
		);
	if (tally.notInAnswer > 0) {
		const what = countOf(tally.notInAnswer, tally.notInAnswerNoun ?? 'ISIN');
		addRunNote(
			context,
			`${what} sent but not in the API's answer (an answer defect, not "no data"): not checked, see ${tally.notInAnswerListedIn} in the output. Run again later; if it persists, tell the API's provider.`,
			'warning',
			{
				kind: 'not-in-answer',
				short: `${what} not in the API's answer (not checked): see ${tally.notInAnswerListedIn} in the output.`,
			},
		);
	}
	if (tally.noData > 0)
		addRunNote(
			context,
			`No data for ${tally.noData.toLocaleString('en-US')} of ${countOf(tally.asked, 'ISIN')} asked (found = false).`,
			'warning',
			{ kind: 'no-data' },
		);
	if (tally.skippedByApi > 0)
		addRunNote(
			context,
			`${countOf(tally.skippedByApi, 'holding')} sent and skipped by the API (its documented rules): see ${tally.skippedListedIn} in the output.`,
			'warning',
			{ kind: 'skipped-by-api' },
		);
	if (tally.calculating > 0)
		addRunNote(
			context,
			`The API is still calculating ${tally.calculating === 1 ? 'the portfolio temperature' : `${tally.calculating} portfolio temperatures`} (calculating = true): run again later.`,
			'warning',
			{ kind: 'calculating' },
		);
	if (tally.waitedMs >= NOTED_WAIT_MS)
		addRunNote(
			context,
			`Waited ${formatWait(tally.waitedMs)} in all because the API asked to slow down or failed and was asked again.`,
			'info',
			{ kind: 'waited' },
		);
}

/** "cash row" → "cash rows", "invalid ISIN" → "invalid ISINs"; other reasons as they are. */
function pluralReason(reason: string): string {
	return /(row|ISIN)$/.test(reason) && !reason.startsWith('without ') ? `${reason}s` : reason;
}

function formatWait(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.floor(seconds / 60);
	return `${minutes} min ${seconds % 60} s`;
}

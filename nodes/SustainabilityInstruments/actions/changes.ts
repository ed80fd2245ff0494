import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { NO_DATA_REASON, notInAnswerReason } from '../../shared/api/answers';
import { outsideNote } from '../../shared/api/domains';
import { errorJson, pairedTo } from '../../shared/run/execution';
import { addRunNote } from '../../shared/base/hints';
import { uniformRows } from '../../shared/input/rows';
import { countOf, ownValue, setOwn } from '../../shared/base/values';
import { compareResults, sfdrDirection, withoutIsin } from './changesCompare';
import type { FieldChange } from './changesCompare';
import { resolveCompareFields } from './changesSettings';
import type { ChangesSettings } from './changesSettings';
import { handOut } from '../../shared/base/operation';
import { readRowsMemory, rowsToRemember } from './changesMemory';
import type { SkippedRow } from './changesMemory';
import { decodeState, encodeState, forgotten, STATE_PROPERTY } from './changesState';
import type { ChangesState, RememberedResult, StateProblem } from './changesState';
import type { InstrumentOperationSpec, ItemIsin, LookupOutcome } from './lookupTypes';
import { EMPTY_CELL_NOTE } from './lookupTypes';

/**
 * Size of the remembered results (static data) above which a run warns: about 130,000 ISINs of SFDR results, or far
 * fewer of PAI indicators. n8n keeps static data inside the workflow's database row.
 */
export const LARGE_STATE_BYTES = 5_000_000;

function addHint(this: IExecuteFunctions, message: string, short?: string): void {
	addRunNote(this, message, 'info', { short });
}

interface IsinRow {
	isin: string;
	items: number[];
}

type OutputRow = IsinRow | { problem: string; item: number; given: string | null };

/** What this run did with the ISINs, for its note. */
interface ChangesTally {
	changed: number;
	new: number;
	/** ISINs compared for the first time (output as new, or only remembered). */
	firstSeen: number;
	notChecked: number;
	forgotten: number;
	missing: number;
}

/** This run of the node: its number and execution, and the state it started from. */
export interface ChangesRun {
	run: number;
	execution: string;
	state: ChangesState;
	problem?: StateProblem;
	firstRun: boolean;
	/**
	 * Nothing at all came back: no static data of an earlier run of this node, or no remembered rows. A first run, or
	 * memory lost (an earlier run that remembered no ISIN still counts as memory).
	 */
	nothingCameBack: boolean;
	/** Remember In = Rows Given Here: the rows given that could not be used. */
	skipped?: SkippedRow[];
}

/** The rule a user must see where memory may not come back (the node's notice and docs/running-at-scale.md say it too). */
export const DATA_TABLE_RULE =
	'In queue mode or on n8n Cloud, remember in a Data Table (Remember In).';

/**
 * Compares each ISIN's result with the remembered one (the workflow's static data, or the rows given in Remembered
 * Rows), outputs the ISINs that changed and keeps the new results for the next run (in the static data, or handed
 * out on the second output, To Remember).
 */
export function outputChanges<TEntry>(
	this: IExecuteFunctions,
	outcome: LookupOutcome<TEntry>,
	settings: ChangesSettings,
): INodeExecutionData[] {
	const { perItem, results, spec, source } = outcome;
	const current = openMemory.call(this, settings);
	const { rows, byIsin } = isinRows(perItem, source);

	// Every column of this run's results and of the remembered ones.
	const columnSet = new Set<string>();
	for (const isin of byIsin.keys())
		for (const column of Object.keys(results.get(isin) ?? {})) columnSet.add(column);
	for (const { result } of current.state.results.values())
		for (const column of Object.keys(result)) columnSet.add(column);
	const columns = [...columnSet];
	const fields = resolveCompareFields.call(this, settings.compareFields, columns, spec);

	const next = new Map<string, RememberedResult>();
	const tally: ChangesTally = {
		changed: 0,
		new: 0,
		firstSeen: 0,
		notChecked: 0,
		forgotten: 0,
		missing: 0,
	};
	const out = compareRows(outcome, settings, current, rows, columns, fields, next, tally);
	const kept = keepMissing(current, byIsin, settings, next);
	tally.forgotten = kept.forgotten;
	tally.missing = kept.missing;
	out.push(...memoryItems(current, settings, byIsin));
	saveMemory.call(this, current, next, settings, (isin) => byIsin.get(isin)?.items ?? [0]);
	noteRun.call(this, current, byIsin.size, settings, tally);
	return uniformOutput(out);
}

/** The settings of Only Changes that say where results are remembered and for how long, shared with the screen's. */
export type MemorySettings = Pick<
	ChangesSettings,
	'memory' | 'firstSeen' | 'forgetAfterRuns' | 'scope'
>;

/** This run's start: the remembered state from the workflow's static data or from the rows given. */
export function openMemory(this: IExecuteFunctions, settings: MemorySettings): ChangesRun {
	const { memory } = settings;
	if (memory.in === 'rows') return startRowsRun(memory.rows);
	return startRun.call(this, this.getWorkflowStaticData('node')[STATE_PROPERTY], settings.scope);
}

/**
 * The items every Only Changes output adds after its own: each remembered row that could not be used, and on a
 * Remember Only run that started with nothing remembered, the item that says so.
 */
export function memoryItems(
	current: ChangesRun,
	settings: MemorySettings,
	inInput: ReadonlyMap<string, unknown>,
): INodeExecutionData[] {
	const out = skippedRowItems(current.skipped ?? [], current.state, inInput);
	if (current.nothingCameBack && settings.firstSeen === 'remember')
		out.push(nothingRememberedItem(settings.memory.in, inInput.size));
	return out;
}

/**
 * Keeps `next` for the next run: in the static data (one JSON text, with a warning when it grows large), or handed
 * out on the second output, To Remember (each row paired with the items of its ISIN, `itemsOf`).
 */
export function saveMemory(
	this: IExecuteFunctions,
	current: ChangesRun,
	next: Map<string, RememberedResult>,
	settings: MemorySettings,
	itemsOf: (isin: string) => number[],
): void {
	if (settings.memory.in === 'rows') {
		const remember = rowsToRemember(next).map((json) => ({
			json,
			pairedItem: pairedTo(itemsOf(json.isin as string)),
		}));
		handOut(this, 1, remember);
		return;
	}
	// Assigned as one top-level property: n8n then marks the static data as changed and saves it after the run.
	const stateText = encodeState(
		{ runs: current.run, execution: current.execution, results: next },
		settings.scope,
	);
	this.getWorkflowStaticData('node')[STATE_PROPERTY] = stateText;
	const stateBytes = Buffer.byteLength(stateText, 'utf8');
	if (stateBytes > LARGE_STATE_BYTES) {
		// Kept short (an execution hint); docs/nodes/sustainability-instruments.md "Only Changes Since Last Run" says why and what to do.
		addRunNote(
			this,
			`Remembered results: ${(stateBytes / 1_000_000).toFixed(1)} MB of static data (${countOf(next.size, 'ISIN')}), over ${LARGE_STATE_BYTES / 1_000_000} MB: watch fewer ISINs per node.`,
		);
	}
}

/** Changed, new and not checked rows with the same columns, so that n8n's table shows no `undefined`. */
function uniformOutput(out: INodeExecutionData[]): INodeExecutionData[] {
	const json = uniformRows(
		out.map((item) => item.json),
		['isin', 'status', 'reason'],
	);
	return out.map((item, index) => ({ ...item, json: json[index] }));
}

/** The remembered state from the rows given (Remember In = Rows Given Here): this run is the one after the latest. */
function startRowsRun(given: unknown): ChangesRun {
	const { state, skipped, given: rows } = readRowsMemory(given);
	return {
		run: state.runs + 1,
		execution: '',
		state,
		firstRun: state.results.size === 0,
		nothingCameBack: rows === 0,
		skipped,
	};
}

/** Each remembered row that could not be used, on the output: named, never dropped without a word. */
function skippedRowItems(
	skipped: SkippedRow[],
	state: ChangesState,
	byIsin: ReadonlyMap<string, unknown>,
): INodeExecutionData[] {
	return skipped.map(({ row, isin, why }) => {
		const then =
			isin && state.results.has(isin)
				? 'Its other row is used.'
				: isin && byIsin.has(isin)
					? 'This ISIN is compared as if nothing were remembered for it; To Remember hands out a good row for it.'
					: 'Correct or delete it where the rows are kept.';
		return {
			json: {
				isin,
				status: 'remembered_row_skipped',
				reason: `Remembered row ${row} was skipped: ${why}. ${then}`,
			},
			pairedItem: pairedTo([0]),
		};
	});
}

/**
 * The item of a Remember Only run that started with nothing remembered, which would otherwise output no ISIN: a first
 * run, or memory that did not come back (queue mode on n8n 2.41, n8n Cloud). From inside the run the two look the same,
 * so every such run says it.
 */
function nothingRememberedItem(memory: 'staticData' | 'rows', isins: number): INodeExecutionData {
	return {
		json: {
			isin: null,
			status: 'nothing_remembered',
			reason:
				memory === 'rows'
					? `No remembered rows came in (Remembered Rows is empty): this run compared nothing and hands out ${countOf(isins, 'row')} on To Remember. On a later run, check that they were written back and read in.`
					: `Nothing was remembered before this run: ${countOf(isins, 'ISIN')} now remembered, none compared. If this workflow ran before, n8n did not bring back what that run remembered: ${DATA_TABLE_RULE}`,
		},
		pairedItem: pairedTo([0]),
	};
}

/** The remembered state, and which run this is: a second call in the same execution (a loop) belongs to the same run. */
function startRun(this: IExecuteFunctions, stored: unknown, scope: string): ChangesRun {
	const { state, problem } = decodeState(stored, scope);
	const execution = typeof this.getExecutionId === 'function' ? (this.getExecutionId() ?? '') : '';
	const sameRun = execution !== '' && execution === state.execution;
	return {
		run: sameRun ? state.runs : state.runs + 1,
		execution,
		state,
		problem,
		firstRun: state.results.size === 0,
		nothingCameBack: !problem && state.runs === 0 && state.results.size === 0,
	};
}

/** One row per distinct ISIN (paired with every item that has it) and one per item without a usable ISIN, in input order. */
function isinRows(
	perItem: ItemIsin[],
	source: 'field' | 'list',
): { rows: OutputRow[]; byIsin: Map<string, IsinRow> } {
	const rows: OutputRow[] = [];
	const byIsin = new Map<string, IsinRow>();
	for (let index = 0; index < perItem.length; index++) {
		const entry = perItem[index];
		const item = source === 'list' ? 0 : index;
		if (entry.isin === undefined) {
			// This row shows the ISIN as given (null), not the sheet's "" cell: the reason says no more than that.
			const problem = entry.problem?.replace(EMPTY_CELL_NOTE, '') ?? 'no ISIN';
			rows.push({ problem, item, given: entry.given ?? null });
			continue;
		}
		const row = byIsin.get(entry.isin);
		if (row) {
			if (!row.items.includes(item)) row.items.push(item);
			continue;
		}
		const fresh = { isin: entry.isin, items: [item] };
		byIsin.set(entry.isin, fresh);
		rows.push(fresh);
	}
	return { rows, byIsin };
}

/**
 * Each row against what is remembered: not checked (no ISIN, its request failed, or the answer left it out), new, or
 * changed; fills `next`
 * with what to remember and counts in `tally`.
 */
function compareRows<TEntry>(
	outcome: LookupOutcome<TEntry>,
	settings: ChangesSettings,
	current: ChangesRun,
	rows: OutputRow[],
	columns: string[],
	fields: string[],
	next: Map<string, RememberedResult>,
	tally: ChangesTally,
): INodeExecutionData[] {
	const { results, failed, notInAnswer, spec, simplify } = outcome;
	const { run, state } = current;
	const currentResult = (isin: string): IDataObject => {
		const answered = results.get(isin);
		if (answered) return answered;
		const empty: IDataObject = {};
		for (const column of columns) setOwn(empty, column, null);
		return Object.assign(empty, { isin, found: false, reason: NO_DATA_REASON });
	};
	const out: INodeExecutionData[] = [];
	for (const row of rows) {
		if (!('isin' in row)) {
			tally.notChecked++;
			out.push({
				// The ISIN as the user gave it, as on the other outputs (issue 28).
				json: { isin: row.given, status: 'not_checked', reason: row.problem },
				pairedItem: pairedTo([row.item]),
			});
			continue;
		}
		const { isin, items } = row;
		const kept = state.results.get(isin);
		const remembered =
			kept && !forgotten(kept.lastSeen, run, settings.forgetAfterRuns) ? kept : undefined;
		const keptAs = remembered
			? 'Its last result is kept for the next run.'
			: 'Nothing is remembered for it yet.';
		// Why this ISIN cannot be compared this run (its request failed, the answer left it out, or a value of its
		// answer is outside its range): never a change; the remembered result stays, so that the next good run compares
		// with the real previous value.
		const failure = failed.get(isin);
		const outside = outcome.outside?.get(isin);
		const notCompared: IDataObject | undefined = failure
			? { reason: `The request for this ISIN failed. ${keptAs}`, ...errorJson(failure) }
			: notInAnswer.has(isin)
				? { reason: `${notInAnswerReason('ISIN')} ${keptAs}` }
				: outside?.length
					? { reason: outsideNote(outside, `Not compared. ${keptAs}`, 2) }
					: undefined;
		if (notCompared) {
			if (remembered) next.set(isin, { lastSeen: run, result: remembered.result });
			tally.notChecked++;
			out.push({
				json: { isin, status: 'not_checked', ...notCompared },
				pairedItem: pairedTo(items),
			});
			continue;
		}
		const result = currentResult(isin);
		const stored = withoutIsin(result);
		if (!remembered) {
			next.set(isin, { lastSeen: run, result: stored });
			tally.firstSeen++;
			if (settings.firstSeen !== 'outputAsNew') continue;
			tally.new++;
			const changes = fields
				.filter((field) => (ownValue(result, field) ?? null) !== null)
				.map((field) => ({ field, from: null, to: ownValue(result, field) ?? null }));
			out.push(changeItem(spec, simplify, isin, 'new', changes, null, result, fields, items));
			continue;
		}
		const { changes, remember } = compareResults(
			remembered.result,
			stored,
			fields,
			settings.tolerance,
		);
		next.set(isin, { lastSeen: run, result: remember });
		if (changes.length === 0) continue;
		tally.changed++;
		const previous: IDataObject = { isin, ...remembered.result };
		out.push(changeItem(spec, simplify, isin, 'changed', changes, previous, result, fields, items));
	}
	return out;
}

/**
 * Remembered ISINs not in this call's input are kept until they have missed Forget ISINs Missing For whole runs;
 * returns how many were kept and how many forgotten.
 */
export function keepMissing(
	current: ChangesRun,
	inInput: ReadonlyMap<string, unknown>,
	settings: Pick<MemorySettings, 'forgetAfterRuns'>,
	next: Map<string, RememberedResult>,
): { missing: number; forgotten: number } {
	const kept = { missing: 0, forgotten: 0 };
	for (const [isin, remembered] of current.state.results) {
		if (inInput.has(isin)) continue;
		if (forgotten(remembered.lastSeen, current.run, settings.forgetAfterRuns)) {
			kept.forgotten++;
			continue;
		}
		kept.missing++;
		next.set(isin, remembered);
	}
	return kept;
}

/** The run's notes: what was compared, a state that could not be used, and what a run in the editor does not keep. */
function noteRun(
	this: IExecuteFunctions,
	current: ChangesRun,
	isins: number,
	settings: ChangesSettings,
	tally: ChangesTally,
): void {
	const summary = [
		current.firstRun
			? `First run with nothing remembered: ${countOf(tally.firstSeen, 'ISIN')} ${settings.firstSeen === 'outputAsNew' ? 'output as new' : 'remembered, none output'}.`
			: `Compared ${countOf(isins, 'ISIN')} with the remembered results: ${tally.changed} changed, ${tally.new} new.`,
		tally.notChecked ? `${tally.notChecked} not checked.` : '',
		missingNote(tally, settings),
	]
		.filter(Boolean)
		.join(' ');
	addHint.call(this, summary);
	noteMemory.call(this, current, settings);
}

/** What the run did with remembered ISINs missing from its input, for its summary note ('' when none). */
export function missingNote(
	kept: { missing: number; forgotten: number },
	settings: Pick<MemorySettings, 'forgetAfterRuns'>,
): string {
	return [
		kept.missing ? `${countOf(kept.missing, 'remembered ISIN')} not in this input (kept).` : '',
		kept.forgotten
			? `${countOf(kept.forgotten, 'ISIN')} not in the input for ${countOf(settings.forgetAfterRuns, 'run')} in a row forgotten.`
			: '',
	]
		.filter(Boolean)
		.join(' ');
}

/**
 * The notes about the memory itself, for every Only Changes output: remembered rows skipped, nothing that came back,
 * a state of other settings or unreadable, and what a run in the editor does not keep.
 */
export function noteMemory(
	this: IExecuteFunctions,
	current: ChangesRun,
	settings: MemorySettings,
): void {
	const { firstRun, problem, skipped, nothingCameBack } = current;
	const rows = settings.memory.in === 'rows';
	const manual = this.getMode() === 'manual';
	if (skipped?.length) {
		addRunNote(
			this,
			`${countOf(skipped.length, 'remembered row')} skipped (status remembered_row_skipped): ${skipped
				.slice(0, 3)
				.map(({ row, why }) => `row ${row}: ${why}`)
				.join('; ')}${skipped.length > 3 ? '; …' : ''}`,
			'warning',
			{
				short: `${countOf(skipped.length, 'remembered row')} could not be used: see status remembered_row_skipped.`,
			},
		);
	}
	if (nothingCameBack) {
		if (rows)
			addRunNote(
				this,
				'No remembered rows came in: nothing compared. A first run, or the rows were not written back or read in.',
				'warning',
			);
		else if (!manual)
			addRunNote(
				this,
				`Nothing was remembered before this run: its first run, or n8n did not bring back what the last run remembered (queue mode, n8n Cloud). ${DATA_TABLE_RULE}`,
				'warning',
				{
					short:
						'Nothing remembered (first run, or memory lost). In queue mode or on n8n Cloud, remember in a Data Table.',
				},
			);
	}
	if (problem === 'otherScope') {
		addHint.call(
			this,
			'The remembered results were of another operation or other request settings (e.g. Minimum Threshold): this run started afresh.',
			'The remembered results were of another operation or other settings: this run started afresh.',
		);
	} else if (problem) {
		addHint.call(this, 'The remembered results could not be read: this run started afresh.');
	}
	if (manual && !rows) {
		addHint.call(
			this,
			`This run was started in the editor: ${firstRun ? 'nothing was remembered yet, and' : 'it compared with the last run n8n saved, but'} n8n does not save what a manual run remembers. Only runs of the active workflow (its trigger or schedule) and CLI runs (n8n execute) are remembered.`,
			'This run was started in the editor: n8n does not save what it remembers (only active and CLI runs).',
		);
	}
}

function changeItem<TEntry>(
	spec: InstrumentOperationSpec<TEntry>,
	simplify: boolean,
	isin: string,
	status: 'new' | 'changed',
	changes: FieldChange[],
	previous: IDataObject | null,
	current: IDataObject,
	fields: string[],
	items: number[],
): INodeExecutionData {
	const json: IDataObject = { isin, status };
	if (spec.summaryKind === 'sfdr') {
		json.direction =
			status === 'changed'
				? sfdrDirection(previous?.classification ?? null, current.classification ?? null)
				: null;
	}
	if (simplify) {
		json.changed_fields = changes.map((change) => change.field).join(', ');
		for (const field of fields) {
			json[`previous_${field}`] = previous ? (ownValue(previous, field) ?? null) : null;
			json[`current_${field}`] = ownValue(current, field) ?? null;
		}
	} else {
		json.changes = changes as unknown as IDataObject[];
		json.previous = previous;
		json.current = current;
	}
	return { json, pairedItem: pairedTo(items) };
}

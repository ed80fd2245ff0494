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
import { decodeState, encodeState, forgotten, STATE_PROPERTY } from './changesState';
import type { ChangesState, RememberedResult, StateProblem } from './changesState';
import type { InstrumentOperationSpec, ItemIsin, LookupOutcome } from './lookupTypes';

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
interface ChangesRun {
	run: number;
	execution: string;
	state: ChangesState;
	problem?: StateProblem;
	firstRun: boolean;
}

/**
 * Compares each ISIN's result with the one kept in the workflow's static data, outputs the ISINs that changed and
 * keeps the new results for the next run.
 */
export function outputChanges<TEntry>(
	this: IExecuteFunctions,
	outcome: LookupOutcome<TEntry>,
	settings: ChangesSettings,
): INodeExecutionData[] {
	const { perItem, results, spec, source } = outcome;
	const staticData = this.getWorkflowStaticData('node');
	const current = startRun.call(this, staticData[STATE_PROPERTY], settings.scope);
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
	keepMissing(current, byIsin, settings, next, tally);

	// Assigned as one top-level property: n8n then marks the static data as changed and saves it after the run.
	const stateText = encodeState(
		{ runs: current.run, execution: current.execution, results: next },
		settings.scope,
	);
	staticData[STATE_PROPERTY] = stateText;
	const stateBytes = Buffer.byteLength(stateText, 'utf8');
	if (stateBytes > LARGE_STATE_BYTES) {
		// Kept short (an execution hint); docs/nodes/sustainability-instruments.md "Only Changes Since Last Run" says why and what to do.
		addRunNote(
			this,
			`Remembered results: ${(stateBytes / 1_000_000).toFixed(1)} MB of static data (${countOf(next.size, 'ISIN')}), over ${LARGE_STATE_BYTES / 1_000_000} MB: watch fewer ISINs per node.`,
		);
	}
	noteRun.call(this, current, byIsin.size, settings, tally);

	// Changed, new and not checked rows with the same columns, so that n8n's table shows no `undefined`.
	const json = uniformRows(
		out.map((item) => item.json),
		['isin', 'status', 'reason'],
	);
	return out.map((item, index) => ({ ...item, json: json[index] }));
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
			rows.push({ problem: entry.problem ?? 'no ISIN', item, given: entry.given ?? null });
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

/** Remembered ISINs not in this call's input are kept until they have missed Forget ISINs Missing For whole runs. */
function keepMissing(
	current: ChangesRun,
	byIsin: Map<string, IsinRow>,
	settings: ChangesSettings,
	next: Map<string, RememberedResult>,
	tally: ChangesTally,
): void {
	for (const [isin, remembered] of current.state.results) {
		if (byIsin.has(isin)) continue;
		if (forgotten(remembered.lastSeen, current.run, settings.forgetAfterRuns)) {
			tally.forgotten++;
			continue;
		}
		tally.missing++;
		next.set(isin, remembered);
	}
}

/** The run's notes: what was compared, a state that could not be used, and what a run in the editor does not keep. */
function noteRun(
	this: IExecuteFunctions,
	current: ChangesRun,
	isins: number,
	settings: ChangesSettings,
	tally: ChangesTally,
): void {
	const { firstRun, problem } = current;
	const manual = this.getMode() === 'manual';
	const summary = [
		firstRun
			? `First run with nothing remembered: ${countOf(tally.firstSeen, 'ISIN')} ${settings.firstSeen === 'outputAsNew' ? 'output as new' : 'remembered, none output'}.`
			: `Compared ${countOf(isins, 'ISIN')} with the remembered results: ${tally.changed} changed, ${tally.new} new.`,
		tally.notChecked ? `${tally.notChecked} not checked.` : '',
		tally.missing ? `${countOf(tally.missing, 'remembered ISIN')} not in this input (kept).` : '',
		tally.forgotten
			? `${countOf(tally.forgotten, 'ISIN')} not in the input for ${countOf(settings.forgetAfterRuns, 'run')} in a row forgotten.`
			: '',
	]
		.filter(Boolean)
		.join(' ');
	addHint.call(this, summary);
	if (problem === 'otherScope') {
		addHint.call(
			this,
			'The remembered results were of another operation or other request settings (e.g. Minimum Threshold): this run started afresh.',
			'The remembered results were of another operation or other settings: this run started afresh.',
		);
	} else if (problem) {
		addHint.call(this, 'The remembered results could not be read: this run started afresh.');
	}
	if (manual) {
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

import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { compactKey } from '../../shared/holdings';
import { errorJson, pairedTo } from '../../shared/execution';
import { uniformRows } from '../../shared/rows';
import { inputError } from '../../shared/errors';
import { addRunNote } from '../../shared/hints';
import { numberParameterValue } from '../../shared/parameters';
import { kindOf, ownValue, setOwn, showValue } from '../../shared/values';
import type { InstrumentOperationSpec, LookupOutcome } from './lookupTypes';

const show = { show: { outputMode: ['changesSinceLastRun'] } };

/** Parameters shown with Output > Only Changes Since Last Run (displayOptions on outputMode). */
export const changesProperties: INodeProperties[] = [
	{
		displayName:
			'Only runs of the active (published) workflow (Schedule, webhook or other trigger) and CLI runs (n8n execute) remember the results. A run started in the editor compares with the last remembered run but is not remembered itself. Renaming this node starts afresh.',
		name: 'changesSavedNotice',
		type: 'notice',
		default: '',
		displayOptions: show,
	},
	{
		displayName: 'ISINs Seen for the First Time',
		name: 'firstSeen',
		type: 'options',
		options: [
			{
				name: 'Output as New',
				value: 'outputAsNew',
				description:
					'Each comes out with status = new and its current result (on the first run: every ISIN)',
			},
			{
				name: 'Remember Only',
				value: 'remember',
				description:
					'Nothing comes out for them; their result is kept to compare with the next run (on the first run: no output)',
			},
		],
		default: 'remember',
		description:
			'What to do with an ISIN that has no remembered result yet: on the first run, every ISIN; later, ISINs that joined the input',
		displayOptions: show,
	},
	{
		displayName: 'Fields to Compare',
		name: 'compareFields',
		type: 'string',
		default: '',
		placeholder: 'classification',
		description:
			'Result columns whose change counts, separated by commas, semicolons or new lines (e.g. classification, or scope_1_emissions, carbon_footprint). Names may be written as the output shows them: any case, spaces for underscores (Carbon Footprint), with or without the prefix of Add to Input Items with Simplify (sfdr_classification). Empty: every column except isin and found.',
		displayOptions: show,
	},
	{
		displayName: 'Ignore Numeric Changes Up To',
		name: 'numericTolerance',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 4 },
		default: 0,
		description:
			'A number that moves by this much or less does not count as a change (same unit as the value; the SFDR classification always counts). Small moves add up: the value is compared with the last one that was reported.',
		displayOptions: show,
	},
	{
		displayName: 'Forget ISINs Missing For (Runs)',
		name: 'forgetAfterRuns',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 4,
		description:
			'An ISIN that was not in the input for this many runs in a row is forgotten: if it comes back, it counts as seen for the first time',
		displayOptions: show,
	},
];

/**
 * The names of Fields to Compare: separated by commas, semicolons or new lines (a name may have spaces, as the
 * output shows it: "Carbon Footprint"), quotes and brackets around them dropped, or a list an expression gives;
 * undefined when the value is neither text nor a list.
 */
export function splitFieldNames(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return [];
	const texts = Array.isArray(value) ? value : [value];
	const names: string[] = [];
	for (const text of texts) {
		if (typeof text !== 'string' && typeof text !== 'number') return undefined;
		for (const part of String(text).split(/[,;\r\n]+/)) {
			const name = part.replace(/^[\s"'`[\]]+|[\s"'`[\]]+$/g, '');
			if (name) names.push(name);
		}
	}
	return names;
}

/** What "Only Changes Since Last Run" does, read and checked before anything is sent. */
export interface ChangesSettings {
	firstSeen: 'remember' | 'outputAsNew';
	/** Columns named in Fields to Compare (as typed), or undefined for all columns. */
	compareFields?: string[];
	tolerance: number;
	forgetAfterRuns: number;
	/** The operation and the request options that shape its results: a state kept for others is not compared with. */
	scope: string;
}

export function readChangesSettings<TEntry>(
	this: IExecuteFunctions,
	spec: InstrumentOperationSpec<TEntry>,
): ChangesSettings {
	const node = this.getNode();
	const firstSeen = this.getNodeParameter('firstSeen', 0, 'remember') as string;
	const compareFields = splitFieldNames(this.getNodeParameter('compareFields', 0, '') as unknown);
	if (compareFields === undefined) {
		const value = this.getNodeParameter('compareFields', 0, '') as unknown;
		throw inputError(
			node,
			0,
			`Fields to Compare must be text or a list of names, got ${kindOf(value)}: ${showValue(value)}`,
			'Name the result columns separated by commas or new lines, e.g. classification, carbon_footprint.',
		);
	}
	const tolerance =
		numberParameterValue(
			node,
			this.getNodeParameter('numericTolerance', 0, 0),
			0,
			'Ignore Numeric Changes Up To',
			{ min: 0 },
		) ?? 0;
	const forgetAfterRuns =
		numberParameterValue(
			node,
			this.getNodeParameter('forgetAfterRuns', 0, 4),
			0,
			'Forget ISINs Missing For (Runs)',
			{ min: 1, integer: true },
		) ?? 4;
	const query = spec.extraBody?.call(this) ?? {};
	return {
		firstSeen: firstSeen === 'outputAsNew' ? 'outputAsNew' : 'remember',
		compareFields: compareFields.length ? compareFields : undefined,
		tolerance,
		forgetAfterRuns,
		scope: JSON.stringify([spec.route.label, query]),
	};
}

// ---------------------------------------------------------------------------------------------------------------
// The remembered results: one JSON text in the node's static data. n8n wraps every object of static data in a Proxy
// when it loads a workflow; one text for 10,000 ISINs avoids 10,000 proxies. Texts (descriptions, units) are kept
// once in `texts` and referred to by their index, written as a string: numbers, booleans and null stay as they are.

/** Name of the node's static data property that holds the remembered results. */
export const STATE_PROPERTY = 'lastResults';
export const STATE_VERSION = 1;

type StoredValue = number | boolean | string | null;

interface StoredState {
	version: number;
	scope: string;
	/** Runs so far, this one included. */
	run: number;
	/** The execution of the last run: the node may run more than once in one execution (a loop), that is one run. */
	execution: string;
	columns: string[];
	texts: string[];
	/** ISIN => [run it was last in the input, ...values in the order of `columns`]. */
	isins: Record<string, StoredValue[]>;
}

/** One ISIN's remembered result (without the isin column) and the run it was last in the input. */
export interface RememberedResult {
	lastSeen: number;
	result: IDataObject;
}

export interface ChangesState {
	/** The runs before this one. */
	runs: number;
	/** The execution the last of them was part of. */
	execution: string;
	results: Map<string, RememberedResult>;
}

/** Why a remembered state is not used (undefined: it is used, or there is none). */
export type StateProblem = 'unreadable' | 'otherVersion' | 'otherScope';

export function decodeState(
	text: unknown,
	scope: string,
): { state: ChangesState; problem?: StateProblem } {
	const fresh: ChangesState = { runs: 0, execution: '', results: new Map() };
	if (typeof text !== 'string' || text === '') return { state: fresh };
	let stored: StoredState;
	try {
		stored = JSON.parse(text) as StoredState;
	} catch {
		return { state: fresh, problem: 'unreadable' };
	}
	if (!stored || typeof stored !== 'object') return { state: fresh, problem: 'unreadable' };
	if (stored.version !== STATE_VERSION) return { state: fresh, problem: 'otherVersion' };
	if (stored.scope !== scope) return { state: fresh, problem: 'otherScope' };
	const texts = stored.texts ?? [];
	// Each text is parsed once: a text, number or boolean is shared by every ISIN that has it; an object or a list is
	// parsed again for each, so no two results share one.
	const parsed: unknown[] = [];
	const decodeValue = (value: StoredValue | undefined): unknown => {
		if (typeof value !== 'string') return value ?? null;
		const index = Number(value);
		let decoded = parsed[index];
		if (decoded === undefined) {
			decoded = JSON.parse(texts[index]) as unknown;
			parsed[index] = decoded;
		}
		return typeof decoded === 'object' && decoded !== null
			? (JSON.parse(texts[index]) as unknown)
			: decoded;
	};
	const results = new Map<string, RememberedResult>();
	try {
		const columns = stored.columns;
		for (const [isin, row] of Object.entries(stored.isins ?? {})) {
			const result: IDataObject = {};
			for (let index = 0; index < columns.length; index++)
				setOwn(result, columns[index], decodeValue(row[index + 1]) as IDataObject[string]);
			results.set(isin, { lastSeen: Number(row[0]) || 0, result });
		}
	} catch {
		// A text index that points nowhere, or rows that are not lists: edited by hand or damaged.
		return { state: fresh, problem: 'unreadable' };
	}
	return {
		state: {
			runs: Number(stored.run) || 0,
			execution: typeof stored.execution === 'string' ? stored.execution : '',
			results,
		},
	};
}

export function encodeState(state: ChangesState, scope: string): string {
	const columns = new Set<string>();
	for (const { result } of state.results.values())
		for (const column of Object.keys(result)) columns.add(column);
	const columnList = [...columns];
	const texts: string[] = [];
	const textIndex = new Map<string, string>();
	// Texts (descriptions, units) repeat across ISINs: each is written as JSON once, then found by its own value.
	const stringIndex = new Map<string, string>();
	const indexOf = (json: string): string => {
		let index = textIndex.get(json);
		if (index === undefined) {
			index = String(texts.length);
			texts.push(json);
			textIndex.set(json, index);
		}
		return index;
	};
	const encodeValue = (value: unknown): StoredValue => {
		if (value === null || value === undefined) return null;
		if (typeof value === 'number' && Number.isFinite(value)) return value;
		if (typeof value === 'boolean') return value;
		if (typeof value === 'string') {
			let index = stringIndex.get(value);
			if (index === undefined) {
				index = indexOf(JSON.stringify(value));
				stringIndex.set(value, index);
			}
			return index;
		}
		return indexOf(JSON.stringify(value) ?? 'null');
	};
	const isins: Record<string, StoredValue[]> = {};
	for (const [isin, { lastSeen, result }] of state.results) {
		const row: StoredValue[] = [lastSeen];
		for (const column of columnList) row.push(encodeValue(ownValue(result, column)));
		isins[isin] = row;
	}
	const stored: StoredState = {
		version: STATE_VERSION,
		scope,
		run: state.runs,
		execution: state.execution,
		columns: columnList,
		texts,
		isins,
	};
	return JSON.stringify(stored);
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing

export interface FieldChange {
	field: string;
	from: unknown;
	to: unknown;
}

export type SfdrDirection = 'downgrade' | 'upgrade' | 'lost_data' | 'new_data';

/** Columns that are never a tolerance's business: a class code moves in steps, never by "a little". */
const EXACT_COLUMNS = new Set(['classification']);

/** True when `to` differs from `from` by more than the tolerance (numbers) or at all (anything else). */
export function valueChanged(from: unknown, to: unknown, tolerance = 0): boolean {
	const a = from ?? null;
	const b = to ?? null;
	if (typeof a === 'number' && typeof b === 'number') return Math.abs(b - a) > tolerance;
	if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null)
		return JSON.stringify(a) !== JSON.stringify(b);
	return a !== b;
}

/** The SFDR class's move: down (9 to 8 or 6, 8 to 6), up, lost (class to none), new (none to class); null when the same. */
export function sfdrDirection(from: unknown, to: unknown): SfdrDirection | null {
	const a = typeof from === 'number' ? from : null;
	const b = typeof to === 'number' ? to : null;
	if (a === b) return null;
	if (b === null) return 'lost_data';
	if (a === null) return 'new_data';
	return b < a ? 'downgrade' : 'upgrade';
}

/**
 * The compared fields that changed from `previous` to `current`, and the result to remember: the current one, except
 * that a number that moved within the tolerance keeps its remembered value so that small moves add up.
 */
export function compareResults(
	previous: IDataObject,
	current: IDataObject,
	fields: string[],
	tolerance: number,
): { changes: FieldChange[]; remember: IDataObject } {
	const remember: IDataObject = { ...current };
	const changes: FieldChange[] = [];
	for (const field of fields) {
		const from = ownValue(previous, field) ?? null;
		const to = ownValue(current, field) ?? null;
		const allowed = EXACT_COLUMNS.has(field) ? 0 : tolerance;
		if (valueChanged(from, to, allowed)) changes.push({ field, from, to });
		else if (Object.prototype.hasOwnProperty.call(previous, field)) setOwn(remember, field, from);
	}
	return { changes, remember };
}

// ---------------------------------------------------------------------------------------------------------------

const NOT_COMPARED_BY_DEFAULT = new Set(['isin', 'found']);

/**
 * Size of the remembered results (static data) above which a run warns: about 130,000 ISINs of SFDR results, or far
 * fewer of PAI indicators. n8n keeps static data inside the workflow's database row.
 */
export const LARGE_STATE_BYTES = 5_000_000;

/**
 * The result column a name of Fields to Compare means: exactly, else ignoring case and _ - . spaces ("Carbon
 * Footprint"), else without the prefix the output puts before it (sfdr_classification of Add to Input Items with
 * Simplify, previous_ and current_ of this output with Simplify).
 */
export function matchColumn(
	name: string,
	columns: string[],
	resultKey: string,
): string | undefined {
	const exact = columns.find((candidate) => candidate === name);
	if (exact !== undefined) return exact;
	const compact = compactKey(name);
	const byCompact = new Map<string, string>();
	for (const column of columns)
		if (!byCompact.has(compactKey(column))) byCompact.set(compactKey(column), column);
	const found = byCompact.get(compact);
	if (found !== undefined) return found;
	for (const prefix of [compactKey(resultKey), 'previous', 'current']) {
		if (compact.length > prefix.length && compact.startsWith(prefix)) {
			const column = byCompact.get(compact.slice(prefix.length));
			if (column !== undefined) return column;
		}
	}
	return undefined;
}

/** The columns named in Fields to Compare, matched to the result columns (see matchColumn). */
function resolveCompareFields(
	this: IExecuteFunctions,
	named: string[] | undefined,
	columns: string[],
	spec: { route: { label: string }; resultKey: string },
): string[] {
	if (!named) return columns.filter((column) => !NOT_COMPARED_BY_DEFAULT.has(column));
	// Nothing answered (every batch failed): there is nothing to check the names against, nor to compare.
	if (columns.length === 0) return named;
	const fields: string[] = [];
	for (const name of named) {
		let matched = [matchColumn(name, columns, spec.resultKey)];
		// Names written with spaces between them ("classification article"), as earlier versions read them.
		if (matched[0] === undefined && /\s/.test(name)) {
			const words = name.split(/\s+/).map((word) => matchColumn(word, columns, spec.resultKey));
			if (words.every((column) => column !== undefined)) matched = words;
		}
		for (const column of matched) {
			if (column === undefined || column === 'isin') {
				throw new NodeOperationError(
					this.getNode(),
					`Fields to Compare: "${name}" is not a result column of the ${spec.route.label}`,
					{
						description: `Name columns of the result, separated by commas or new lines: ${columns.filter((c) => c !== 'isin').join(', ')}. Nothing was remembered from this run.`,
					},
				);
			}
			if (!fields.includes(column)) fields.push(column);
		}
	}
	return fields;
}

function addHint(this: IExecuteFunctions, message: string, short?: string): void {
	addRunNote(this, message, 'info', { short });
}

const count = (n: number, what: string) =>
	`${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/**
 * Whether an ISIN last in the input in run `lastSeen` was missing from `forgetAfterRuns` whole runs before `run`.
 * Only whole runs count: the node may be called again later in this run's execution (a loop) with that ISIN.
 */
export function forgotten(lastSeen: number, run: number, forgetAfterRuns: number): boolean {
	return run - lastSeen - 1 >= forgetAfterRuns;
}

interface IsinRow {
	isin: string;
	items: number[];
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
	const { perItem, results, failed, spec, source, simplify } = outcome;
	const staticData = this.getWorkflowStaticData('node');
	const { state, problem } = decodeState(staticData[STATE_PROPERTY], settings.scope);
	// A second call in the same execution (the node in a loop) belongs to the same run.
	const execution = typeof this.getExecutionId === 'function' ? (this.getExecutionId() ?? '') : '';
	const sameRun = execution !== '' && execution === state.execution;
	const run = sameRun ? state.runs : state.runs + 1;
	const firstRun = state.results.size === 0;

	// One row per distinct ISIN (paired with every item that has it) and one per item without a usable ISIN, in input order.
	const rows: Array<IsinRow | { problem: string; item: number; given: string | null }> = [];
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

	// Every column of this run's results and of the remembered ones.
	const columnSet = new Set<string>();
	for (const isin of byIsin.keys())
		for (const column of Object.keys(results.get(isin) ?? {})) columnSet.add(column);
	for (const { result } of state.results.values())
		for (const column of Object.keys(result)) columnSet.add(column);
	const columns = [...columnSet];
	const fields = resolveCompareFields.call(this, settings.compareFields, columns, spec);
	const currentResult = (isin: string): IDataObject => {
		const answered = results.get(isin);
		if (answered) return answered;
		const empty: IDataObject = {};
		for (const column of columns) setOwn(empty, column, null);
		return Object.assign(empty, { isin, found: false });
	};

	const next = new Map<string, RememberedResult>();
	const out: INodeExecutionData[] = [];
	const tally = { changed: 0, new: 0, notChecked: 0, forgotten: 0, missing: 0 };
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
		const failure = failed.get(isin);
		if (failure) {
			// Its remembered result stays as it was, to compare with the next run; it is not missing either.
			if (remembered) next.set(isin, { lastSeen: run, result: remembered.result });
			tally.notChecked++;
			out.push({
				json: {
					isin,
					status: 'not_checked',
					reason: 'The request for this ISIN failed; its last result is kept for the next run',
					...errorJson(failure),
				},
				pairedItem: pairedTo(items),
			});
			continue;
		}
		const current = currentResult(isin);
		const stored = withoutIsin(current);
		if (!remembered) {
			next.set(isin, { lastSeen: run, result: stored });
			if (settings.firstSeen !== 'outputAsNew') continue;
			tally.new++;
			const changes = fields
				.filter((field) => (ownValue(current, field) ?? null) !== null)
				.map((field) => ({ field, from: null, to: ownValue(current, field) ?? null }));
			out.push(changeItem(spec, simplify, isin, 'new', changes, null, current, fields, items));
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
		out.push(
			changeItem(spec, simplify, isin, 'changed', changes, previous, current, fields, items),
		);
	}

	// Remembered ISINs not in this call's input are kept until they have missed Forget ISINs Missing For whole runs.
	for (const [isin, remembered] of state.results) {
		if (byIsin.has(isin)) continue;
		if (forgotten(remembered.lastSeen, run, settings.forgetAfterRuns)) {
			tally.forgotten++;
			continue;
		}
		tally.missing++;
		next.set(isin, remembered);
	}

	// Assigned as one top-level property: n8n then marks the static data as changed and saves it after the run.
	const stateText = encodeState({ runs: run, execution, results: next }, settings.scope);
	staticData[STATE_PROPERTY] = stateText;
	const stateBytes = Buffer.byteLength(stateText, 'utf8');
	if (stateBytes > LARGE_STATE_BYTES) {
		// Kept short (an execution hint); README "Only Changes Since Last Run" says why and what to do.
		addRunNote(
			this,
			`Remembered results: ${(stateBytes / 1_000_000).toFixed(1)} MB of static data (${count(next.size, 'ISIN')}), over ${LARGE_STATE_BYTES / 1_000_000} MB: watch fewer ISINs per node.`,
		);
	}

	const manual = this.getMode() === 'manual';
	const summary = [
		firstRun
			? `First run with nothing remembered: ${count(byIsin.size, 'ISIN')} ${settings.firstSeen === 'outputAsNew' ? 'output as new' : 'remembered, none output'}.`
			: `Compared ${count(byIsin.size, 'ISIN')} with the remembered results: ${tally.changed} changed, ${tally.new} new.`,
		tally.notChecked ? `${tally.notChecked} not checked.` : '',
		tally.missing ? `${count(tally.missing, 'remembered ISIN')} not in this input (kept).` : '',
		tally.forgotten
			? `${count(tally.forgotten, 'ISIN')} not in the input for ${count(settings.forgetAfterRuns, 'run')} in a row forgotten.`
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
	// Changed, new and not checked rows with the same columns, so that n8n's table shows no `undefined`.
	const json = uniformRows(
		out.map((item) => item.json),
		['isin', 'status', 'reason'],
	);
	return out.map((item, index) => ({ ...item, json: json[index] }));
}

/** A result without its isin column: what is remembered under the ISIN. */
function withoutIsin(result: IDataObject): IDataObject {
	const rest: IDataObject = {};
	// for...in over own keys: the same keys in the same order as Object.entries, without an array per key.
	for (const key in result)
		if (key !== 'isin' && Object.prototype.hasOwnProperty.call(result, key))
			setOwn(rest, key, result[key]);
	return rest;
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

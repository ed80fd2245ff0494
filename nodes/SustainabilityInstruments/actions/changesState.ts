import type { IDataObject } from 'n8n-workflow';

import { ownValue, setOwn } from '../../shared/base/values';

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

/**
 * Whether an ISIN last in the input in run `lastSeen` was missing from `forgetAfterRuns` whole runs before `run`.
 * Only whole runs count: the node may be called again later in this run's execution (a loop) with that ISIN.
 */
export function forgotten(lastSeen: number, run: number, forgetAfterRuns: number): boolean {
	return run - lastSeen - 1 >= forgetAfterRuns;
}

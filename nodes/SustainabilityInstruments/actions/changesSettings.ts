import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError } from '../../shared/api/errors';
import { compactKey } from '../../shared/input/holdingFields';
import { numberParameterValue } from '../../shared/input/parameters';
import { kindOf, showValue } from '../../shared/base/values';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import { unreadableRows } from './changesMemory';
import type { InstrumentOperationSpec } from './lookupTypes';

const show = { show: { outputMode: ['changesSinceLastRun'] } };

/** Parameters shown with Output > Only Changes Since Last Run (displayOptions on outputMode). */
export const changesProperties: INodeProperties[] = [
	{
		displayName: 'Remember In',
		name: 'rememberIn',
		builderHint: parameterBuilderHint(
			'This Workflow (static data) in a single n8n. In queue mode or on n8n Cloud, Rows Given Here: a Data Table node, Get (Always Output Data on), before the watch list, Remembered Rows = its items, and a Data Table Upsert (on isin) after the second output, To Remember.',
		),
		type: 'options',
		options: [
			{
				name: 'This Workflow (Static Data)',
				value: 'staticData',
				description:
					"Kept in the workflow's static data by n8n: works in a single n8n process (regular mode)",
			},
			{
				name: 'Rows Given Here (E.g. a Data Table)',
				value: 'rows',
				description:
					'The previous results come in as rows (Remembered Rows) and the new ones go out on a second output, To Remember, to be written back: works on every n8n',
			},
		],
		default: 'staticData',
		description: 'Where the results of the last run are kept, to compare the next run with',
		hint: 'In queue mode or on n8n Cloud, remember in a Data Table: static data does not come back there',
		displayOptions: show,
	},
	{
		displayName:
			'Only runs of the active (published) workflow (Schedule, webhook or other trigger) and CLI runs (n8n execute) remember the results. A run started in the editor compares with the last remembered run but is not remembered itself. Renaming this node starts afresh. In queue mode or on n8n Cloud, remember in a Data Table instead.',
		name: 'changesSavedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show.show, rememberIn: ['staticData'] } },
	},
	{
		displayName:
			"Before the watch list: a Data Table node, Get, Return All, with Always Output Data on (columns isin, result, last_seen_run). After this node's second output, To Remember: a Data Table node, Upsert, matching on isin. Every run of it remembers, also in the editor.",
		name: 'changesRowsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show.show, rememberIn: ['rows'] } },
	},
	{
		displayName: 'Remembered Rows',
		name: 'rememberedRows',
		type: 'string',
		default: '',
		required: true,
		placeholder: "e.g. {{ $('Get Remembered Rows').all() }}",
		description:
			"The rows the last run handed out on To Remember, as an expression: e.g. {{ $('Get Remembered Rows').all() }} for a Data Table or sheet node that ran before this one. Columns isin, result and last_seen_run; other columns and the order of the rows do not matter. Empty on the first run.",
		hint: "Rows a node before this one read from where the last run's To Remember output was written",
		displayOptions: { show: { ...show.show, rememberIn: ['rows'] } },
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
					'Nothing comes out for them; their result is kept to compare with the next run (on the first run: one item, status nothing_remembered)',
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
	/** Where the previous results come from: static data, or the Remembered Rows parameter (`rows`, its value). */
	memory: { in: 'staticData' } | { in: 'rows'; rows: unknown };
}

export function readChangesSettings<TEntry>(
	this: IExecuteFunctions,
	spec: InstrumentOperationSpec<TEntry>,
): ChangesSettings {
	const node = this.getNode();
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
	const query = spec.extraBody?.call(this) ?? {};
	return {
		...readMemorySettings.call(this, JSON.stringify([spec.route.label, query])),
		compareFields: compareFields.length ? compareFields : undefined,
		tolerance,
	};
}

/**
 * Where the results are remembered (static data or the rows given), what to do with ISINs seen for the first time and
 * when to forget missing ones: the settings every Only Changes output shares. `scope` names what is remembered (a
 * state kept for another operation or other settings is not compared with); `firstSeenDefault` is the operation's.
 */
export function readMemorySettings(
	this: IExecuteFunctions,
	scope: string,
	firstSeenDefault: 'remember' | 'outputAsNew' = 'remember',
): Pick<ChangesSettings, 'memory' | 'firstSeen' | 'forgetAfterRuns' | 'scope'> {
	const node = this.getNode();
	const firstSeen = this.getNodeParameter('firstSeen', 0, firstSeenDefault) as string;
	const forgetAfterRuns =
		numberParameterValue(
			node,
			this.getNodeParameter('forgetAfterRuns', 0, 4),
			0,
			'Forget ISINs Missing For (Runs)',
			{ min: 1, integer: true },
		) ?? 4;
	const rememberIn = this.getNodeParameter('rememberIn', 0, 'staticData') as string;
	let memory: ChangesSettings['memory'] = { in: 'staticData' };
	if (rememberIn === 'rows') {
		const rows = this.getNodeParameter('rememberedRows', 0, '') as unknown;
		const problem = unreadableRows(rows);
		if (problem)
			throw inputError(
				node,
				0,
				problem,
				"Give the rows the last run handed out on To Remember, e.g. {{ $('Get Remembered Rows').all() }} for the Data Table node that read them.",
			);
		memory = { in: 'rows', rows };
	}
	return {
		memory,
		firstSeen: firstSeen === 'outputAsNew' ? 'outputAsNew' : 'remember',
		forgetAfterRuns,
		scope,
	};
}

const NOT_COMPARED_BY_DEFAULT = new Set(['isin', 'found']);

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
export function resolveCompareFields(
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

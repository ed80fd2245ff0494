import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { noteAboutAnswer } from '../../shared/answers';
import { batchSettings, lookupInstruments } from '../../shared/batching';
import { MAX_INSTRUMENTS_PER_REQUEST } from '../../shared/constants';
import {
	batchingOptions,
	invalidIsinsProperty,
	maxRequestsOption,
	maxThrottleWaitOption,
} from '../../shared/descriptions';
import { compactKey } from '../../shared/holdings';
import { numberParameterValue, readTextParameter } from '../../shared/parameters';
import { inputError } from '../../shared/errors';
import { copyJson, errorJson } from '../../shared/execution';
import { planRequests } from '../../shared/requestBudget';
import {
	describeInvalidIsin,
	isValidIsin,
	normalizeIsin,
	splitIsinList,
	unsendableIsin,
} from '../../shared/isin';
import type { ApiRoute } from '../../shared/routes';
import { kindOf, setOwn, showValue } from '../../shared/values';
import { changesProperties, outputChanges, readChangesSettings } from './changes';
import { buildSummaryItems, prepareSummary, summaryProperties } from './portfolioSummary';
import type { SummaryKind } from './portfolioSummary';
import { parameterBuilderHint } from '../../shared/builderHints';

/** What differs between the four instruments operations. */
export interface InstrumentOperationSpec<TEntry> {
	route: ApiRoute;
	/** Key the result goes under in "Add to Input Items" mode, and prefix of simplified columns. */
	resultKey: string;
	isinOf: (entry: TEntry) => string | undefined;
	/** The result for one ISIN, with `found`; `simplify` flattens {value, unit} pairs and nested maps. */
	toResult: (entry: TEntry, simplify: boolean) => IDataObject;
	/** The route answers an empty list (not an error) when no entry has an ISIN (the SFDR route does). */
	emptyIsAllowed: boolean;
	extraBody?: (this: IExecuteFunctions) => IDataObject;
	/** What Output > Portfolio Summary computes from the (not simplified) results. */
	summaryKind: SummaryKind;
}

export type InstrumentOutputMode =
	| 'addToItems'
	| 'perInstrument'
	| 'portfolioSummary'
	| 'changesSinceLastRun';

/** Where the ISINs come from and the shape of the output: the same in the four operations. */
export const instrumentProperties: INodeProperties[] = [
	{
		displayName: 'ISINs From',
		name: 'isinSource',
		builderHint: parameterBuilderHint(
			'A Field of Each Input Item when the previous node outputs one item per instrument or holding (e.g. sheet rows; set ISIN Field to the ISIN column). A List Typed Here when the ISINs are fixed or come from one expression.',
		),
		type: 'options',
		options: [
			{
				name: 'A Field of Each Input Item',
				value: 'field',
				description: 'Each input item (e.g. a row of a sheet) holds one ISIN',
			},
			{
				name: 'A List Typed Here',
				value: 'list',
				description: 'ISINs typed or pasted in the ISINs field below',
			},
		],
		default: 'field',
		description:
			'Where the ISINs to look up come from. Usually a field of each input item, for example the ISIN column of a sheet.',
	},
	{
		displayName: 'ISIN Field',
		name: 'isinField',
		type: 'string',
		default: 'isin',
		required: true,
		placeholder: 'isin',
		description:
			'Name of the input field that holds the ISIN (case and spaces ignored; use a dot for nested fields, e.g. holding.isin). Read directly from each item: no expression needed.',
		displayOptions: { show: { isinSource: ['field'] } },
	},
	{
		displayName: 'ISINs',
		name: 'isinList',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'US0378331005, DE0007164600',
		description:
			'ISINs separated by commas, semicolons, spaces or new lines, or a JSON array such as ["US0378331005", "DE0007164600"]. Quotes, brackets and lower case are ignored; an ISIN given twice is looked up once. An expression may give a list.',
		hint: 'Each entry that is not an ISIN after cleaning is reported by name (see Options > Invalid ISINs)',
		displayOptions: { show: { isinSource: ['list'] } },
	},
	{
		displayName: 'Output',
		name: 'outputMode',
		builderHint: parameterBuilderHint(
			'Add to Input Items keeps every input item and adds the result (to write back to a sheet). One Item per Instrument: one item per distinct ISIN. Portfolio Summary: one item per portfolio, needs a market value or weight column. Only Changes Since Last Run: for scheduled alerts.',
		),
		type: 'options',
		options: [
			{
				name: 'Add to Input Items',
				value: 'addToItems',
				description: 'Every input item comes out once, in order, with the result added',
			},
			{
				name: 'One Item per Instrument',
				value: 'perInstrument',
				description: 'One item per distinct ISIN',
			},
			{
				name: 'Portfolio Summary',
				value: 'portfolioSummary',
				description:
					'One item per portfolio (per Group By value): shares and market-value-weighted figures with their coverage',
			},
			{
				name: 'Only Changes Since Last Run',
				value: 'changesSinceLastRun',
				description:
					'One item per ISIN whose result changed since the last saved run of this workflow, with what changed',
			},
		],
		default: 'addToItems',
		description:
			'What comes out of the node. Add to Input Items (the usual choice) keeps every input row and adds the result to it.',
		displayOptions: { show: { isinSource: ['field'] } },
	},
	{
		displayName: 'Output',
		name: 'outputMode',
		builderHint: parameterBuilderHint(
			'One Item per Instrument: one item per ISIN. Only Changes Since Last Run: only the ISINs whose result changed since the last saved run, for scheduled alerts.',
		),
		type: 'options',
		options: [
			{
				name: 'One Item per Instrument',
				value: 'perInstrument',
				description: 'One item per distinct ISIN',
			},
			{
				name: 'Only Changes Since Last Run',
				value: 'changesSinceLastRun',
				description:
					'One item per ISIN whose result changed since the last saved run of this workflow, with what changed',
			},
		],
		default: 'perInstrument',
		description:
			'What comes out of the node: one item per ISIN (the usual choice), or only the ISINs whose result changed since the last run',
		displayOptions: { show: { isinSource: ['list'] } },
	},
	...summaryProperties,
	...changesProperties,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to return flat columns ready for a spreadsheet: values and units side by side (scope_1_emissions, scope_1_emissions_unit) and, when adding to input items, columns prefixed with the operation (e.g. sfdr_classification) instead of a nested object',
		hint: 'Turn on to write the results straight into a sheet: one flat column per value',
	},
];

/** The Options collection of the instrument lookups. */
export const instrumentOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		...batchingOptions,
		invalidIsinsProperty('Not sent; the item comes out with found = false and the reason'),
		maxThrottleWaitOption,
		maxRequestsOption,
	],
};

/** What a lookup got, for the output modes that build their own items (summary, changes). */
export interface LookupOutcome<TEntry> {
	items: INodeExecutionData[];
	/** One entry per input item (field source) or per ISIN of the typed list (list source: all paired to item 0). */
	perItem: ItemIsin[];
	source: 'field' | 'list';
	/** The result per ISIN the API answered for, made by `spec.toResult` (simplified for changes, not for a summary). */
	results: Map<string, IDataObject>;
	/** ISINs of batches that failed under continueOnFail, with the error. */
	failed: Map<string, Error>;
	spec: InstrumentOperationSpec<TEntry>;
	/** The Simplify parameter. */
	simplify: boolean;
	/** What the answers held beside the entries asked for, if anything (EntryTally.describe). */
	answerNote?: string;
}

export interface ItemIsin {
	isin?: string;
	/** Why the item has no ISIN to send (missing, or invalid and skipped). */
	problem?: string;
	/** Not text, or far too long: never sent, whatever the Invalid ISINs option says. */
	unsendable?: boolean;
}

const hasOwn = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The field's value: own keys only, so `constructor` or `toString` never reads something of Object.prototype. */
function readField(json: IDataObject, field: string): unknown {
	if (hasOwn(json, field)) return json[field];
	if (field.includes('.')) {
		let value: unknown = json;
		for (const part of field.split('.')) {
			value =
				value && typeof value === 'object' && hasOwn(value, part)
					? (value as IDataObject)[part]
					: undefined;
		}
		if (value !== undefined) return value;
	}
	const wanted = compactKey(field);
	const key = Object.keys(json).find((candidate) => compactKey(candidate) === wanted);
	return key === undefined ? undefined : json[key];
}

export async function executeInstrumentOperation<TEntry>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: InstrumentOperationSpec<TEntry>,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const source = this.getNodeParameter('isinSource', 0, 'field') as string;
	const simplify = this.getNodeParameter('simplify', 0, false) as boolean;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const invalidPolicy = (options.invalidIsins as string | undefined) ?? 'fail';
	const chosenOutput = this.getNodeParameter(
		'outputMode',
		0,
		source === 'list' ? 'perInstrument' : 'addToItems',
	) as InstrumentOutputMode;
	// A typed list has no input rows to add to or weight: a value kept from the field source means one item per ISIN.
	const outputMode: InstrumentOutputMode =
		source === 'list' && chosenOutput !== 'changesSinceLastRun' ? 'perInstrument' : chosenOutput;

	// Options and extra body fields an expression may set, checked before anything is sent.
	const batchSize = numberParameterValue(node, options.batchSize, 0, 'Options > Batch Size', {
		min: 1,
		max: MAX_INSTRUMENTS_PER_REQUEST,
		integer: true,
	});
	const concurrency = numberParameterValue(node, options.concurrency, 0, 'Options > Concurrency', {
		min: 1,
		max: 8,
		integer: true,
	});
	const extraBody = spec.extraBody?.call(this);

	// Each item's ISIN, checked locally before any request is spent.
	let perItem: ItemIsin[];
	// Where each entry of a typed list stood in the list as given (duplicates are sent and output once).
	let listPositions: number[] = [];
	if (source === 'list') {
		const value = this.getNodeParameter('isinList', 0, '') as unknown;
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			throw inputError(
				node,
				0,
				`ISINs must be a list or text, got ${kindOf(value)}: ${showValue(value)}`,
				'Give the ISINs as text separated by commas or new lines, as a JSON array such as ["US0378331005", "DE0007164600"], or map a list of ISINs, e.g. {{ $json.isins }}.',
			);
		}
		const list = splitIsinList(value);
		if (list.entries.length === 0) {
			throw inputError(
				node,
				0,
				'The ISINs parameter (ISINs From = A List Typed Here) is empty',
				'Type or paste at least one ISIN, e.g. US0378331005, DE0007164600 (commas, semicolons or new lines between them, or a JSON array), or set ISINs From to A Field of Each Input Item.',
			);
		}
		listPositions = list.entries.map((entry) => entry.position);
		perItem = list.entries.map(({ isin, problem }) =>
			problem ? { problem, unsendable: true } : { isin },
		);
	} else {
		const field =
			readTextParameter.call(this, 'isinField', 0, 'ISIN Field', { fallback: 'isin' }) || 'isin';
		perItem = items.map((item) => {
			const raw = readField(item.json, field);
			const isin = normalizeIsin(raw);
			const why = unsendableIsin(raw, isin);
			if (why) return { problem: `invalid ISIN: field "${field}" holds ${why}`, unsendable: true };
			return isin ? { isin } : { problem: `no ISIN in field "${field}"` };
		});
	}
	for (let index = 0; index < perItem.length; index++) {
		const entry = perItem[index];
		if (!entry.unsendable && (!entry.isin || isValidIsin(entry.isin) || invalidPolicy === 'send'))
			continue;
		const reason = entry.unsendable
			? entry.problem!
			: `invalid ISIN: ${describeInvalidIsin(entry.isin!)}`;
		if (invalidPolicy === 'fail' && !this.continueOnFail()) {
			throw inputError(
				node,
				source === 'list' ? 0 : index,
				reason,
				entry.unsendable && source === 'list'
					? 'Correct that entry of the ISINs list: each entry is one ISIN as text (12 characters). Such a value is never sent, even with Options > Invalid ISINs set to send anyway; with skip or send, it comes out with found = false and the reason.'
					: entry.unsendable
						? 'Map the ISIN Field to the column that holds the ISIN as text (12 characters). Such a value is never sent, even with Options > Invalid ISINs set to send anyway; with skip or send, the item comes out with found = false and the reason.'
						: 'Correct the ISIN, or set Options > Invalid ISINs to skip such items (they are reported in the output) or to send them anyway.',
				{ where: source === 'list' ? `ISIN ${listPositions[index]} of the list` : undefined },
			);
		}
		perItem[index] = { problem: reason };
	}

	// Rows a summary cannot weight (no market value, cash) are taken out here, before anything is sent.
	const summary =
		outputMode === 'portfolioSummary'
			? (prepareSummary<TEntry>).call(this, items, perItem, spec)
			: undefined;

	// What Only Changes Since Last Run compares, checked before anything is sent.
	const changes =
		outputMode === 'changesSinceLastRun'
			? (readChangesSettings<TEntry>).call(this, spec)
			: undefined;

	// Distinct ISINs in first-seen order: what is sent, and what gets a result.
	const isins = new Set<string>();
	for (const entry of perItem) if (entry.isin !== undefined) isins.add(entry.isin);
	if (isins.size === 0 && !spec.emptyIsAllowed) {
		const what =
			source === 'list'
				? 'No entry of the ISINs list is a valid ISIN'
				: items.length === 0
					? 'There are no input items'
					: 'No input item has an ISIN';
		throw inputError(
			node,
			undefined,
			`${what}: the ${spec.route.label} needs at least one instrument`,
			source === 'list'
				? 'Correct the ISINs in the list (the output names each with the reason).'
				: 'Check the ISIN Field parameter: it must name the field (column) that holds the ISIN.',
		);
	}

	const perBatch = batchSettings({ batchSize }).batchSize;
	planRequests.call(this, {
		requests: Math.ceil(isins.size / perBatch),
		breakdown: `${isins.size.toLocaleString('en-US')} distinct ISINs in batches of ${perBatch.toLocaleString('en-US')}`,
		fewerRequests: `raise Options > Batch Size (up to ${MAX_INSTRUMENTS_PER_REQUEST.toLocaleString('en-US')} ISINs per request)`,
	});

	// One result per ISIN the API answered for, made as the answers arrive; under continueOnFail the ISINs of a
	// failed batch come back with its error.
	const {
		byIsin: results,
		failed,
		tally,
	} = await (lookupInstruments<TEntry, IDataObject>).call(this, spec.route, isins, spec.isinOf, {
		batchSize,
		concurrency,
		extraBody,
		// A summary reads the API's {value, unit} pairs; changes compare flat columns.
		toValue: (entry) => {
			const result = spec.toResult(
				entry,
				outputMode === 'changesSinceLastRun'
					? true
					: outputMode === 'portfolioSummary'
						? false
						: simplify,
			);
			// The ISIN as matched (batching normalises the answer's ISINs like the ISINs sent).
			if (typeof result.isin === 'string') result.isin = normalizeIsin(result.isin);
			return result;
		},
	});

	// What the answers held beside the entries asked for: said above the output and, except where results are
	// compared with the last run's, on the results themselves.
	const answerNote = tally.describe(spec.route);
	if (answerNote) {
		noteAboutAnswer.call(this, answerNote);
		if (outputMode !== 'changesSinceLastRun') {
			for (const [isin, result] of results) {
				const note = tally.noteFor(isin, answerNote);
				if (note) result.answer_note = note;
			}
		}
	}

	const outcome: LookupOutcome<TEntry> = {
		items,
		perItem,
		source: source === 'list' ? 'list' : 'field',
		results,
		failed,
		spec,
		simplify,
		answerNote,
	};
	if (summary) return (buildSummaryItems<TEntry>).call(this, summary, outcome);
	if (changes) return (outputChanges<TEntry>).call(this, outcome, changes);

	// ISINs the API did not answer get the same columns, empty: the columns of all results (in input order),
	// worked out only when an empty result is needed (usually none is).
	let columns: Set<string> | undefined;
	const emptyResult = (isin: string | null, problem?: string): IDataObject => {
		if (!columns) {
			columns = new Set<string>();
			for (const asked of isins)
				for (const key of Object.keys(results.get(asked) ?? {})) columns.add(key);
		}
		const result: IDataObject = {};
		for (const key of columns) result[key] = null;
		Object.assign(result, { isin, found: false });
		if (problem) result.reason = problem;
		return result;
	};
	const resultFor = (entry: ItemIsin): IDataObject =>
		entry.isin
			? (results.get(entry.isin) ?? emptyResult(entry.isin))
			: emptyResult(null, entry.problem);

	if (outputMode === 'perInstrument') {
		// Items without a usable ISIN each stay a row of their own, so nothing is dropped.
		const rows = new Map<string, { entry: ItemIsin; items: Set<number> }>();
		perItem.forEach((entry, index) => {
			const key = entry.isin ?? `#${index}`;
			const itemIndex = source === 'list' ? 0 : index;
			const row = rows.get(key);
			if (row) row.items.add(itemIndex);
			else rows.set(key, { entry, items: new Set([itemIndex]) });
		});
		return [...rows.values()].map(({ entry, items: paired }) => ({
			json:
				entry.isin && failed.has(entry.isin)
					? { isin: entry.isin, ...errorJson(failed.get(entry.isin)!) }
					: resultFor(entry),
			pairedItem: [...paired].map((item) => ({ item })),
		}));
	}

	return items.map((item, index) => {
		const entry = perItem[index];
		const json = copyJson(item.json);
		const failure = entry.isin ? failed.get(entry.isin) : undefined;
		if (failure) {
			const out: INodeExecutionData = {
				json: Object.assign(json, errorJson(failure)),
				pairedItem: { item: index },
			};
			if (item.binary) out.binary = item.binary;
			return out;
		}
		const result = resultFor(entry);
		if (simplify) {
			for (const [key, value] of Object.entries(result)) json[`${spec.resultKey}_${key}`] = value;
		} else {
			json[spec.resultKey] = result;
		}
		if (entry.problem && invalidPolicy === 'fail' && entry.problem.startsWith('invalid ISIN')) {
			Object.assign(json, errorJson(new Error(`Item ${index}: ${entry.problem}`)));
		}
		const out: INodeExecutionData = { json, pairedItem: { item: index } };
		if (item.binary) out.binary = item.binary;
		return out;
	});
}

/** Columns the node itself writes on an instrument's result: an answered indicator never takes their place. */
export const OWN_RESULT_COLUMNS: ReadonlySet<string> = new Set([
	'isin',
	'found',
	'is_fund',
	'answer_note',
	'reason',
	'business_involvements',
]);

/** Prefix of an answered indicator, metric or score whose name is one of the node's own columns. */
export const CLASHING_NAME_PREFIX = 'indicator_';

/**
 * The name an answered indicator comes out under: its own, or `indicator_<name>` when the node writes a column of
 * that name (isin, found, is_fund, answer_note, ...), so the node's columns always win and the indicator is kept.
 */
export function answeredName(name: string, answered: object): string {
	let out = name;
	while (OWN_RESULT_COLUMNS.has(out) || (out !== name && hasOwn(answered, out)))
		out = `${CLASHING_NAME_PREFIX}${out}`;
	return out;
}

/**
 * The node's own columns, then the answered members (indicators, metrics, scores) beside them: one named like an
 * own column comes under `indicator_<name>` (answeredName), never over it.
 */
export function withOwnColumns(own: IDataObject, answered: IDataObject): IDataObject {
	const result: IDataObject = { ...own };
	for (const [name, value] of Object.entries(answered))
		setOwn(result, answeredName(name, answered), value);
	return result;
}

/**
 * `{value, unit}` pairs as `name: value` and `name_unit: unit` when simplifying. A name the node writes itself
 * (isin, found, ...) comes under `indicator_<name>` (answeredName).
 */
export function flattenMeasures(
	data: IDataObject | null | undefined,
	simplify: boolean,
): IDataObject {
	const result: IDataObject = {};
	const answered = data ?? {};
	for (const [answeredAs, measure] of Object.entries(answered)) {
		const name = answeredName(answeredAs, answered);
		if (
			simplify &&
			measure &&
			typeof measure === 'object' &&
			!Array.isArray(measure) &&
			'value' in measure
		) {
			const { value, unit } = measure as { value: unknown; unit?: unknown };
			setOwn(result, name, value as IDataObject[string]);
			result[`${name}_unit`] = (unit ?? null) as IDataObject[string];
		} else {
			setOwn(result, name, measure);
		}
	}
	return result;
}

/** True when at least one value in the result is not null: an unknown ISIN comes back all nulls. */
export function hasAnyValue(data: unknown): boolean {
	if (data === null || data === undefined) return false;
	if (typeof data !== 'object') return true;
	if (Array.isArray(data)) return data.some(hasAnyValue);
	const record = data as IDataObject;
	if ('value' in record) return record.value !== null && record.value !== undefined;
	return Object.values(record).some(hasAnyValue);
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { noteAboutAnswer } from '../../shared/api/answers';
import type { EntryTally } from '../../shared/api/answers';
import { noteOutside, outsideNote, settleDomains } from '../../shared/api/domains';
import type { OutsideValue } from '../../shared/api/domains';
import type { ApiRoute } from '../../shared/api/routes';
import { batchSettings, lookupInstruments } from '../../shared/run/batching';
import { MAX_INSTRUMENTS_PER_REQUEST } from '../../shared/base/constants';
import {
	batchingOptions,
	invalidIsinsProperty,
	maxRequestsOption,
	maxThrottleWaitOption,
} from '../../shared/ui/descriptions';
import { compactKey } from '../../shared/input/holdingFields';
import { numberParameterValue, readTextParameter } from '../../shared/input/parameters';
import { inputError } from '../../shared/api/errors';
import { countAnswers, countLeftOut, countNotInAnswer } from '../../shared/base/hints';
import { planRequests } from '../../shared/run/requestPlan';
import { REJECTED_NAMED, withRejectedEntries } from '../../shared/run/tool';
import type { RejectedEntry } from '../../shared/run/tool';
import {
	describeInvalidIsin,
	givenIsin,
	isValidIsin,
	normalizeIsin,
	splitIsinList,
	unsendableIsin,
} from '../../shared/input/isin';
import { hasOwn, kindOf, ordinal, showValue } from '../../shared/base/values';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import { outputChanges } from './changes';
import { changesProperties, readChangesSettings } from './changesSettings';
import { addedToInputItems, perInstrumentItems } from './lookupRows';
import { EMPTY_CELL_NOTE } from './lookupTypes';
import type {
	InstrumentOperationSpec,
	InstrumentOutputMode,
	ItemIsin,
	LookupOutcome,
} from './lookupTypes';
import {
	HOLDINGS_JSON_OPTION,
	HOLDINGS_JSON_SOURCE,
	holdingsJsonParameter,
	withHoldingsJson,
} from './holdingsJsonInput';
import { buildSummaryItems, prepareSummary, summaryProperties } from './portfolioSummary';
import {
	buildPaiStatementItems,
	paiStatementProperties,
	preparePaiStatement,
} from './paiStatement';

type NodeVersions = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>['@version'];

/** The typed ISIN list; its hint differs by node version (where Invalid ISINs is chosen). */
function isinListProperty(hint: string, versions: NodeVersions): INodeProperties {
	return {
		displayName: 'ISINs',
		name: 'isinList',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. US0378331005, DE0007164600',
		description:
			'ISINs separated by commas, semicolons, spaces or new lines, or a JSON array such as ["US0378331005", "DE0007164600"]. Quotes, brackets and lower case are ignored; an ISIN given twice is looked up once. An expression may give a list.',
		hint,
		displayOptions: { show: { isinSource: ['list'], '@version': versions } },
	};
}

/** Output, for ISINs from a field: the lookups' modes, `extraOptions` (PAI Statement) before Only Changes. */
function fieldOutputProperty(extraOptions: INodePropertyOptions[]): INodeProperties {
	return {
		displayName: 'Output',
		name: 'outputMode',
		builderHint: parameterBuilderHint(
			`Add to Input Items keeps every input item and adds the result (to write back to a sheet). One Item per Instrument: one item per distinct ISIN. Portfolio Summary: one item per portfolio, needs a market value or weight column.${extraOptions.length ? ' PAI Statement: the annual SFDR PAI statement from several quarter ends of holdings (market value and date columns).' : ''} Only Changes Since Last Run: for scheduled alerts.`,
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
			...extraOptions,
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
	};
}

/** The PAI Statement option of Output (Get PAI Indicators only). */
const PAI_STATEMENT_OPTION: INodePropertyOptions = {
	name: 'PAI Statement',
	value: 'paiStatement',
	description:
		'The annual PAI statement (SFDR Annex I Table 1) from the holdings of several quarter ends: one item per indicator row, per fund with Group By',
};

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
	isinListProperty(
		'Each entry that is not an ISIN after cleaning is reported by name (see Options > Invalid ISINs)',
		[1],
	),
	isinListProperty('Each entry that is not an ISIN after cleaning is reported by name', [
		{ _cnd: { gte: 2 } },
	]),
	// Version 2: chosen right below the ISINs, where a typo shows; version 1 keeps it under Options.
	{
		...invalidIsinsProperty('Not sent; it comes out with found = false and the reason'),
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	},
	fieldOutputProperty([]),
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

/** Output, for Holdings (JSON): the modes that read holdings as a whole (no input rows to add to). */
const holdingsJsonOutputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'outputMode',
	builderHint: parameterBuilderHint(
		'PAI Statement: the annual SFDR PAI statement from several quarter ends of holdings (market value and date fields in the JSON). Portfolio Summary: one item per portfolio.',
	),
	type: 'options',
	options: [
		{ ...PAI_STATEMENT_OPTION, name: 'PAI Statement', value: 'paiStatement' },
		{
			name: 'Portfolio Summary',
			value: 'portfolioSummary',
			description:
				'One item per portfolio (per Group By value): shares and market-value-weighted figures with their coverage',
		},
	],
	default: 'paiStatement',
	description:
		'What comes out of the node: the PAI statement, or one summary per portfolio, of the holdings in Holdings (JSON)',
	displayOptions: { show: { isinSource: [HOLDINGS_JSON_SOURCE] } },
};

/**
 * Get PAI Indicators: the same, with Output > PAI Statement and its parameters, and holdings from Holdings (JSON)
 * (in both versions: a new option of ISINs From, a saved workflow keeps its choice).
 */
export const paiInstrumentProperties: INodeProperties[] = instrumentProperties.flatMap(
	(property): INodeProperties[] => {
		if (property.name === 'isinSource')
			return [
				{
					...property,
					builderHint: parameterBuilderHint(
						'A Field of Each Input Item when the previous node outputs one item per instrument or holding (e.g. sheet rows; set ISIN Field to the ISIN column). A List Typed Here when the ISINs are fixed or come from one expression. Holdings (JSON) when the holdings come as one JSON list (e.g. from an HTTP Request or an AI model), for a PAI Statement or Portfolio Summary.',
					),
					options: [...(property.options as INodePropertyOptions[]), HOLDINGS_JSON_OPTION],
				},
				holdingsJsonParameter,
			];
		if (property.name === 'isinField')
			return [
				{ ...property, displayOptions: { show: { isinSource: ['field', HOLDINGS_JSON_SOURCE] } } },
			];
		if (
			property.name === 'outputMode' &&
			property.displayOptions?.show?.isinSource?.includes('field')
		)
			return [fieldOutputProperty([PAI_STATEMENT_OPTION]), holdingsJsonOutputProperty];
		return [property];
	},
);
paiInstrumentProperties.splice(
	paiInstrumentProperties.findIndex((property) => property.name === 'simplify'),
	0,
	...paiStatementProperties,
);

/** The Options collection of the instrument lookups: Invalid ISINs is one of them in version 1 only. */
export const instrumentOptions: INodeProperties[] = [
	{
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
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...batchingOptions, maxThrottleWaitOption, maxRequestsOption],
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	},
];

/**
 * Where the Invalid ISINs setting is, as the form shows it: version 2 right below the ISINs list or the ISIN Field
 * (whichever ISINs From shows), version 1 under Options.
 */
function invalidIsinsSetting(context: IExecuteFunctions, source: string): string {
	if (context.getNode().typeVersion < 2) return 'Options > Invalid ISINs';
	return source === 'list'
		? '"Invalid ISINs" (below the ISINs list)'
		: '"Invalid ISINs" (below ISIN Field)';
}

/** Invalid ISINs: a parameter of its own from version 2 on, Options > Invalid ISINs in version 1 (saved workflows). */
function readInvalidIsinPolicy(this: IExecuteFunctions, options: IDataObject): string {
	if (this.getNode().typeVersion >= 2)
		return this.getNodeParameter('invalidIsins', 0, 'fail') as string;
	return (options.invalidIsins as string | undefined) ?? 'fail';
}

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
	const key = topLevelKey(json, field);
	return key === undefined ? undefined : json[key];
}

/** The top-level key of `json` that holds `field`: the name itself, else one that reads the same (compactKey). */
function topLevelKey(json: IDataObject, field: string): string | undefined {
	if (hasOwn(json, field)) return field;
	const wanted = compactKey(field);
	return Object.keys(json).find((candidate) => compactKey(candidate) === wanted);
}

/**
 * Each item's ISIN (field source) or each entry of the typed list (list source), with why it cannot be sent, and
 * where each entry of a typed list stood in the list as given (duplicates are sent and output once).
 */
export function readIsinEntries(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	source: string,
): { perItem: ItemIsin[]; listPositions: number[] } {
	const node = this.getNode();
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
		return {
			listPositions: list.entries.map((entry) => entry.position),
			perItem: list.entries.map(({ isin, problem, given }) =>
				problem ? { problem, unsendable: true, given } : { isin, given },
			),
		};
	}
	const field =
		readTextParameter.call(this, 'isinField', 0, 'ISIN Field', { fallback: 'isin' }) || 'isin';
	let column: { name: string | undefined } | undefined;
	const columnOfOthers = () => (column ??= { name: columnOf(items, field) }).name;
	const perItem = items.map((item): ItemIsin => {
		const raw = readField(item.json, field);
		const isin = normalizeIsin(raw);
		const given = givenIsin(raw);
		const why = unsendableIsin(raw, isin);
		if (why)
			return {
				problem: `invalid ISIN: field "${field}" holds ${why}`,
				unsendable: true,
				given,
			};
		if (isin) return { isin, given };
		// A sheet's empty cell: the item has no such column while others do. Its row gets the column as "".
		const missingColumn = raw === undefined ? columnOfOthers() : undefined;
		return missingColumn
			? {
					problem: `no ISIN in field "${field}"${EMPTY_CELL_NOTE}`,
					given,
					missingColumn,
				}
			: { problem: `no ISIN in field "${field}"`, given };
	});
	return { perItem, listPositions: [] };
}

/** The top-level column the other items hold `field` in (as readField finds it), or undefined. */
function columnOf(items: INodeExecutionData[], field: string): string | undefined {
	if (field.includes('.') && !items.some((item) => hasOwn(item.json, field))) return undefined;
	for (const { json } of items) {
		const key = topLevelKey(json, field);
		if (key !== undefined) return key;
	}
	return undefined;
}

/**
 * Invalid ISINs (and values that are never sent): an error naming the item under Fail, else the entry is kept out of
 * the request with its reason.
 */
export function applyInvalidIsinPolicy(
	this: IExecuteFunctions,
	perItem: ItemIsin[],
	listPositions: number[],
	source: string,
	invalidPolicy: string,
): void {
	const node = this.getNode();
	for (let index = 0; index < perItem.length; index++) {
		const entry = perItem[index];
		if (!entry.unsendable && (!entry.isin || isValidIsin(entry.isin) || invalidPolicy === 'send'))
			continue;
		const reason = entry.unsendable
			? entry.problem!
			: `invalid ISIN: ${describeInvalidIsin(entry.isin!)}`;
		if (invalidPolicy === 'fail' && !this.continueOnFail()) {
			const setting = invalidIsinsSetting(this, source);
			throw inputError(
				node,
				source === 'list' ? 0 : index,
				reason,
				entry.unsendable && source === 'list'
					? `Correct that entry of the ISINs list: each entry is one ISIN as text (12 characters). Such a value is never sent, even with ${setting} set to send anyway; with skip or send, it comes out with found = false and the reason.`
					: entry.unsendable
						? `Map the ISIN Field to the column that holds the ISIN as text (12 characters). Such a value is never sent, even with ${setting} set to send anyway; with skip or send, the item comes out with found = false and the reason.`
						: `Correct the ISIN, or set ${setting} to Skip and Report (such ${source === 'list' ? 'ISINs' : 'items'} come out with found = false and the reason) or to Send Anyway.`,
				{
					// n8n's Item Index of a typed list is 0 (the list is one parameter); the entry is named by its place.
					where:
						source === 'list'
							? `Item 0, ${ordinal(listPositions[index])} ISIN of the list`
							: undefined,
				},
			);
		}
		perItem[index] = {
			problem: reason,
			given: entry.given,
			normalised: entry.unsendable ? undefined : entry.isin,
		};
	}
}

/** The lookup's settings, read and checked at item 0 (options an expression may set too) before anything is sent. */
function readLookupSettings<TEntry>(
	this: IExecuteFunctions,
	spec: InstrumentOperationSpec<TEntry>,
) {
	const node = this.getNode();
	const chosenSource = this.getNodeParameter('isinSource', 0, 'field') as string;
	// Holdings (JSON) rows are read as input items (withHoldingsJson).
	const source = chosenSource === HOLDINGS_JSON_SOURCE ? 'field' : chosenSource;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const chosenOutput = this.getNodeParameter(
		'outputMode',
		0,
		source === 'list' ? 'perInstrument' : 'addToItems',
	) as InstrumentOutputMode;
	// A typed list has no input rows to add to or weight: a value kept from the field source means one item per ISIN.
	const outputMode: InstrumentOutputMode =
		source === 'list' && chosenOutput !== 'changesSinceLastRun' ? 'perInstrument' : chosenOutput;
	return {
		source,
		outputMode,
		simplify: this.getNodeParameter('simplify', 0, false) as boolean,
		invalidPolicy: readInvalidIsinPolicy.call(this, options),
		batchSize: numberParameterValue(node, options.batchSize, 0, 'Options > Batch Size', {
			min: 1,
			max: MAX_INSTRUMENTS_PER_REQUEST,
			integer: true,
		}),
		concurrency: numberParameterValue(node, options.concurrency, 0, 'Options > Concurrency', {
			min: 1,
			max: 8,
			integer: true,
		}),
		extraBody: spec.extraBody?.call(this),
	};
}

export async function executeInstrumentOperation<TEntry>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: InstrumentOperationSpec<TEntry>,
): Promise<INodeExecutionData[]> {
	// Holdings (JSON): each input item's list is read as rows, each row as an input item would be.
	if (this.getNodeParameter('isinSource', 0, 'field') === HOLDINGS_JSON_SOURCE)
		return await withHoldingsJson.call(this, items, async (rows) =>
			(lookupInstrumentItems<TEntry>).call(this, rows, spec),
		);
	return await (lookupInstrumentItems<TEntry>).call(this, items, spec);
}

async function lookupInstrumentItems<TEntry>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: InstrumentOperationSpec<TEntry>,
): Promise<INodeExecutionData[]> {
	const { source, outputMode, simplify, invalidPolicy, batchSize, concurrency, extraBody } =
		(readLookupSettings<TEntry>).call(this, spec);

	// Each item's ISIN, checked locally before any request is spent.
	const { perItem, listPositions } = readIsinEntries.call(this, items, source);
	applyInvalidIsinPolicy.call(this, perItem, listPositions, source, invalidPolicy);

	// Rows a summary cannot weight (no market value, cash) are taken out here, before anything is sent.
	const summary =
		outputMode === 'portfolioSummary'
			? (prepareSummary<TEntry>).call(this, items, perItem, spec)
			: undefined;

	// The PAI statement's dates, values and currencies, checked before anything is sent.
	const statement =
		outputMode === 'paiStatement' ? preparePaiStatement.call(this, items, perItem) : undefined;

	// What Only Changes Since Last Run compares, checked before anything is sent.
	const changes =
		outputMode === 'changesSinceLastRun'
			? (readChangesSettings<TEntry>).call(this, spec)
			: undefined;

	// Distinct ISINs in first-seen order: what is sent, and what gets a result.
	const isins = distinctIsins.call(
		this,
		items,
		perItem,
		source,
		spec.route.label,
		spec.emptyIsAllowed,
	);

	const perBatch = batchSettings({ batchSize }).batchSize;
	planRequests.call(this, {
		requests: Math.ceil(isins.size / perBatch),
		breakdown: `${isins.size.toLocaleString('en-US')} distinct ISINs in batches of ${perBatch.toLocaleString('en-US')}`,
		fewerRequests: `raise Options > Batch Size (up to ${MAX_INSTRUMENTS_PER_REQUEST.toLocaleString('en-US')} ISINs per request)`,
	});

	const outsideByIsin = new Map<string, OutsideValue[]>();
	const allOutside: OutsideValue[] = [];
	const findOutside = (entry: TEntry) =>
		settleDomains(spec.route.answer.domains, entry, ['data', 0]).outside;
	// One result per ISIN the API answered for, made as the answers arrive; under continueOnFail the ISINs of a
	// failed batch come back with its error.
	const {
		byIsin: results,
		failed,
		tally,
		notInAnswer,
	} = await (lookupInstruments<TEntry, IDataObject>).call(this, spec.route, isins, spec.isinOf, {
		batchSize,
		concurrency,
		extraBody,
		// A summary reads the API's {value, unit} pairs; changes compare flat columns.
		toValue: (answered) => {
			// A number outside its domain is set to null and named on the result; Only Changes keeps the entry as it
			// came and does not compare that ISIN (changes.ts: not_checked, the remembered result kept).
			const { value: entry, outside } =
				outputMode === 'changesSinceLastRun'
					? { value: answered, outside: findOutside(answered) }
					: settleDomains(spec.route.answer.domains, answered, ['data', 0]);
			const result = spec.toResult(
				entry,
				outputMode === 'changesSinceLastRun'
					? true
					: outputMode === 'portfolioSummary' || outputMode === 'paiStatement'
						? false
						: simplify,
			);
			// The ISIN as matched (batching normalises the answer's ISINs like the ISINs sent).
			if (typeof result.isin === 'string') result.isin = normalizeIsin(result.isin);
			if (outside.length) {
				if (outputMode !== 'changesSinceLastRun')
					result.domain_note = outsideNote(outside, LEFT_OUT_OF_RANGE, 2);
				if (typeof result.isin === 'string') outsideByIsin.set(result.isin, outside);
				allOutside.push(...outside);
			}
			return result;
		},
	});
	if (allOutside.length)
		noteOutside.call(
			this,
			allOutside,
			outsideNote(
				allOutside,
				outputMode === 'changesSinceLastRun'
					? 'Their ISINs are not compared (status not_checked, the value named in reason); a result remembered for them is kept for the next run.'
					: LEFT_OUT_OF_RANGE,
				2,
			),
			outputMode === 'changesSinceLastRun' ? 'the not_checked rows' : 'domain_note',
			2,
			outputMode === 'changesSinceLastRun' ? 'not compared' : 'left out',
		);

	countLookup.call(
		this,
		perItem,
		isins,
		results,
		failed,
		notInAnswer,
		source,
		outputMode,
		spec.resultKey,
		simplify,
	);

	const answerNote = noteAnswer.call(this, tally, spec.route, results, outputMode);

	const outcome: LookupOutcome<TEntry> = {
		items,
		perItem,
		source: source === 'list' ? 'list' : 'field',
		results,
		failed,
		notInAnswer,
		spec,
		simplify,
		answerNote,
		outside: outsideByIsin,
	};
	if (summary) return (buildSummaryItems<TEntry>).call(this, summary, outcome);
	if (statement) return (buildPaiStatementItems<TEntry>).call(this, statement, outcome);
	if (changes) return (outputChanges<TEntry>).call(this, outcome, changes);
	if (outputMode === 'perInstrument') return perInstrumentItems(outcome);
	return addedToInputItems(outcome, invalidPolicy, invalidIsinsSetting(this, source));
}

const LEFT_OUT_OF_RANGE =
	'Each is set to null and left out of any Portfolio Summary average, share and coverage.';

/** Distinct ISINs in first-seen order: what is sent, and what gets a result. At least one, unless the route allows none. */
export function distinctIsins(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	perItem: ItemIsin[],
	source: string,
	label: string,
	emptyIsAllowed: boolean,
): Set<string> {
	const isins = new Set<string>();
	for (const entry of perItem) if (entry.isin !== undefined) isins.add(entry.isin);
	if (isins.size === 0 && !emptyIsAllowed) {
		const what =
			source === 'list'
				? 'No entry of the ISINs list is a valid ISIN'
				: items.length === 0
					? 'There are no input items'
					: 'No input item has an ISIN';
		const rejected = rejectedEntries(perItem, source);
		const error = inputError(
			this.getNode(),
			undefined,
			`${what}: the ${label} needs at least one instrument`,
			[
				rejected.length ? `Not sent: ${rejectedText(rejected)}.` : '',
				source === 'list'
					? 'Correct the ISINs in the list (each is 12 characters: a two-letter country code, 9 letters or digits, a check digit).'
					: 'Check the ISIN Field parameter: it must name the field (column) that holds the ISIN.',
			]
				.filter(Boolean)
				.join(' '),
		);
		// An AI agent sees no output items: the tool's answer names each entry with its reason.
		withRejectedEntries(error, rejected);
		throw error;
	}
	return isins;
}

/** Entries not sent, each with what was given (or its place) and why. */
function rejectedEntries(perItem: ItemIsin[], source: string): RejectedEntry[] {
	const rejected: RejectedEntry[] = [];
	perItem.forEach((entry, index) => {
		if (entry.problem === undefined) return;
		const given = entry.given ?? entry.normalised;
		rejected.push({
			isin:
				given === undefined || given === null || given === ''
					? source === 'list'
						? `entry ${index + 1}`
						: `item ${index}`
					: showValue(given, 40),
			reason: entry.problem,
		});
	});
	return rejected;
}

/** "US037833100X" (invalid ISIN: …); …; the first REJECTED_NAMED, then "and N more". */
function rejectedText(rejected: RejectedEntry[]): string {
	const named = rejected
		.slice(0, REJECTED_NAMED)
		.map(({ isin, reason }) => `"${isin}" (${reason})`)
		.join('; ');
	const more = rejected.length - REJECTED_NAMED;
	return more > 0 ? `${named}; and ${more} more` : named;
}

/**
 * What the run must notice (noted once at its end): entries not sent and why, ISINs without data, ISINs the answer
 * left out (not checked), ISINs whose request failed.
 */
function countLookup(
	this: IExecuteFunctions,
	perItem: ItemIsin[],
	isins: Set<string>,
	results: Map<string, IDataObject>,
	failed: Map<string, Error>,
	notInAnswer: ReadonlySet<string>,
	source: string,
	outputMode: InstrumentOutputMode,
	resultKey: string,
	simplify: boolean,
): void {
	const problems: string[] = [];
	for (const entry of perItem) if (entry.problem) problems.push(entry.problem);
	countLeftOut(
		this,
		problems,
		source === 'list'
			? 'ISIN'
			: outputMode === 'portfolioSummary' || outputMode === 'paiStatement'
				? 'row'
				: 'item',
		outputMode === 'portfolioSummary'
			? 'removed_rows or not_checked_rows'
			: outputMode === 'paiStatement'
				? 'explanation'
				: outputMode === 'addToItems'
					? `${resultKey}${simplify ? '_' : '.'}reason`
					: 'reason',
		'not sent',
	);
	let noData = 0;
	for (const isin of isins)
		if (!failed.has(isin) && !notInAnswer.has(isin) && results.get(isin)?.found !== true) noData++;
	countAnswers(this, isins.size, noData, failed.size);
	countNotInAnswer(
		this,
		notInAnswer.size,
		'ISIN',
		outputMode === 'portfolioSummary'
			? 'not_checked_rows'
			: outputMode === 'paiStatement'
				? 'explanation'
				: outputMode === 'addToItems'
					? `${resultKey}${simplify ? '_' : '.'}reason`
					: 'reason',
	);
}

/**
 * What the answers held beside the entries asked for: said above the output and, except where results are compared
 * with the last run's, on the results themselves.
 */
function noteAnswer(
	this: IExecuteFunctions,
	tally: EntryTally,
	route: ApiRoute,
	results: Map<string, IDataObject>,
	outputMode: InstrumentOutputMode,
): string | undefined {
	const answerNote = tally.describe(route);
	if (answerNote) {
		noteAboutAnswer.call(
			this,
			answerNote,
			outputMode === 'changesSinceLastRun'
				? undefined
				: "Part of the API's answer was not used: see answer_note in the output.",
		);
		if (outputMode !== 'changesSinceLastRun') {
			for (const [isin, result] of results) {
				const note = tally.noteFor(isin, answerNote);
				if (note) result.answer_note = note;
			}
		}
	}
	return answerNote;
}

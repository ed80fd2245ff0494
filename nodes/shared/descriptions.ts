import type { IDisplayOptions, IExecuteFunctions, INodeParameterResourceLocator, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_REQUESTS, MAX_INSTRUMENTS_PER_REQUEST } from './constants';
import { describeDateProblem, readSnapshotDate } from './dates';
import type { SnapshotDate } from './dates';
import { groupItems, holdingRowsFromItems, holdingRowsFromJson, readHoldings, splitFieldList } from './holdings';
import { inputError } from './errors';
import { methodologyIdForRequest } from './methodologies';
import { parseLooseNumber } from './numbers';
import { removesRows } from './routes';
import type { HoldingsRoute } from './routes';
import { isBlank, kindOf, scalarText, showValue } from './values';
import type {
	CashRowPolicy,
	HoldingKey,
	InvalidIsinPolicy,
	ItemGroup,
	RemovedRow,
	SourcedHolding,
} from './holdings';

const holdingFieldOptions: INodeProperties[] = [
	['ISIN Field', 'isin', 'ISIN', 'isin'],
	['Name Field', 'name', 'Name', 'name'],
	['Instrument Type Field', 'instrument_type', 'Type', 'instrument_type'],
	['Currency Field', 'currency', 'Currency', 'currency'],
	['Weight Field', 'weight', 'Weight', 'weight'],
	['Market Value Field', 'market_value', 'Market Value', 'market_value'],
].map(([displayName, name, header, apiField]) => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: header,
	description: `Name of the input field that holds the ${apiField === 'isin' ? 'ISIN' : apiField.replace('_', ' ')}. Leave empty to use "${apiField}" or a usual header such as "${header}" (case and spaces ignored).`,
}));

/** What to do with an ISIN that fails the check digit; `skipped` says where a skipped one is reported. */
export function invalidIsinsProperty(skipped: string): INodeProperties {
	return {
		displayName: 'Invalid ISINs',
		name: 'invalidIsins',
		type: 'options',
		options: [
			{ name: 'Stop With an Error', value: 'fail', description: 'Nothing is sent; the error names the item' },
			{ name: 'Skip and Report', value: 'skip', description: skipped },
			{ name: 'Send Anyway', value: 'send', description: 'Let the API decide' },
		],
		default: 'fail',
		description: 'What to do with an ISIN that fails the ISO 6166 format or check digit',
	};
}

/** Where holdings come from, how their columns are named, and what to do with rows a route cannot take. */
export function holdingsProperties(route: HoldingsRoute, displayOptions: IDisplayOptions): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Holdings Source',
			name: 'holdingsSource',
			type: 'options',
			options: [
				{
					name: 'Input Items',
					value: 'items',
					description: 'Each input item is one holding, for example one row of a sheet',
				},
				{
					name: 'JSON',
					value: 'json',
					description: 'A JSON array of holdings given in the Holdings (JSON) field',
				},
			],
			default: 'items',
			displayOptions,
		},
		{
			displayName: 'Holdings (JSON)',
			name: 'holdingsJson',
			type: 'json',
			default: '[\n  {\n    "isin": "US0378331005",\n    "name": "Apple Inc.",\n    "instrument_type": "stock",\n    "currency": "USD",\n    "weight": 100,\n    "market_value": 1000000\n  }\n]',
			description: 'Array of holdings with isin, name, instrument_type, currency, weight and market_value',
			displayOptions: { show: { ...displayOptions.show, holdingsSource: ['json'] } },
		},
		{
			displayName: 'Holding Fields',
			name: 'holdingFields',
			type: 'collection',
			placeholder: 'Map a Column',
			default: {},
			description: 'Which input fields hold the holding data, when the columns are not named isin, name, instrument_type, currency, weight and market_value',
			hint: 'Columns such as ISIN, Name, Type, Currency, Weight % and Market Value are found on their own (case and spaces ignored). Map a column here only when yours is named differently.',
			options: holdingFieldOptions,
			displayOptions,
		},
		{ ...invalidIsinsProperty('Leave the row out and list it in the output'), displayOptions },
	];
	if (removesRows(route.holdings)) {
		properties.push({
			displayName: 'Cash and Rows Without ISIN',
			name: 'cashRows',
			type: 'options',
			options: [
				{
					name: 'Remove and Report',
					value: 'remove',
					description: 'Leave them out of the request and list them in the output',
				},
				{ name: 'Stop With an Error', value: 'error', description: 'Nothing is sent; the error names the row' },
			],
			default: 'remove',
			description: 'The API does not accept cash rows or rows without an ISIN for this operation',
			displayOptions,
		});
	}
	return properties;
}

export function groupByProperty(displayOptions: IDisplayOptions, what: string): INodeProperties {
	return {
		displayName: 'Group By',
		name: 'groupBy',
		type: 'string',
		default: '',
		placeholder: 'e.g. portfolio_id',
		description: `Input field(s), comma-separated, whose values split the input into several ${what}: one request each. Parameters with expressions are read from the first item of each group. Leave empty to treat all items as one.`,
		displayOptions: { show: { ...displayOptions.show, holdingsSource: ['items'] } },
	};
}

/** For the node's Options collection: read by the transport for every request of the node. */
export const maxThrottleWaitOption: INodeProperties = {
	displayName: 'Max Wait When Throttled (Seconds)',
	name: 'maxThrottleWait',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 120,
	description: 'When the API says "too many requests" (or is briefly unavailable), the node waits and tries again, up to this long in all per request. 0 fails at once. A used-up monthly quota is never retried.',
};

/** For the Options collection of every operation that can send more than one request (read by planRequests). */
export const maxRequestsOption: INodeProperties = {
	displayName: 'Max Requests per Run',
	name: 'maxRequests',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_REQUESTS,
	description:
		'Most requests this node may send to the API in one run, retries included (each counts against the monthly quota; 500 is about 5% of 10,000). A run that needs more is refused before anything is sent. 0 = no limit.',
};

/** An Options collection holding only Max Requests per Run, for the group operations. */
export function requestOptions(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options: [maxRequestsOption],
	};
}

export function batchingOptions(): INodeProperties[] {
	return [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_INSTRUMENTS_PER_REQUEST },
			default: MAX_INSTRUMENTS_PER_REQUEST,
			description: 'Distinct ISINs per request (the API takes at most 10,000). Larger batches use fewer of the monthly requests.',
		},
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 8 },
			default: 1,
			description: 'Requests sent at the same time when there is more than one batch',
		},
	];
}

export interface HoldingsInput {
	holdings: SourcedHolding[];
	removed: RemovedRow[];
}

/** Reads the holdings of a group of items (or of the JSON parameter) with the node's holdings parameters. */
export function readHoldingsParameters(
	this: IExecuteFunctions,
	route: HoldingsRoute,
	items: INodeExecutionData[],
	itemIndices: number[],
): HoldingsInput {
	const first = itemIndices[0] ?? 0;
	const source = this.getNodeParameter('holdingsSource', first, 'items') as string;
	const rows =
		source === 'json'
			? holdingRowsFromJson(this.getNode(), this.getNodeParameter('holdingsJson', first), first)
			: holdingRowsFromItems(items, itemIndices);
	return readHoldings(this.getNode(), rows, {
		route,
		fieldNames: this.getNodeParameter('holdingFields', first, {}) as Partial<Record<HoldingKey, string>>,
		invalidIsin: this.getNodeParameter('invalidIsins', first, 'fail') as InvalidIsinPolicy,
		cashRows: removesRows(route.holdings) ? (this.getNodeParameter('cashRows', first, 'remove') as CashRowPolicy) : undefined,
	});
}

/**
 * The portfolios to send: one per Group By value (items source), or one for all items. With the JSON source
 * the array parameter is one portfolio, read once, and every input item is paired to it.
 */
export function portfolioGroups(this: IExecuteFunctions, items: INodeExecutionData[]): ItemGroup[] {
	const source = this.getNodeParameter('holdingsSource', 0, 'items') as string;
	const groupBy = source === 'items' ? splitFieldList(this.getNodeParameter('groupBy', 0, '')) : [];
	if (items.length === 0) return [];
	return groupItems(this.getNode(), items, groupBy);
}

/** The part of the output that says which rows were left out and why. */
export function removedSummary(removed: RemovedRow[]): { removed_count: number; removed_rows: RemovedRow[] } {
	return { removed_count: removed.length, removed_rows: removed };
}

/**
 * A text parameter at an item, trimmed ('' when empty). An expression giving an object or a list is refused,
 * naming the item and the parameter, instead of sending "[object Object]" (or failing on String(value)).
 */
export function readTextParameter(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
	label: string,
	options: { where?: string; fallback?: string } = {},
): string {
	const value = this.getNodeParameter(name, itemIndex, options.fallback ?? '') as unknown;
	return textParameterValue(this.getNode(), value, itemIndex, label, options.where);
}

/** The check of readTextParameter, for a value already read (e.g. a field of a collection parameter). */
export function textParameterValue(
	node: ReturnType<IExecuteFunctions['getNode']>,
	value: unknown,
	itemIndex: number,
	label: string,
	where?: string,
): string {
	if (value === undefined || value === null) return '';
	const text = scalarText(value);
	if (text === undefined) {
		throw inputError(
			node,
			itemIndex,
			`${label} must be text, got ${kindOf(value)}: ${showValue(value)}`,
			`Check what is mapped to ${label}: the expression gives ${kindOf(value)}, not a text.`,
			{ where },
		);
	}
	return text.trim();
}

/**
 * A number parameter or option already read: a number, or numeric text an expression gave ("5"). Empty gives
 * undefined; anything else (text, NaN, Infinity, an object) is refused naming the item, because it would be
 * sent as text or null (a schema error at the API) or break the batching. Whole numbers are rounded down and
 * values are kept within min..max, as the editor does.
 */
export function numberParameterValue(
	node: ReturnType<IExecuteFunctions['getNode']>,
	value: unknown,
	itemIndex: number,
	label: string,
	range: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const parsed = typeof value === 'number' || typeof value === 'string' ? parseLooseNumber(value) : undefined;
	if (parsed === undefined) {
		throw inputError(
			node,
			itemIndex,
			`${label} must be a number, got ${kindOf(value)}: ${showValue(value)}`,
			`Give ${label} as a number${range.min !== undefined && range.max !== undefined ? ` from ${range.min} to ${range.max}` : ''}, or check the expression that sets it.`,
		);
	}
	let number = range.integer ? Math.floor(parsed) : parsed;
	if (range.min !== undefined) number = Math.max(range.min, number);
	if (range.max !== undefined) number = Math.min(range.max, number);
	return number;
}

/**
 * The methodology picker shared by Sustainable Investments and Reports: a list loaded from the API (the record
 * shape is not documented, so the loader reads any reasonable one), or an ID typed in.
 */
export function methodologyProperty(displayOptions: IDisplayOptions, required: boolean, description: string): INodeProperties {
	return {
		displayName: 'Methodology',
		name: 'methodology',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a methodology...',
				typeOptions: { searchListMethod: 'searchMethodologies', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1',
				hint: 'The numeric ID of the methodology, as listed by Sustainable Investments > Get Methodologies',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A methodology ID is a whole number, for example 1' },
					},
				],
			},
		],
		displayOptions,
	};
}

/** The chosen methodology's ID (spec 4.9: a number, whichever mode gave it), or undefined when none is chosen. */
export function readMethodologyId(this: IExecuteFunctions, itemIndex: number): number | undefined {
	const locator = this.getNodeParameter('methodology', itemIndex, { mode: 'list', value: '' }) as
		| INodeParameterResourceLocator
		| string
		| number;
	const raw = typeof locator === 'object' && locator !== null ? locator.value : locator;
	const id = methodologyIdForRequest(typeof raw === 'string' ? raw.trim() : raw);
	if (id === undefined) return undefined;
	if (typeof id !== 'number') {
		throw inputError(
			this.getNode(),
			itemIndex,
			`methodology ID "${showValue(id)}" is not a number`,
			'The API takes the numeric ID of a methodology, for example 1. Run Sustainable Investments > Get Methodologies to see the IDs your key can use.',
		);
	}
	return id;
}

/**
 * The Snapshot Date parameter at an item, checked as the API would check it (spec 4.1, 4.4). `where`
 * names the item (and group) in the message. Empty is refused, unless `emptyDefault` gives the date to use.
 */
export function readSnapshotDateParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	options: { where?: string; emptyDefault?: () => string; invalidFix?: string } = {},
): SnapshotDate {
	const { where, emptyDefault, invalidFix = 'Correct the date.' } = options;
	const value = this.getNodeParameter('snapshotDate', itemIndex, '') as unknown;
	const fail = (message: string, fix: string) => inputError(this.getNode(), itemIndex, message, fix, { where });
	if (isBlank(value)) {
		if (emptyDefault) {
			const date = emptyDefault();
			const read = readSnapshotDate(date);
			return 'problem' in read ? { date, quarterEnd: date } : read;
		}
		throw fail(
			'Snapshot Date is empty',
			'Pick the date of the holdings (it is stored at the end of its quarter), or map a date field, e.g. {{ $json.date }}. For holdings as of today use {{ $today }}.',
		);
	}
	const read = readSnapshotDate(value);
	if ('problem' in read) throw fail(`Snapshot Date ${describeDateProblem(read.problem, value)}`, invalidFix);
	return read;
}

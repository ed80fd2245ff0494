/**
 * Parameter blocks shared by the operations. Each operation attaches its own displayOptions with n8n's
 * `updateDisplayOptions`; only the node versions of the holdings blocks (`@version`) are set here. Their readers are
 * in parameters.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_REQUESTS, MAX_INSTRUMENTS_PER_REQUEST } from '../base/constants';
import {
	HOLDING_COLUMNS,
	HOLDING_COLUMNS_METHOD,
	HOLDING_COLUMNS_SEEN,
} from '../input/holdingColumns';
import { HOLDING_FIELDS, HOLDING_KEYS, holdingFieldParameter } from '../input/holdingFields';
import type { HoldingKey } from '../api/holdingKey';
import { removesRows } from '../api/routes';
import type { HoldingsRoute } from '../api/routes';
import { parameterBuilderHint } from './builderHints';

/** The Holding Fields collection, with what the route does with a field said where its column is chosen. */
function holdingFieldsProperty(
	fieldHints: Partial<Record<HoldingKey, string>> = {},
): INodeProperties {
	return {
		displayName: 'Holding Fields',
		name: 'holdingFields',
		type: 'collection',
		placeholder: 'Map a Column',
		default: {},
		description:
			'Which input fields hold the holding data, when the columns are not named isin, name, instrument_type, currency, weight and market_value. Columns such as ISIN, Name, Type, Currency, Weight % and Market Value are found on their own (case and spaces ignored): map a column here only when yours is named differently.',
		hint: 'Usual headers (ISIN, Name, Type, Currency, Weight %, Market Value) are found on their own',
		options: HOLDING_KEYS.map((name) => {
			const { label, header } = HOLDING_FIELDS[name];
			const usual = `Name of the input field that holds the ${label}. Leave empty to use "${name}" or a usual header such as "${header}" (case and spaces ignored).`;
			return {
				displayName: holdingFieldParameter(name),
				name,
				type: 'string',
				default: '',
				placeholder: `Empty: found automatically (e.g. ${header})`,
				description: fieldHints[name] ? `${usual} ${fieldHints[name]}` : usual,
			};
		}),
	};
}

/** What to do with an ISIN that fails the check digit; `skipped` says where a skipped one is reported. */
export function invalidIsinsProperty(skipped: string): INodeProperties {
	return {
		displayName: 'Invalid ISINs',
		name: 'invalidIsins',
		type: 'options',
		options: [
			{
				name: 'Stop With an Error',
				value: 'fail',
				description: 'Nothing is sent; the error names the item',
			},
			{ name: 'Skip and Report', value: 'skip', description: skipped },
			{ name: 'Send Anyway', value: 'send', description: 'Let the API decide' },
		],
		default: 'fail',
		description:
			'What to do with an ISIN that is not a valid ISIN (wrong length or characters, or a check digit that does not match: usually a typo). Stop With an Error is the safe choice; Skip and Report lets the rest go through.',
	};
}

const holdingsSourceProperty: INodeProperties = {
	displayName: 'Holdings Source',
	name: 'holdingsSource',
	builderHint: parameterBuilderHint(
		"Input Items when the previous node outputs one item per holding (e.g. sheet or CSV rows). JSON when the holdings come as one JSON array, e.g. from an expression or an earlier node's field.",
	),
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
	description:
		'Where the holdings come from. Usually Input Items: one holding per item, for example the rows of a sheet or CSV file read by the node before this one.',
};

const holdingsJsonProperty: INodeProperties = {
	displayName: 'Holdings (JSON)',
	name: 'holdingsJson',
	type: 'json',
	default:
		'[\n  {\n    "isin": "US0378331005",\n    "name": "Apple Inc.",\n    "instrument_type": "stock",\n    "currency": "USD",\n    "weight": 100,\n    "market_value": 1000000\n  }\n]',
	description:
		'A JSON array with one object per holding: isin, name, instrument_type (stock, bond, etf, mutual-fund, cash, ...), currency, weight (percent of the portfolio) and market_value. Also read: one holding as an object, an object wrapping the list ({"holdings": [...]}), JSON inside a markdown code fence, and JSON encoded as a JSON string. An expression may give the whole list.',
	displayOptions: { show: { holdingsSource: ['json'] } },
};

const cashRowsProperty: INodeProperties = {
	displayName: 'Cash and Rows Without ISIN',
	name: 'cashRows',
	type: 'options',
	options: [
		{
			name: 'Skip and Report',
			value: 'remove',
			description: 'Leave them out of the request and list them in the output (removed_rows)',
		},
		{
			name: 'Stop With an Error',
			value: 'error',
			description: 'Nothing is sent; the error names the item',
		},
	],
	default: 'remove',
	description:
		'This operation cannot take cash positions or rows without an ISIN. Skip and Report (the usual choice) leaves them out and lists them in the output, so nothing disappears unnoticed.',
};

const VERSION_1 = { '@version': [1] };
const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** Version 2: n8n's column mapper (the fields come from the node's `getHoldingColumns` resourceMapping method). */
const holdingColumnsProperty: INodeProperties = {
	displayName: 'Holding Columns',
	name: HOLDING_COLUMNS,
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'autoMapInputData', value: null },
	required: true,
	description:
		'Which input columns hold the holding data. Map Automatically finds columns such as ISIN, Name, Type, Currency, Weight % and Market Value (case and spaces ignored).',
	typeOptions: {
		resourceMapper: {
			resourceMapperMethod: HOLDING_COLUMNS_METHOD,
			mode: 'add',
			fieldWords: { singular: 'holding field', plural: 'holding fields' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
		},
	},
	displayOptions: { show: { ...FROM_VERSION_2, holdingsSource: ['items'] } },
};

/**
 * Version 2, never shown nor read by a run: the input's column headers. The editor resolves every parameter's
 * expression against the node's input before it asks getHoldingColumns for the mapper's fields, which then start
 * Map Each Column Manually from the columns Map Automatically finds.
 */
const holdingColumnsSeenProperty: INodeProperties = {
	displayName: 'Holding Columns Seen',
	name: HOLDING_COLUMNS_SEEN,
	type: 'hidden',
	default: '={{ Object.keys($json) }}',
	displayOptions: { show: { ...FROM_VERSION_2, holdingsSource: ['items'] } },
};

/** `a, b and c` */
function listed(names: string[]): string {
	return names.length <= 1
		? names.join('')
		: `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * What the route reads of each holding, what every row needs, and what may be missing (derived, or optional): said
 * before the run, from the route's holdings rule (routes.ts).
 */
export function holdingColumnsText(route: HoldingsRoute): string {
	const { required, fieldHints = {}, derivedWhenMissing = {} } = route.holdings;
	const title = (field: string) => HOLDING_FIELDS[field as HoldingKey].title;
	const needed = required.filter((field) => derivedWhenMissing[field] === undefined);
	return [
		`Reads ${listed(HOLDING_KEYS.map(title))} of each holding; every row needs ${listed(needed.map(title))}.`,
		...Object.entries(derivedWhenMissing).map(
			([field, how]) => `${title(field)} may be missing: ${how}.`,
		),
		...Object.entries(fieldHints).map(([field, hint]) =>
			/^Optional here:/.test(hint)
				? `${title(field)} is o${hint.slice(1)}`
				: `${title(field)}: ${hint}`,
		),
	].join(' ');
}

/**
 * Version 2, above the column mapper: what the route reads, and how Map Automatically finds it. n8n's own note under
 * the mapper's mode ("make sure the incoming data fields are named the same…") cannot be hidden while Map
 * Automatically is offered (it shows whenever the mode is Map Automatically, 2.20 and 2.41), so this one says it is
 * not needed here.
 */
export function holdingColumnsNoticeText(route: HoldingsRoute): string {
	return `${holdingColumnsText(route)} Map Automatically finds the columns under their usual headers (ISIN, Name, Type, Currency, Weight %, Market Value) in any case and spacing: the exact names n8n's note below asks for are not needed. For other headers, choose Map Each Column Manually: it starts from the columns found.`;
}

/** The notices of the holdings: one shows at a time (version 2 with Input Items: with the mapper's words). */
function holdingColumnsNotices(route: HoldingsRoute): INodeProperties[] {
	const notice = (name: string, displayName: string, show: INodeProperties['displayOptions']) => ({
		displayName,
		name,
		type: 'notice' as const,
		default: '',
		displayOptions: show,
	});
	return [
		notice('holdingsNotice', holdingColumnsText(route), { show: VERSION_1 }),
		notice('holdingsJsonNotice', holdingColumnsText(route), {
			show: { ...FROM_VERSION_2, holdingsSource: ['json'] },
		}),
		notice('holdingColumnsNotice', holdingColumnsNoticeText(route), {
			show: { ...FROM_VERSION_2, holdingsSource: ['items'] },
		}),
	];
}

/** Invalid ISINs of the holdings operations: a skipped row is reported, as the removed cash rows are. */
const holdingsInvalidIsins = invalidIsinsProperty('Leave the row out and list it in the output');

/**
 * Where holdings come from, how their columns are named, and (version 1: by the route's holdings rule) what to do
 * with rows it cannot take; version 2 has those under Options (holdingsOptions), as the Instruments node has.
 */
export function holdingsProperties(route: HoldingsRoute): INodeProperties[] {
	const version1 = [
		holdingFieldsProperty(route.holdings.fieldHints),
		holdingsInvalidIsins,
		...(removesRows(route.holdings) ? [cashRowsProperty] : []),
	].map((property) => ({ ...property, displayOptions: { show: VERSION_1 } }));
	return [
		holdingsSourceProperty,
		holdingsJsonProperty,
		...version1,
		...holdingColumnsNotices(route),
		holdingColumnsSeenProperty,
		holdingColumnsProperty,
	];
}

/** The Options collection of the holdings operations: version 1 has Max Requests per Run only; version 2 reads as the
 * Instruments node's (the row policies, and the throttle wait the transport reads for every node). */
export function holdingsOptions(route: HoldingsRoute): INodeProperties[] {
	return [
		{
			...requestOptions,
			options: [maxRequestsOption, numberFormatOption, weightsAreOption],
			displayOptions: { show: VERSION_1 },
		},
		{
			...requestOptions,
			options: [
				...(removesRows(route.holdings) ? [cashRowsProperty] : []),
				holdingsInvalidIsins,
				maxRequestsOption,
				maxThrottleWaitOption,
				numberFormatOption,
				weightsAreOption,
			],
			displayOptions: { show: FROM_VERSION_2 },
		},
	];
}

/** Group By, shown for the Input Items source; `what` names what the groups become, e.g. "portfolios". */
export function groupByProperty(what: string): INodeProperties {
	return {
		displayName: 'Group By',
		name: 'groupBy',
		builderHint: parameterBuilderHint(
			'Leave empty when all input items are one portfolio. When they hold several portfolios, name the column that tells them apart (e.g. portfolio_id): one request and one result per value.',
		),
		type: 'string',
		default: '',
		placeholder: 'e.g. portfolio_id',
		description: `Input field(s), comma-separated, whose values split the input into several ${what}: one request each. Parameters with expressions are read from the first item of each group. Leave empty to treat all items as one.`,
		hint: 'Leave empty when all items are one portfolio; name a column (e.g. portfolio_id) to send one request per value of it',
		displayOptions: { show: { holdingsSource: ['items'] } },
	};
}

/** How the sheet writes numbers; Detect decides it per column from the column's values. */
export const numberFormatOption: INodeProperties = {
	displayName: 'Number Format',
	name: 'numberFormat',
	type: 'options',
	options: [
		{
			name: 'Detect From Each Column',
			value: 'detect',
			description:
				'A value such as 1.234,50 or 12.5 settles the column; a value that still reads two ways (1.234) is refused',
		},
		{ name: '1,234.56', value: 'dot', description: 'Comma groups thousands, dot for decimals' },
		{ name: '1.234,56', value: 'comma', description: 'Dot groups thousands, comma for decimals' },
		{ name: '1 234,56', value: 'space', description: 'Space groups thousands, comma for decimals' },
	],
	default: 'detect',
	description:
		'How the sheet writes numbers given as text (numbers given as numbers are taken as they are). With Detect, a text such as "1.234" that reads as 1234 or as 1.234 takes the format of the other values of its column, or is refused.',
};

/** Whether weights are percentages or fractions of 1; Detect decides it from a portfolio's weights. */
export const weightsAreOption: INodeProperties = {
	displayName: 'Weights Are',
	name: 'weightsAre',
	type: 'options',
	options: [
		{
			name: 'Detect',
			value: 'detect',
			description:
				'Fractions when all weights are at most 1 and add up to 1; percent when any is above 1 or written with %; otherwise refused',
		},
		{ name: 'Percent 0–100', value: 'percent', description: '12.5 means 12.5 %' },
		{
			name: 'Fractions 0–1',
			value: 'fraction',
			description: '0.125 means 12.5 % (what an Excel cell formatted as a percentage holds)',
		},
	],
	default: 'detect',
	description:
		'How the weights are written. The API takes percentages; fractions of 1 are converted, and the output says so.',
};

/** For the node's Options collection: read by the transport for every request of the node. */
export const maxThrottleWaitOption: INodeProperties = {
	displayName: 'Max Wait When Throttled (Seconds)',
	name: 'maxThrottleWait',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 120,
	description:
		'When the API says "too many requests" (or is briefly unavailable), the node waits and tries again, up to this long in all per request. 0 fails at once. A used-up monthly quota is never retried.',
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

/** An Options collection holding only Max Requests per Run, for the group and per-item operations. */
export const requestOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [maxRequestsOption],
};

/** Batch Size and Concurrency, for the Options collection of the instrument lookups. */
export const batchingOptions: INodeProperties[] = [
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_INSTRUMENTS_PER_REQUEST },
		default: MAX_INSTRUMENTS_PER_REQUEST,
		description:
			'Distinct ISINs per request (the API takes at most 10,000). Larger batches use fewer of the monthly requests.',
	},
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 8 },
		default: 1,
		description:
			'Requests sent at the same time when there is more than one batch. 1 is the safe choice; more finishes sooner but is more likely to be throttled by the API.',
	},
];

/**
 * The methodology picker shared by Sustainable Investments and Reports: a list loaded from the API (the record
 * shape is not documented, so the loader reads any reasonable one), or an ID typed in.
 */
export function methodologyProperty(required: boolean, description: string): INodeProperties {
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
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: 'A methodology ID is a whole number, for example 1',
						},
					},
				],
			},
		],
	};
}

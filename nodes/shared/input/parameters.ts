import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameterResourceLocator,
	INodeExecutionData,
} from 'n8n-workflow';

import {
	describeDateProblem,
	noteSnapshotDate,
	readSnapshotDate,
	twoQuartersFix,
	workflowTimeZone,
} from './dates';
import type { SnapshotDate } from './dates';
import { inputError } from '../api/errors';
import { addRunNote, countLeftOut } from '../base/hints';
import {
	AUTO_MAPPING_WORDS,
	JSON_ENTRY_WORDS,
	readManuallyMappedRows,
	usesManualMapping,
} from './holdingColumns';
import { FieldResolver, normalizeInstrumentType } from './holdingFields';
import { holdingRowsFromItems, holdingRowsFromJson } from './holdingRows';
import {
	INSTRUMENT_TYPE_WHEN_NONE,
	INSTRUMENT_TYPE_WHEN_NONE_PARAMETER,
	holdingNumberColumns,
	readHoldings,
} from './holdings';
import { INSTRUMENT_TYPES } from '../base/constants';
import type { InstrumentType } from '../base/constants';
import type { NumberColumns, WeightScale } from './holdingNumbers';
import type { HoldingRow } from './holdingRows';
import type {
	CashRowPolicy,
	HoldingKey,
	HoldingsReadOptions,
	InvalidIsinPolicy,
	RemovedRow,
	SourcedHolding,
} from './holdings';
import { methodologyIdForRequest } from '../api/methodologies';
import { describeNumberProblem, readNumber } from './numbers';
import type { NumberFormat } from './numbers';
import { removesRows } from '../api/routes';
import type { HoldingsRoute } from '../api/routes';
import { isBlank, kindOf, scalarText, showValue } from '../base/values';

export interface HoldingsInput {
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	/** What the user should know about how the holdings were read (also given as execution hints). */
	notes: string[];
}

/** The number columns of all input items, decided once per run and options (groups read them in turn). */
const itemColumns = new WeakMap<INodeExecutionData[], Map<string, NumberColumns>>();

/**
 * Reads the holdings of a group of items (or of the JSON parameter) with the node's holdings parameters. `settle`
 * may change what was read (e.g. the report's weights) before its notes are said.
 */
export function readHoldingsParameters(
	this: IExecuteFunctions,
	route: HoldingsRoute,
	items: INodeExecutionData[],
	itemIndices: number[],
	settle?: (read: HoldingsInput) => HoldingsInput,
): HoldingsInput {
	const node = this.getNode();
	const first = itemIndices[0] ?? 0;
	const fromJson = this.getNodeParameter('holdingsSource', first, 'items') === 'json';
	const jsonRows = () =>
		holdingRowsFromJson(node, this.getNodeParameter('holdingsJson', first), first);
	const itemRows = () => holdingRowsFromItems(items, itemIndices);

	// Version 1 has the row settings at the top level and Holding Fields; version 2 has them under Options and the
	// column mapper for input items.
	const version1 = node.typeVersion < 2;
	const options = version1 ? {} : (this.getNodeParameter('options', first, {}) as IDataObject);
	const setting = <T>(name: string, fallback: T): T =>
		((version1 ? this.getNodeParameter(name, first, fallback) : options[name]) as T | undefined) ??
		fallback;

	let read: Pick<HoldingsReadOptions, 'fieldNames' | 'mappingWords'> & { rows: HoldingRow[] };
	if (version1) {
		const fieldNames = setting<Partial<Record<HoldingKey, string>>>('holdingFields', {});
		read = { rows: fromJson ? jsonRows() : itemRows(), fieldNames };
	} else if (fromJson) read = { rows: jsonRows(), mappingWords: JSON_ENTRY_WORDS };
	else if (usesManualMapping.call(this, first))
		read = readManuallyMappedRows.call(this, items, itemIndices);
	else read = { rows: itemRows(), mappingWords: AUTO_MAPPING_WORDS };

	// Number Format and Weights Are are under Options in both versions.
	const numberOptions = version1
		? (this.getNodeParameter('options', first, {}) as IDataObject)
		: options;
	const numberFormat = (numberOptions.numberFormat as NumberFormat | undefined) ?? 'detect';
	const weightsAre = (numberOptions.weightsAre as WeightScale | undefined) ?? 'detect';
	// Input items mapped by column name: every item of the run shows how the sheet writes its numbers, not only
	// the items of this group.
	const mappedByName = !fromJson && (version1 || read.mappingWords === AUTO_MAPPING_WORDS);
	const columns =
		mappedByName && read.rows.length < items.length
			? columnsOfAllItems(items, read.fieldNames, numberFormat)
			: undefined;

	const { rows, ...naming } = read;
	const given = readHoldings(node, rows, {
		route,
		...naming,
		invalidIsin: setting<InvalidIsinPolicy>('invalidIsins', 'fail'),
		cashRows: removesRows(route.holdings)
			? setting<CashRowPolicy>('cashRows', 'remove')
			: undefined,
		numberFormat,
		weightsAre,
		columns,
		instrumentTypeWhenNone: route.holdings.required.includes('instrument_type')
			? readInstrumentTypeWhenNone.call(this, first)
			: undefined,
	});
	const result = settle ? settle(given) : given;
	for (const note of result.notes) noteAboutInput.call(this, note);
	countLeftOut(
		this,
		result.removed.map((row) => row.reason),
		'row',
		'removed_rows',
	);
	return result;
}

/**
 * The Instrument Type When the Sheet Has None parameter, on the nodes that have it: the type to send, or 'refuse';
 * undefined on a node without it. An expression may give any common spelling (Stock, Mutual Fund).
 */
function readInstrumentTypeWhenNone(
	this: IExecuteFunctions,
	itemIndex: number,
): InstrumentType | 'refuse' | undefined {
	const value = this.getNodeParameter(
		INSTRUMENT_TYPE_WHEN_NONE_PARAMETER,
		itemIndex,
		'',
	) as unknown;
	if (isBlank(value)) return undefined;
	if (value === 'refuse') return value;
	const type = normalizeInstrumentType(value);
	if (type && type !== 'cash') return type;
	throw inputError(
		this.getNode(),
		itemIndex,
		`${INSTRUMENT_TYPE_WHEN_NONE} "${showValue(value)}" is not an instrument type the API takes here`,
		`Use one of: ${INSTRUMENT_TYPES.filter((known) => known !== 'cash').join(', ')}, or refuse.`,
	);
}

function columnsOfAllItems(
	items: INodeExecutionData[],
	fieldNames: Partial<Record<HoldingKey, string>> | undefined,
	numberFormat: NumberFormat,
): NumberColumns {
	const key = JSON.stringify([fieldNames ?? {}, numberFormat]);
	let byKey = itemColumns.get(items);
	if (!byKey) itemColumns.set(items, (byKey = new Map()));
	let columns = byKey.get(key);
	if (!columns) {
		columns = holdingNumberColumns(
			holdingRowsFromItems(items),
			new FieldResolver(fieldNames),
			numberFormat,
		);
		byKey.set(key, columns);
	}
	return columns;
}

/** What the run should know about how its input was read: a note above the output and in the log. */
export function noteAboutInput(this: IExecuteFunctions, note: string): void {
	// Each note once (they are per column or portfolio, never per item); a long one is cut, whole in input_notes.
	addRunNote(this, note);
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
	const read = readNumber(value);
	if ('problem' in read || read.currency) {
		const twoWays = 'problem' in read && read.problem === 'two-readings';
		throw inputError(
			node,
			itemIndex,
			twoWays
				? `${label} "${showValue(value)}" ${describeNumberProblem(read)}`
				: `${label} must be a number, got ${kindOf(value)}: ${showValue(value)}`,
			twoWays
				? `Write ${label} without a thousands separator and with a dot for decimals, for example 1000 or 1.5.`
				: `Give ${label} as a number${range.min !== undefined && range.max !== undefined ? ` from ${range.min} to ${range.max}` : ''}, or check the expression that sets it.`,
		);
	}
	let number = range.integer ? Math.floor(read.value) : read.value;
	if (range.min !== undefined) number = Math.max(range.min, number);
	if (range.max !== undefined) number = Math.min(range.max, number);
	return number;
}

/** The chosen methodology's ID (a number, as the API takes it, whichever mode gave it), or undefined when none is chosen. */
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
 * The Snapshot Date parameter at an item, checked as the API checks it (unreadable dates and future years are refused). `where`
 * names the item (and group) in the message. Empty is refused, unless `emptyDefault` gives the date to use (it is given
 * the workflow's time zone). Dates, Luxon DateTimes and texts with a UTC offset are moments, read in UTC, the
 * workflow's and the server's time zone (see readSnapshotDate): one that falls in two quarters is refused unless it
 * is exactly midnight in one of them; when the date used is not the date they show, a note says so above the output
 * (and `note` is set for the output item).
 */
export function readSnapshotDateParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	options: {
		where?: string;
		emptyDefault?: (timeZone: string) => string;
		invalidFix?: string;
	} = {},
): SnapshotDate {
	const { where, emptyDefault, invalidFix = 'Correct the date.' } = options;
	const value = this.getNodeParameter('snapshotDate', itemIndex, '') as unknown;
	const timeZone = workflowTimeZone(this);
	const fail = (message: string, fix: string) =>
		inputError(this.getNode(), itemIndex, message, fix, { where });
	if (isBlank(value)) {
		if (emptyDefault) {
			const date = emptyDefault(timeZone);
			const read = readSnapshotDate(date, new Date(), timeZone);
			return 'problem' in read ? { date, quarterEnd: date } : read;
		}
		throw fail(
			'Snapshot Date is empty',
			'Pick the date of the holdings (it is stored at the end of its quarter), or map a date field, e.g. {{ $json.date }}. For holdings as of today use {{ $today }}.',
		);
	}
	const read = readSnapshotDate(value, new Date(), timeZone);
	if ('problem' in read)
		throw fail(
			`Snapshot Date ${describeDateProblem(read, value)}`,
			twoQuartersFix(read) ?? invalidFix,
		);
	if (read.note) noteSnapshotDate(this, read.note, read.hint);
	return read;
}

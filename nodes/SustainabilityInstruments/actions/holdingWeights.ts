/**
 * How the Output modes that weigh holdings (Portfolio Summary, PAI Statement) read each row: its ISIN, its market value
 * (or weight) in the column's number format, and why a row is left out (cash, no ISIN, no or a negative value).
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { inputItemOf, rowName } from './holdingsJsonInput';
import { inputError } from '../../shared/api/errors';
import {
	FieldResolver,
	HOLDING_FIELDS,
	holdingFieldParameter,
	normalizeInstrumentType,
} from '../../shared/input/holdingFields';
import type { HoldingKey } from '../../shared/api/holdingKey';
import { removedRow } from '../../shared/input/holdings';
import type { RemovedRow } from '../../shared/input/holdings';
import { normalizeIsin } from '../../shared/input/isin';
import { countSettled, readHoldingNumber } from '../../shared/input/holdingNumbers';
import type { SettledByColumn } from '../../shared/input/holdingNumbers';
import { columnFormat } from '../../shared/input/numbers';
import type { ColumnFormat, NumberFormat } from '../../shared/input/numbers';
import { readTextParameter } from '../../shared/input/parameters';
import { isBlank, scalarText } from '../../shared/base/values';
import type { ItemIsin } from './lookupTypes';

export type WeightBasis = 'marketValue' | 'weight';

/** A holding row the summary weights: its input item, ISIN and market value (or weight). */
export interface WeightedRow {
	item: number;
	isin: string;
	weight: number;
	/** How the row names itself in not_checked_rows, should the answer leave its ISIN out. */
	name: string | null;
	given: unknown;
}

/** A row whose ISIN was given but not sent (invalid and skipped) and that has a market value (or weight). */
export interface UnsentRow {
	row: RemovedRow;
	weight: number;
}

export const BASIS_LABEL: Record<WeightBasis, string> = {
	marketValue: 'market value',
	weight: 'weight',
};
/** How a Portfolio Summary weighs rows: by market value or weight, from which column, read in which format. */
export interface Weighing {
	basis: WeightBasis;
	key: 'weight' | 'market_value';
	label: string;
	resolver: FieldResolver;
	column: ColumnFormat;
	settled?: SettledByColumn;
	/**
	 * Cash rows and rows without an ISIN keep their value (as an UnsentRow) instead of being left out: the PAI
	 * statement's denominator is the value of all investments.
	 */
	valueOfLeftOut?: boolean;
	/** The input item a row comes from, as removed_rows names it (a holding of Holdings (JSON): the item of its list). */
	inputItemOf: (index: number) => number;
}

/**
 * Weighing by `basis` from the column its field parameter names (Market Value Field or Weight Field; empty: found by
 * the usual headers), the column's number format decided from all the items. `moreFields` names more holding fields
 * the resolver finds (e.g. the currency column).
 */
export function holdingWeighing(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	basis: WeightBasis,
	moreFields: Partial<Record<HoldingKey, string>> = {},
): Weighing {
	const key = basis === 'weight' ? 'weight' : 'market_value';
	const fieldParameter = basis === 'weight' ? 'weightField' : 'marketValueField';
	const chosenField = readTextParameter.call(this, fieldParameter, 0, holdingFieldParameter(key), {
		fallback: '',
	});
	const isinField =
		readTextParameter.call(this, 'isinField', 0, 'ISIN Field', { fallback: 'isin' }) || 'isin';
	// The ISIN Field is read by the lookup; here only to show an ISIN that was not sent in removed_rows.
	const resolver = new FieldResolver({ ...moreFields, [key]: chosenField, isin: isinField });
	const valueOfItem = (json: IDataObject) => {
		const field = resolver.resolve(json)[key];
		return field === undefined ? undefined : json[field];
	};
	const column = columnFormat(
		items.map((item, index) => ({ value: valueOfItem(item.json), where: rowName(items, index) })),
		this.getNodeParameter('numberFormat', 0, 'detect') as NumberFormat,
	);
	return {
		basis,
		key,
		label: BASIS_LABEL[basis],
		resolver,
		column,
		inputItemOf: (index) => inputItemOf(items, index),
	};
}

/** A row left out (cash, no ISIN, no or a negative value): what the output says of it, and its ISIN as not sent. */
export interface LeftOutRow {
	removed: RemovedRow;
	unsent: ItemIsin;
}

/** With `valueOfLeftOut`: a cash row or a row without an ISIN that has a value, and its ISIN as not sent. */
export interface KeptRow extends UnsentRow {
	unsent: ItemIsin;
}

/**
 * The row's ISIN and weight; or, for a row whose ISIN is given but not sent (invalid and skipped) and that has a
 * value, that value (the row stays in the portfolio's total, not checked); or why it is left out (cash, no or a
 * negative value) with what the lookup then knows of its ISIN (not sent for it). A value that cannot be read is an
 * error, except on a row whose ISIN is not sent anyway (it is then left out with the ISIN's reason). With
 * `valueOfLeftOut`, a cash row or a row without an ISIN that has a value comes back with it as an UnsentRow.
 */
export function weighItem(
	node: INode,
	json: IDataObject,
	index: number,
	entry: ItemIsin,
	weighing: Weighing,
): WeightedRow | UnsentRow | KeptRow | LeftOutRow {
	const { key, label, resolver, column } = weighing;
	const fields = resolver.resolve(json);
	const valueOf = (field: keyof typeof HOLDING_FIELDS) =>
		fields[field] === undefined ? undefined : json[fields[field]!];
	const name = scalarText(valueOf('name'))?.trim() || null;
	const rawIsin = valueOf('isin');
	const normalised =
		entry.isin ??
		entry.normalised ??
		(typeof rawIsin === 'string' || typeof rawIsin === 'number'
			? normalizeIsin(rawIsin) || null
			: null);
	const leftOut = (reason: string) => ({
		removed: removedRow(
			weighing.inputItemOf(index),
			name,
			entry.given !== undefined ? entry.given : rawIsin,
			normalised,
			reason,
		),
		unsent: { problem: reason, given: entry.given, normalised: normalised ?? undefined },
	});

	const raw = valueOf(key);
	/** The row's value; one that cannot be read is an error naming the item. */
	const readValue = (): number => {
		const read = readHoldingNumber(raw, key, column, fields[key]);
		if ('message' in read)
			throw inputError(
				node,
				index,
				read.message,
				`${read.fix} Or set ${holdingFieldParameter(key)} to the column that holds it.`,
			);
		if (read.byColumn)
			weighing.settled = countSettled(weighing.settled, raw, `Item ${index}`, read.value);
		return read.value;
	};
	const keepValue = (reason: string) => {
		const left = leftOut(reason);
		if (!weighing.valueOfLeftOut || isBlank(raw)) return left;
		const value = readValue();
		return value > 0 ? { row: left.removed, unsent: left.unsent, weight: value } : left;
	};
	if (normalizeInstrumentType(valueOf('instrument_type')) === 'cash') return keepValue('cash row');
	if (!entry.isin && entry.normalised === undefined) return keepValue(entry.problem ?? 'no ISIN');
	if (!entry.isin) {
		// An ISIN given but invalid (skipped): the holding is in the sheet, so its value stays in the total.
		const reason = entry.problem ?? 'invalid ISIN';
		const read = isBlank(raw) ? undefined : readHoldingNumber(raw, key, column, fields[key]);
		if (!read || 'message' in read || !(read.value > 0)) return leftOut(reason);
		if (read.byColumn)
			weighing.settled = countSettled(weighing.settled, raw, `Item ${index}`, read.value);
		const { removed } = leftOut(`not sent: ${reason}`);
		return { row: removed, weight: read.value };
	}
	if (isBlank(raw)) {
		return leftOut(
			fields[key] === undefined
				? `no ${label} (looked for a field named ${resolver.lookedFor(key)})`
				: `no ${label} in field "${fields[key]}"`,
		);
	}
	const value = readValue();
	if (value < 0)
		return leftOut(`negative ${label} (short position): a summary weights long positions only`);
	return {
		item: index,
		isin: entry.isin,
		weight: value,
		name,
		given: entry.given !== undefined ? entry.given : rawIsin,
	};
}

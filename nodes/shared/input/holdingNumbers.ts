import {
	NUMBER_FORMAT_NAMES,
	columnFormat,
	describeNumberProblem,
	readInColumn,
	readNumber,
	showNumber,
} from './numbers';
import type { ColumnFormat, NumberFormat, NumberReading, PlacedValue } from './numbers';
import { showValue } from '../base/values';

/**
 * The numbers of holdings (weights and market values) read as the sheet means them: each column's number format
 * decided from all its values, and the weights' scale (percent or fractions of 1) from all the weights of a
 * portfolio. Nothing that reads two ways is guessed: it is refused, or settled by the column, and then said.
 */

/** The Weights Are option. */
export type WeightScale = 'detect' | 'percent' | 'fraction';

export type NumberField = 'weight' | 'market_value';

export const NUMBER_FIELD_LABELS: Record<NumberField, string> = {
	weight: 'weight',
	market_value: 'market value',
};

/** The number format of the weight and the market value columns. */
export type NumberColumns = Record<NumberField, ColumnFormat>;

/** A problem with a value, as the message and fix of an input error. */
export interface NumberProblem {
	message: string;
	fix: string;
}

const SET_NUMBER_FORMAT = `Set Number Format (under Options) to how the sheet writes numbers: ${NUMBER_FORMAT_NAMES.dot} or ${NUMBER_FORMAT_NAMES.comma}.`;
const SET_WEIGHTS_ARE = 'Set Weights Are (under Options) to Percent 0–100 or Fractions 0–1.';

/** A weight or market value as given, with its reading under `detect` (see detectHoldingNumber). */
export interface GivenNumber {
	value: unknown;
	detected?: NumberReading;
}

/** A value's reading under `detect`, as readHoldingNumber and numberColumns take it (read once, used twice). */
export function detectHoldingNumber(value: unknown, field: NumberField): NumberReading {
	return readNumber(value, 'detect', { percent: field === 'weight' });
}

/** Decides the format of both number columns from every row's values. */
export function numberColumns(
	rows: Iterable<{ values: Partial<Record<NumberField, GivenNumber>>; where: string }>,
	option: NumberFormat,
): NumberColumns {
	const list = [...rows];
	const column = (field: NumberField) =>
		columnFormat(
			list.map((row) => ({
				value: row.values[field]?.value,
				detected: row.values[field]?.detected,
				where: row.where,
			})),
			option,
		);
	return { weight: column('weight'), market_value: column('market_value') };
}

export type HoldingNumber = Extract<NumberReading, { value: number }> & { byColumn?: boolean };

/** Reads a weight or a market value in its column, or says what is wrong with it and how to fix it. */
export function readHoldingNumber(
	value: unknown,
	field: NumberField,
	column: ColumnFormat,
	/** The input field it was read from, when messages should name it. */
	inField?: string,
	detected?: NumberReading,
): HoldingNumber | NumberProblem {
	const label = NUMBER_FIELD_LABELS[field];
	const read = readInColumn(value, column, { percent: field === 'weight' }, detected);
	const shown = `${typeof value === 'string' ? `"${showValue(value, 40)}"` : showValue(value, 40)}${inField === undefined ? '' : ` in field "${inField}"`}`;
	if ('problem' in read) {
		const said = `${label} ${shown} ${describeNumberProblem(read)}`;
		switch (read.problem) {
			case 'two-readings':
				return {
					message: column.mixed
						? `${said}, and the column does not tell which: it holds values written both ways (${placed(column.mixed.dot)}, ${placed(column.mixed.comma)})`
						: `${said}, and no other value of the column tells which`,
					fix: SET_NUMBER_FORMAT,
				};
			case 'not-in-format':
				return {
					message: said,
					fix: 'Correct the value, or set Number Format (under Options) to the way the sheet writes numbers, or to Detect.',
				};
			case 'percent':
				return {
					message: said,
					fix: 'Point the market value at the column of amounts, not of percentages.',
				};
			default:
				return {
					message: said,
					fix:
						field === 'weight'
							? 'Give the weight as a number, for example 12.5, "12.5%" or "12,5".'
							: 'Give the market value as a number, for example 1234.5, "1,234.50", "1.234,50", "(1,234)" or "€1,234".',
				};
		}
	}
	if (field === 'weight' && read.currency) {
		return {
			message: `weight ${shown} carries a currency (${read.currency}); a weight is a share of the portfolio`,
			fix: 'Give the weight as a number from 0 to 100, or point the weight at the column of weights.',
		};
	}
	return read;
}

function placed(value: PlacedValue): string {
	return `"${showValue(value.value, 30)}" in ${value.where}`;
}

/** Values that read two ways and were read by their column's format: the first one, and how many. */
export interface SettledByColumn {
	first: PlacedValue & { read: number };
	count: number;
}

/** Counts one more value settled by its column (the tally starts at the first one). */
export function countSettled(
	tally: SettledByColumn | undefined,
	given: unknown,
	where: string,
	read: number,
): SettledByColumn {
	if (!tally) return { first: { value: String(given), where, read }, count: 1 };
	tally.count++;
	return tally;
}

/** The note for values that read two ways and were settled by their column. */
export function settledByColumnNote(
	field: NumberField,
	{ first, count }: SettledByColumn,
	column: ColumnFormat,
): string {
	const label = NUMBER_FIELD_LABELS[field];
	const more = count > 1 ? ` and ${count - 1} more` : '';
	return `The ${label} "${showValue(first.value, 30)}" in ${first.where}${more} read${count > 1 ? '' : 's'} two ways; read as ${showNumber(first.read)}, because the column writes numbers ${NUMBER_FORMAT_NAMES[column.format!]} (${placed(column.settledBy!)}). Set Number Format under Options to say so.`;
}

/** A weight as read, with where it is, for the scale decision. */
export interface ReadWeight {
	value: number;
	/** Written with a percent sign: a percentage whatever the scale. */
	percent: boolean;
	/** Where it is, as messages name it, and its item. */
	where: string;
	itemIndex: number;
}

export type WeightScaleDecision =
	| { factor: 1 | 100; note?: string }
	| (NumberProblem & { at: ReadWeight });

/**
 * Whether the weights of a portfolio are percentages or fractions of 1 (0.12 for 12 %, as an Excel cell formatted
 * as a percentage holds it). Detect: a weight above 1 or written with % means percent; all at most 1 and adding up
 * to 1 ± 0.01 means fractions; all at most 1 and adding up to anything else (but 0 or 100) reads two ways.
 */
export function decideWeightScale(weights: ReadWeight[], option: WeightScale): WeightScaleDecision {
	if (option === 'percent') return { factor: 1 };
	const plain = weights.filter((weight) => !weight.percent);
	if (option === 'fraction') {
		const above = plain.find((weight) => weight.value > 1);
		if (above) {
			return {
				at: above,
				message: `weight ${showNumber(above.value)} is above 1, but Weights Are is set to Fractions 0–1`,
				fix: 'Set Weights Are (under Options) to Percent 0–100, or correct the weight.',
			};
		}
		return { factor: 100 };
	}
	// A negative weight is refused with its row.
	if (
		plain.length === 0 ||
		plain.length < weights.length ||
		plain.some((weight) => weight.value > 1 || weight.value < 0)
	)
		return { factor: 1 };
	const total = plain.reduce((sum, weight) => sum + weight.value, 0);
	if (total === 0 || Math.abs(total - 100) <= 1) return { factor: 1 };
	const first = plain.find((weight) => weight.value > 0) ?? plain[0];
	if (Math.abs(total - 1) <= 0.01) {
		return {
			factor: 100,
			note: `The weights are all at most 1 and add up to ${showNumber(total)}, so they were read as fractions of 1 and sent as percentages (${first.where}: ${showNumber(first.value)} sent as ${showNumber(first.value * 100)}). Set Weights Are under Options to say so.`,
		};
	}
	return {
		at: first,
		message: `the weights read two ways, as fractions or as percentages: all are at most 1 and they add up to ${showNumber(total)}, so ${showNumber(first.value)} may be a fraction (${showNumber(first.value * 100)} %) or a percentage (${showNumber(first.value)} %)`,
		fix: SET_WEIGHTS_ARE,
	};
}

/** A weight in percent after the scale decision (no float noise: 0.12 × 100 is 12). */
export function scaledWeight(weight: { value: number; percent: boolean }, factor: 1 | 100): number {
	return weight.percent || factor === 1
		? weight.value
		: Number((weight.value * 100).toPrecision(12));
}

/** The note when a portfolio's weights do not add up to 100 % (± 1). */
export function weightTotalNote(totalAll: number, removedShare: number): string | undefined {
	if (Math.abs(totalAll - 100) <= 1) return undefined;
	const removed =
		removedShare > 0
			? ` (${showNumber(removedShare)} % of it on rows that were left out and not sent)`
			: '';
	return `The weights of this portfolio add up to ${showNumber(totalAll)} %${removed}, not 100 %; they were sent as given. Check the weight column, and Weights Are under Options if the weights are fractions of 1.`;
}

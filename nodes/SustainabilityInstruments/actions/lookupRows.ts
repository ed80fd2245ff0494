import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { copyJson, errorJson } from '../../shared/run/execution';
import { IDENTITY_COLUMNS, uniformRows } from '../../shared/input/rows';
import { hasOwn, setOwn } from '../../shared/base/values';
import { NO_DATA_REASON, notInAnswerReason } from '../../shared/api/answers';
import { sentenceStart } from '../../shared/api/errors';
import type { ItemIsin, LookupOutcome } from './lookupTypes';

/** The ISIN as the user gave it, and as cleaned (the one sent, or the one an invalid ISIN cleaned to). */
function identityOf(entry: ItemIsin) {
	const normalised = entry.isin ?? entry.normalised ?? null;
	return { given: entry.given !== undefined ? entry.given : normalised, normalised };
}

/**
 * Each row says first what the user gave (`isin` as written; `isin_normalised` beside it where cleaning changed
 * it for any row), whether it was found and why not, then the values.
 */
function rowShaper(
	perItem: ItemIsin[],
	results: Map<string, IDataObject>,
	notInAnswer: ReadonlySet<string>,
) {
	const showNormalised = perItem.some((entry) => {
		const { given, normalised } = identityOf(entry);
		return normalised !== null && given !== normalised;
	});
	const rowFor = (
		entry: ItemIsin,
		values: IDataObject,
		found: boolean | null,
		reason = entry.problem ?? null,
	): IDataObject => {
		const { given, normalised } = identityOf(entry);
		const row: IDataObject = { isin: given };
		if (showNormalised) row.isin_normalised = normalised;
		row.found = found;
		// Not found always says why: the API's answer had no data for it.
		row.reason = found === false && !reason ? NO_DATA_REASON : reason;
		for (const key in values)
			if (key !== 'isin' && key !== 'found' && key !== 'reason' && Object.hasOwn(values, key))
				setOwn(row, key, values[key]);
		return row;
	};
	const resultFor = (entry: ItemIsin): IDataObject => {
		const result = entry.isin ? results.get(entry.isin) : undefined;
		if (result) return rowFor(entry, result, result.found === true);
		// Left out of a readable answer: not checked (found unknown), never "no data".
		if (entry.isin && notInAnswer.has(entry.isin))
			return rowFor(entry, {}, null, notInAnswerReason('ISIN'));
		return rowFor(entry, {}, false);
	};
	return { rowFor, resultFor };
}

/** Output > One Item per Instrument: one row per distinct ISIN, paired with every item that has it. */
export function perInstrumentItems<TEntry>(outcome: LookupOutcome<TEntry>): INodeExecutionData[] {
	const { perItem, source, results, failed, notInAnswer } = outcome;
	const { rowFor, resultFor } = rowShaper(perItem, results, notInAnswer);
	// Items without a usable ISIN each stay a row of their own, so nothing is dropped.
	const rows = new Map<string, { entry: ItemIsin; items: Set<number> }>();
	perItem.forEach((entry, index) => {
		const key = entry.isin ?? `#${index}`;
		const itemIndex = source === 'list' ? 0 : index;
		const row = rows.get(key);
		if (row) row.items.add(itemIndex);
		else rows.set(key, { entry, items: new Set([itemIndex]) });
	});
	const output = [...rows.values()];
	// uniformRows gives every row the same columns.
	const json = uniformRows(
		output.map(({ entry }) =>
			entry.isin && failed.has(entry.isin)
				? rowFor(entry, errorJson(failed.get(entry.isin)!), null)
				: resultFor(entry),
		),
		IDENTITY_COLUMNS,
		{ rowsAreFresh: true },
	);
	return output.map(({ items: paired }, index) => ({
		json: json[index],
		pairedItem: [...paired].map((item) => ({ item })),
	}));
}

/**
 * Output > Add to Input Items: every input item once, in order, with its result under the operation's key (or as
 * prefixed columns with Simplify), or the error of its failed batch.
 */
export function addedToInputItems<TEntry>(
	outcome: LookupOutcome<TEntry>,
	invalidPolicy: string,
	/** Where Invalid ISINs is on this node's form. */
	invalidIsinsSetting: string,
): INodeExecutionData[] {
	const { items, perItem, results, failed, notInAnswer, spec, simplify } = outcome;
	const { resultFor } = rowShaper(perItem, results, notInAnswer);
	// Every item's result (those of failed batches excepted) with the same columns.
	const rows: IDataObject[] = [];
	for (const entry of perItem)
		if (!(entry.isin && failed.has(entry.isin))) rows.push(resultFor(entry));
	const added = uniformRows(rows, IDENTITY_COLUMNS, { rowsAreFresh: true });
	let nextAdded = 0;

	return items.map((item, index) => {
		const entry = perItem[index];
		const json = copyJson(item.json);
		if (entry.missingColumn !== undefined && !hasOwn(json, entry.missingColumn))
			setOwn(json, entry.missingColumn, '');
		const failure = entry.isin ? failed.get(entry.isin) : undefined;
		if (failure) {
			const out: INodeExecutionData = {
				json: Object.assign(json, errorJson(failure)),
				pairedItem: { item: index },
			};
			if (item.binary) out.binary = item.binary;
			return out;
		}
		const result = added[nextAdded++];
		if (simplify) {
			for (const [key, value] of Object.entries(result)) json[`${spec.resultKey}_${key}`] = value;
		} else {
			json[spec.resultKey] = result;
		}
		if (entry.problem && invalidPolicy === 'fail' && entry.problem.startsWith('invalid ISIN')) {
			json.error = sentenceStart(entry.problem);
			json.error_details = `Nothing was sent for this item. Correct the ISIN, or set ${invalidIsinsSetting} to Skip and Report or Send Anyway.`;
		}
		const out: INodeExecutionData = { json, pairedItem: { item: index } };
		if (item.binary) out.binary = item.binary;
		return out;
	});
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { OutsideValue } from '../../shared/api/domains';
import type { ApiRoute } from '../../shared/api/routes';

/** What a Portfolio Summary computes: SFDR articles, {value, unit} measures (PAI, ESG), or business involvements. */
export type SummaryKind = 'sfdr' | 'paiIndicators' | 'esgMetrics' | 'businessInvolvements';

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
	| 'paiStatement'
	| 'changesSinceLastRun';

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
	/** ISINs sent whose batch was answered but whose answer left them out: not checked (notInAnswerReason). */
	notInAnswer: ReadonlySet<string>;
	spec: InstrumentOperationSpec<TEntry>;
	/** The Simplify parameter. */
	simplify: boolean;
	/** What the answers held beside the entries asked for, if anything (EntryTally.describe). */
	answerNote?: string;
	/** Per ISIN, the numbers of its entry outside their domain (set to null in its result, except for changes). */
	outside?: Map<string, OutsideValue[]>;
}

/**
 * Where an ISIN of the lookup ended: answered with data (`found`), answered without data (`noData`, the spec's null
 * values), not in the API's answer (`notInAnswer`, an answer defect), or its request failed (`failed`, continueOnFail).
 */
export type AnswerState = 'found' | 'noData' | 'notInAnswer' | 'failed';

export function answerStateOf(
	isin: string,
	outcome: Pick<LookupOutcome<unknown>, 'results' | 'failed' | 'notInAnswer'>,
): AnswerState {
	if (outcome.failed.has(isin)) return 'failed';
	const result = outcome.results.get(isin);
	if (result) return result.found === true ? 'found' : 'noData';
	return outcome.notInAnswer.has(isin) ? 'notInAnswer' : 'noData';
}

export interface ItemIsin {
	isin?: string;
	/** Why the item has no ISIN to send (missing, or invalid and skipped). */
	problem?: string;
	/** Not text, or far too long: never sent, whatever the Invalid ISINs option says. */
	unsendable?: boolean;
	/** The ISIN as the user typed or mapped it (givenIsin), shown in the output row's `isin`. */
	given?: string | null;
	/** The cleaned form of an ISIN that was not sent (invalid and skipped). */
	normalised?: string;
	/**
	 * The column the other items hold the ISIN in, which this item lacks (a sheet's empty cell): Add to Input Items
	 * writes it as "" so that the table shows an empty cell, not `undefined`.
	 */
	missingColumn?: string;
}

/** Said of a sheet's empty ISIN cell where the row shows the column as "" (not on Only Changes' own rows). */
export const EMPTY_CELL_NOTE = ' (the cell is empty, shown as "")';

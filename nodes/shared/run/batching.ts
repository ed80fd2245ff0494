import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { EntryTally, sameEntry } from '../api/answers';
import { normalizeIsin } from '../input/isin';
import { MAX_INSTRUMENTS_PER_REQUEST } from '../base/constants';
import { asNodeError } from '../api/errors';
import { runTasks, withProgress } from './execution';
import type { RunError } from './execution';
import type { ApiRoute } from '../api/routes';
import { apiRequest } from '../api/transport';
import type { RetryPolicy } from '../api/transport';

export interface InstrumentLookupOptions<TEntry = unknown, TValue = TEntry> {
	/** ISINs per request, at most 10,000 (the API refuses more). */
	batchSize?: number;
	/** Requests in flight at once. */
	concurrency?: number;
	/** Extra body fields, e.g. `minimum_threshold`. */
	extraBody?: IDataObject;
	retry?: Partial<RetryPolicy>;
	/** What to keep per ISIN instead of the entry itself, made once as the answer arrives (no second map). */
	toValue?: (entry: TEntry) => TValue;
}

export interface InstrumentLookupResult<TValue> {
	/** One value per ISIN the API answered for; look up by ISIN, never by position. */
	byIsin: Map<string, TValue>;
	/** Requests that returned data (the retries of the transport are not counted). */
	requests: number;
	/** Batches split in two after the gateway timed out. */
	splits: number;
	/** Only under continueOnFail: ISINs without an answer, with the error of their batch. */
	failed: Map<string, RunError>;
	/** Entries the answers held beside those asked for (no ISIN, not asked, answered twice differently). */
	tally: EntryTally;
	/**
	 * ISINs of answered batches that the answer left out (an answer defect: the API documents an entry, with null
	 * values when there is no data, for every ISIN asked). Not checked; never "no data". Not asked again: the run's
	 * request count was planned before the first request, and an answer that left an ISIN out once is likely to again.
	 */
	notInAnswer: Set<string>;
}

/** Distinct values in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
	return [...new Set(values)];
}

export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size)
		chunks.push(values.slice(start, start + size));
	return chunks;
}

/**
 * Sends distinct ISINs to an /instruments/* route in batches of at most 10,000, merges the answers by ISIN,
 * and on a 504 splits the batch in two and asks for each half: ceil(N / batch size) requests when nothing fails.
 * Batches go through the executor (runTasks): every answer received is kept. With continueOnFail the ISINs of a
 * failed batch (or of one not sent after a stop error) come back in `failed`; without it the first failure is
 * thrown, saying how many ISINs were answered before it.
 */
export async function lookupInstruments<TEntry, TValue = TEntry>(
	this: IExecuteFunctions,
	route: ApiRoute,
	/** A Set is taken as already distinct. */
	isins: string[] | ReadonlySet<string>,
	isinOf: (entry: TEntry) => string | undefined,
	options: InstrumentLookupOptions<TEntry, TValue> = {},
): Promise<InstrumentLookupResult<TValue>> {
	const result: InstrumentLookupResult<TValue> = {
		byIsin: new Map(),
		requests: 0,
		splits: 0,
		failed: new Map(),
		tally: new EntryTally(),
		notInAnswer: new Set(),
	};
	const { tally } = result;
	const { batchSize, concurrency } = batchSettings(options);
	const distinctIsins = isins instanceof Set ? [...isins] : distinct(isins);
	const batches = chunk(distinctIsins, batchSize);
	const toValue = options.toValue ?? ((entry: TEntry) => entry as unknown as TValue);
	/** ISINs of every batch the API answered (an unknown ISIN is answered but may have no entry). */
	const answered = new Set<string>();

	const send = async (batch: string[]): Promise<void> => {
		let body: { data: TEntry[] };
		try {
			body = (await apiRequest.call(this, route, {
				body: { holdings: batch.map((isin) => ({ isin })), ...options.extraBody },
				retry: options.retry,
			})) as { data: TEntry[] };
		} catch (error) {
			if (
				error instanceof NodeApiError &&
				error.httpCode === '504' &&
				route.onTimeout === 'split-batch' &&
				batch.length > 1
			) {
				result.splits++;
				this.logger.debug('Sustainability Compliance API: gateway timeout, splitting batch', {
					route: `${route.method} ${route.path}`,
					size: batch.length,
				});
				const half = Math.ceil(batch.length / 2);
				await send(batch.slice(0, half));
				await send(batch.slice(half));
				return;
			}
			throw asNodeError(this.getNode(), error);
		}
		result.requests++;
		for (const isin of batch) answered.add(isin);
		// The transport read the answer against the route's contract: `data` is a list of entries.
		let asked: Set<string> | undefined;
		for (const entry of body.data) {
			// Matched like the ISINs sent: an answer may write them in lower case or padded with spaces.
			const raw = isinOf(entry);
			const isin = typeof raw === 'string' ? normalizeIsin(raw) : '';
			if (isin === '') {
				tally.withoutIsin++;
				continue;
			}
			const known = result.byIsin.get(isin);
			if (known !== undefined) {
				if (!sameEntry(known, toValue(entry))) tally.conflicting.add(isin);
				continue;
			}
			asked ??= new Set(batch);
			if (!asked.has(isin)) {
				tally.unasked.add(isin);
				continue;
			}
			result.byIsin.set(isin, toValue(entry));
		}
	};

	const { outcomes } = await (runTasks<string[], void>).call(this, batches, send, {
		concurrency,
		sameRequests: true,
	});
	for (const isin of answered) if (!result.byIsin.has(isin)) result.notInAnswer.add(isin);
	let firstFailure: RunError | undefined;
	outcomes.forEach((outcome, index) => {
		if (outcome.state === 'done') return;
		if (outcome.state === 'failed') firstFailure ??= outcome.error;
		for (const isin of batches[index])
			if (!answered.has(isin)) result.failed.set(isin, outcome.error);
	});
	if (firstFailure && !this.continueOnFail()) {
		if (batches.length === 1) throw firstFailure;
		const got = distinctIsins.length - result.failed.size;
		throw withProgress.call(
			this,
			firstFailure,
			`The API answered for ${got.toLocaleString('en-US')} of the ${distinctIsins.length.toLocaleString('en-US')} distinct ISINs before the run stopped (${result.requests.toLocaleString('en-US')} of ${batches.length.toLocaleString('en-US')} batches); nothing is output when the node stops with an error. To keep the answers received when a batch fails, set Settings > On Error to "Continue".`,
		);
	}
	return result;
}

/** Batch size (1..10,000) and concurrency (at least 1) from the options; NaN falls back to the defaults. */
export function batchSettings(options: { batchSize?: number; concurrency?: number }): {
	batchSize: number;
	concurrency: number;
} {
	const wanted = (value: number | undefined, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) ? value : fallback;
	return {
		batchSize: Math.max(
			1,
			Math.min(
				MAX_INSTRUMENTS_PER_REQUEST,
				Math.floor(wanted(options.batchSize, MAX_INSTRUMENTS_PER_REQUEST)),
			),
		),
		concurrency: Math.max(1, Math.floor(wanted(options.concurrency, 1))),
	};
}

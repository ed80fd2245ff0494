import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_INSTRUMENTS_PER_REQUEST } from './constants';
import { asNodeError } from './errors';
import type { ApiRoute } from './routes';
import { apiRequest } from './transport';
import type { RetryPolicy } from './transport';

export interface InstrumentLookupOptions<TEntry = unknown, TValue = TEntry> {
	/** ISINs per request, at most 10,000 (spec 8). */
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
}

/** Distinct values in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
	return [...new Set(values)];
}

export function chunk<T>(values: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
	return chunks;
}

/**
 * Sends distinct ISINs to an /instruments/* route in batches of at most 10,000, merges the answers by ISIN,
 * and on a 504 splits the batch in two and asks for each half: ceil(N / batch size) requests when nothing fails.
 */
export async function lookupInstruments<TEntry, TValue = TEntry>(
	this: IExecuteFunctions,
	route: ApiRoute,
	/** A Set is taken as already distinct. */
	isins: string[] | ReadonlySet<string>,
	isinOf: (entry: TEntry) => string | undefined,
	options: InstrumentLookupOptions<TEntry, TValue> = {},
): Promise<InstrumentLookupResult<TValue>> {
	// NaN would make no batch (or an empty one) and no worker: fall back to the defaults.
	const wanted = (value: number | undefined, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
	const batchSize = Math.max(1, Math.min(MAX_INSTRUMENTS_PER_REQUEST, Math.floor(wanted(options.batchSize, MAX_INSTRUMENTS_PER_REQUEST))));
	const concurrency = Math.max(1, Math.floor(wanted(options.concurrency, 1)));
	const result: InstrumentLookupResult<TValue> = { byIsin: new Map(), requests: 0, splits: 0 };
	const queue = chunk(isins instanceof Set ? [...isins] : distinct(isins), batchSize);
	const toValue = options.toValue ?? ((entry: TEntry) => entry as unknown as TValue);

	const send = async (batch: string[]): Promise<void> => {
		let body: { data?: TEntry[] };
		try {
			body = (await apiRequest.call(this, route, {
				body: { holdings: batch.map((isin) => ({ isin })), ...options.extraBody },
				retry: options.retry,
			})) as { data?: TEntry[] };
		} catch (error) {
			if (error instanceof NodeApiError && error.httpCode === '504' && route.onTimeout === 'split-batch' && batch.length > 1) {
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
		for (const entry of body.data ?? []) {
			const isin = isinOf(entry);
			if (isin !== undefined && !result.byIsin.has(isin)) result.byIsin.set(isin, toValue(entry));
		}
	};

	const worker = async () => {
		for (let batch = queue.shift(); batch; batch = queue.shift()) await send(batch);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
	return result;
}

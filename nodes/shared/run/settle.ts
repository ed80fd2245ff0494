import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../api/errors';
import type { RunError } from './execution';
import { parsePortfolioListing } from './methods';
import type { PortfolioListing } from './methods';
import { ROUTES } from '../api/routes';
import type { ApiRoute } from '../api/routes';
import { isCarriedOut } from '../api/answers';
import { apiRequest, UncertainOutcomeError } from '../api/transport';
import type { ApiRequestOptions } from '../api/transport';
import { showValue } from '../base/values';

/**
 * Requests that may have reached the API without an answer (connection dropped after sending, client timeout), on
 * routes whose repetition is not harmless by itself: a safe read (GET /portfolios) tells what happened, as the
 * route's `onUncertainOutcome` says, and the request is sent again only where that is right.
 */

/** The snapshot a request is about: the Portfolio ID as sent to POST (or the identifier as returned) and its quarter end. */
export interface SnapshotRef {
	portfolioId: string;
	quarterEnd: string;
}

export interface SettledOutcome {
	/** What the list of portfolios shows: the snapshot is stored, or it (or its whole portfolio) is gone. */
	outcome: 'stored' | 'snapshot_deleted' | 'portfolio_deleted';
	/** Our own words, replacing the API's message that never came (or cannot be believed). */
	message: string;
}

export interface SettledAnswer<T> {
	body: T;
	/** Present when the outcome was settled by reading the list of portfolios rather than by the API's answer. */
	settled?: SettledOutcome;
}

/** Sends at most this many times in all before the outcome is left uncertain. */
const MAX_SENDS = 3;

/** Errors after which the request may have been carried out all the same (see `mayHaveBeenCarriedOut`). */
const outcomeUnknown = new WeakSet<object>();

/**
 * Whether the request of a failed apiRequestSettled may have been carried out: it got no answer (and the list could
 * not settle it), or an earlier send got none and the list of portfolios showed the snapshot before the request was
 * sent again and failed. Such a request is "outcome unknown", never "not stored".
 */
export function mayHaveBeenCarriedOut(error: unknown): boolean {
	return (
		error instanceof UncertainOutcomeError ||
		(typeof error === 'object' && error !== null && outcomeUnknown.has(error))
	);
}

/** apiRequest, with the uncertain outcome of the route settled where a read can settle it. */
export async function apiRequestSettled<T = IDataObject>(
	this: IExecuteFunctions,
	route: ApiRoute,
	snapshot: SnapshotRef,
	options: ApiRequestOptions = {},
): Promise<SettledAnswer<T>> {
	// POST /portfolios: once the list showed the snapshot stored after a drop, the next answer's "created"/"updated"
	// may describe our own earlier request's work, so it is not repeated.
	let storedBeforeResend = false;
	/** What the last try without a readable answer met, in words. */
	let noAnswer = '';
	for (let send = 1; ; send++) {
		try {
			const body = await (apiRequest<T>).call(this, route, options);
			if (!storedBeforeResend) return { body };
			return {
				body,
				settled: {
					outcome: 'stored',
					message: `Snapshot stored at ${snapshot.quarterEnd}. An earlier try got no readable answer (${noAnswer}), so whether this request created the portfolio or updated it is not known; it was sent again to be sure the holdings are these.`,
				},
			};
		} catch (error) {
			if (!(error instanceof UncertainOutcomeError) || send >= MAX_SENDS) {
				const failed = asNodeError(this.getNode(), error);
				if (storedBeforeResend && !isCarriedOut(error))
					throw resendFailed(failed, noAnswer, snapshot);
				throw failed;
			}
			noAnswer = noAnswerWords(error);
			let funds: PortfolioListing[];
			try {
				funds = await listPortfolios.call(this, options.itemIndex);
			} catch (listError) {
				if (this.getExecutionCancelSignal?.()?.aborted)
					throw asNodeError(this.getNode(), listError);
				throw uncheckedOutcome(asNodeError(this.getNode(), listError), error, route, snapshot);
			}
			const listed = findSnapshot(funds, route, snapshot);
			if (route.onUncertainOutcome === 'check-snapshot-stored') {
				// A page answered 2xx may stand for the API's work: when the list shows the snapshot, it is not sent again.
				const status = error.networkFailure.status ?? 0;
				if (listed.snapshotListed && status >= 200 && status < 300) {
					return {
						body: { identifier: listed.portfolio?.identifier } as T,
						settled: {
							outcome: 'stored',
							message: `Snapshot stored at ${snapshot.quarterEnd}. The request got no readable answer (${noAnswer}); the list of portfolios shows the snapshot stored, so it was not sent again.`,
						},
					};
				}
				// Sent again either way: storing the same holdings at the same quarter end once more changes nothing,
				// and an earlier snapshot of that quarter may still hold the old holdings.
				if (listed.snapshotListed) storedBeforeResend = true;
				continue;
			}
			if (route.onUncertainOutcome === 'check-snapshot-deleted') {
				if (!listed.portfolio) {
					return {
						body: {} as T,
						settled: {
							outcome: 'portfolio_deleted',
							message: `Portfolio no longer stored. The deletion got no readable answer (${noAnswer}); the list of portfolios shows the portfolio is gone (it had no other listed snapshot).`,
						},
					};
				}
				if (!listed.snapshotListed) {
					return {
						body: {} as T,
						settled: {
							outcome: 'snapshot_deleted',
							message: `Snapshot at ${snapshot.quarterEnd} no longer stored. The deletion got no readable answer (${noAnswer}); the list of portfolios shows the portfolio without that snapshot.`,
						},
					};
				}
				continue;
			}
			throw asNodeError(this.getNode(), error);
		}
	}
}

/**
 * The request was sent again after the list of portfolios showed the snapshot stored (an earlier send got no
 * answer), and that failed: the snapshot may hold these holdings (the earlier send may have stored them) or older
 * ones of the same quarter. Its error, saying so.
 */
function resendFailed(error: RunError, noAnswer: string, snapshot: SnapshotRef): RunError {
	const which = `the snapshot of portfolio "${showValue(snapshot.portfolioId, 200)}" at ${snapshot.quarterEnd}`;
	error.message = `Whether ${which} holds these holdings is not known (it may have been stored): ${error.message.replace(/\.$/, '')}.`;
	error.description = [
		`An earlier try got no readable answer (${noAnswer}); the list of portfolios then showed a snapshot at ${snapshot.quarterEnd}, perhaps stored by that try, perhaps an older one of the same quarter. The request was sent again to be sure the holdings are these, and that failed. Check with the Portfolio Snapshots node's Get Many operation, or run again: Create or Update Snapshot stores the holdings of a quarter end anew, so running it again is safe.`,
		error.description,
	]
		.filter(Boolean)
		.join('\n');
	outcomeUnknown.add(error);
	return error;
}

function noAnswerWords(error: UncertainOutcomeError): string {
	const failure = error.networkFailure;
	switch (failure.kind) {
		case 'timeout':
			return 'it did not come in time';
		case 'broken-answer':
			return failure.reason ?? 'the answer broke off';
		case 'gateway-page':
			return `a proxy or gateway in front of the API ${failure.reason}`;
		default:
			return 'the connection dropped after it was sent';
	}
}

/**
 * The request got no answer and the list of portfolios could not be read to settle it: the list's error (its kind
 * still decides whether the run stops, see requestBudget.isStopError), in words about the snapshot whose fate is not
 * known and how to find it out.
 */
function uncheckedOutcome(
	listError: RunError,
	uncertain: UncertainOutcomeError,
	route: ApiRoute,
	snapshot: SnapshotRef,
): RunError {
	const which = `the snapshot of portfolio "${showValue(snapshot.portfolioId, 200)}" at ${snapshot.quarterEnd}`;
	const check = `Check with the Portfolio Snapshots node's Get Many operation whether portfolio "${showValue(snapshot.portfolioId, 200)}" lists ${snapshot.quarterEnd}`;
	const [message, advice] =
		route.onUncertainOutcome === 'check-snapshot-deleted'
			? [
					`Whether ${which} was deleted is not known: the deletion got no answer, and reading the list of portfolios to check failed too.`,
					`The snapshot may have been deleted (and with it the portfolio, if it was its last listed snapshot). ${check}, or run again: deleting a snapshot that is already gone changes nothing (the API answers "Fund snapshot not found").`,
				]
			: [
					`Whether ${which} was stored is not known: the request got no answer, and reading the list of portfolios to check failed too.`,
					`The snapshot may have been stored. ${check}, or run again: Create or Update Snapshot stores the holdings of a quarter end anew (the API replaces the snapshot of the same portfolio and quarter), so running it again is safe and leaves these holdings stored.`,
				];
	const description = [
		advice,
		`The request: ${uncertain.whatHappened} (${uncertain.networkFailure.code}).`,
		`The check: ${listError.message}`,
	].join('\n');
	listError.message = message;
	listError.description = description;
	outcomeUnknown.add(listError);
	return listError;
}

async function listPortfolios(
	this: IExecuteFunctions,
	itemIndex?: number,
): Promise<PortfolioListing[]> {
	return parsePortfolioListing(await apiRequest.call(this, ROUTES.listPortfolios, { itemIndex }))
		.funds;
}

/**
 * The listed portfolio the request is about. DELETE names it exactly; POST sends only the client Portfolio ID, which
 * the API returns as `svc-portfolio:<organization>_<Portfolio ID>`.
 */
function findSnapshot(
	funds: PortfolioListing[],
	route: ApiRoute,
	snapshot: SnapshotRef,
): { portfolio: PortfolioListing | undefined; snapshotListed: boolean } {
	const matches =
		route.onUncertainOutcome === 'check-snapshot-stored'
			? funds.filter(
					(fund) =>
						fund.identifier.startsWith('svc-portfolio:') &&
						fund.identifier.endsWith(`_${snapshot.portfolioId}`),
				)
			: funds.filter((fund) => fund.identifier === snapshot.portfolioId);
	const listing = matches.find((fund) =>
		fund.snapshots.some((date) => date.slice(0, 10) === snapshot.quarterEnd),
	);
	return { portfolio: listing ?? matches[0], snapshotListed: listing !== undefined };
}

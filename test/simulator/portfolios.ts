/**
 * Stored portfolios per organization: quarterly snapshots, five-year listing cutoff, the DELETE state machine.
 */
import { listingCutoff } from './dates';
import type { PortfolioState } from './types';

export const PORTFOLIO_PREFIX = 'svc-portfolio:';
export const DEFAULT_PORTFOLIO_CURRENCY = 'USD';
/** Currency of a portfolio created with an unrecognized currency code. */
export const FALLBACK_PORTFOLIO_CURRENCY = 'EUR';

interface StoredPortfolio {
	identifier: string;
	name: string;
	currency: string;
	/** quarter-end date => holdings */
	snapshots: Map<string, unknown[]>;
}

export interface PortfolioListing {
	identifier: string;
	name: string;
	snapshots: string[];
}

export type DeleteOutcome =
	| 'snapshot-deleted'
	| 'portfolio-deleted-with-snapshots'
	| 'portfolio-deleted'
	| 'snapshot-not-found';

export function portfolioIdentifier(org: string, clientIdentifier: string | undefined): string {
	return `${PORTFOLIO_PREFIX}${org}_${clientIdentifier ?? ''}`;
}

export class PortfolioStore {
	private readonly organizations = new Map<string, Map<string, StoredPortfolio>>();

	private portfolios(org: string): Map<string, StoredPortfolio> {
		let portfolios = this.organizations.get(org);
		if (!portfolios) {
			portfolios = new Map();
			this.organizations.set(org, portfolios);
		}
		return portfolios;
	}

	reset(): void {
		this.organizations.clear();
	}

	/** Creates the portfolio or replaces/adds the snapshot of `quarterEnd` (name and currency of an existing one unchanged). */
	upsert(
		org: string,
		input: {
			identifier: string;
			name: string;
			currency: string;
			quarterEnd: string;
			holdings: unknown[];
		},
	): { created: boolean } {
		const portfolios = this.portfolios(org);
		const existing = portfolios.get(input.identifier);
		if (existing) {
			existing.snapshots.set(input.quarterEnd, input.holdings);
			return { created: false };
		}
		portfolios.set(input.identifier, {
			identifier: input.identifier,
			name: input.name,
			currency: input.currency,
			snapshots: new Map([[input.quarterEnd, input.holdings]]),
		});
		return { created: true };
	}

	list(org: string, now: Date): PortfolioListing[] {
		return [...this.portfolios(org).values()].map((portfolio) => ({
			identifier: portfolio.identifier,
			name: portfolio.name,
			snapshots: listedSnapshots(portfolio, now),
		}));
	}

	/** false when the portfolio does not exist. */
	update(org: string, identifier: string, changes: { name?: string; currency?: string }): boolean {
		const portfolio = this.portfolios(org).get(identifier);
		if (!portfolio) return false;
		if (changes.name !== undefined) portfolio.name = changes.name;
		if (changes.currency !== undefined) portfolio.currency = changes.currency;
		return true;
	}

	deleteSnapshot(org: string, identifier: string, quarterEnd: string, now: Date): DeleteOutcome {
		const portfolios = this.portfolios(org);
		const portfolio = portfolios.get(identifier);
		if (!portfolio) return 'snapshot-not-found';
		const listed = listedSnapshots(portfolio, now);
		if (listed.length === 0) {
			portfolios.delete(identifier);
			return 'portfolio-deleted';
		}
		if (!listed.includes(quarterEnd)) return 'snapshot-not-found';
		if (listed.length === 1) {
			portfolios.delete(identifier);
			return 'portfolio-deleted-with-snapshots';
		}
		portfolio.snapshots.delete(quarterEnd);
		return 'snapshot-deleted';
	}

	state(org: string, now: Date): PortfolioState[] {
		const cutoff = listingCutoff(now);
		return [...this.portfolios(org).values()].map((portfolio) => ({
			identifier: portfolio.identifier,
			name: portfolio.name,
			currency: portfolio.currency,
			snapshots: [...portfolio.snapshots.keys()].sort().map((date) => ({
				date,
				listed: date >= cutoff,
				holdings: structuredClone(portfolio.snapshots.get(date) ?? []),
			})),
		}));
	}
}

function listedSnapshots(portfolio: StoredPortfolio, now: Date): string[] {
	const cutoff = listingCutoff(now);
	return [...portfolio.snapshots.keys()].filter((date) => date >= cutoff).sort();
}

/**
 * POST /temperature-score/insights (routed only with the `temperatureRoute` option).
 */
import { instrumentData, round, type Industry, type InstrumentData } from '../data';
import { apiError, type ApiResult } from '../http';
import type { Schema } from '../validation';
import {
	AT_LEAST_ONE_HOLDING,
	FUND_TYPES,
	INSTRUMENT_TYPES,
	holdingsOf,
	missingPropertiesError,
	type ComputedHolding,
} from './common';
import { SUCCESS_STATUS } from './status';
import type { RouteContext, RouteDefinition } from './types';

export const DEFAULT_TEMPERATURE_CURRENCY = 'EUR';

/**
 * Calculation state per organization and set of holdings (sorted distinct ISINs): the first
 * `lockRequests` requests for a set answer is_lock=true, later ones get the scores.
 */
export class TemperatureLocks {
	private readonly counts = new Map<string, number>();

	constructor(private readonly lockRequests: number) {}

	/** Counts one request for the set; true while it is still locked. */
	consume(org: string, isins: readonly string[]): boolean {
		const slot = `${org}|${[...new Set(isins)].sort().join(',')}`;
		const seen = (this.counts.get(slot) ?? 0) + 1;
		this.counts.set(slot, seen);
		return seen <= this.lockRequests;
	}

	reset(): void {
		this.counts.clear();
	}
}

const TEMPERATURE_SCHEMA: Schema = {
	type: 'object',
	required: ['holdings'],
	properties: {
		holdings: {
			type: 'array',
			items: {
				type: 'object',
				properties: {
					isin: { type: 'string', nullable: true },
					name: { type: 'string', nullable: true },
					instrument_type: { type: 'string', nullable: true },
					market_value: { type: 'number', nullable: true },
					weight: { type: 'number', nullable: true },
					currency: { type: 'string', nullable: true },
				},
			},
		},
	},
};

interface Included {
	holding: ComputedHolding;
	data: InstrumentData;
	aum: number | null;
}

/** Applies the holding rules of spec 2.1: skipped types and empty funds, weights from market values when one is missing or 0. */
function includedHoldings(holdings: readonly ComputedHolding[]): Included[] {
	const kept = holdings
		.map((holding) => ({ holding, data: instrumentData(holding.isin) }))
		.filter(({ holding, data }) => {
			const knownType = (INSTRUMENT_TYPES as readonly string[]).includes(holding.instrument_type);
			if (!knownType && !(data.known && data.isFund)) return false;
			return !(FUND_TYPES.includes(holding.instrument_type) && holding.market_value === 0);
		});
	const fromMarketValues = kept.some(
		({ holding }) => typeof holding.weight !== 'number' || holding.weight === 0,
	);
	const total = kept.reduce((sum, { holding }) => sum + holding.market_value, 0);
	return kept.map(({ holding, data }) => {
		let aum: number | null = holding.weight ?? null;
		if (fromMarketValues) aum = total === 0 ? null : round((holding.market_value / total) * 100, 4);
		return { holding, data, aum };
	});
}

/** Distinct industries of the listed companies, by id. */
function industriesOf(included: readonly Included[]): Industry[] {
	const byId = new Map<number, Industry>();
	for (const { data } of included) {
		const industry = data.temperature.industry;
		if (industry) byId.set(industry.id, { ...industry });
	}
	return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The part of a company or fund entry that does not depend on the instrument's data. */
export interface TemperatureEntryBase {
	name: string;
	aum: number | null;
	market_value: number;
	currency: string;
}

/** One entry of `portfolio.companies`: while locked only the ISIN and `base`, else the temperature data too. */
export function companyEntry(data: InstrumentData, base: TemperatureEntryBase, locked: boolean) {
	const entry = { isin: data.isin, ...base };
	if (locked) return entry;
	const { temperature } = data;
	return {
		...entry,
		temperature_score: temperature.score,
		target: temperature.target,
		base_year: temperature.baseYear,
		industry: temperature.industry?.name ?? null,
	};
}

function insights(context: RouteContext): ApiResult {
	const raw = holdingsOf(context.body);
	if (raw.length === 0) return apiError(400, AT_LEAST_ONE_HOLDING);
	const missing = missingPropertiesError(raw);
	if (missing) return missing;
	const included = includedHoldings(raw as unknown as ComputedHolding[]);
	const locked =
		included.length > 0 &&
		context.services.temperatureLocks.consume(
			context.org,
			included.map(({ holding }) => holding.isin),
		);

	const base = ({ holding, aum }: Included): TemperatureEntryBase => ({
		name: holding.name,
		aum,
		market_value: holding.market_value,
		currency: holding.currency ?? DEFAULT_TEMPERATURE_CURRENCY,
	});
	const companies = included
		.filter(({ data }) => !data.isFund)
		.map((item) => companyEntry(item.data, base(item), locked));
	const funds = included
		.filter(({ data }) => data.isFund)
		.map((item) => {
			const { temperature } = item.data;
			const entry = { public_isin: item.holding.isin, ...base(item) };
			if (locked) return entry;
			return {
				...entry,
				temperature_score: temperature.score,
				target: temperature.target,
				base_year: temperature.baseYear,
			};
		});
	const industries = locked ? [] : industriesOf(included);

	return {
		status: SUCCESS_STATUS['POST /temperature-score/insights'],
		body: {
			data: { portfolio: { companies, funds, industries }, job_metadata: { is_lock: locked } },
			metadata: {
				message: locked
					? 'Temperature score calculation in progress'
					: 'Temperature score insights calculated successfully',
			},
		},
	};
}

export const TEMPERATURE_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /temperature-score/insights',
		method: 'POST',
		path: '/temperature-score/insights',
		family: 'temperature',
		schema: TEMPERATURE_SCHEMA,
		handle: insights,
	},
];

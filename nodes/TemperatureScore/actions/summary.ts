import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { EntryTally, notInAnswerReason } from '../../shared/api/answers';
import { outsideNote } from '../../shared/api/domains';
import type { OutsideValue } from '../../shared/api/domains';
import { normalizeIsin } from '../../shared/input/isin';
import { INSTRUMENT_TYPES } from '../../shared/base/constants';
import { pairedTo } from '../../shared/run/execution';
import type { ItemGroup } from '../../shared/input/grouping';
import { removedSummary } from '../../shared/input/holdings';
import type { RemovedRow, SourcedHolding } from '../../shared/input/holdings';
import { ROUTES } from '../../shared/api/routes';
import { countOf, roundTo, setOwn } from '../../shared/base/values';

export interface TemperatureData {
	/** Companies, funds or both are listed (the contract asks for at least one of the lists). */
	portfolio: { companies?: IDataObject[]; funds?: IDataObject[]; industries?: IDataObject[] };
	job_metadata: { is_lock: boolean };
	[key: string]: unknown;
}

/** One group's answer from the temperature route, with what it took to get it. */
export interface Calculation {
	data: TemperatureData;
	/** The API was still calculating (is_lock) when the answer was taken. */
	locked: boolean;
	/** Numbers of the answer outside their domain, set to null in `data` (domains.ts). */
	outside?: OutsideValue[];
	requests: number;
	waitedMs: number;
}

const FUND_TYPES = ['etf', 'mutual-fund'];

/** What the summary adds up over the listed companies and funds. */
interface Weighting {
	withScore: number;
	/** Listed with a score and a market value above 0: the ones the portfolio temperature is weighted over. */
	weighted: number;
	coveredMarketValue: number;
	weightedSum: number;
	totalMarketValue: number;
}

/**
 * Output "Per Holding": one item per company and fund the API listed, paired to the input items with that ISIN,
 * then one summary item for the group: the portfolio temperature (market-value-weighted mean of the scores), its
 * coverage, and the holdings sent that the API did not list.
 */
export function perHoldingItems(
	group: ItemGroup,
	holdings: SourcedHolding[],
	removed: RemovedRow[],
	calculation: Calculation,
	notes: string[] = [],
): INodeExecutionData[] {
	const { data, locked } = calculation;
	const itemsByIsin = inputItemsByIsin(holdings);
	const shared = groupFields(group);
	const rows: INodeExecutionData[] = [];
	const returned = new Set<string>();
	const weighting: Weighting = {
		withScore: 0,
		weighted: 0,
		coveredMarketValue: 0,
		weightedSum: 0,
		totalMarketValue: 0,
	};

	const tally = new EntryTally();
	const outsideByEntry = new Map<string, OutsideValue[]>();
	for (const value of calculation.outside ?? []) {
		const key = `${String(value.path[2])}/${String(value.path[3])}`;
		outsideByEntry.set(key, [...(outsideByEntry.get(key) ?? []), value]);
	}
	const outsideRows: IDataObject[] = [];
	/** How often each ISIN sent was listed: a listing beyond the holdings sent with it is never weighted again. */
	const listed = new Map<string, number>();
	const addRow = (entry: IDataObject, type: 'company' | 'fund', index: number) => {
		const json = holdingJson(shared, entry, type);
		const times = (listed.get(json.isin as string) ?? 0) + 1;
		const outside = outsideByEntry.get(`${type === 'fund' ? 'funds' : 'companies'}/${index}`);
		if (outside) {
			json.domain_note = outsideNote(outside, LEFT_OUT_OF_TEMPERATURE, 4);
			for (const value of outside)
				outsideRows.push({
					isin: json.isin || null,
					field: String(value.path[4]),
					value: value.value,
					expected: value.domain.words,
				});
		}
		if (!json.isin) {
			// Listed without an ISIN, or for one that was not sent: shown, never weighted into this portfolio.
			tally.withoutIsin++;
			json.answer_note =
				'Listed by the API without an ISIN: not counted in the portfolio temperature.';
		} else if (!itemsByIsin.has(json.isin as string)) {
			tally.unasked.add(json.isin as string);
			json.answer_note =
				'Listed by the API for an ISIN that was not sent: not counted in the portfolio temperature.';
		} else if (times > itemsByIsin.get(json.isin as string)!.length) {
			tally.conflicting.add(json.isin as string);
			json.answer_note =
				'Listed by the API more often than this ISIN was sent: not counted again in the portfolio temperature.';
		} else {
			listed.set(json.isin as string, times);
			returned.add(json.isin as string);
			addToWeighting(weighting, entry);
		}
		if (locked) json.calculating = true;
		rows.push({
			json,
			pairedItem: pairedTo(itemsByIsin.get(json.isin as string) ?? group.itemIndices),
		});
	};
	(data.portfolio.companies ?? []).forEach((company, index) => addRow(company, 'company', index));
	(data.portfolio.funds ?? []).forEach((fund, index) => addRow(fund, 'fund', index));

	const summary = portfolioSummary(
		shared,
		holdings,
		removed,
		notes,
		calculation,
		weighting,
		rows.filter((row) => !row.json.answer_note).length,
		returned,
		outsideRows,
	);
	const answerNote = tally.describe(ROUTES.temperature);
	if (answerNote) summary.answer_note = answerNote;
	rows.push({ json: summary, pairedItem: pairedTo(group.itemIndices) });
	return rows;
}

export function groupFields(group: ItemGroup): IDataObject {
	return { ...(group.values as IDataObject) };
}

/** The input items of each ISIN sent, in input order, each once. */
function inputItemsByIsin(holdings: SourcedHolding[]): Map<string, number[]> {
	const itemsByIsin = new Map<string, number[]>();
	for (const { holding, itemIndex } of holdings) {
		const list = itemsByIsin.get(holding.isin!) ?? [];
		if (!list.includes(itemIndex)) list.push(itemIndex);
		itemsByIsin.set(holding.isin!, list);
	}
	return itemsByIsin;
}

/** A listed company or fund as an output item: the documented fields first, then whatever else the API sent. */
function holdingJson(
	shared: IDataObject,
	entry: IDataObject,
	type: 'company' | 'fund',
): IDataObject {
	const { isin: companyIsin, public_isin: fundIsin } = entry;
	// Matched like the ISINs sent (and as the instruments routes match theirs): case and spaces do not count.
	const isin = normalizeIsin(
		type === 'fund' ? (fundIsin ?? companyIsin) : (companyIsin ?? fundIsin),
	);
	const json: IDataObject = {
		...shared,
		isin,
		name: entry.name ?? null,
		type,
		temperature_score: typeof entry.temperature_score === 'number' ? entry.temperature_score : null,
		target: entry.target ?? null,
		base_year: entry.base_year ?? null,
		industry: entry.industry ?? null,
		aum: entry.aum ?? null,
		market_value: entry.market_value ?? null,
	};
	// The API may add fields to these objects; they are kept, after the documented ones.
	for (const [key, value] of Object.entries(entry)) {
		if (!Object.prototype.hasOwnProperty.call(json, key) && key !== 'public_isin')
			setOwn(json, key, value);
	}
	return json;
}

function addToWeighting(weighting: Weighting, entry: IDataObject): void {
	const marketValue = typeof entry.market_value === 'number' ? entry.market_value : null;
	const score = typeof entry.temperature_score === 'number' ? entry.temperature_score : null;
	if (score !== null) weighting.withScore++;
	if (marketValue === null || marketValue <= 0) return;
	weighting.totalMarketValue += marketValue;
	if (score === null) return;
	weighting.weighted++;
	weighting.coveredMarketValue += marketValue;
	weighting.weightedSum += marketValue * score;
}

function portfolioSummary(
	shared: IDataObject,
	holdings: SourcedHolding[],
	removed: RemovedRow[],
	notes: string[],
	{ data, locked, requests, waitedMs }: Calculation,
	weighting: Weighting,
	listedCount: number,
	returned: Set<string>,
	outsideRows: IDataObject[],
): IDataObject {
	// Holdings sent but not listed: the API skipped them by its documented rules (an unknown instrument type that is
	// not a fund, or an ETF or mutual fund with market value 0), or its answer left them out (not checked).
	const unlisted = holdings.filter(({ holding }) => !returned.has(holding.isin!));
	// Identity first, as in removed_rows.
	// A holding left out of the answer still belongs to the portfolio: its market value as given is in the total.
	let notCheckedCount = 0;
	let notCheckedMarketValue = 0;
	const skipped = unlisted.map(({ holding, itemIndex }) => {
		const documented = documentedSkip(holding.instrument_type, holding.market_value);
		if (documented === undefined) {
			notCheckedCount++;
			const value = holding.market_value;
			if (typeof value === 'number' && value > 0) notCheckedMarketValue += value;
		}
		return {
			isin: holding.isin,
			reason: documented ?? NOT_LISTED,
			item: itemIndex,
			name: holding.name ?? null,
		};
	});
	const { coveredMarketValue } = weighting;
	const totalMarketValue = weighting.totalMarketValue + notCheckedMarketValue;
	const temperature =
		coveredMarketValue > 0 ? roundTo(weighting.weightedSum / coveredMarketValue, 4) : null;
	const currencies = [...new Set(holdings.map(({ holding }) => holding.currency ?? 'EUR'))];
	const portfolioTemperature = locked ? null : temperature;
	return {
		...shared,
		type: 'portfolio',
		portfolio_temperature_score: portfolioTemperature,
		...(portfolioTemperature === null
			? {
					portfolio_temperature_reason: locked
						? 'The API is still calculating the scores (calculating = true).'
						: `No listed holding has both a temperature score and a market value above 0${
								outsideRows.length
									? `; ${countOf(outsideRows.length, 'value')} outside ${outsideRows.length === 1 ? 'its' : 'their'} range left out (out_of_range_rows)`
									: ''
							}.`,
				}
			: {}),
		calculation_method:
			'Market-value-weighted mean: sum(market_value × temperature_score) ÷ sum(market_value), over the listed companies and funds that have a temperature score and a market value above 0',
		covered_market_value: coveredMarketValue,
		total_market_value: totalMarketValue,
		covered_market_value_percent:
			locked || totalMarketValue <= 0
				? null
				: roundTo((coveredMarketValue / totalMarketValue) * 100, 2),
		holdings_count: holdings.length,
		companies_count: data.portfolio.companies?.length ?? 0,
		funds_count: data.portfolio.funds?.length ?? 0,
		scored_count: weighting.withScore,
		unscored_count: listedCount - weighting.withScore,
		weighted_count: weighting.weighted,
		...(outsideRows.length
			? {
					out_of_range_count: outsideRows.length,
					out_of_range_rows: outsideRows,
					domain_note: `${countOf(outsideRows.length, 'value')} of the API's answer ${outsideRows.length === 1 ? 'is' : 'are'} outside ${outsideRows.length === 1 ? 'its' : 'their'} range (out_of_range_rows): each is set to null on its holding's row and left out of the portfolio temperature, its coverage and total_market_value.`,
				}
			: {}),
		currencies,
		...(currencies.length > 1
			? {
					currency_note:
						'Holdings are in several currencies; market values are weighted as given, without conversion.',
				}
			: {}),
		industries: (data.portfolio.industries ?? []) as IDataObject[],
		skipped_count: skipped.length,
		skipped_rows: skipped as unknown as IDataObject[],
		not_checked_count: notCheckedCount,
		not_checked_market_value: notCheckedMarketValue,
		...removedSummary(removed, notes),
		requests,
		waited_seconds: roundTo(waitedMs / 1000, 1),
		...(locked ? { calculating: true } : {}),
	};
}

const LEFT_OUT_OF_TEMPERATURE =
	'Each is set to null here and left out of the portfolio temperature; a market value outside its range leaves the holding out of the totals too.';

/** Why the API skipped a holding by one of its documented rules; undefined when none applies (not in its answer). */
function documentedSkip(
	instrumentType: string | undefined,
	marketValue: number | undefined,
): string | undefined {
	if (instrumentType && !(INSTRUMENT_TYPES as readonly string[]).includes(instrumentType)) {
		return `skipped by the API: instrument type "${instrumentType}" is not one the temperature route takes, and the ISIN is not a fund it knows`;
	}
	if (instrumentType && FUND_TYPES.includes(instrumentType) && marketValue === 0) {
		return 'skipped by the API: ETF or mutual fund with market value 0';
	}
	return undefined;
}

const NOT_LISTED = notInAnswerReason(
	'holding',
	'the API lists every holding sent except those its documented rules skip, and none of them applies',
);

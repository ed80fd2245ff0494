/**
 * Reading answers as the vendor may write them (issue 29, item 4), in the Sustainability Instruments node: ISINs in
 * lower case or padded with spaces are matched like the ISINs sent, a classification written as text ("8") is read
 * as a number per instrument and in the Portfolio Summary alike, and an indicator named like one of the node's own
 * columns (isin, found, is_fund) never overwrites it. Run in n8n's engine; a loopback proxy rewrites the simulator's
 * answers.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import { runThroughProxy, runWithEntriesRewritten } from './helpers/proxy';
import { instrumentsSpec } from './helpers/lookupRuns';
import { useSimulator } from './helpers/simulator';

const sim = useSimulator();

const [NINE] = findIsins((d) => d.known && !d.isFund && d.sfdr === 9, 1, 'DE');
const [EIGHT] = findIsins((d) => d.known && !d.isFund && d.sfdr === 8, 1, 'DE');
const PAI_ISINS = findIsins(
	(d) => d.known && !d.isFund && d.pai.scope_1_emissions !== null,
	2,
	'FR',
);

/** `us0378331005` padded with spaces, as an answer may write an ISIN. */
const untidy = (isin: unknown) => `  ${String(isin).toLowerCase()} `;

describe('ISINs in an answer written in lower case or padded with spaces', () => {
	it('SFDR classification: every row found, with its own classification', async () => {
		const rows = [{ isin: NINE }, { isin: EIGHT }];
		const out = await runWithEntriesRewritten(
			sim.url,
			rows,
			instrumentsSpec('getSfdrClassification', { outputMode: 'perInstrument' }),
			(entry) => {
				entry.isin = untidy(entry.isin);
			},
		);
		expect(out).toHaveLength(2);
		expect(out.map((json) => [json.isin, json.found, json.classification])).toEqual([
			[NINE, true, 9],
			[EIGHT, true, 8],
		]);
		expect(out.some((json) => 'answer_note' in json)).toBe(false);
	});

	it.each([false, true])(
		'PAI indicators: every row found, with its own values (Simplify %p)',
		async (simplify) => {
			// Answered in reverse order as well: matched by ISIN, never by position.
			const out = await runThroughProxy(
				sim.url,
				PAI_ISINS.map((isin) => ({ isin })),
				instrumentsSpec('getPaiIndicators', { outputMode: 'addToItems', simplify }),
				(body) => {
					const data = (body?.data ?? []) as IDataObject[];
					for (const entry of data) {
						const metadata = entry.metadata as IDataObject;
						metadata.isin = untidy(metadata.isin);
					}
					data.reverse();
				},
			);
			expect(out).toHaveLength(2);
			out.forEach((json, index) => {
				const isin = PAI_ISINS[index];
				const expected = instrumentData(isin).pai.scope_1_emissions;
				if (simplify) {
					expect(json.pai_isin).toBe(isin);
					expect(json.pai_found).toBe(true);
					expect(json.pai_scope_1_emissions).toBe(expected);
				} else {
					const pai = json.pai as IDataObject;
					expect(pai.isin).toBe(isin);
					expect(pai.found).toBe(true);
					expect((pai.scope_1_emissions as IDataObject).value).toBe(expected);
				}
			});
		},
	);
});

describe('a classification written as text', () => {
	const rows = [
		{ isin: EIGHT, market_value: 3000 },
		{ isin: NINE, market_value: 1000 },
	];
	const asText = (entry: IDataObject) => {
		const profile = entry.sustainability_profile as IDataObject | null;
		if (profile && typeof profile.classification === 'number')
			profile.classification = String(profile.classification);
	};

	it('reads "8" as Article 8 per instrument', async () => {
		const out = await runWithEntriesRewritten(
			sim.url,
			rows,
			instrumentsSpec('getSfdrClassification', { outputMode: 'perInstrument' }),
			asText,
		);
		expect(out.map((json) => [json.isin, json.found, json.classification, json.article])).toEqual([
			[EIGHT, true, 8, 'Article 8'],
			[NINE, true, 9, 'Article 9'],
		]);
	});

	it('counts "8" as Article 8 in the Portfolio Summary', async () => {
		const [summary] = await runWithEntriesRewritten(
			sim.url,
			rows,
			instrumentsSpec('getSfdrClassification', { outputMode: 'portfolioSummary' }),
			asText,
		);
		const articles = summary.articles as Record<string, IDataObject>;
		expect(articles.article_8).toMatchObject({ holdings_count: 1, percent: 75 });
		expect(articles.article_9).toMatchObject({ holdings_count: 1, percent: 25 });
		expect(articles.no_data).toMatchObject({ holdings_count: 0 });
	});
});

describe("an indicator named like one of the node's own columns", () => {
	const rows = PAI_ISINS.map((isin) => ({ isin }));
	const addClashing = (entry: IDataObject) => {
		const data = entry.sustainability_data as IDataObject;
		data.isin = { value: 111, unit: 'x' };
		data.found = { value: 0, unit: null };
		data.is_fund = { value: 1, unit: null };
	};

	it.each([false, true])(
		'keeps isin, found and is_fund, and the indicators as indicator_<name> (Simplify %p)',
		async (simplify) => {
			const out = await runWithEntriesRewritten(
				sim.url,
				rows,
				instrumentsSpec('getPaiIndicators', { outputMode: 'perInstrument', simplify }),
				addClashing,
			);
			expect(out).toHaveLength(2);
			out.forEach((json, index) => {
				expect(json.isin).toBe(PAI_ISINS[index]);
				expect(json.found).toBe(true);
				expect(json.is_fund).toBe(false);
				if (simplify) {
					expect(json.indicator_isin).toBe(111);
					expect(json.indicator_isin_unit).toBe('x');
					expect(json.indicator_found).toBe(0);
					expect(json.indicator_is_fund).toBe(1);
				} else {
					expect(json.indicator_isin).toEqual({ value: 111, unit: 'x' });
					expect(json.indicator_found).toEqual({ value: 0, unit: null });
					expect(json.indicator_is_fund).toEqual({ value: 1, unit: null });
				}
			});
		},
	);

	it('keeps the columns of business involvements when a score is named found or isin', async () => {
		const out = await runWithEntriesRewritten(
			sim.url,
			rows,
			instrumentsSpec('getBusinessInvolvements', { outputMode: 'perInstrument' }),
			(entry) => {
				const data = entry.sustainability_data as IDataObject;
				data.found = false;
				data.isin = 7;
			},
		);
		out.forEach((json, index) => {
			expect(json.isin).toBe(PAI_ISINS[index]);
			expect(json.found).toBe(true);
			expect(json.indicator_found).toBe(false);
			expect(json.indicator_isin).toBe(7);
		});
	});
});

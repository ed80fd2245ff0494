/**
 * Accounting (issue 35, "What to build" 1): over generated inputs and generated answers, every ISIN or holding given
 * ends in exactly one documented state, and the states' counts add up to what was given:
 *   answered with data · answered without data · not in the API's answer (not checked) · not sent (with its reason).
 * The answers come from the simulator through a proxy that, per ISIN, keeps the entry, leaves it out, writes its ISIN
 * in lower case or padded with spaces, or lists it twice; or answers `data: []` for the whole batch. Routes: the four
 * instruments lookups (Add to Input Items, Portfolio Summary), Only Changes Since Last Run, Classify Holdings and
 * Temperature Score. (EU Taxonomy answers one portfolio figure, no entry per holding: holdings_count + removed_count
 * is checked by portfolioRoutes.fuzz.test.ts.)
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { NO_DATA_REASON } from '../../nodes/shared/api/answers';
import { isValidIsin, normalizeIsin } from '../../nodes/shared/input/isin';
import { findIsins } from '../simulator';
import { startProxy } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { chainWorkflow, credentialsFor } from '../helpers/workflows';
import { hintMessages, instrumentsSpec, runNode } from '../helpers/lookupRuns';
import { runWorkflow } from '../workflow/runner';
import { FUZZ_SEED, KNOWN_ISINS, runs } from './arbitraries';

type Fate = 'keep' | 'drop' | 'lower' | 'pad' | 'twice';

interface AnswerPlan {
	/** The whole answer's `data` is an empty list. */
	empty: boolean;
	fate: Map<string, Fate>;
}

type State = 'withData' | 'noData' | 'notInAnswer' | 'notSent';

const NOT_IN_ANSWER = /^not in the API's answer: /;

const fateArb = fc.constantFrom<Fate>('keep', 'keep', 'drop', 'lower', 'pad', 'twice');

/** A plan for the ISINs `pool` (normalised): one fate each, and now and then `data: []`. */
const planFor = (pool: string[]) =>
	fc
		.tuple(
			// One answer in seven is `data: []`.
			fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
			fc.array(fateArb, { minLength: pool.length, maxLength: pool.length }),
		)
		.map(
			([empty, fates]): AnswerPlan => ({
				empty,
				fate: new Map(pool.map((isin, index) => [isin, fates[index]])),
			}),
		);

const fateOf = (plan: AnswerPlan, isin: string): Fate =>
	plan.empty ? 'drop' : (plan.fate.get(isin) ?? 'keep');

/** Applies the plan to a list of entries whose ISIN is read and written by `at`. */
function rewriteList(
	entries: IDataObject[],
	plan: AnswerPlan,
	at: { get: (entry: IDataObject) => unknown; set: (entry: IDataObject, isin: string) => void },
): IDataObject[] {
	if (plan.empty) return [];
	const out: IDataObject[] = [];
	for (const entry of entries) {
		const isin = String(at.get(entry) ?? '');
		const fate = fateOf(plan, isin);
		if (fate === 'drop') continue;
		if (fate === 'lower') at.set(entry, isin.toLowerCase());
		if (fate === 'pad') at.set(entry, `  ${isin} `);
		out.push(entry);
		if (fate === 'twice') out.push(JSON.parse(JSON.stringify(entry)) as IDataObject);
	}
	return out;
}

const instrumentIsin = {
	get: (entry: IDataObject) => entry.isin ?? (entry.metadata as IDataObject | undefined)?.isin,
	set: (entry: IDataObject, isin: string) => {
		if ('isin' in entry) entry.isin = isin;
		else (entry.metadata as IDataObject).isin = isin;
	},
};

async function withProxy<T>(
	target: string,
	plan: () => AnswerPlan,
	rewrite: (body: IDataObject, plan: AnswerPlan) => void,
	use: (url: string) => Promise<T>,
): Promise<T> {
	const proxy = await startProxy(target, (_path, body) => {
		if (body && typeof body === 'object') rewrite(body as IDataObject, plan());
		return body;
	});
	try {
		return await use(proxy.url);
	} finally {
		await proxy.close();
	}
}

const rewriteInstruments = (body: IDataObject, plan: AnswerPlan) => {
	if (Array.isArray(body.data))
		body.data = rewriteList(body.data as IDataObject[], plan, instrumentIsin);
};

/** Input ISINs: valid ones with and without data, as written in sheets (lower case, spaces), and typos. */
const TYPO = 'US0378331006';
const ISIN_TEXTS = [...KNOWN_ISINS, ' us0378331005 ', 'de0007164600', TYPO, 'XS123'];
const POOL = [...new Set(ISIN_TEXTS.map((text) => normalizeIsin(text)))].filter(isValidIsin);

const lookupInput = fc
	.array(
		fc.record({
			isin: fc.constantFrom(...ISIN_TEXTS),
			market_value: fc.integer({ min: 1, max: 1_000_000 }),
		}),
		{ minLength: 1, maxLength: 8 },
	)
	// At least one ISIN to send (a run with none is refused before any request, tested elsewhere).
	.map((items) => [{ isin: KNOWN_ISINS[0], market_value: 100 }, ...items]);

/** What the item's ISIN must end as under the plan (answered: with or without data). */
function expectedState(raw: string, plan: AnswerPlan): 'answered' | 'notInAnswer' | 'notSent' {
	const isin = normalizeIsin(raw);
	if (!isValidIsin(isin)) return 'notSent';
	return fateOf(plan, isin) === 'drop' ? 'notInAnswer' : 'answered';
}

/** The documented state of an instruments result row (found / reason); undefined for anything else. */
function rowState(result: IDataObject): State | undefined {
	const { found, reason } = result;
	if (found === true && reason === null) return 'withData';
	if (found === false && reason === NO_DATA_REASON) return 'noData';
	if (found === null && typeof reason === 'string' && NOT_IN_ANSWER.test(reason))
		return 'notInAnswer';
	if (found === false && typeof reason === 'string' && reason.startsWith('invalid ISIN'))
		return 'notSent';
	return undefined;
}

const countIn = (hints: string[], pattern: RegExp): number => {
	for (const hint of hints) {
		const match = pattern.exec(hint);
		if (match) return Number(match[1].replace(/,/g, ''));
	}
	return 0;
};

const OPERATIONS = [
	['getSfdrClassification', 'sfdr_classification'],
	['getPaiIndicators', 'pai_indicators'],
	['getEsgData', 'esg_data'],
	['getBusinessInvolvements', 'business_involvements'],
] as const;

describe('fuzz: accounting, every ISIN or holding in exactly one documented state', () => {
	const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

	it.each(OPERATIONS)(
		'%s, Add to Input Items and One Item per Instrument: one state per item, the hint counts what the answer left out',
		async (operation) => {
			const outputMode = fc.constantFrom('addToItems', 'perInstrument');
			await fc.assert(
				fc.asyncProperty(lookupInput, planFor(POOL), outputMode, async (items, plan, mode) => {
					const { result, out } = await withProxy(
						sim.url,
						() => plan,
						rewriteInstruments,
						(url) =>
							runNode(
								url,
								items,
								instrumentsSpec(operation, {
									outputMode: mode,
									options: { invalidIsins: 'skip' },
								}),
							),
					);
					expect(result.error).toBeUndefined();
					const tally: Record<State, number> = {
						withData: 0,
						noData: 0,
						notInAnswer: 0,
						notSent: 0,
					};
					/** Distinct ISINs per state (what the hints count). */
					const isinsIn: Record<State, Set<string>> = {
						withData: new Set(),
						noData: new Set(),
						notInAnswer: new Set(),
						notSent: new Set(),
					};
					const pairedCount = new Array<number>(items.length).fill(0);
					for (const { json, pairedItem } of out) {
						// Add to Input Items nests the result under the operation's key; One Item per Instrument is the result.
						const value =
							mode === 'addToItems'
								? (Object.entries(json).find(
										([key, entry]) => key !== 'isin' && typeof entry === 'object' && entry !== null,
									)?.[1] as IDataObject)
								: json;
						const state = rowState(value);
						const paired = [pairedItem ?? []]
							.flat()
							.map((entry) => (entry as { item: number }).item);
						for (const index of paired) {
							pairedCount[index]++;
							const expected = expectedState(items[index].isin, plan);
							expect([index, state]).toEqual([
								index,
								expected === 'answered' ? expect.stringMatching(/^(withData|noData)$/) : expected,
							]);
							tally[state!]++;
							isinsIn[state!].add(normalizeIsin(items[index].isin));
						}
					}
					// Every item in exactly one row, so the states' counts add up to the items given.
					expect(pairedCount).toEqual(items.map(() => 1));
					expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(items.length);
					// The hints count distinct ISINs: left out, and without data (never the left-out ones).
					const hints = hintMessages(result);
					expect(countIn(hints, /^([\d,]+) ISINs? (sent but )?not in the API's answer/)).toBe(
						isinsIn.notInAnswer.size,
					);
					expect(countIn(hints, /^No data for ([\d,]+) of /)).toBe(isinsIn.noData.size);
				}),
				{ numRuns: runs(12), seed: FUZZ_SEED },
			);
		},
	);

	it.each(OPERATIONS)(
		'%s, Portfolio Summary: every holding in the total, left-out and skipped ones not checked',
		async (operation) => {
			await fc.assert(
				fc.asyncProperty(lookupInput, planFor(POOL), async (items, plan) => {
					const { result, out } = await withProxy(
						sim.url,
						() => plan,
						rewriteInstruments,
						(url) =>
							runNode(
								url,
								items,
								instrumentsSpec(operation, {
									outputMode: 'portfolioSummary',
									options: { invalidIsins: 'skip' },
								}),
							),
					);
					expect(result.error).toBeUndefined();
					expect(out).toHaveLength(1);
					const summary = out[0].json;
					const notChecked = items.filter(
						(item) => expectedState(item.isin, plan) !== 'answered',
					).length;
					expect(summary.removed_count).toBe(0);
					expect(summary.holdings_count).toBe(items.length);
					expect(summary.total_market_value).toBe(
						items.reduce((sum, item) => sum + item.market_value, 0),
					);
					expect((summary.not_checked_rows as IDataObject[]).length).toBe(notChecked);
					if (operation === 'getSfdrClassification') {
						const articles = summary.articles as Record<string, IDataObject>;
						expect(articles.not_checked.holdings_count).toBe(notChecked);
						const inBuckets = Object.values(articles).reduce(
							(sum, bucket) => sum + (bucket.holdings_count as number),
							0,
						);
						expect(inBuckets).toBe(items.length);
					} else {
						expect((summary.not_checked as IDataObject).holdings_count).toBe(notChecked);
					}
				}),
				{ numRuns: runs(8), seed: FUZZ_SEED },
			);
		},
	);

	it('Only Changes Since Last Run: a left-out ISIN is not_checked, never a change, and its result is kept', async () => {
		const clean: AnswerPlan = { empty: false, fate: new Map() };
		await fc.assert(
			fc.asyncProperty(lookupInput, planFor(POOL), async (items, plan) => {
				let current = clean;
				const outputs = await withProxy(
					sim.url,
					() => current,
					rewriteInstruments,
					async (url) => {
						const workflow = chainWorkflow(items, {
							type: 'sustainabilityInstruments',
							name: 'Node',
							parameters: {
								operation: 'getSfdrClassification',
								outputMode: 'changesSinceLastRun',
								options: { invalidIsins: 'skip' },
							},
						});
						let staticData: IDataObject = {};
						const seen: IDataObject[][] = [];
						for (const answer of [clean, plan, clean]) {
							current = answer;
							const result = await runWorkflow(
								{ ...workflow, staticData },
								{ credentials: credentialsFor(url), mode: 'trigger' },
							);
							expect(result.error).toBeUndefined();
							staticData = result.savedStaticData;
							seen.push(result.items('Node').map((item) => item.json));
						}
						return seen;
					},
				);
				const sent = [...new Set(items.map((item) => normalizeIsin(item.isin)))].filter(
					isValidIsin,
				);
				const dropped = new Set(sent.filter((isin) => fateOf(plan, isin) === 'drop'));
				const notSentRows = items.filter((item) => !isValidIsin(normalizeIsin(item.isin))).length;
				// Run 2: each left-out ISIN once, as not_checked with the reason; no change of any kind.
				const second = outputs[1];
				for (const json of second) expect(json.status).toBe('not_checked');
				const leftOutRows = second.filter(
					(json) => typeof json.reason === 'string' && NOT_IN_ANSWER.test(json.reason),
				);
				expect(new Set(leftOutRows.map((json) => json.isin))).toEqual(dropped);
				expect(second).toHaveLength(dropped.size + notSentRows);
				// Run 3 (all answered again): the remembered results were kept, so nothing changed and nothing is new.
				expect(outputs[2].filter((json) => json.status !== 'not_checked')).toEqual([]);
			}),
			{ numRuns: runs(6), seed: FUZZ_SEED },
		);
	});

	it('Classify Holdings: Not checked when left out (never Uncovered), one state per holding', async () => {
		await fc.assert(
			fc.asyncProperty(lookupInput, planFor(POOL), async (raw, plan) => {
				const items = raw.map((item, index) => ({
					...item,
					name: `Holding ${index}`,
					instrument_type: 'stock',
				}));
				const { result, out } = await withProxy(
					sim.url,
					() => plan,
					(body, answerPlan) => {
						if (Array.isArray(body.data))
							body.data = rewriteList(body.data as IDataObject[], answerPlan, {
								get: (entry) => entry.isin,
								set: (entry, isin) => (entry.isin = isin),
							});
					},
					(url) =>
						runNode(url, items, {
							type: 'sustainableInvestments',
							name: 'Node',
							parameters: {
								operation: 'classifyHoldings',
								methodology: { __rl: true, mode: 'id', value: 1 },
								invalidIsins: 'skip',
							},
						}),
				);
				expect(result.error).toBeUndefined();
				expect(out).toHaveLength(items.length);
				out.forEach(({ json }, index) => {
					const expected = expectedState(items[index].isin, plan);
					const state =
						json.removed === true
							? 'notSent'
							: json.label === 'Not checked'
								? 'notInAnswer'
								: ['Sustainable', 'Moderate', 'Not sustainable', 'Uncovered'].includes(
											json.label as string,
									  )
									? 'answered'
									: `unknown label ${String(json.label)}`;
					expect([index, state]).toEqual([index, expected]);
				});
			}),
			{ numRuns: runs(8), seed: FUZZ_SEED },
		);
	});

	it('Temperature Score: ISINs matched in any case and spacing; every holding listed, skipped or not checked', async () => {
		const companies = findIsins(
			(d) => d.known && !d.isFund && d.temperature.score !== null,
			4,
			'DE',
		);
		const holdings = fc
			.subarray(companies, { minLength: 1 })
			.chain((isins) =>
				fc.tuple(
					fc.constant(isins),
					fc.array(fc.integer({ min: 1, max: 1_000_000 }), {
						minLength: isins.length,
						maxLength: isins.length,
					}),
				),
			)
			.map(([isins, values]) =>
				isins.map((isin, index) => ({
					isin: index % 2 ? ` ${isin.toLowerCase()}` : isin,
					name: `Company ${index}`,
					instrument_type: 'stock',
					market_value: values[index],
				})),
			);
		await fc.assert(
			fc.asyncProperty(holdings, planFor(companies), async (items, plan) => {
				const { result, out } = await withProxy(
					sim.url,
					() => plan,
					(body, answerPlan) => {
						const portfolio = (body.data as IDataObject | undefined)?.portfolio as
							| IDataObject
							| undefined;
						if (!portfolio || !Array.isArray(portfolio.companies)) return;
						portfolio.companies = rewriteList(portfolio.companies as IDataObject[], answerPlan, {
							get: (entry) => entry.isin,
							set: (entry, isin) => (entry.isin = isin),
						});
					},
					(url) =>
						runNode(url, items, {
							type: 'temperatureScore',
							name: 'Node',
							parameters: { operation: 'getPortfolioTemperature', waitForCalculation: false },
						}),
				);
				expect(result.error).toBeUndefined();
				const summary = out.at(-1)!.json;
				const listed = out
					.slice(0, -1)
					.filter(({ json }) => !json.answer_note)
					.map(({ json }) => json.isin);
				const skipped = summary.skipped_rows as IDataObject[];
				const dropped = items.filter((item) => fateOf(plan, normalizeIsin(item.isin)) === 'drop');
				expect(summary.holdings_count).toBe(items.length);
				// Each holding once: listed (matched whatever the answer's case and spacing) or skipped.
				expect(listed.length + skipped.length).toBe(items.length);
				expect(skipped.map((row) => row.isin).sort()).toEqual(
					dropped.map((item) => normalizeIsin(item.isin)).sort(),
				);
				for (const row of skipped) expect(row.reason).toMatch(NOT_IN_ANSWER);
				expect(summary.not_checked_count).toBe(dropped.length);
				expect(summary.total_market_value).toBe(
					items.reduce((sum, item) => sum + item.market_value, 0),
				);
				expect(summary.weighted_count).toBe(items.length - dropped.length);
			}),
			{ numRuns: runs(8), seed: FUZZ_SEED },
		);
	});
});

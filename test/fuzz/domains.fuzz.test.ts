/**
 * The domains invariant (issue 35, "What to build" 4), over generated answers: the real nodes run inside n8n's
 * engine against the simulator, behind a loopback proxy that puts generated numbers into its answers, drawn in and
 * out of each route's domain (negatives, above 100, ±huge up to ±1e308, off the list). On every route that has
 * numbers:
 *
 * 1. every figure of the output is within its domain, or null with a reason (`domain_note` naming it);
 * 2. every value left out is counted and named (out_of_range_count, the ISIN or the KPI with the value as it came);
 * 3. averages and the portfolio temperature are computed only from values within their domain (recomputed here),
 *    and a null figure of a Portfolio Summary says why (also when the portfolio's total is 0);
 * 4. Only Changes Since Last Run, over two or three runs with a remembered state: a value outside its range is never
 *    a change (no `changed` or `new` item for that ISIN), the ISIN is `not_checked` with the value named, and the next
 *    run within range compares with the last value that was within range.
 *
 * The domains below are written out here from the spec (percentages 0 to 100, emissions and market values not below
 * 0, a temperature score 1 to 6 °C, counts whole, every number within ±1e18), not read from the route table.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from '../simulator';
import { useSimulator } from '../helpers/simulator';
import { startProxy } from '../helpers/proxy';
import {
	fullText,
	hintMessages,
	instrumentsSpec,
	reportSpec,
	runNode,
} from '../helpers/lookupRuns';
import { TITLE_LIMIT } from '../../nodes/shared/api/errors';
import { chainWorkflow, credentialsFor } from '../helpers/workflows';
import type { NodeSpec } from '../helpers/workflows';
import { runWorkflow } from '../workflow/runner';
import { FUZZ_SEED, runs } from './arbitraries';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

const BOUND = 1e18;
interface Domain {
	min: number;
	max: number;
	integer?: boolean;
	oneOf?: number[];
}
const PERCENT: Domain = { min: 0, max: 100 };
const NOT_NEGATIVE: Domain = { min: 0, max: BOUND };
const TEMPERATURE: Domain = { min: 1, max: 6 };
const COUNT: Domain = { min: 0, max: BOUND, integer: true };
const SFDR: Domain = { min: 6, max: 9, oneOf: [6, 8, 9] };

const within = (domain: Domain, value: number) =>
	Number.isFinite(value) &&
	Math.abs(value) <= BOUND &&
	value >= domain.min - (domain === PERCENT ? 0.01 : 0) &&
	value <= domain.max + (domain === PERCENT ? 0.01 : 0) &&
	(!domain.integer || Number.isInteger(value)) &&
	(!domain.oneOf || domain.oneOf.includes(value));

/** A value in the domain, one outside it (below, above, huge, not whole, off the list), or null. */
function valueFor(domain: Domain): fc.Arbitrary<number | null> {
	const inside = domain.oneOf
		? fc.constantFrom(...domain.oneOf)
		: domain.integer
			? fc.integer({ min: domain.min, max: Math.min(domain.max, 1e6) })
			: fc.double({ min: domain.min, max: Math.min(domain.max, 1e9), noNaN: true });
	const outside = fc.oneof(
		fc.constantFrom(1e308, -1e308, 1e19, -1e19, Number.MAX_VALUE),
		fc.double({ min: -1e6, max: domain.min - 0.5, noNaN: true }),
		...(domain.max < BOUND ? [fc.double({ min: domain.max + 0.5, max: 1e9, noNaN: true })] : []),
		...(domain.integer ? [fc.constantFrom(0.5, 2.25)] : []),
		...(domain.oneOf ? [fc.constantFrom(0, 7, 10)] : []),
	);
	return fc.oneof(
		{ weight: 5, arbitrary: inside },
		{ weight: 3, arbitrary: outside },
		{ weight: 1, arbitrary: fc.constant(null) },
	);
}

/** The proxy puts the run's numbers into the simulator's answers: `rewrite` for the path the run asks. */
let rewrite: { path: string; change: (body: IDataObject) => void } | undefined;
let proxy: { url: string; close: () => Promise<void> };
beforeAll(async () => {
	proxy = await startProxy(sim.url, (path, body) => {
		if (rewrite && body && path === rewrite.path) rewrite.change(body as IDataObject);
		return body;
	});
});
afterAll(async () => await proxy.close());

async function run(
	items: IDataObject[],
	spec: NodeSpec,
	path: string,
	change: (body: IDataObject) => void,
) {
	rewrite = { path, change };
	const { result, out } = await runNode(proxy.url, items, spec);
	rewrite = undefined;
	expect(result.error).toBeUndefined();
	return { out: out.map((item) => item.json), hints: hintMessages(result) };
}

const property = async <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>) =>
	await fc.assert(fc.asyncProperty(arbitrary, check), {
		seed: FUZZ_SEED,
		numRuns: runs(15),
		endOnFailure: true,
	});

/** The number as a note shows it. */
const shown = (value: number) => String(value).slice(0, 24);

/** Property 1 for a figure answered as `answered` and output as `output` on an item with `note`. */
function expectFigure(
	domain: Domain,
	answered: number | null,
	output: unknown,
	note: unknown,
	name: string,
) {
	if (answered === null) {
		expect(output).toBeNull();
	} else if (within(domain, answered)) {
		expect(output).toBe(answered);
	} else {
		expect(output).toBeNull();
		expect(note).toEqual(expect.stringContaining(`${name} is ${shown(answered)}, outside`));
	}
}

const outsideCount = (domain: Domain, values: Array<number | null>) =>
	values.filter((value) => value !== null && !within(domain, value)).length;

/** A hint names the values left out when there are some, and no hint is longer than 120 characters. */
function expectHint(hints: string[], leftOut: number) {
	expect(hints.every((hint) => hint.length <= 120)).toBe(true);
	if (leftOut > 0)
		expect(hints).toContainEqual(
			expect.stringMatching(/^\d+ values? out of range \(.*\) left out/),
		);
	else expect(hints.some((hint) => / out of range \(/.test(hint))).toBe(false);
}

/** The figures of a summary that may be null, and the note that says why: `No <figure>: …` (an average: `No average`). */
const FIGURE = /^(weighted_average|percent|coverage_percent|true_percent)$/;
const saysWhy = (figure: string, note: unknown) =>
	typeof note === 'string' &&
	(figure === 'weighted_average'
		? /(^|\. )(No average|Not averaged): \S/.test(note)
		: note.includes(`No ${figure}: `));

/**
 * The null figures of a summary whose object does not say why (a `note` beside it naming the figure;
 * `coverage_note` for the summary's own coverage_percent), by path.
 */
function unexplainedNulls(value: unknown, path: string[] = []): string[] {
	if (typeof value !== 'object' || value === null) return [];
	const record = value as IDataObject;
	const found: string[] = [];
	for (const [key, member] of Object.entries(record)) {
		if (member !== null) found.push(...unexplainedNulls(member, [...path, key]));
		else if (FIGURE.test(key)) {
			const note = path.length === 0 ? record[key.replace(/_percent$/, '_note')] : record.note;
			if (!saysWhy(key, note)) found.push([...path, key].join('.'));
		}
	}
	return found;
}

const STOCKS = findIsins((d) => d.known && !d.isFund && d.temperature.score !== null, 4, 'DE');
const MARKET_VALUES = [1000, 2500, 4000, 7500];
const HOLDINGS: IDataObject[] = STOCKS.map((isin, index) => ({
	isin,
	name: `Stock ${index}`,
	instrument_type: 'stock',
	market_value: MARKET_VALUES[index],
}));

describe('domains: every figure within its domain or null with a reason, on every route with numbers', () => {
	const TAXONOMY_KEYS = [
		'taxonomy_alignment_%',
		'taxonomy_eligible_turnover_%',
		'taxonomy_alignment_capex_%',
		'taxonomy_alignment_opex_%',
	];

	it('EU Taxonomy: each KPI as answered, or null and named; the count and the hint', async () => {
		await property(
			fc.array(valueFor(PERCENT), {
				minLength: TAXONOMY_KEYS.length,
				maxLength: TAXONOMY_KEYS.length,
			}),
			async (values) => {
				const { out, hints } = await run(
					HOLDINGS,
					{ type: 'euTaxonomy', parameters: { operation: 'getPortfolioAlignment' } },
					'/taxonomy/insights',
					(body) => {
						const data: IDataObject = {};
						TAXONOMY_KEYS.forEach((key, index) => (data[key] = values[index]));
						body.data = data;
					},
				);
				const [item] = out;
				TAXONOMY_KEYS.forEach((key, index) =>
					expectFigure(PERCENT, values[index], item[key], item.domain_note, key),
				);
				const leftOut = outsideCount(PERCENT, values);
				expect(item.out_of_range_count ?? 0).toBe(leftOut);
				expectHint(hints, leftOut);
			},
		);
	});

	it('Temperature Score: rows within their domains or null and named; the portfolio temperature from values within them only', async () => {
		const entry = fc.record({
			temperature_score: valueFor(TEMPERATURE),
			market_value: valueFor(NOT_NEGATIVE),
			aum: valueFor(PERCENT),
		});
		await property(
			fc.array(entry, { minLength: STOCKS.length, maxLength: STOCKS.length }),
			async (entries) => {
				const { out, hints } = await run(
					HOLDINGS,
					{
						type: 'temperatureScore',
						parameters: { operation: 'getPortfolioTemperature', waitForCalculation: false },
					},
					'/temperature-score/insights',
					(body) => {
						const data = (body.data ?? body) as IDataObject;
						const companies = (data.portfolio as IDataObject).companies as IDataObject[];
						for (const company of companies)
							Object.assign(company, entries[STOCKS.indexOf(company.isin as string)]);
					},
				);
				const summary = out.find((json) => json.type === 'portfolio')!;
				let weightedSum = 0;
				let covered = 0;
				let leftOut = 0;
				STOCKS.forEach((isin, index) => {
					const row = out.find((json) => json.isin === isin)!;
					const given = entries[index];
					expectFigure(
						TEMPERATURE,
						given.temperature_score,
						row.temperature_score,
						row.domain_note,
						'temperature_score',
					);
					expectFigure(
						NOT_NEGATIVE,
						given.market_value,
						row.market_value,
						row.domain_note,
						'market_value',
					);
					expectFigure(PERCENT, given.aum, row.aum, row.domain_note, 'aum');
					leftOut += outsideCount(TEMPERATURE, [given.temperature_score]);
					leftOut += outsideCount(NOT_NEGATIVE, [given.market_value]);
					leftOut += outsideCount(PERCENT, [given.aum]);
					const { temperature_score: score, market_value: value } = given;
					if (
						score !== null &&
						value !== null &&
						within(TEMPERATURE, score) &&
						within(NOT_NEGATIVE, value) &&
						value > 0
					) {
						weightedSum += score * value;
						covered += value;
					}
				});
				expect(summary.out_of_range_count ?? 0).toBe(leftOut);
				if (covered > 0) {
					const expected = weightedSum / covered;
					expect(Math.abs((summary.portfolio_temperature_score as number) - expected)).toBeLessThan(
						1e-4 + 1e-9 * expected,
					);
				} else {
					expect(summary.portfolio_temperature_score).toBeNull();
					expect(summary.portfolio_temperature_reason).toEqual(expect.any(String));
				}
				expectHint(hints, leftOut);
			},
		);
	});

	const PAI_NAMES = ['scope_1_emissions', 'carbon_footprint'] as const;

	it('Portfolio Summary (PAI): averages from values within their domain only; each left out counted and named by ISIN', async () => {
		const perIsin = fc.record({
			scope_1_emissions: valueFor(NOT_NEGATIVE),
			carbon_footprint: valueFor(NOT_NEGATIVE),
		});
		await property(
			fc.array(perIsin, { minLength: STOCKS.length, maxLength: STOCKS.length }),
			async (values) => {
				const { out, hints } = await run(
					STOCKS.map((isin, index) => ({ isin, mv: MARKET_VALUES[index] })),
					instrumentsSpec('getPaiIndicators', {
						outputMode: 'portfolioSummary',
						marketValueField: 'mv',
					}),
					'/instruments/sustainability-data',
					(body) => {
						for (const entry of body.data as IDataObject[]) {
							const given = values[STOCKS.indexOf((entry.metadata as IDataObject).isin as string)];
							const data = entry.sustainability_data as IDataObject;
							for (const name of PAI_NAMES) (data[name] as IDataObject).value = given[name];
						}
					},
				);
				const indicators = out[0].indicators as IDataObject;
				let leftOutAll = 0;
				for (const name of PAI_NAMES) {
					const figure = indicators[name] as IDataObject;
					let weighted = 0;
					let covered = 0;
					const leftOut: string[] = [];
					STOCKS.forEach((isin, index) => {
						const value = values[index][name];
						if (value === null) return;
						if (!within(NOT_NEGATIVE, value)) {
							leftOut.push(`${isin} (${shown(value)})`);
							return;
						}
						weighted += MARKET_VALUES[index] * value;
						covered += MARKET_VALUES[index];
					});
					leftOutAll += leftOut.length;
					if (covered > 0) {
						const expected = weighted / covered;
						expect(Math.abs((figure.weighted_average as number) - expected)).toBeLessThanOrEqual(
							1e-4 + 1e-9 * expected,
						);
					} else {
						// A null figure says why.
						expect(figure.weighted_average).toBeNull();
						expect(figure.note).toMatch(/^No average: no holding has a value for it/);
					}
					expect(figure.coverage_percent).toBeCloseTo((covered / 15000) * 100, 2);
					expect(figure.out_of_range_count ?? 0).toBe(leftOut.length);
					for (const named of leftOut) expect(figure.out_of_range_note).toContain(named);
				}
				expectHint(hints, leftOutAll);
			},
		);
	});

	it('Portfolio Summary (all four lookups): a null figure always says why, also when the total is 0', async () => {
		const operations = [
			{
				operation: 'getSfdrClassification',
				path: '/instruments/sustainability-profile',
				domain: SFDR,
				set: (entry: IDataObject, value: number | null) =>
					((entry.sustainability_profile as IDataObject).classification = value),
			},
			{
				operation: 'getPaiIndicators',
				path: '/instruments/sustainability-data',
				domain: NOT_NEGATIVE,
				set: (entry: IDataObject, value: number | null) =>
					(((entry.sustainability_data as IDataObject).scope_1_emissions as IDataObject).value =
						value),
			},
			{ operation: 'getEsgData', path: '/instruments/esg-data' },
			{ operation: 'getBusinessInvolvements', path: '/instruments/business-involvements' },
		];
		const holding = fc.record({
			mv: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })),
			fund: fc.constantFrom('A', 'B'),
		});
		await property(
			fc.record({
				route: fc.constantFrom(...operations),
				holdings: fc.array(holding, { minLength: STOCKS.length, maxLength: STOCKS.length }),
				allZero: fc.boolean(),
				groupBy: fc.boolean(),
				cashFund: fc.boolean(),
				values: fc.array(valueFor(NOT_NEGATIVE), {
					minLength: STOCKS.length,
					maxLength: STOCKS.length,
				}),
				classes: fc.array(valueFor(SFDR), { minLength: STOCKS.length, maxLength: STOCKS.length }),
			}),
			async ({ route, holdings, allZero, groupBy, cashFund, values, classes }) => {
				const items: IDataObject[] = STOCKS.map((isin, index) => ({
					isin,
					mv: allZero ? 0 : holdings[index].mv,
					fund: holdings[index].fund,
				}));
				// A fund of nothing but a cash row: its summary has no holding in its total.
				if (cashFund) items.push({ isin: '', instrument_type: 'cash', mv: 100, fund: 'C' });
				const given = route.domain === SFDR ? classes : values;
				const { out } = await run(
					items,
					instrumentsSpec(route.operation, {
						outputMode: 'portfolioSummary',
						marketValueField: 'mv',
						groupBy: groupBy ? 'fund' : '',
					}),
					route.path,
					(body) => {
						if (!route.set) return;
						for (const entry of body.data as IDataObject[])
							route.set(
								entry,
								given[STOCKS.indexOf((entry.metadata as IDataObject).isin as string)],
							);
					},
				);
				expect(out.length).toBeGreaterThan(0);
				for (const summary of out) expect(unexplainedNulls(summary)).toEqual([]);
			},
		);
	});

	it('SFDR, business involvements and ESG rows (One Item per Instrument): each value within its domain or null and named', async () => {
		const routes = [
			{
				operation: 'getSfdrClassification',
				path: '/instruments/sustainability-profile',
				domain: SFDR,
				column: 'classification',
				noteName: 'sustainability_profile.classification',
				set: (entry: IDataObject, value: number | null) =>
					((entry.sustainability_profile as IDataObject).classification = value),
			},
			{
				operation: 'getBusinessInvolvements',
				path: '/instruments/business-involvements',
				domain: PERCENT,
				column: 'thermal_coal_weight',
				noteName: 'sustainability_data.business_involvements.thermal_coal.weight',
				set: (entry: IDataObject, value: number | null) => {
					const involvements = (entry.sustainability_data as IDataObject)
						.business_involvements as IDataObject;
					involvements.thermal_coal = { weight: value, count: 1 };
				},
			},
			{
				operation: 'getEsgData',
				path: '/instruments/esg-data',
				domain: PERCENT,
				column: 'percentage_of_women_managers',
				noteName: 'sustainability_data.percentage_of_women_managers.value',
				set: (entry: IDataObject, value: number | null) =>
					((
						(entry.sustainability_data as IDataObject).percentage_of_women_managers as IDataObject
					).value = value),
			},
		];
		await property(
			fc.constantFrom(...routes).chain((route) =>
				fc.tuple(
					fc.constant(route),
					fc.array(valueFor(route.domain), {
						minLength: STOCKS.length,
						maxLength: STOCKS.length,
					}),
				),
			),
			async ([route, values]) => {
				const isinOf = (entry: IDataObject) =>
					(entry.isin ?? (entry.metadata as IDataObject | undefined)?.isin) as string;
				const { out, hints } = await run(
					STOCKS.map((isin) => ({ isin })),
					instrumentsSpec(route.operation, { outputMode: 'perInstrument', simplify: true }),
					route.path,
					(body) => {
						for (const entry of body.data as IDataObject[])
							route.set(entry, values[STOCKS.indexOf(isinOf(entry))]);
					},
				);
				STOCKS.forEach((isin, index) => {
					const row = out.find((json) => json.isin === isin)!;
					expectFigure(
						route.domain,
						values[index],
						row[route.column],
						row.domain_note,
						route.noteName,
					);
				});
				expectHint(hints, outsideCount(route.domain, values));
			},
		);
	});

	it('Classify Holdings: each weight within 0 to 100 or null and named', async () => {
		await property(
			fc.array(valueFor(PERCENT), { minLength: STOCKS.length, maxLength: STOCKS.length }),
			async (values) => {
				const { out, hints } = await run(
					HOLDINGS,
					{
						type: 'sustainableInvestments',
						parameters: {
							operation: 'classifyHoldings',
							methodology: { __rl: true, mode: 'list', value: 1 },
						},
					},
					'/sustainable-investments/insights',
					(body) => {
						for (const entry of body.data as IDataObject[])
							entry.weight = values[STOCKS.indexOf(entry.isin as string)];
					},
				);
				STOCKS.forEach((isin, index) => {
					const row = out.find((json) => json.isin === isin)!;
					expectFigure(PERCENT, values[index], row.weight, row.domain_note, 'weight');
				});
				expectHint(hints, outsideCount(PERCENT, values));
			},
		);
	});

	it('Generate PDF Report: weights that are all 0 or add up to more than 100 never go into a report', async () => {
		const row = fc.record({
			weight: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 100, noNaN: true })),
			market_value: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e9, noNaN: true })),
		});
		await property(
			fc.array(row, { minLength: STOCKS.length, maxLength: STOCKS.length }),
			async (rows) => {
				sim.reset();
				const items = STOCKS.map((isin, index) => ({
					isin,
					name: `Stock ${index}`,
					currency: 'EUR',
					...rows[index],
				}));
				const { result } = await runNode(sim.url, items, reportSpec({ downloadPdf: false }));
				const sent = sim.requests({ route: 'POST /reports' });
				if (result.error) {
					// Refused before any request, naming the item (n8n's item index, never "Item N:" in the title) and the fix.
					expect(sent).toHaveLength(0);
					expect(result.error.message).not.toMatch(/^Item \d+/);
					expect(result.error.message.length).toBeLessThanOrEqual(TITLE_LIMIT);
					expect(result.error.message).not.toMatch(/…$/);
					const itemIndex = (result.error as { context?: { itemIndex?: number } }).context
						?.itemIndex;
					expect(itemIndex).toBeGreaterThanOrEqual(0);
					expect(itemIndex).toBeLessThan(items.length);
					expect(fullText(result.error)).toContain('Nothing was sent.');
					return;
				}
				const weights = (sent[0].body as { holdings: IDataObject[] }).holdings.map(
					(holding) => holding.weight as number,
				);
				const sum = weights.reduce((total, weight) => total + weight, 0);
				expect(sum).toBeGreaterThan(0);
				expect(sum).toBeLessThanOrEqual(100.5);
				const given = rows.reduce((total, { weight }) => total + weight, 0);
				if (!(given > 0 && given <= 100.5))
					expect(hintMessages(result)).toContainEqual(
						expect.stringMatching(/^Weights worked out from market values/),
					);
			},
		);
	});

	it('Get Many: members a whole number not below 0, or null and named', async () => {
		await property(valueFor(COUNT), async (members) => {
			const { out } = await run(
				[{}],
				{ type: 'portfolioSnapshots', parameters: { operation: 'getMany', returnAll: true } },
				'/portfolios',
				(body) =>
					(body.data = {
						funds: [{ identifier: 'svc-portfolio:org-a_x', name: 'X', snapshots: ['2025-03-31'] }],
						members,
					}),
			);
			expect(out).toHaveLength(1);
			for (const item of out)
				expectFigure(COUNT, members, item.members, item.domain_note, 'data.members');
		});
	});

	it('Only Changes Since Last Run: a value outside its range is never a change; the next run compares with the last value within range', async () => {
		const answersArb = fc.array(
			fc.array(valueFor(SFDR), { minLength: STOCKS.length, maxLength: STOCKS.length }),
			{ minLength: 2, maxLength: 3 },
		);
		const firstSeenArb = fc.constantFrom('remember', 'outputAsNew');
		await property(fc.tuple(answersArb, firstSeenArb), async ([answers, firstSeen]) => {
			const workflow = chainWorkflow(
				STOCKS.map((isin) => ({ isin })),
				instrumentsSpec('getSfdrClassification', {
					outputMode: 'changesSinceLastRun',
					firstSeen,
					simplify: true,
				}),
			);
			let staticData: IDataObject = {};
			// The last classification within range per ISIN: what the node must compare with.
			const trusted = new Map<string, number | null>();
			for (const [runIndex, values] of answers.entries()) {
				rewrite = {
					path: '/instruments/sustainability-profile',
					change: (body) => {
						for (const entry of body.data as IDataObject[]) {
							const isin = (entry.metadata as IDataObject | undefined)?.isin ?? entry.isin;
							(entry.sustainability_profile as IDataObject).classification =
								values[STOCKS.indexOf(isin as string)];
						}
					},
				};
				const result = await runWorkflow(
					{ ...workflow, staticData },
					{ credentials: credentialsFor(proxy.url), mode: 'trigger' },
				);
				rewrite = undefined;
				expect(result.error).toBeUndefined();
				staticData = result.savedStaticData;
				const all = result.items('Node').map((item) => item.json);
				// Only the first run (nothing in static data yet) says that nothing was remembered, with Remember Only.
				expect(all.filter((json) => json.status === 'nothing_remembered')).toHaveLength(
					runIndex === 0 && firstSeen === 'remember' ? 1 : 0,
				);
				const out = all.filter((json) => json.status !== 'nothing_remembered');
				expect(out.every((json) => STOCKS.includes(json.isin as string))).toBe(true);
				STOCKS.forEach((isin, index) => {
					const value = values[index];
					const rows = out.filter((json) => json.isin === isin);
					if (value !== null && !within(SFDR, value)) {
						expect(rows).toEqual([
							expect.objectContaining({
								status: 'not_checked',
								reason: expect.stringContaining(
									`classification is ${shown(value)}, outside its range`,
								),
							}),
						]);
						return;
					}
					if (!trusted.has(isin)) {
						expect(rows).toEqual(
							firstSeen === 'outputAsNew'
								? [expect.objectContaining({ status: 'new', current_classification: value })]
								: [],
						);
					} else if (trusted.get(isin) === value) {
						expect(rows).toEqual([]);
					} else {
						expect(rows).toEqual([
							expect.objectContaining({
								status: 'changed',
								previous_classification: trusted.get(isin),
								current_classification: value,
							}),
						]);
					}
					trusted.set(isin, value);
				});
				const hints = hintMessages(result);
				expect(hints.every((hint) => hint.length <= 120)).toBe(true);
				const leftOut = outsideCount(SFDR, values);
				if (leftOut > 0)
					expect(hints).toContainEqual(
						expect.stringMatching(/^\d+ values? out of range \(.*\) not compared/),
					);
				// The run's note counts only the ISINs it compared, never those not checked.
				if (runIndex === 0)
					expect(hints).toContainEqual(
						expect.stringMatching(
							new RegExp(`^First run with nothing remembered: ${STOCKS.length - leftOut} ISINs? `),
						),
					);
			}
		});
	});
});

/**
 * Issue 35 cases 2, 6 and 8 (first half): every ISIN or holding ends in one documented state. An ISIN a readable
 * answer leaves out is "not in the API's answer" (not checked), never "no data", "Uncovered" or a change; ISINs of
 * the temperature answer are matched like those of the instruments routes; a skipped holding stays in its
 * portfolio's total. Real nodes in n8n's engine, the simulator behind a proxy that drops entries.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from './simulator';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import { chainWorkflow, credentialsFor } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { hintMessages, instrumentsSpec, runNode } from './helpers/lookupRuns';
import { runWorkflow } from './workflow/runner';

const [NINE, EIGHT, SIX] = [9, 8, 6].map(
	(sfdr) => findIsins((d) => d.known && !d.isFund && d.sfdr === sfdr, 1, 'DE')[0],
);
const [EIGHT_B] = findIsins((d) => d.known && !d.isFund && d.sfdr === 8, 2, 'DE').slice(1);

/** Entries of `data` (instruments and insights routes: a list) whose ISIN is in `drop`, left out. */
function dropEntries(drop: () => ReadonlySet<string>) {
	return (_path: string, body: { data?: unknown } | null) => {
		if (body && Array.isArray(body.data))
			body.data = (body.data as IDataObject[]).filter((entry) => {
				const isin = entry.isin ?? (entry.metadata as IDataObject | undefined)?.isin;
				return !drop().has(String(isin));
			});
		return body;
	};
}

async function throughProxy(
	target: string,
	rows: IDataObject[],
	spec: NodeSpec,
	transform: Parameters<typeof startProxy>[1],
) {
	const proxy = await startProxy(target, transform);
	try {
		const { result, out } = await runNode(proxy.url, rows, spec);
		expect(result.error).toBeUndefined();
		return { out: out.map((item) => item.json), hints: hintMessages(result) };
	} finally {
		await proxy.close();
	}
}

const NOT_IN_ANSWER = /^not in the API's answer: .*an answer defect/;

describe("instruments routes: an ISIN left out of the answer is not checked, never 'no data' (case 2)", () => {
	const sim = useSimulator();
	const ROWS = [{ isin: NINE }, { isin: EIGHT }, { isin: SIX }];

	it.each(['getSfdrClassification', 'getPaiIndicators', 'getEsgData', 'getBusinessInvolvements'])(
		'%s, Add to Input Items: the left-out ISIN has reason "not in the API\'s answer" and its own hint',
		async (operation) => {
			const { out, hints } = await throughProxy(
				sim.url,
				ROWS,
				instrumentsSpec(operation),
				dropEntries(() => new Set([EIGHT])),
			);
			expect(out).toHaveLength(3);
			const results = out.map(
				(json) => Object.values(json).find((value) => typeof value === 'object') as IDataObject,
			);
			expect(results[1]).toMatchObject({
				found: null,
				reason: expect.stringMatching(NOT_IN_ANSWER),
			});
			expect(results[0].found).toBe(true);
			expect(hints.join(' ')).toMatch(/1 ISIN not in the API's answer \(not checked\)/);
			expect(hints.join(' ')).not.toMatch(/No data for/);
		},
	);

	it('data: [] for the batch: every ISIN is not in the answer (One Item per Instrument)', async () => {
		const { out, hints } = await throughProxy(
			sim.url,
			ROWS,
			instrumentsSpec('getSfdrClassification', { outputMode: 'perInstrument' }),
			(_path, body) => ({ ...body, data: [] }),
		);
		expect(out.map((json) => json.found)).toEqual([null, null, null]);
		for (const json of out) expect(json.reason).toMatch(NOT_IN_ANSWER);
		expect(hints.join(' ')).toMatch(/3 ISINs not in the API's answer/);
	});

	it('Portfolio Summary: the left-out holding is in not_checked (listed in not_checked_rows), not no_data', async () => {
		const rows = [
			{ isin: NINE, market_value: 1000 },
			{ isin: EIGHT, market_value: 3000 },
			{ isin: SIX, market_value: 1000 },
		];
		const { out } = await throughProxy(
			sim.url,
			rows,
			instrumentsSpec('getSfdrClassification', { outputMode: 'portfolioSummary' }),
			dropEntries(() => new Set([EIGHT])),
		);
		expect(out).toHaveLength(1);
		const [summary] = out;
		expect(summary.total_market_value).toBe(5000);
		expect(summary.articles).toMatchObject({
			article_9: { holdings_count: 1, percent: 20 },
			article_6: { holdings_count: 1, percent: 20 },
			no_data: { holdings_count: 0 },
			not_checked: { holdings_count: 1, market_value: 3000, percent: 60 },
		});
		expect(summary.coverage_percent).toBe(40);
		expect(summary.not_checked_rows).toEqual([
			expect.objectContaining({
				item: 1,
				isin: EIGHT,
				reason: expect.stringMatching(NOT_IN_ANSWER),
			}),
		]);
	});
});

/** Runs of SFDR Classification with Only Changes Since Last Run over NINE and EIGHT, each with the last run's memory. */
function sfdrChangesRuns(url: string): () => Promise<IDataObject[]> {
	const workflow = chainWorkflow([{ isin: NINE }, { isin: EIGHT }], {
		type: 'sustainabilityInstruments',
		name: 'Node',
		parameters: { operation: 'getSfdrClassification', outputMode: 'changesSinceLastRun' },
	});
	let staticData: IDataObject = {};
	return async () => {
		const result = await runWorkflow(
			{ ...workflow, staticData },
			{ credentials: credentialsFor(url), mode: 'trigger' },
		);
		expect(result.error).toBeUndefined();
		staticData = result.savedStaticData;
		return result.items('Node').map((item) => item.json);
	};
}

/** Entries of EIGHT's ISIN in `affected` answered with SFDR class 7 (outside 6, 8, 9). */
function classSeven(affected: () => ReadonlySet<string>) {
	return (_path: string, body: { data?: unknown } | null) => {
		if (body && Array.isArray(body.data))
			for (const entry of body.data as IDataObject[]) {
				const isin = entry.isin ?? (entry.metadata as IDataObject | undefined)?.isin;
				const profile = entry.sustainability_profile as IDataObject | undefined;
				if (affected().has(String(isin)) && profile) profile.classification = 7;
			}
		return body;
	};
}

describe('Only Changes Since Last Run: an ISIN not answered as it should be is not_checked, its remembered result kept', () => {
	const sim = useSimulator();

	it.each([
		[
			'left out of the answer (case 2)',
			dropEntries,
			/^not in the API's answer: .*last result is kept/s,
		],
		[
			'answered with a class of 7, outside its range (domains)',
			classSeven,
			/outside .*range.*7.*last result is kept/s,
		],
	])('%s: no change on that run nor the next', async (_case, rewrite, reason) => {
		let affected = new Set<string>();
		const proxy = await startProxy(
			sim.url,
			rewrite(() => affected),
		);
		const run = sfdrChangesRuns(proxy.url);
		try {
			// The first run remembers (and says that nothing was remembered before it).
			expect(await run()).toEqual([
				expect.objectContaining({ isin: null, status: 'nothing_remembered' }),
			]);
			affected = new Set([EIGHT]);
			const second = await run();
			expect(second).toEqual([
				expect.objectContaining({
					isin: EIGHT,
					status: 'not_checked',
					reason: expect.stringMatching(reason),
				}),
			]);
			expect(JSON.stringify(second)).not.toMatch(/lost_data|"changed"|"new"/);
			affected = new Set();
			expect(await run()).toEqual([]);
		} finally {
			await proxy.close();
		}
	});
});

describe('Portfolio Summary with Invalid ISINs = Skip and Report: shares of the whole sheet (case 8)', () => {
	const sim = useSimulator();

	it('a 1.5 m holding with a typo ISIN stays in a 10 m total as not checked: Article 8 is 55 %, not 64.71 %', async () => {
		const typo = `${EIGHT_B.slice(0, 11)}${(Number(EIGHT_B[11]) + 1) % 10}`;
		const rows = [
			{ isin: EIGHT, market_value: 5_500_000 },
			{ isin: NINE, market_value: 3_000_000 },
			{ isin: typo, market_value: 1_500_000 },
		];
		const { result, out } = await runNode(
			sim.url,
			rows,
			instrumentsSpec('getSfdrClassification', {
				outputMode: 'portfolioSummary',
				options: { invalidIsins: 'skip' },
			}),
		);
		expect(result.error).toBeUndefined();
		const [summary] = out.map((item) => item.json);
		expect(summary.total_market_value).toBe(10_000_000);
		expect(summary.articles).toMatchObject({
			article_8: { percent: 55 },
			article_9: { percent: 30 },
			not_checked: { holdings_count: 1, market_value: 1_500_000, percent: 15 },
			no_data: { holdings_count: 0 },
		});
		expect(summary.not_checked_rows).toEqual([
			expect.objectContaining({
				item: 2,
				reason: expect.stringMatching(/^not sent: invalid ISIN/),
			}),
		]);
		expect(summary.total_note).toMatch(/divide by total_market_value/);
	});
});

describe('Classify Holdings: a holding left out of the answer is "Not checked", never "Uncovered" (case 2)', () => {
	const sim = useSimulator();

	it('labels it Not checked with the reason in answer_note, and says so in a hint', async () => {
		const rows = [NINE, EIGHT].map((isin, index) => ({
			isin,
			name: `Holding ${index}`,
			instrument_type: 'stock',
			market_value: 100,
		}));
		const { out, hints } = await throughProxy(
			sim.url,
			rows,
			{
				type: 'sustainableInvestments',
				name: 'Node',
				parameters: {
					operation: 'classifyHoldings',
					methodology: { __rl: true, mode: 'id', value: 1 },
				},
			},
			dropEntries(() => new Set([EIGHT])),
		);
		expect(out).toHaveLength(2);
		expect(out[1]).toMatchObject({ isin: EIGHT, label: 'Not checked', classification: null });
		expect(out[1].answer_note).toMatch(NOT_IN_ANSWER);
		expect(out[0].label).not.toBe('Not checked');
		expect(hints.join(' ')).toMatch(/1 holding not in the API's answer \(not checked\)/);
	});
});

describe('Temperature Score: ISINs matched in any case and spacing; a left-out holding not checked (cases 2 and 6)', () => {
	const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });
	const COMPANIES = findIsins((d) => d.known && !d.isFund && d.temperature.score !== null, 3, 'DE');
	const ROWS = COMPANIES.map((isin, index) => ({
		isin,
		name: `Company ${index}`,
		instrument_type: 'stock',
		market_value: 1000 * (index + 1),
	}));
	const SPEC: NodeSpec = {
		type: 'temperatureScore',
		name: 'Node',
		parameters: { operation: 'getPortfolioTemperature', waitForCalculation: false },
	};
	const companiesOf = (body: { data?: unknown } | null) =>
		(((body?.data as IDataObject).portfolio as IDataObject).companies ?? []) as IDataObject[];

	it('a lower-case or space-padded ISIN in the answer is matched: the holding counts in the portfolio temperature', async () => {
		const { out, hints } = await throughProxy(sim.url, ROWS, SPEC, (_path, body) => {
			const companies = companiesOf(body);
			companies[0].isin = ` ${String(companies[0].isin).toLowerCase()} `;
			return body;
		});
		const summary = out.at(-1)!;
		expect(summary).toMatchObject({ skipped_count: 0, weighted_count: 3, not_checked_count: 0 });
		expect(summary.answer_note).toBeUndefined();
		expect(out[0].isin).toBe(COMPANIES[0]);
		expect(hints.join(' ')).not.toMatch(/not asked for/);
	});

	it('a holding left out is listed as not in the answer, counted in the total and the hint', async () => {
		const { out, hints } = await throughProxy(sim.url, ROWS, SPEC, (_path, body) => {
			const portfolio = (body?.data as IDataObject).portfolio as IDataObject;
			portfolio.companies = companiesOf(body).filter((entry) => entry.isin !== COMPANIES[2]);
			return body;
		});
		const summary = out.at(-1)!;
		expect(summary).toMatchObject({
			skipped_count: 1,
			not_checked_count: 1,
			not_checked_market_value: 3000,
			total_market_value: 6000,
			covered_market_value_percent: 50,
		});
		expect((summary.skipped_rows as IDataObject[])[0].reason).toMatch(NOT_IN_ANSWER);
		expect(hints.join(' ')).toMatch(/1 holding not in the API's answer \(not checked\)/);
	});
});

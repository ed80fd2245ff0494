/**
 * What a newcomer sees in the editor (issue 28) and the notes above the output after a run (issue 26 item 3), read
 * from the engine's run data: the rows of a typed list with a bad ISIN, the error's item, the Invalid ISINs choice of
 * node version 2 (version 1 keeps Options > Invalid ISINs), and one short execution hint per kind and run.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_HINT_LENGTH } from '../nodes/shared/base/hints';
import { findIsins, instrumentData } from './simulator';
import { descriptionOf, hintMessages, runNode, fullText } from './helpers/lookupRuns';
import type { NodeSpec } from './helpers/workflows';
import type { WorkflowRunResult } from './workflow/runner';
import { useSimulator } from './helpers/simulator';

const sim = useSimulator({ temperatureRoute: true });
const SFDR = 'POST /instruments/sustainability-profile' as const;

/** The list: Apple, Deutsche Post, and Apple's ISIN with a wrong check digit. */
const TYPED_LIST = 'US0378331005, DE0007236101, US0378331006';

const instruments = (parameters: IDataObject, typeVersion = 2): NodeSpec => ({
	type: 'sustainabilityInstruments',
	typeVersion,
	parameters: { operation: 'getSfdrClassification', ...parameters },
});

const run = async (rows: IDataObject[], spec: NodeSpec) =>
	(await runNode(sim.url, rows, spec)).result;

/** Every hint within n8n's length, and none twice. */
function expectTidyHints(result: WorkflowRunResult): string[] {
	const messages = hintMessages(result);
	for (const message of messages) expect(message.length).toBeLessThanOrEqual(MAX_HINT_LENGTH);
	expect(new Set(messages).size).toBe(messages.length);
	return messages;
}

describe('a typed list with a bad ISIN, as a newcomer tries it (issue 28)', () => {
	it('Skip and Report: the typed ISIN first, the same columns on every row, reason null on good rows, no article', async () => {
		const result = await run(
			[{}],
			instruments({ isinSource: 'list', isinList: TYPED_LIST, invalidIsins: 'skip' }),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		const rows = result.items('Node').map((item) => item.json);
		expect(rows.map((row) => row.isin)).toEqual(['US0378331005', 'DE0007236101', 'US0378331006']);
		const columns = Object.keys(rows[0]);
		expect(columns.slice(0, 3)).toEqual(['isin', 'found', 'reason']);
		for (const row of rows) {
			expect(Object.keys(row)).toEqual(columns);
			for (const value of Object.values(row)) expect(value).not.toBeUndefined();
		}
		// Version 2: classification says the article; the long description comes last.
		expect(columns).not.toContain('article');
		expect(columns.indexOf('classification')).toBeLessThan(columns.indexOf('description'));
		expect(rows[0].reason).toBeNull();
		expect(rows[1].reason).toBeNull();
		expect(rows[2]).toMatchObject({
			isin: 'US0378331006',
			found: false,
			reason: expect.stringMatching(/^invalid ISIN: "US0378331006" fails the ISIN check digit/),
		});

		const hints = expectTidyHints(result);
		expect(hints).toContain('1 ISIN not sent (1 invalid ISIN): see reason in the output.');
		expect(hints[hints.length - 1]).toBe('1 request sent.');
		expect(hints.join(' ')).not.toMatch(/Max Requests per Run|planned/);
		const unknown = ['US0378331005', 'DE0007236101'].filter(
			(isin) => instrumentData(isin).sfdr === null,
		);
		if (unknown.length)
			expect(hints).toContain(`No data for ${unknown.length} of 2 ISINs asked (found = false).`);
	});

	it("Stop With an Error (the default): the message names n8n's item index and the place in the list, nothing sent", async () => {
		const result = await run([{}], instruments({ isinSource: 'list', isinList: TYPED_LIST }));
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toMatch(
			/^3rd ISIN of the list: invalid ISIN: "US0378331006" fails the ISIN check digit/,
		);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(descriptionOf(result.error)).toMatch(
			/"Invalid ISINs" \(below the ISINs list\) to Skip and Report/,
		);
		expect(sim.requestCount()).toBe(0);
	});

	it.each([1, 2])(
		'a field of each item (version %s): the item index in the message is the one n8n shows, nothing sent',
		async (typeVersion) => {
			const [known] = findIsins((data) => data.known, 1);
			const result = await run(
				[{ isin: known }, { isin: known }, { isin: 'US0378331006' }],
				instruments({}, typeVersion),
			);
			expect(fullText(result.error)).toMatch(
				/^Invalid ISIN: "US0378331006" fails the ISIN check digit/,
			);
			expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it('a saved version 1 workflow keeps Options > Invalid ISINs and its article column', async () => {
		const result = await run(
			[{}],
			instruments(
				{ isinSource: 'list', isinList: TYPED_LIST, options: { invalidIsins: 'skip' } },
				1,
			),
		);
		expect(result.error).toBeUndefined();
		const rows = result.items('Node').map((item) => item.json);
		expect(rows).toHaveLength(3);
		expect(rows[2]).toMatchObject({ isin: 'US0378331006', found: false });
		expect(Object.keys(rows[0])).toContain('article');
		// The default of version 1 is still to stop.
		const stopped = await run([{}], instruments({ isinSource: 'list', isinList: TYPED_LIST }, 1));
		expect(fullText(stopped.error)).toMatch(/^3rd ISIN of the list/);
		expect(descriptionOf(stopped.error)).toMatch(/Options > Invalid ISINs/);
	});

	it('an ISIN typed in lower case keeps its spelling, the cleaned form beside it on every row', async () => {
		const result = await run(
			[{}],
			instruments({ isinSource: 'list', isinList: 'us0378331005, DE0007236101' }),
		);
		const rows = result.items('Node').map((item) => item.json);
		expect(rows.map((row) => [row.isin, row.isin_normalised])).toEqual([
			['us0378331005', 'US0378331005'],
			['DE0007236101', 'DE0007236101'],
		]);
		expect(Object.keys(rows[0]).slice(0, 4)).toEqual([
			'isin',
			'isin_normalised',
			'found',
			'reason',
		]);
	});
});

describe('execution hints: what a person must notice after a run (issue 26 item 3)', () => {
	it('the budget is named only when the run comes close to it (80 %)', async () => {
		const isins = findIsins((data) => data.known, 4);
		const rows = isins.map((isin) => ({ isin }));
		const far = await run(rows, instruments({ options: { batchSize: 1, maxRequests: 10 } }));
		expect(expectTidyHints(far)).toContain('4 requests sent.');
		const close = await run(rows, instruments({ options: { batchSize: 1, maxRequests: 5 } }));
		expect(expectTidyHints(close)).toContain('4 requests sent: 80% of Max Requests per Run (5).');
	});

	it('rows left out of holdings are counted over every group, in one hint', async () => {
		const isins = findIsins((data) => data.known && !data.isFund, 2, 'DE');
		const rows = ['p1', 'p2'].flatMap((portfolio, index) => [
			{
				portfolio,
				isin: isins[index],
				name: `Company ${index}`,
				instrument_type: 'stock',
				market_value: 1000,
			},
			{ portfolio, isin: '', name: 'Cash EUR', instrument_type: 'cash', market_value: 10 },
		]);
		const result = await run(rows, {
			type: 'euTaxonomy',
			typeVersion: 1,
			parameters: { operation: 'getPortfolioAlignment', groupBy: 'portfolio' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items('Node')).toHaveLength(2);
		const hints = expectTidyHints(result);
		expect(hints.filter((hint) => hint.includes('left out'))).toEqual([
			'2 rows left out (2 cash rows): see removed_rows in the output.',
		]);
		expect(hints).toContain('2 requests sent.');
	});

	it('a portfolio temperature still calculating is said, once', async () => {
		const companies = findIsins(
			(data) => data.known && !data.isFund && data.temperature.score !== null,
			2,
			'DE',
		);
		const result = await run(
			companies.map((isin, index) => ({
				isin,
				name: `C${index}`,
				instrument_type: 'stock',
				market_value: 1000,
			})),
			{
				type: 'temperatureScore',
				typeVersion: 2,
				parameters: { operation: 'getPortfolioTemperature', waitForCalculation: false },
			},
		);
		expect(result.error).toBeUndefined();
		expect(expectTidyHints(result)).toContain(
			'The API is still calculating the portfolio temperature (calculating = true): run again later.',
		);
	});

	it('ISINs of a failed request (On Error: Continue) and ISINs without data are said, once each', async () => {
		const [known] = findIsins((data) => data.known, 1);
		const [unknown] = findIsins((data) => !data.known, 1);
		sim.setFaults(SFDR, { sequence: ['500', '500'] });
		const result = await run([{ isin: 'US0378331005' }, { isin: known }, { isin: unknown }], {
			...instruments({ options: { batchSize: 1, concurrency: 1 } }),
			onError: 'continueRegularOutput',
		});
		expect(result.error).toBeUndefined();
		const hints = expectTidyHints(result);
		expect(hints).toContain('1 ISIN not answered: a request failed (see error in the output).');
		expect(hints).toContain('No data for 1 of 3 ISINs asked (found = false).');
		expect(hints).toContain(`${sim.requestCount({ route: SFDR })} requests sent.`);
	});

	it('holdings the API left out of its answer are said, once, over every group', async () => {
		const companies = findIsins(
			(data) => data.known && !data.isFund && data.temperature.score !== null,
			4,
			'DE',
		);
		// A crypto holding is sent and not scored: the API leaves it out (skipped_rows).
		const rows = ['p1', 'p2'].flatMap((portfolio, index) => [
			{
				portfolio,
				isin: companies[index * 2],
				name: 'Company',
				instrument_type: 'stock',
				market_value: 1000,
			},
			{
				portfolio,
				isin: companies[index * 2 + 1],
				name: 'Coin',
				instrument_type: 'Crypto',
				market_value: 500,
			},
		]);
		const result = await run(rows, {
			type: 'temperatureScore',
			typeVersion: 2,
			parameters: {
				operation: 'getPortfolioTemperature',
				groupBy: 'portfolio',
				options: { pollInterval: 1 },
			},
		});
		expect(result.error).toBeUndefined();
		const hints = expectTidyHints(result);
		expect(hints).toContain(
			'2 holdings sent and skipped by the API (its documented rules): see skipped_rows in the output.',
		);
		expect(hints.join(' ')).not.toMatch(/still calculating/);
	});

	it('time spent waiting after throttling is said, once, with every request counted', async () => {
		// One request per second: the second batch is answered 429 with Retry-After 1 and waits its turn.
		sim.setBurstLimit({ requests: 1, windowMs: 1000, body: 'message', retryAfterSeconds: 1 });
		const isins = findIsins((data) => data.known, 3);
		const result = await run(
			isins.map((isin) => ({ isin })),
			instruments({ options: { batchSize: 1, concurrency: 1 } }),
		);
		expect(result.error).toBeUndefined();
		const hints = expectTidyHints(result);
		expect(hints.filter((hint) => hint.startsWith('Waited'))).toEqual([
			expect.stringMatching(
				/^Waited \d+ s in all because the API asked to slow down or failed and was asked again\.$/,
			),
		]);
		expect(hints).toContain(`${sim.requestCount({ route: SFDR })} requests sent.`);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the tests wait in real time */
/**
 * Bounds on what the API sends back, seen from real node runs inside n8n's engine against the simulator: a total
 * deadline per try (an answer that trickles in does not keep the node waiting), the outcome of a snapshot request
 * that neither its answer nor the list of portfolios can settle, a cap on the size of an answer, and long texts cut
 * in the output.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_ANSWER_BYTES, MAX_OUTPUT_TEXT_LENGTH } from '../nodes/shared/base/constants';
import { DEFAULT_RETRY_POLICY } from '../nodes/shared/api/transport';
import { makeIsin, makeIsins } from './helpers/isins';
import {
	LAST_YEAR,
	descriptionOf,
	hintMessages,
	instrumentsSpec,
	portfolioIdentifier as id,
	reportSpec,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import { useSimulator } from './helpers/simulator';
import { reportRows, snapshotRows, snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { LONG_TEXT_LENGTH, SIM_KEYS, findIsins } from './simulator';
import type { RouteKey } from './simulator';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const POST = 'POST /portfolios' as const;
const GET = 'GET /portfolios' as const;
const KEY = SIM_KEYS.allFamilies;
const QUARTER_END = `${LAST_YEAR}-06-30`;

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });
const policy = { ...DEFAULT_RETRY_POLICY };
afterEach(() => Object.assign(DEFAULT_RETRY_POLICY, policy));

const sfdr = (options: IDataObject = {}) => instrumentsSpec('getSfdrClassification', { options });

async function run(items: IDataObject[], spec: NodeSpec, signal?: AbortSignal) {
	const started = Date.now();
	const { result, out } = await runNode(sim.url, items, spec, { apiKey: KEY, signal });
	return { result, out, seconds: (Date.now() - started) / 1000 };
}

const description = (error: unknown) => String(descriptionOf(error));

const REPORT_ROWS = reportRows();

describe('a try has a total deadline: bytes trickling in do not extend it', () => {
	beforeEach(() => {
		DEFAULT_RETRY_POLICY.requestTimeoutMs = 1500;
	});

	it('an answer trickling in a byte at a time ends the node with a clear error, long before it would be complete', async () => {
		sim.setFaults(SFDR, { sequence: ['trickle'], trickleMs: 200 });
		const { result, seconds } = await run(
			[{ isin: makeIsin('US', 1) }],
			sfdr({ maxThrottleWait: 0 }),
		);
		expect(sim.requests({ route: SFDR })[0].fault).toBe('trickle');
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'The API did not finish its answer to the SFDR classification request within 1.5 s, after 1 try.',
		);
		expect(description(result.error)).toMatch(/^1\.5 s is the limit of one try\./);
		// The answer is a few hundred bytes: at 5 bytes a second it would take a minute or more.
		expect(seconds).toBeLessThan(15);
		expect(sim.requestCount({ route: SFDR })).toBe(1);
	});

	it('a lookup that trickled is asked again within Max Wait, and the answer of the next try is used', async () => {
		sim.setFaults(SFDR, { sequence: ['trickle'], trickleMs: 200 });
		const { result, out } = await run([{ isin: makeIsin('US', 1) }], sfdr({ maxThrottleWait: 30 }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: SFDR })).toBe(2);
		expect(out).toHaveLength(1);
		expect(out[0].json.isin).toBe(makeIsin('US', 1));
	});

	it('Create or Update Snapshot that trickled is not sent again blindly: the list of portfolios is read first', async () => {
		sim.setFaults(POST, { sequence: ['trickle'], trickleMs: 200 });
		const { result, out } = await run(snapshotRows('slow', `${LAST_YEAR}-05-10`), snapshotSpec());
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: POST })[0].fault).toBe('trickle');
		expect(sim.requestCount({ route: GET })).toBe(1);
		expect(sim.requestCount({ route: POST })).toBe(2);
		expect(out[0].json.outcome).toBe('stored');
	});

	it('the PDF download that trickles is stopped at the deadline, not tried again, and the error says so', async () => {
		sim.setDownloadFaults(['trickle'], { trickleMs: 200 });
		const { result, seconds } = await run(REPORT_ROWS, reportSpec());
		expect(result.status).toBe('error');
		expect(fullText(result.error)).toContain(
			'The report was created, but the PDF download did not finish within 1.5 s',
		);
		const downloads = sim.downloads();
		expect(downloads).toHaveLength(1);
		expect(downloads[0].fault).toBe('trickle');
		expect(downloads[0].complete).toBe(false);
		// 2 KB at 5 bytes a second would take minutes.
		expect(seconds).toBeLessThan(15);
	});

	it('a cancelled execution stops at once while an answer trickles in, and sends nothing more', async () => {
		DEFAULT_RETRY_POLICY.requestTimeoutMs = policy.requestTimeoutMs;
		sim.setFaults(SFDR, { sequence: ['trickle'], trickleMs: 200 });
		const controller = new AbortController();
		const pending = run(
			[{ isin: makeIsin('US', 1) }],
			sfdr({ maxThrottleWait: 600 }),
			controller.signal,
		);
		await new Promise((resolve) => setTimeout(resolve, 800));
		controller.abort();
		const { result, seconds } = await pending;
		expect(result.status).toBe('canceled');
		expect(seconds).toBeLessThan(10);
		await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(sim.requestCount({ route: SFDR })).toBe(1);
	});
});

describe('Create or Update Snapshot without an answer, and the list of portfolios unreadable too', () => {
	const expectUncertain = (error: unknown, portfolioId: string) => {
		const message = (error as Error | undefined)?.message;
		expect(message).toBe(
			`Whether the snapshot of portfolio "${portfolioId}" at ${QUARTER_END} was stored is not known`,
		);
		const words = description(error);
		expect(words).toMatch(
			/^The request got no answer, and reading the list of portfolios to check failed too\./,
		);
		expect(words).toContain('The snapshot may have been stored.');
		expect(words).toContain(
			`Get Many operation whether portfolio "${portfolioId}" lists ${QUARTER_END}`,
		);
		expect(words).toContain('running it again is safe');
		expect(words).not.toMatch(/fewer holdings/);
	};

	it('dropped after it was stored, then the list answers 504: the error says what is uncertain and how to check', async () => {
		sim.setFaults(POST, { sequence: ['processed-drop'] });
		sim.setFaults(GET, { sequence: ['504'] });
		const { result } = await run(snapshotRows('fund', `${LAST_YEAR}-05-10`), snapshotSpec());
		expectUncertain(result.error, 'fund');
		expect(description(result.error)).toContain('The check: ');
		expect(sim.requestCount({ route: POST })).toBe(1);
		// It was stored indeed; running again, as the error says, stores the same holdings once more.
		const stored = () => sim.portfolioState('org-a').find((p) => p.identifier === id('fund'));
		expect(stored()?.snapshots.map((snapshot) => snapshot.date)).toEqual([QUARTER_END]);
		const again = await run(snapshotRows('fund', `${LAST_YEAR}-05-10`), snapshotSpec());
		expect(again.result.error).toBeUndefined();
		expect(again.out[0].json.outcome).toBe('updated');
		expect(stored()?.snapshots.map((snapshot) => snapshot.date)).toEqual([QUARTER_END]);
		expect(stored()?.snapshots[0].holdings).toHaveLength(2);
	});

	it('both trickling past the deadline: the same words, naming the deadline', async () => {
		DEFAULT_RETRY_POLICY.requestTimeoutMs = 1500;
		DEFAULT_RETRY_POLICY.maxTotalWaitMs = 1000;
		sim.setFaults(POST, { sequence: ['trickle'], trickleMs: 200 });
		sim.setFaults(GET, { sequence: ['trickle'], trickleMs: 200 });
		const { result } = await run(snapshotRows('late', `${LAST_YEAR}-05-10`), snapshotSpec());
		expectUncertain(result.error, 'late');
		expect(description(result.error)).toContain(
			'The request: The API did not finish its answer to the portfolio snapshot request within 1.5 s',
		);
		expect(description(result.error)).toContain(
			'The check: The API did not finish its answer to the list of portfolios request',
		);
		expect(sim.requestCount({ route: POST })).toBe(1);
	});
});

describe('the size of an answer is capped', () => {
	it(`the largest answer to 10,000 instruments is far below the cap (${MAX_ANSWER_BYTES / 1_000_000} MB)`, async () => {
		const isins = makeIsins(10_000, 1, 'US');
		const holdings = isins.map((isin) => ({
			isin,
			name: 'Holding',
			instrument_type: 'stock',
			currency: 'EUR',
			weight: 0.01,
			market_value: 100,
		}));
		const isinsOnly = { holdings: isins.map((isin) => ({ isin })) };
		const routes: Array<[RouteKey, IDataObject]> = [
			[SFDR, isinsOnly],
			['POST /instruments/sustainability-data', isinsOnly],
			['POST /instruments/business-involvements', isinsOnly],
			['POST /instruments/esg-data', isinsOnly],
			['POST /sustainable-investments/insights', { methodology_id: 1, holdings }],
			['POST /temperature-score/insights', { holdings }],
		];
		const sizes: number[] = [];
		for (const [route, body] of routes) {
			const response = await fetch(`${sim.url}${route.split(' ')[1]}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': KEY },
				body: JSON.stringify(body),
			});
			expect(response.status).toBeLessThan(300);
			sizes.push((await response.arrayBuffer()).byteLength);
		}
		const largest = Math.max(...sizes);
		expect(largest).toBeGreaterThan(1_000_000);
		expect(largest * 10).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
	});

	it.each([
		['oversized-answer', 'announced as 100 MB'],
		['oversized-answer-unannounced', 'reading stopped at 50 MB'],
	] as const)(
		'%s: a clear error naming the route and the size, not sent again',
		async (fault, how) => {
			sim.setFaults(SFDR, { sequence: [fault] });
			const { result } = await run([{ isin: makeIsin('US', 1) }], sfdr());
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(
				`The API's answer to the SFDR classification request is larger than 50 MB: nothing of it was kept.`,
			);
			expect(description(result.error)).toMatch(
				new RegExp(`^It was ${how}, far more than any answer to a request of 10,000 instruments`),
			);
			expect(sim.requestCount({ route: SFDR })).toBe(1);
		},
	);
});

describe('long texts of an answer are cut in the output', () => {
	it('a description of 3,000,000 characters comes out as its first 10,000, marked, with a note', async () => {
		sim.setFaults(SFDR, { sequence: ['answer-long-text'] });
		const isins = findIsins((data) => data.known && !data.isFund, 2, 'US');
		const { result, out } = await run(
			isins.map((isin) => ({ isin })),
			sfdr(),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: SFDR })[0].fault).toBe('answer-long-text');
		const texts: string[] = [];
		const collect = (value: unknown): void => {
			if (typeof value === 'string' && value.startsWith('Long text')) texts.push(value);
			else if (value && typeof value === 'object') Object.values(value).forEach(collect);
		};
		out.forEach((item) => collect(item.json));
		expect(texts).toHaveLength(1);
		expect(texts[0]).toBe(
			`${'Long text '.repeat(LONG_TEXT_LENGTH / 10).slice(0, MAX_OUTPUT_TEXT_LENGTH)}… (truncated, 3,000,000 characters)`,
		);
		expect(JSON.stringify(out).length).toBeLessThan(100_000);
		expect(hintMessages(result).join(' ')).toContain('held 1 text longer than 10,000 characters');
	});
});

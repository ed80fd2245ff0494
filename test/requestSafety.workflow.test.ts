/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- simulator API keys are test values */
/**
 * Requests that may have reached the API without an answer, the pacing wait within Max Wait, and the key kept out of
 * everything the nodes output: each seen from real node runs inside n8n's engine against the simulator.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../nodes/shared/api/transport';
import { pacerFor } from '../nodes/shared/api/pacing';
import { makeIsin, makeIsins } from './helpers/isins';
import {
	DELETE_SNAPSHOT,
	LAST_YEAR,
	descriptionOf,
	instrumentsSpec,
	portfolioIdentifier as id,
	reportSpec,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import { reportRows, snapshotRows, snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import type { FaultKind } from './simulator';
import { useSimulator } from './helpers/simulator';

const POST = 'POST /portfolios' as const;
const GET = 'GET /portfolios' as const;
const DELETE = 'DELETE /portfolios/{identifier}' as const;
const REPORTS = 'POST /reports' as const;
const SFDR = 'POST /instruments/sustainability-profile' as const;
const KEY = 'sim-all-families';
/** Used by the pacing test only: its pacer starts fresh whatever the other tests did. */
const KEY_2 = 'sim-all-families-2';

const sim = useSimulator();
beforeEach(() => sim.setBurstLimit(null));

const run = (items: IDataObject[], spec: NodeSpec, apiKey = KEY) =>
	runNode(sim.url, items, spec, { apiKey });

const createSnapshot = snapshotSpec();
const SFDR_NODE = instrumentsSpec('getSfdrClassification');
const REPORT_ROWS = reportRows();
const report = (onError?: NodeSpec['onError']) => reportSpec({}, onError ? { onError } : {});

describe('a request the API processed, then the connection dropped', () => {
	it('POST /portfolios: a first snapshot is reported stored, never "updated", and is stored once', async () => {
		sim.setFaults(POST, { sequence: ['processed-drop'] });
		const { result, out } = await run(snapshotRows('fresh', `${LAST_YEAR}-05-10`), createSnapshot);
		expect(result.error).toBeUndefined();
		expect(out).toHaveLength(1);
		expect(out[0].json.outcome).toBe('stored');
		expect(String(out[0].json.message)).toContain('connection dropped');
		expect(String(out[0].json.message)).not.toMatch(/updated successfully/i);
		expect(sim.requestCount({ route: GET })).toBe(1);
		const state = sim.portfolioState('org-a');
		expect(state.filter((p) => p.identifier === id('fresh'))).toHaveLength(1);
		expect(state.find((p) => p.identifier === id('fresh'))!.snapshots.map((s) => s.date)).toEqual([
			`${LAST_YEAR}-06-30`,
		]);
	});

	it.each<FaultKind>(['drop', 'proxy-502-html'])(
		'POST /portfolios: %s before the API stored it, the list shows nothing and the answer to the resend is believed',
		async (fault) => {
			sim.setFaults(POST, { sequence: [fault] });
			const { result, out } = await run(
				snapshotRows('fresh', `${LAST_YEAR}-05-10`),
				createSnapshot,
			);
			expect(result.error).toBeUndefined();
			expect(out[0].json.outcome).toBe('created');
			expect(sim.requestCount({ route: POST })).toBe(2);
			expect(sim.requestCount({ route: GET })).toBe(1);
		},
	);

	const [MARCH, JUNE] = [`${LAST_YEAR}-03-31`, `${LAST_YEAR}-06-30`];
	it.each<[string, FaultKind, string[], string, number, string]>([
		[
			'a single snapshot',
			'processed-drop',
			[MARCH, JUNE],
			'snapshot_deleted',
			1,
			'connection dropped',
		],
		['its last snapshot', 'processed-drop', [MARCH], 'portfolio_deleted', 0, 'connection dropped'],
		[
			'a single snapshot',
			'garbage',
			[MARCH, JUNE],
			'snapshot_deleted',
			1,
			'not a readable HTTP answer',
		],
	])(
		'DELETE of %s, %s after the API carried it out: reported deleted, not not_found, no second DELETE',
		async (_, fault, dates, outcome, left, words) => {
			for (const date of dates)
				expect((await run(snapshotRows('del', date), createSnapshot)).result.error).toBeUndefined();
			sim.setFaults(DELETE, { sequence: [fault] });
			const { result, out } = await run(
				[{ identifier: id('del'), date: `${LAST_YEAR}-02-01` }],
				DELETE_SNAPSHOT,
			);
			expect(result.error).toBeUndefined();
			expect(out).toHaveLength(1);
			expect(out[0].json.outcome).toBe(outcome);
			expect(String(out[0].json.message)).toContain(words);
			expect(sim.requestCount({ route: DELETE })).toBe(1);
			const portfolio = sim.portfolioState('org-a').find((p) => p.identifier === id('del'));
			expect(portfolio?.snapshots.length ?? 0).toBe(left);
		},
	);

	it('DELETE dropped before the API carried it out: the snapshot is still listed, so the DELETE is sent again', async () => {
		for (const date of [MARCH, JUNE]) await run(snapshotRows('del', date), createSnapshot);
		sim.setFaults(DELETE, { sequence: ['drop'] });
		const { result, out } = await run(
			[{ identifier: id('del'), date: `${LAST_YEAR}-02-01` }],
			DELETE_SNAPSHOT,
		);
		expect(result.error).toBeUndefined();
		expect(out[0].json.outcome).toBe('snapshot_deleted');
		expect(sim.requestCount({ route: DELETE })).toBe(2);
	});

	it('POST /reports with continueOnFail: an error item paired to the input, never a second POST', async () => {
		sim.setFaults(REPORTS, { sequence: ['processed-drop'] });
		const { result, out } = await run(REPORT_ROWS, report('continueRegularOutput'));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: REPORTS })).toBe(1);
		expect(out).toHaveLength(REPORT_ROWS.length);
		out.forEach((item, index) => {
			expect(String(item.json.error)).toContain('not known');
			expect(item.pairedItem).toEqual({ item: index });
		});
	});
});

describe('client timeouts', () => {
	const defaultTimeout = DEFAULT_RETRY_POLICY.requestTimeoutMs;
	beforeEach(() => {
		DEFAULT_RETRY_POLICY.requestTimeoutMs = 300;
	});
	afterEach(() => {
		DEFAULT_RETRY_POLICY.requestTimeoutMs = defaultTimeout;
	});

	it('POST /reports that times out is not sent again', async () => {
		sim.setFaults(REPORTS, { sequence: ['slow', 'slow'], slowMs: 1500 });
		const { result } = await run(REPORT_ROWS, report());
		expect(sim.requestCount({ route: REPORTS })).toBe(1);
		expect(fullText(result.error)).toContain('did not finish its answer');
		expect(fullText(result.error)).toContain('not known');
	});

	it('count against Max Wait When Throttled: a try that timed out is time waited', async () => {
		sim.setFaults(SFDR, { sequence: ['slow', 'slow', 'slow', 'slow'], slowMs: 1500 });
		const { result } = await run(
			makeIsins(2, 300, 'US').map((isin) => ({ isin })),
			instrumentsSpec('getSfdrClassification', { options: { maxThrottleWait: 0.2 } }),
		);
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(fullText(result.error)).toContain('did not finish its answer');
	});
});

describe('the first pacing wait counts against Max Wait When Throttled', () => {
	const lookup = (options: IDataObject) =>
		instrumentsSpec('getSfdrClassification', {
			options: { batchSize: 1, concurrency: 1, ...options },
		});

	it('with Max Wait 0, a run behind a paced one fails at once, saying it was our own pacing, and sends nothing', async () => {
		sim.setBurstLimit({ requests: 2, windowMs: 1000 });
		// Teaches the pacer of this key the limit (the throttles of this run are within its Max Wait).
		const teach = await run(
			makeIsins(6, 400, 'US').map((isin) => ({ isin })),
			lookup({ maxThrottleWait: 60 }),
			KEY_2,
		);
		expect(teach.result.error).toBeUndefined();
		const before = sim.requestCount({ route: SFDR });
		// Preconditions, not the behaviour under test: the key is now paced, and another run of this n8n has taken
		// the slots of the current window (as a run still going would).
		const pacer = pacerFor(sim.url, KEY_2);
		expect(pacer.limit).toBeDefined();
		const taken = Array.from({ length: pacer.limit! }, () => pacer.reserve(Date.now()));

		const { result } = await run(
			makeIsins(2, 500, 'US').map((isin) => ({ isin })),
			lookup({ maxThrottleWait: 0 }),
			KEY_2,
		);
		expect(sim.requestCount({ route: SFDR })).toBe(before);
		expect(fullText(result.error)).toContain('was not sent: its turn was');
		expect(fullText(result.error)).toContain('Max Wait When Throttled');
		expect(descriptionOf(result.error)).toContain('not the monthly quota');

		// A wait longer than what Max Wait allows: refused as well, and the slot it would have taken is given back.
		const short = await run(
			makeIsins(2, 500, 'US').map((isin) => ({ isin })),
			lookup({ maxThrottleWait: 0.1 }),
			KEY_2,
		);
		expect(sim.requestCount({ route: SFDR })).toBe(before);
		expect(fullText(short.result.error)).toContain('more than Max Wait When Throttled (0.1 s)');
		for (const slot of taken) pacer.release(slot);
	});
});

describe('the API key never appears in what the nodes output', () => {
	it('an error answer quoting the request headers: message, description and stored body hide the key', async () => {
		sim.setFaults(SFDR, { sequence: ['echo-key'] });
		const { result } = await run([{ isin: makeIsin('US', 1) }], SFDR_NODE);
		expect(result.error).toBeDefined();
		const everything = JSON.stringify({
			error: result.error,
			cause: (result.error as { cause?: unknown }).cause,
			run: result.runData ?? null,
		});
		expect(everything).not.toContain(KEY);
		expect(everything).toContain('[API key hidden]');
	});

	it('with continueOnFail, the error item hides the key', async () => {
		sim.setFaults(SFDR, { sequence: ['echo-key'] });
		const { out } = await run([{ isin: makeIsin('US', 1) }], {
			...SFDR_NODE,
			onError: 'continueRegularOutput',
		});
		expect(out).toHaveLength(1);
		expect(sim.requests({ route: SFDR })[0].fault).toBe('echo-key');
		expect(out[0].json.http_code).toBe('400');
		expect(JSON.stringify(out)).not.toContain(KEY);
	});

	it('a success answer echoing the key: the output hides it', async () => {
		sim.setFaults(POST, { sequence: ['echo-key-success'] });
		const { result, out } = await run(snapshotRows('echo', `${LAST_YEAR}-05-10`), createSnapshot);
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: POST })[0].fault).toBe('echo-key-success');
		expect(out[0].json.outcome).toBe('created');
		expect(String(out[0].json.message)).toContain('(request key [API key hidden])');
		expect(JSON.stringify(out)).not.toContain(KEY);
	});
});

describe('network errors in plain words', () => {
	it('a host that does not resolve is named, in our words', async () => {
		const { result } = await runNode(
			'https://api.nonexistent.invalid',
			[{ isin: makeIsin('US', 1) }],
			instrumentsSpec('getSfdrClassification', { options: { maxThrottleWait: 0 } }),
		);
		expect(fullText(result.error)).toContain(
			'Could not find the API host "api.nonexistent.invalid"',
		);
		expect(descriptionOf(result.error)).toContain('no request was spent');
	});

	it('https to a plain http listener: a secure-connection error without OpenSSL text', async () => {
		const https = sim.url.replace('http:', 'https:');
		const { result } = await runNode(https, [{ isin: makeIsin('US', 1) }], SFDR_NODE);
		const origin = new URL(https).origin;
		expect(fullText(result.error)).toContain(
			`Could not set up a secure connection to the API for the SFDR classification request. ${origin}`,
		);
		const text = `${result.error?.message} ${descriptionOf(result.error)}`;
		expect(text).not.toMatch(/routines|ssl3_|openssl/i);
	});
});

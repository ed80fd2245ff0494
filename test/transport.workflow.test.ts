/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
import type { IDataObject } from 'n8n-workflow';

import type { FaultKind } from './simulator';
import { makeIsins } from './helpers/isins';
import { instrumentsSpec, runNode, fullText } from './helpers/lookupRuns';
import type { NodeSpec } from './helpers/workflows';
import { useSimulator } from './helpers/simulator';

/**
 * The transport's policy (spec 7 and 8), seen from a real node run inside n8n against the simulator's faults:
 * what is retried, how often, and what is never retried.
 */
const SFDR = 'POST /instruments/sustainability-profile' as const;
const sim = useSimulator();

const isins = makeIsins(3, 100, 'US');
const run = async (items: IDataObject[], spec: NodeSpec) =>
	(await runNode(sim.url, items, spec)).result;
async function lookup(
	apiKey = 'sim-all-families',
	options: Record<string, unknown> = {},
	signal?: AbortSignal,
) {
	const items = isins.map((isin) => ({ isin }));
	const spec = instrumentsSpec('getSfdrClassification', { options });
	return (await runNode(sim.url, items, spec, { apiKey, signal })).result;
}
const faults = (...sequence: (FaultKind | null)[]) => sim.setFaults(SFDR, { sequence });

describe('transport policy', () => {
	it.each<[string, FaultKind[], number]>([
		['429 Too Many Requests', ['429-message', '429-message'], 3],
		['429 {status, error}', ['429-status'], 2],
		['503', ['503', '503'], 3],
		['500 once', ['500'], 2],
		['a dropped connection', ['drop'], 2],
	])('retries %s and succeeds', async (_, sequence, expectedRequests) => {
		faults(...sequence);
		const result = await lookup();
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: SFDR })).toBe(expectedRequests);
		expect(result.items('Node')).toHaveLength(3);
	});

	it('retries a 500 only once', async () => {
		faults('500', '500', '500');
		const result = await lookup();
		expect(fullText(result.error)).toMatch(/unexpected error/);
		expect(sim.requestCount({ route: SFDR })).toBe(2);
	});

	it('never retries a used-up monthly quota, never asserts a quota size the API did not state, never shows the key', async () => {
		faults('429-limit');
		const result = await lookup();
		expect(fullText(result.error)).toMatch(
			/^This API key's monthly request quota is used up \(the API answered 429 "Limit Exceeded"\)\.[\s\S]*contact the vendor to raise the quota/,
		);
		expect(result.error?.message).not.toMatch(/10,000|10000/);
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(JSON.stringify({ ...result.error, message: result.error?.message })).not.toContain(
			'sim-all-families',
		);
	});

	it('gives up on a lasting throttle within the configured wait, saying how long and how often', async () => {
		faults(...Array<FaultKind>(50).fill('429-message'));
		const result = await lookup('sim-all-families', { maxThrottleWait: 1 });
		expect(fullText(result.error)).toMatch(
			/kept answering "too many requests" \(429\).*gave up after \d+ tries and \d+\.\d s of waiting/,
		);
		expect(fullText(result.error)).toMatch(/not the monthly quota/);
		const requests = sim.requestCount({ route: SFDR });
		expect(requests).toBeGreaterThan(1);
		expect(requests).toBeLessThan(12);
	});

	it('fails at once with Max Wait 0', async () => {
		faults('503');
		// Another key than the test before: its throttles left this process pacing 'sim-all-families', and with Max Wait 0
		// a request that would have to wait for its turn is not sent at all (tested in requestSafety.workflow.test.ts).
		const result = await lookup('sim-all-families-2', { maxThrottleWait: 0 });
		expect(result.error).toBeDefined();
		expect(sim.requestCount({ route: SFDR })).toBe(1);
	});

	it('stops waiting when the execution is cancelled', async () => {
		faults(...Array<FaultKind>(50).fill('429-status'));
		const controller = new AbortController();
		const started = Date.now();
		const pending = lookup('sim-all-families', { maxThrottleWait: 600 }, controller.signal);
		await new Promise((resolve) => setTimeout(resolve, 300));
		controller.abort();
		const result = await pending;
		expect(result.status).toBe('canceled');
		expect(Date.now() - started).toBeLessThan(10_000);
		const seen = sim.requestCount({ route: SFDR });
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(sim.requestCount({ route: SFDR })).toBe(seen);
	});

	it.each([
		['sim-disabled', /This API key is disabled/, 'You must provide an active API key'],
		['sim-gateway-only', /does not recognise this API key/, 'You must provide a valid API key'],
		['not-a-key', /gateway does not know this API key/, 'Forbidden'],
	])(
		'explains the 403 for %s in plain words and keeps the API words',
		async (key, message, apiWords) => {
			const result = await lookup(key);
			expect(fullText(result.error)).toMatch(message);
			expect((result.error as { description?: string }).description).toContain(apiWords);
			expect(sim.requestCount()).toBe(1);
			expect(JSON.stringify({ ...result.error, message: result.error?.message })).not.toContain(
				key,
			);
		},
	);

	it('refuses a body over 10 MB (10,000,000 bytes) before sending it', async () => {
		// Above 10,000,000 bytes and below 10 MiB: refused in decimal megabytes, as the message says.
		const huge = 'x'.repeat(10_100_000);
		const result = await run([{ isin: isins[0], name: huge, currency: 'EUR', market_value: 1 }], {
			type: 'portfolioSnapshots',
			parameters: {
				operation: 'createOrUpdateSnapshot',
				portfolioId: 'big',
				portfolioName: 'Big',
				snapshotDate: '2025-03-31',
			},
		});
		expect(result.error?.message).toBe(
			'The portfolio snapshot request would be 10.1 MB; the API accepts at most 10 MB',
		);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('redirects', () => {
	it.each<FaultKind>(['302', '307'])(
		'an API answer %s is an error naming the target, and neither the key nor the body goes there',
		async (status) => {
			faults(status);
			const result = await lookup();
			expect(sim.requestCount({ route: SFDR })).toBe(1);
			expect(sim.downloads()).toEqual([]);
			expect(fullText(result.error)).toContain(
				`redirect (${status}) to ${new URL(sim.downloadUrl).origin}`,
			);
			expect(result.error?.message).not.toContain('/moved');
			expect(result.items('Node')).toEqual([]);
		},
	);
});

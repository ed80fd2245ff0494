/**
 * Issue 35, "Charges": a 2xx to a charged POST is carried out whatever its body, so nothing is sent twice in one
 * execution and the summary counts it. Generated sequences of answers to POST /reports (2xx readable, 2xx with a
 * body that cannot be read or is not JSON or is labelled as something else, an HTML page with 200, 4xx, 5xx,
 * connections cut before or after the simulator carried the request out), with and without Settings > Retry On Fail
 * and Continue On Fail, three reports per run; the real node in n8n's engine, the simulator behind a raw proxy.
 * Properties: no request is sent again after a 2xx to it; the reports the node counts as generated are reports
 * the simulator generated, and every one the simulator generated is counted as generated or "outcome unknown".
 * The same for Create or Update Snapshot (three portfolios): no snapshot counted stored that the simulator does not
 * hold, every one it holds counted as stored or "outcome unknown (may have been stored)", and never "not stored"; the
 * sequences include a cut after the simulator stored it, the list of portfolios showing it, and the request sent
 * again (by design) failing.
 */
import fc from 'fast-check';

import { passOn, startRawProxy } from '../helpers/proxy';
import type { RawAnswer, Upstream } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { LAST_YEAR, fullText, reportSpec, runNode } from '../helpers/lookupRuns';
import { reportRows, snapshotRows, snapshotSpec } from '../helpers/workflows';
import { FUZZ_SEED, runs } from './arbitraries';

const sim = useSimulator();

type Step =
	| 'ok'
	| 'unreadable-json'
	| 'not-json'
	| 'html-label'
	| 'page-200'
	| '400'
	| '503'
	| 'cut-before'
	| 'cut-after';
const STEPS: Step[] = [
	'ok',
	'unreadable-json',
	'not-json',
	'html-label',
	'page-200',
	'400',
	'503',
	'cut-before',
	'cut-after',
];

const ROWS = [...reportRows(), ...reportRows(), ...reportRows()].map((row, index) => ({
	...row,
	portfolio: ['P-1', 'P-1', 'P-2', 'P-2', 'P-3', 'P-3'][index],
}));

const PAGE = '<!DOCTYPE html><html><body>Maintenance</body></html>';

/** The proxy's answer for a step: whether the simulator saw the request, and what the node got. */
async function answerFor(step: Step, forward: () => Promise<Upstream>): Promise<RawAnswer> {
	switch (step) {
		case 'ok':
			return await passOn(forward);
		case 'unreadable-json':
			return { status: (await forward()).status, body: '{"data":"maintenance"}' };
		case 'not-json':
			return {
				status: (await forward()).status,
				headers: { 'content-type': 'text/plain' },
				body: 'Created',
			};
		case 'html-label': {
			const upstream = await forward();
			return {
				status: upstream.status,
				headers: { 'content-type': 'text/html' },
				body: upstream.text,
			};
		}
		case 'page-200':
			return { status: 200, headers: { 'content-type': 'text/html' }, body: PAGE };
		case '400':
			return { status: 400, body: '{"data":{"message":"Invalid report"}}' };
		case '503':
			return { status: 503, body: '{"message":"Service Unavailable"}' };
		case 'cut-before':
			return 'cut';
		case 'cut-after':
			await forward();
			return 'cut';
	}
}

const stepStatus = (step: Step, upstreamStatus: number): number | undefined =>
	step === 'page-200'
		? 200
		: ['ok', 'unreadable-json', 'not-json', 'html-label'].includes(step)
			? upstreamStatus
			: undefined;

/** "2 of 3 reports were generated" / "Of 3 reports, before the run stopped: 2 generated (…), 1 outcome unknown". */
function counted(message: string): { generated: number; unknown: number } | undefined {
	const plain = /(\d+) of \d+ reports? (?:was|were) generated before the run stopped/.exec(message);
	if (plain) return { generated: Number(plain[1]), unknown: 0 };
	const split =
		/Of \d+ reports, before the run stopped: (\d+) generated.*?, (\d+) outcome unknown/.exec(
			message,
		);
	return split ? { generated: Number(split[1]), unknown: Number(split[2]) } : undefined;
}

/** "2 of 3 snapshots were stored" / "Of 3 snapshots, before the run stopped: 1 stored (…), 1 outcome unknown (…)". */
function countedSnapshots(message: string): { stored: number; unknown: number } | undefined {
	const plain = /(\d+) of \d+ snapshots? (?:was|were) stored before the run stopped/.exec(message);
	if (plain) return { stored: Number(plain[1]), unknown: 0 };
	const split =
		/Of \d+ snapshots, before the run stopped: (\d+) stored.*?, (\d+) outcome unknown \(may have been stored/.exec(
			message,
		);
	return split ? { stored: Number(split[1]), unknown: Number(split[2]) } : undefined;
}

/**
 * Steps to POST /portfolios: any; or, as often, a group stored after 0 to 2 stored ones, the connection cut after the
 * simulator stored it, and the request sent again (the list of portfolios shows it) failing.
 */
const snapshotSteps = fc.oneof(
	fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 8 }),
	fc
		.tuple(
			fc.integer({ min: 0, max: 2 }).map((oks) => new Array<Step>(oks).fill('ok')),
			// The sends after the cut, failing: refused, or cut until no send is left (3 in all).
			fc.constantFrom<Step[]>(
				['400'],
				// Refused again on each try of Retry On Fail (3 tries).
				['400', '400', '400'],
				['cut-before', 'cut-before'],
				['cut-after', 'cut-before'],
				['cut-before', '400'],
				['503', '400'],
			),
			fc.array(fc.constantFrom(...STEPS), { maxLength: 3 }),
		)
		.map(([before, resent, after]) => [...before, 'cut-after' as Step, ...resent, ...after]),
);

describe('charges: a 2xx to POST /reports is never sent again and always counted', () => {
	it('generated answer sequences, with and without Retry On Fail and Continue On Fail', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 8 }),
				fc.boolean(),
				fc.boolean(),
				async (steps, retryOnFail, continueOnFail) => {
					sim.reset();
					const sent: Array<{ body: string; status?: number }> = [];
					const proxy = await startRawProxy(sim.url, async (request, forward) => {
						if (request.path !== '/reports') return await passOn(forward);
						const step = steps[sent.length] ?? 'ok';
						let upstreamStatus = 0;
						const entry: { body: string; status?: number } = { body: JSON.stringify(request.body) };
						sent.push(entry);
						const answer = await answerFor(step, async () => {
							const upstream = await forward();
							upstreamStatus = upstream.status;
							return upstream;
						});
						entry.status = stepStatus(step, upstreamStatus);
						return answer;
					});
					let result;
					let out;
					try {
						({ result, out } = await runNode(
							proxy.url,
							ROWS,
							reportSpec(
								{
									groupBy: 'portfolio',
									reportId: '={{ $json.portfolio }}',
									downloadPdf: false,
									options: { concurrency: 1, maxThrottleWait: 1 },
								},
								{
									...(continueOnFail ? { onError: 'continueRegularOutput' } : {}),
									...(retryOnFail
										? { settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 } }
										: {}),
								},
							),
						));
					} finally {
						await proxy.close();
					}
					// 1. Nothing sent again after a 2xx to it.
					const answered = new Set<string>();
					for (const { body, status } of sent) {
						expect({ sentAgainAfter2xx: answered.has(body) }).toEqual({ sentAgainAfter2xx: false });
						if (status !== undefined && status >= 200 && status < 300) answered.add(body);
					}
					// 2. The counts match what the simulator generated.
					const generated = sim
						.requests({ route: 'POST /reports' })
						.filter((r) => r.status === 201).length;
					if (result.status !== 'error') {
						const withLink = out.filter((item) => !item.json.error).length;
						const saidGenerated = out.filter(
							(item) => item.json.error && /generated/.test(JSON.stringify(item.json)),
						).length;
						expect(withLink).toBeLessThanOrEqual(generated);
						expect(generated).toBeLessThanOrEqual(withLink + saidGenerated);
					} else {
						const count = counted(fullText(result.error));
						if (count) {
							expect(count.generated).toBeLessThanOrEqual(generated);
							expect(generated).toBeLessThanOrEqual(count.generated + count.unknown);
						} else {
							// One report's own error (the first failed): nothing else was generated but it, if it was.
							expect(generated).toBeLessThanOrEqual(1);
						}
					}
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(25) },
		);
	}, 300_000);

	it('Create or Update Snapshot: nothing sent again after the API stored it and answered 2xx, no snapshot counted stored that was not, every stored one counted stored or outcome unknown', async () => {
		const SNAPSHOT_ROWS = ['ch-1', 'ch-2', 'ch-3'].flatMap((portfolio) =>
			snapshotRows(portfolio, `${LAST_YEAR}-05-10`),
		);
		await fc.assert(
			fc.asyncProperty(
				snapshotSteps,
				fc.boolean(),
				fc.boolean(),
				async (steps, retryOnFail, continueOnFail) => {
					sim.reset();
					const sent: Array<{ body: string; carriedOut: boolean }> = [];
					const proxy = await startRawProxy(sim.url, async (request, forward) => {
						if (request.method !== 'POST' || request.path !== '/portfolios')
							return await passOn(forward);
						const step = steps[sent.length] ?? 'ok';
						const entry = { body: JSON.stringify(request.body), carriedOut: false };
						sent.push(entry);
						return await answerFor(step, async () => {
							const upstream = await forward();
							entry.carriedOut =
								upstream.status === 201 && stepStatus(step, upstream.status) !== undefined;
							return upstream;
						});
					});
					let result;
					try {
						({ result } = await runNode(proxy.url, SNAPSHOT_ROWS, {
							...snapshotSpec({ options: { maxThrottleWait: 1 } }),
							...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
							...(retryOnFail
								? { settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 } }
								: {}),
						}));
					} finally {
						await proxy.close();
					}
					// 1. Nothing sent again after the API stored it and answered 2xx.
					const stored = new Set<string>();
					for (const { body, carriedOut } of sent) {
						expect({ sentAgainAfter2xx: stored.has(body) }).toEqual({ sentAgainAfter2xx: false });
						if (carriedOut) stored.add(body);
					}
					// 2. A run that stops never counts a snapshot stored that the simulator does not hold, and counts every one
					// it holds as stored or outcome unknown; the group it stopped at is "not stored" only if it is not held.
					const heldIds = sim
						.portfolioState('org-a')
						.filter((portfolio) => portfolio.snapshots.length > 0)
						.map((portfolio) => portfolio.identifier);
					const message = fullText(result.error);
					const said = countedSnapshots(message);
					if (said) {
						expect(said.stored).toBeLessThanOrEqual(heldIds.length);
						expect(heldIds.length).toBeLessThanOrEqual(said.stored + said.unknown);
					}
					const notStored = /Group portfolio_id = "([^"]*)"[^:]*: not stored\./.exec(message);
					if (notStored) {
						const portfolio = notStored[1];
						const held = heldIds.some((identifier) => identifier.endsWith(`_${portfolio}`));
						expect({ saidNotStored: portfolio, held }).toEqual({
							saidNotStored: portfolio,
							held: false,
						});
					}
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(20) },
		);
	}, 300_000);
});

/**
 * Issue 35, cases 3, 4 and two of 7, seen from real node runs inside n8n's engine: the simulator behind a loopback
 * proxy that changes only what goes over the wire (startRawProxy).
 * - case 3: a 201 to POST /reports that cannot be read was generated (and charged): never sent again in the
 *   execution (Retry On Fail included), counted as generated in the summary; the same for a stored snapshot;
 * - case 4: the API's JSON labelled text/html (or text/plain, or nothing) is read as JSON, sent once;
 * - a `Retry-After` given as an HTTP date is waited for;
 * - an answer in ISO-8859-1 / windows-1252 / UTF-16, as its content type declares, is read in it.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	LAST_YEAR,
	descriptionOf,
	instrumentsSpec,
	reportSpec,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import { passOn, startRawProxy } from './helpers/proxy';
import type { ProxiedRequest, RawAnswer, Upstream } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import { reportRows, snapshotRows, snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { findIsins } from './simulator';

const REPORTS = 'POST /reports' as const;

const sim = useSimulator();

/** Runs `spec` through a raw proxy whose `answer` decides each answer; gives the run and what reached the proxy. */
async function throughProxy(
	items: IDataObject[],
	spec: NodeSpec,
	answer: (request: ProxiedRequest, forward: () => Promise<Upstream>) => Promise<RawAnswer>,
	options: Parameters<typeof runNode>[3] = {},
) {
	const proxy = await startRawProxy(sim.url, answer);
	try {
		const run = await runNode(proxy.url, items, spec, options);
		return { ...run, requests: proxy.requests };
	} finally {
		await proxy.close();
	}
}

const ISIN_ITEMS = findIsins((data) => data.known, 3, 'FR').map((isin) => ({ isin }));
const lookup = (options: IDataObject = {}) => instrumentsSpec('getSfdrClassification', { options });

/** Three portfolios, one report each, one request at a time. */
const THREE_REPORTS = [...reportRows(), ...reportRows(), ...reportRows()].map((row, index) => ({
	...row,
	portfolio: ['P-1', 'P-1', 'P-2', 'P-2', 'P-3', 'P-3'][index],
}));
const THREE = reportSpec({
	groupBy: 'portfolio',
	reportId: '={{ $json.portfolio }}',
	downloadPdf: false,
	options: { concurrency: 1 },
});
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };

/** The report request `nth` (1-based) carried out by the simulator, answered 201 with a body no one can read. */
const unreadableReport =
	(nth: number, body = '{}', contentType = 'application/json') =>
	async (request: ProxiedRequest, forward: () => Promise<Upstream>): Promise<RawAnswer> => {
		const upstream = await forward();
		const reports = sim.requests({ route: REPORTS }).length;
		if (request.path === '/reports' && reports === nth)
			return { status: upstream.status, headers: { 'content-type': contentType }, body };
		return await passOn(async () => upstream);
	};

describe('case 3: a report generated with an answer that cannot be read', () => {
	it('without Retry On Fail: the error counts it as generated ("2 of 3"), not "1 of 3"', async () => {
		const { result } = await throughProxy(THREE_REPORTS, THREE, unreadableReport(2));
		expect(sim.requests({ route: REPORTS }).map((request) => request.status)).toEqual([201, 201]);
		expect(fullText(result.error)).toContain(
			'2 of 3 reports were generated before the run stopped',
		);
		expect(fullText(result.error)).toContain('[its answer unreadable, no link]');
		expect(descriptionOf(result.error)).toContain(
			'The API answered 201, so the report was generated (and charged) although its answer cannot be read',
		);
	});

	it.each<[string, string, string]>([
		['an empty object', '{}', 'application/json'],
		['a text that is not JSON', 'Created', 'text/plain'],
		['an HTML page', '<!DOCTYPE html><html><body>Created</body></html>', 'text/html'],
	])(
		'with Retry On Fail, %s: never sent again, the retries fail with the same error',
		async (_, body, contentType) => {
			const { result } = await throughProxy(
				THREE_REPORTS,
				{ ...THREE, settings: RETRY },
				unreadableReport(2, body, contentType),
			);
			expect(result.status).toBe('error');
			// Report 1 generated once, report 2 generated once (its answer unreadable), report 3 never sent.
			expect(sim.requests({ route: REPORTS }).map((request) => request.status)).toEqual([201, 201]);
			expect(result.error?.message).not.toMatch(/1 of 3|0 of 3/);
			expect(String(descriptionOf(result.error))).toMatch(
				/Retry On Fail did not send this report again|not sent again/,
			);
		},
	);

	it('Create or Update Snapshot: a 201 it cannot read is stored, never sent again by Retry On Fail, and counted as stored', async () => {
		const rows = [
			...snapshotRows('wire-a', `${LAST_YEAR}-05-10`),
			...snapshotRows('wire-b', `${LAST_YEAR}-05-10`),
		];
		let posts = 0;
		const { result } = await throughProxy(
			rows,
			{ ...snapshotSpec(), settings: RETRY },
			async (request, forward) => {
				const upstream = await forward();
				if (request.method === 'POST' && request.path === '/portfolios' && ++posts === 1)
					return { status: upstream.status, body: '{"data":"maintenance"}' };
				return await passOn(async () => upstream);
			},
		);
		expect(result.status).toBe('error');
		expect(sim.requests({ route: 'POST /portfolios' })).toHaveLength(1);
		expect(descriptionOf(result.error)).toContain('so the snapshot was stored although');
	});
});

describe('a snapshot stored, its answer cut, listed, and the request sent again failing: outcome unknown, never "not stored"', () => {
	const rows = ['cut-a', 'cut-b', 'cut-c'].flatMap((portfolio) =>
		snapshotRows(portfolio, `${LAST_YEAR}-05-10`),
	);
	const QUARTER_END = `${LAST_YEAR}-06-30`;
	/** POST /portfolios answered per `steps` (then passed on): 'cut' after the simulator stored it, or 400 unsent. */
	const posts =
		(steps: Array<'ok' | 'cut' | '400'>) =>
		async (request: ProxiedRequest, forward: () => Promise<Upstream>): Promise<RawAnswer> => {
			if (request.method !== 'POST' || request.path !== '/portfolios') return await passOn(forward);
			const step = steps.shift() ?? 'ok';
			if (step === '400') return { status: 400, body: '{"data":{"message":"Invalid snapshot"}}' };
			if (step === 'cut') {
				await forward();
				return 'cut';
			}
			return await passOn(forward);
		};
	const held = () =>
		sim
			.portfolioState('org-a')
			.filter((portfolio) => portfolio.snapshots.length > 0)
			.map((portfolio) => portfolio.identifier.replace(/^.*_/, ''));

	it('the run stops: the summary counts it as outcome unknown (may have been stored), the error says why', async () => {
		const { result } = await throughProxy(rows, snapshotSpec(), posts(['ok', 'cut', '400']));
		expect(sim.requests({ route: 'POST /portfolios' })).toHaveLength(2);
		expect(sim.requests({ route: 'GET /portfolios' })).toHaveLength(1);
		expect(held()).toEqual(['cut-a', 'cut-b']);
		// The title says what failed; the group and the summary of the run follow in the description.
		const message = fullText(result.error);
		expect(message).toContain(
			`Group portfolio_id = "cut-b", date = "${LAST_YEAR}-05-10": outcome unknown (may have been stored).`,
		);
		expect(message).toContain(
			`Of 3 snapshots, before the run stopped: 1 stored (cut-a at ${QUARTER_END}), 1 outcome unknown (may have been stored: cut-b at ${QUARTER_END}), 1 not stored;`,
		);
		expect(message).not.toMatch(/cut-b[^)]*\): not stored/);
		expect(String(result.error?.message)).toMatch(
			/^Whether the snapshot of portfolio "cut-b" at .* is not known/,
		);
		expect(descriptionOf(result.error)).toContain('the list of portfolios then showed a snapshot');
	});

	it('with Retry On Fail, sent again and refused again: still outcome unknown', async () => {
		const { result } = await throughProxy(
			rows,
			{ ...snapshotSpec(), settings: RETRY },
			posts(['ok', 'cut', '400', '400', '400']),
		);
		expect(result.status).toBe('error');
		expect(held()).toEqual(['cut-a', 'cut-b']);
		expect(fullText(result.error)).toContain('1 outcome unknown (may have been stored: cut-b at');
		expect(fullText(result.error)).not.toMatch(/: not stored\./);
	});

	it('with On Error > Continue: its error items say it may have been stored', async () => {
		const { result, out } = await throughProxy(
			rows,
			snapshotSpec({}, 'continueRegularOutput'),
			posts(['ok', 'cut', '400']),
		);
		expect(result.error).toBeUndefined();
		expect(held()).toEqual(['cut-a', 'cut-b', 'cut-c']);
		const errors = out.filter((item) => item.json.error);
		expect(errors).toHaveLength(2);
		for (const item of errors)
			expect(item.json.error).toMatch(
				/^Whether the snapshot of portfolio "cut-b" at .* is not known \(it may have been stored\)/,
			);
	});
});

describe("case 4: the body decides: the API's JSON under any content type is read as JSON, sent once", () => {
	it.each(['text/html', 'text/html; charset=utf-8', 'text/plain', 'application/octet-stream', ''])(
		'a lookup answered as "%s"',
		async (contentType) => {
			// Max Wait 3 s: taken for a proxy's page (as before issue 35), it fails in seconds rather than minutes.
			const { result, out, requests } = await throughProxy(
				ISIN_ITEMS,
				lookup({ maxThrottleWait: 3 }),
				async (_request, forward) => {
					const upstream = await forward();
					return {
						status: upstream.status,
						headers: { 'content-type': contentType },
						body: upstream.text,
					};
				},
			);
			expect(result.error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(out.every((item) => (item.json.sfdr as IDataObject).found === true)).toBe(true);
		},
	);

	it('a report answered 201 as text/html is generated once and its PDF link read', async () => {
		const { result, out } = await throughProxy(
			reportRows(),
			reportSpec({ downloadPdf: false }),
			async (_request, forward) => {
				const upstream = await forward();
				return {
					status: upstream.status,
					headers: { 'content-type': 'text/html; charset=utf-8' },
					body: upstream.text,
				};
			},
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: REPORTS })).toBe(1);
		expect(JSON.stringify(out[0].json)).toContain('/documents/');
	});
});

describe('case 7: Retry-After as an HTTP date', () => {
	it('a 429 asking to retry at a date 4 s ahead: the next try waits for it', async () => {
		let tries = 0;
		const { result, requests } = await throughProxy(
			ISIN_ITEMS,
			lookup(),
			async (_request, forward) => {
				if (++tries === 1) {
					// HTTP dates have whole seconds: 4 s ahead, rounded up, is 4 to 5 s away.
					const at = new Date(Math.ceil((Date.now() + 4000) / 1000) * 1000);
					return {
						status: 429,
						headers: { 'retry-after': at.toUTCString() },
						body: '{"message":"Too Many Requests"}',
					};
				}
				return await passOn(forward);
			},
		);
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(3500);
	}, 30_000);

	it('a date beyond Max Wait When Throttled: not asked again early, the error says so', async () => {
		const { result, requests } = await throughProxy(
			ISIN_ITEMS,
			lookup({ maxThrottleWait: 2 }),
			async () => ({
				status: 429,
				headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() },
				body: '{"message":"Too Many Requests"}',
			}),
		);
		expect(result.status).toBe('error');
		expect(requests).toHaveLength(1);
		expect(descriptionOf(result.error)).toMatch(
			/The API asked to wait \d+(\.\d+)? s before asking again \(Retry-After\), more than Max Wait When Throttled leaves/,
		);
	});
});

describe('case 7: the charset the content type declares', () => {
	const NAME = 'Société Générale, Ærø Øl & Müller';
	it.each<[string, (text: string) => Buffer]>([
		['application/json; charset=ISO-8859-1', (text) => Buffer.from(text, 'latin1')],
		['application/json; charset=windows-1252', (text) => Buffer.from(text, 'latin1')],
		['text/html; charset="iso-8859-1"', (text) => Buffer.from(text, 'latin1')],
		['application/json; charset=utf-16le', (text) => Buffer.from(text, 'utf16le')],
		[
			'application/json; charset=utf-16',
			(text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
		],
	])('%s', async (contentType, encode) => {
		const { result, out } = await throughProxy(ISIN_ITEMS, lookup(), async (_request, forward) => {
			const upstream = await forward();
			const body = JSON.parse(upstream.text) as { data: IDataObject[] };
			for (const entry of body.data)
				(entry.sustainability_profile as IDataObject).description = NAME;
			return {
				status: upstream.status,
				headers: { 'content-type': contentType },
				body: encode(JSON.stringify(body)),
			};
		});
		expect(result.error).toBeUndefined();
		const shown = JSON.stringify(out.map((item) => item.json));
		expect(shown).toContain(NAME);
		expect(shown).not.toContain('\uFFFD');
	});
});

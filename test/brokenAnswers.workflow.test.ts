/**
 * Answers broken on the wire and pages of proxies in front of the API (issue 29, items 1 and 2), seen from real node
 * runs inside n8n's engine against the simulator: a body cut short, bytes that are not HTTP, a bad chunk size, a
 * corrupt gzip body and a header overflow are network failures of the "may have been carried out" kind (asked again
 * on lookups, settled by the list on snapshots, "outcome unknown" on reports), a 502 page too; a 503 page is asked
 * again like a 503, within a bound for reports; no message carries a parser's text or a page's content.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../nodes/shared/api/transport';
import { makeIsin } from './helpers/isins';
import {
	LAST_YEAR,
	descriptionOf,
	instrumentsSpec,
	portfolioIdentifier as id,
	reportSpec as report,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import { useSimulator } from './helpers/simulator';
import { reportRows, snapshotRows, snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { PROXY_PAGE_SECRETS, WIRE_FAULT_KINDS, findIsins } from './simulator';
import type { FaultKind } from './simulator';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const REPORTS = 'POST /reports' as const;
const POST = 'POST /portfolios' as const;
const GET = 'GET /portfolios' as const;

const sim = useSimulator();
const run = (items: IDataObject[], spec: NodeSpec) => runNode(sim.url, items, spec);
const lookup = (options: IDataObject = {}) => instrumentsSpec('getSfdrClassification', { options });
const ISIN_ITEMS = findIsins((data) => data.known, 3, 'US').map((isin) => ({ isin }));

/** Every text of the error a user or a log can see. */
function everything(error: unknown): string {
	const { message, description, httpCode, messages } = (error ?? {}) as {
		message?: string;
		description?: string;
		httpCode?: string;
		messages?: unknown;
	};
	return JSON.stringify({ message, description, httpCode, messages, error });
}

/** Texts of Node's HTTP parser, zlib and axios that must never reach a message. */
const RAW_TEXTS =
	/Parse Error|HPE_|Expected HTTP|incorrect header check|Z_DATA_ERROR|Z_BUF_ERROR|stream has been aborted|"aborted"|Header overflow|Invalid character in chunk size/i;

function expectNoRawText(error: unknown): void {
	const shown = everything(error);
	expect(shown).not.toMatch(RAW_TEXTS);
	for (const secret of PROXY_PAGE_SECRETS) expect(shown).not.toContain(secret);
	expect(shown).not.toMatch(/<html|<title|nginx/i);
}

const ONCE_THEN_FINE: FaultKind[] = [...WIRE_FAULT_KINDS, 'proxy-502-html'];

describe('a lookup meets a broken answer, a 502 or a 503 page once', () => {
	it.each<FaultKind>([...ONCE_THEN_FINE, 'proxy-503-html'])(
		'%s: asked again once, and succeeds',
		async (kind) => {
			sim.setFaults(SFDR, { sequence: [kind] });
			const { result, out } = await run(ISIN_ITEMS, lookup());
			expect(result.error).toBeUndefined();
			expect(sim.requests({ route: SFDR }).map((request) => request.fault)).toEqual([kind, null]);
			expect(out).toHaveLength(3);
			expect(out.every((item) => (item.json.sfdr as IDataObject).found === true)).toBe(true);
		},
	);
});

describe('a lookup that keeps meeting it', () => {
	it.each<[FaultKind, RegExp]>([
		['cut-body', /The connection dropped partway through the answer/],
		['garbage', /What came back was not a readable HTTP answer/],
		['bad-chunk', /The connection dropped partway through the answer/],
		['corrupt-gzip', /marked as compressed but could not be decompressed/],
		['header-overflow', /What came back was not a readable HTTP answer/],
	])(
		'%s: tried 1 + %s times (the network retries), then an error in plain words',
		async (kind, words) => {
			sim.setFaults(SFDR, { sequence: Array<FaultKind>(10).fill(kind) });
			const { result } = await run(ISIN_ITEMS, lookup());
			expect(sim.requestCount({ route: SFDR })).toBe(1 + DEFAULT_RETRY_POLICY.maxNetworkRetries);
			expect(fullText(result.error)).toMatch(
				/^The API's answer to the SFDR classification request could not be read, after \d+ tries\. /,
			);
			expect(fullText(result.error)).toMatch(words);
			expect(fullText(result.error)).toContain(
				`after ${1 + DEFAULT_RETRY_POLICY.maxNetworkRetries} tries`,
			);
			expect((result.error as { httpCode?: unknown }).httpCode ?? undefined).toBeUndefined();
			expectNoRawText(result.error);
		},
	);

	it('a 502 page: tried 1 + the network retries, the message says a proxy answered 502, never the page', async () => {
		sim.setFaults(SFDR, { sequence: Array<FaultKind>(10).fill('proxy-502-html') });
		const { result } = await run(ISIN_ITEMS, lookup());
		expect(sim.requestCount({ route: SFDR })).toBe(1 + DEFAULT_RETRY_POLICY.maxNetworkRetries);
		expect(fullText(result.error)).toMatch(
			/^A proxy or gateway in front of the API got no usable answer to the SFDR classification request, after 4 tries\. It answered 502 \(Bad Gateway\) with a page of its own \(content type text\/html\)/,
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe('502');
		expectNoRawText(result.error);
	});
});

describe('pages that are not retried: status, content type and plain words, never the page', () => {
	it.each<[FaultKind, string, RegExp]>([
		['firewall-403-html', '403', /a firewall or proxy in front of the API refused the request/i],
		['not-found-404-html', '404', /the address does not lead to the API/i],
	])('%s', async (kind, status, words) => {
		sim.setFaults(SFDR, { sequence: [kind, kind] });
		const { result } = await run(ISIN_ITEMS, lookup());
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(fullText(result.error)).toContain(
			`answered the SFDR classification request with ${status} and an HTML page`,
		);
		expect(fullText(result.error)).toMatch(words);
		expect(descriptionOf(result.error)).toContain(`status ${status}, content type text/html`);
		expect((result.error as { httpCode?: string }).httpCode).toBe(status);
		expectNoRawText(result.error);
	});

	it.each<FaultKind>(['504', 'proxy-504-html'])(
		"a %s is the route's timeout, not retried blindly: one ISIN cannot be split, so one request; no page shown",
		async (kind) => {
			sim.setFaults(SFDR, { sequence: [kind] });
			const { result } = await run([{ isin: makeIsin('US', 1) }], lookup());
			expect(sim.requestCount({ route: SFDR })).toBe(1);
			expect(fullText(result.error)).toMatch(/took longer than the API allows \(29 seconds\)/);
			expectNoRawText(result.error);
		},
	);

	it('a 503 page persisting: asked again like a 503, then the page is named, not shown', async () => {
		sim.setFaults(SFDR, { sequence: Array<FaultKind>(20).fill('proxy-503-html') });
		const { result } = await run(ISIN_ITEMS, lookup({ maxThrottleWait: 3 }));
		expect(sim.requestCount({ route: SFDR })).toBeGreaterThan(1);
		expect(fullText(result.error)).toContain('What came: an HTML page with content type text/html');
		expectNoRawText(result.error);
	});
});

describe('a report meets a broken answer or a 502 page: outcome unknown, never sent again', () => {
	it.each<FaultKind>([...ONCE_THEN_FINE, 'processed-drop'])('%s', async (kind) => {
		sim.setFaults(REPORTS, { sequence: [kind] });
		const { result } = await run(reportRows(), report());
		expect(sim.requests({ route: REPORTS }).map((request) => request.fault)).toEqual([kind]);
		expect(fullText(result.error)).toMatch(
			/^Whether the API carried out the PDF report request is not known: the report may have been generated\./,
		);
		const description = String(descriptionOf(result.error));
		expect(description).toContain('The report may have been generated');
		expect(description).toContain('It was not requested a second time');
		expect(description).toContain('costs one more request');
		expectNoRawText(result.error);
	});

	it.each<[FaultKind, RegExp, string]>([
		[
			'503',
			/^The API stayed unavailable \(503\) for the PDF report request: gave up after 3 tries/,
			'the PDF report request is tried at most 3 times',
		],
		[
			'proxy-503-html',
			/\(status 503, after 3 tries\)\. What came: an HTML page with content type text\/html/,
			'The page itself is not shown.',
		],
	])(
		'a lasting %s is asked again at most twice (3 tries), and worded for a 503, not a throttle',
		async (kind, words, explained) => {
			sim.setFaults(REPORTS, { sequence: Array<FaultKind>(20).fill(kind) });
			const { result } = await run(reportRows(), report());
			expect(sim.requestCount({ route: REPORTS })).toBe(3);
			expect(fullText(result.error)).toMatch(words);
			expect(result.error?.message).not.toMatch(/Concurrency|short-term limit/);
			expect(descriptionOf(result.error)).toContain(explained);
			expectNoRawText(result.error);
		},
	);

	it('of three reports, one whose outcome is unknown is counted as such in the summary', async () => {
		sim.setFaults(REPORTS, { sequence: [null, 'cut-body'] });
		const rows = [...reportRows(), ...reportRows(), ...reportRows()].map((row, index) => ({
			...row,
			portfolio: ['P-1', 'P-1', 'P-2', 'P-2', 'P-3', 'P-3'][index],
		}));
		const { result } = await run(
			rows,
			report({
				groupBy: 'portfolio',
				reportId: '={{ $json.portfolio }}',
				downloadPdf: false,
				options: { concurrency: 1 },
			}),
		);
		expect(sim.requestCount({ route: REPORTS })).toBe(2);
		expect(fullText(result.error)).toContain(
			'Of 3 reports, before the run stopped: 1 generated ("Nordic Fund" (portfolio = "P-1")), 1 outcome unknown (may have been generated: "Nordic Fund" (portfolio = "P-2")), 1 not generated',
		);
		expect(result.error?.message).not.toMatch(/0 of 3|1 of 3 reports were generated/);
	});
});

describe('a snapshot request meets a broken answer: settled by reading the list', () => {
	it.each<FaultKind>(['cut-body', 'garbage', 'corrupt-gzip'])(
		'Create or Update Snapshot, %s after it was stored: reported stored, the list read once',
		async (kind) => {
			sim.setFaults(POST, { sequence: [kind] });
			const { result, out } = await run(
				snapshotRows('fresh', `${LAST_YEAR}-05-10`),
				snapshotSpec(),
			);
			expect(result.error).toBeUndefined();
			expect(out[0].json.outcome).toBe('stored');
			expect(String(out[0].json.message)).toContain('An earlier try got no readable answer');
			expect(JSON.stringify(out)).not.toMatch(RAW_TEXTS);
			expect(sim.requestCount({ route: GET })).toBe(1);
			expect(sim.requestCount({ route: POST })).toBe(2);
			expect(sim.portfolioState('org-a').filter((p) => p.identifier === id('fresh'))).toHaveLength(
				1,
			);
		},
	);
});

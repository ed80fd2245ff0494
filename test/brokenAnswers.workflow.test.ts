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
import { useSimulator } from './helpers/simulator';
import {
	chainWorkflow,
	credentialsFor,
	reportRows,
	snapshotRows,
	snapshotSpec,
} from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { PROXY_PAGE_SECRETS, SIM_KEYS, WIRE_FAULT_KINDS, findIsins } from './simulator';
import type { FaultKind } from './simulator';
import { runWorkflow } from './workflow/runner';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const REPORTS = 'POST /reports' as const;
const POST = 'POST /portfolios' as const;
const GET = 'GET /portfolios' as const;
const DELETE = 'DELETE /portfolios/{identifier}' as const;
const LAST_YEAR = new Date().getUTCFullYear() - 1;
const id = (clientId: string) => `svc-portfolio:org-a_${clientId}`;

const sim = useSimulator();

async function run(items: IDataObject[], spec: NodeSpec) {
	const result = await runWorkflow(chainWorkflow(items, spec), {
		credentials: credentialsFor(sim.url, SIM_KEYS.allFamilies),
	});
	return { result, out: result.items('Node') };
}

const lookup = (options: IDataObject = {}): NodeSpec => ({
	type: 'sustainabilityInstruments',
	parameters: { operation: 'getSfdrClassification', options },
});
const report = (parameters: IDataObject = {}): NodeSpec => ({
	type: 'sustainabilityReports',
	parameters: {
		operation: 'generatePdfReport',
		reportName: 'Nordic Fund',
		reportId: 'nordic',
		...parameters,
	},
});
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

describe('a lookup meets a broken answer or a 502 page once', () => {
	it.each(ONCE_THEN_FINE)('%s: asked again once, and succeeds', async (kind) => {
		sim.setFaults(SFDR, { sequence: [kind] });
		const { result, out } = await run(ISIN_ITEMS, lookup());
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: SFDR }).map((request) => request.fault)).toEqual([kind, null]);
		expect(out).toHaveLength(3);
		expect(out.every((item) => (item.json.sfdr as IDataObject).found === true)).toBe(true);
	});
});

describe('a lookup that keeps meeting it', () => {
	it.each<[FaultKind, RegExp]>([
		['cut-body', /the connection dropped partway through the answer/],
		['garbage', /what came back was not a readable HTTP answer/],
		['bad-chunk', /the connection dropped partway through the answer/],
		['corrupt-gzip', /marked as compressed but could not be decompressed/],
		['header-overflow', /what came back was not a readable HTTP answer/],
	])(
		'%s: tried 1 + %s times (the network retries), then an error in plain words',
		async (kind, words) => {
			sim.setFaults(SFDR, { sequence: Array<FaultKind>(10).fill(kind) });
			const { result } = await run(ISIN_ITEMS, lookup());
			expect(sim.requestCount({ route: SFDR })).toBe(1 + DEFAULT_RETRY_POLICY.maxNetworkRetries);
			expect(result.error?.message).toMatch(
				/^The API's answer to the SFDR classification request could not be read: /,
			);
			expect(result.error?.message).toMatch(words);
			expect(result.error?.message).toContain(
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
		expect(result.error?.message).toMatch(
			/^A proxy or gateway in front of the API answered 502 \(Bad Gateway\) with a page of its own \(content type text\/html\) to the SFDR classification request, after 4 tries/,
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe('502');
		expectNoRawText(result.error);
	});
});

describe('pages that are not retried: status, content type and plain words, never the page', () => {
	it.each<[FaultKind, string, RegExp]>([
		['firewall-403-html', '403', /a firewall or proxy in front of the API refused the request/],
		['not-found-404-html', '404', /the address does not lead to the API/],
	])('%s', async (kind, status, words) => {
		sim.setFaults(SFDR, { sequence: [kind, kind] });
		const { result } = await run(ISIN_ITEMS, lookup());
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(result.error?.message).toContain(
			`answered the SFDR classification request with ${status} and an HTML page`,
		);
		expect(result.error?.message).toMatch(words);
		expect((result.error as { description?: string }).description).toContain(
			`status ${status}, content type text/html`,
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe(status);
		expectNoRawText(result.error);
	});

	it("a 504 page is the route's timeout (a lookup splits its batch), and the page is not shown", async () => {
		sim.setFaults(SFDR, { sequence: Array<FaultKind>(10).fill('proxy-504-html') });
		const { result } = await run([{ isin: makeIsin('US', 1) }], lookup());
		expect(sim.requestCount({ route: SFDR })).toBe(1);
		expect(result.error?.message).toContain('took longer than the API allows');
		expectNoRawText(result.error);
	});

	it('a 503 page persisting: asked again like a 503, then the page is named, not shown', async () => {
		sim.setFaults(SFDR, { sequence: Array<FaultKind>(20).fill('proxy-503-html') });
		const { result } = await run(ISIN_ITEMS, lookup({ maxThrottleWait: 3 }));
		expect(sim.requestCount({ route: SFDR })).toBeGreaterThan(1);
		expect(result.error?.message).toContain(
			'with an HTML page (status 503, content type text/html)',
		);
		expectNoRawText(result.error);
	});
});

describe('a report meets a broken answer or a 502 page: outcome unknown, never sent again', () => {
	it.each(ONCE_THEN_FINE)('%s', async (kind) => {
		sim.setFaults(REPORTS, { sequence: [kind] });
		const { result } = await run(reportRows(), report());
		expect(sim.requestCount({ route: REPORTS })).toBe(1);
		expect(result.error?.message).toMatch(
			/whether the API carried it out is not known, so the report may have been generated\.$/,
		);
		const description = String((result.error as { description?: string }).description);
		expect(description).toContain('The report may have been generated');
		expect(description).toContain('It was not requested a second time');
		expectNoRawText(result.error);
	});

	it('a 503 is asked again at most twice (3 tries), and worded for a 503, not a throttle', async () => {
		sim.setFaults(REPORTS, { sequence: Array<FaultKind>(20).fill('503') });
		const { result } = await run(reportRows(), report());
		expect(sim.requestCount({ route: REPORTS })).toBe(3);
		expect(result.error?.message).toMatch(
			/^The API stayed unavailable \(503\) for the PDF report: gave up after 3 tries/,
		);
		expect(result.error?.message).not.toMatch(/Concurrency|short-term limit/);
		expect((result.error as { description?: string }).description).toContain(
			'the PDF report request is tried at most 3 times',
		);
	});

	it('a 503 page too: 3 tries at most', async () => {
		sim.setFaults(REPORTS, { sequence: Array<FaultKind>(20).fill('proxy-503-html') });
		const { result } = await run(reportRows(), report());
		expect(sim.requestCount({ route: REPORTS })).toBe(3);
		expectNoRawText(result.error);
	});

	it('a 503 once: the second try generates the report', async () => {
		sim.setFaults(REPORTS, { sequence: ['503'] });
		const { result, out } = await run(reportRows(), report({ downloadPdf: false }));
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: REPORTS })).toBe(2);
		expect(out).toHaveLength(1);
	});

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
		expect(result.error?.message).toContain(
			'Of 3 reports, before the run stopped: 1 generated ("Nordic Fund" (portfolio = "P-1")), 1 outcome unknown (may have been generated: "Nordic Fund" (portfolio = "P-2")), 1 not generated',
		);
		expect(result.error?.message).not.toMatch(/0 of 3|1 of 3 reports were generated/);
	});
});

describe('a snapshot request meets a broken answer: settled by reading the list', () => {
	it('Create or Update Snapshot, a 502 page before it was stored: the list shows nothing, the answer to the resend is believed', async () => {
		sim.setFaults(POST, { sequence: ['proxy-502-html'] });
		const { result, out } = await run(snapshotRows('fresh', `${LAST_YEAR}-05-10`), snapshotSpec());
		expect(result.error).toBeUndefined();
		expect(out[0].json.outcome).toBe('created');
		expect(sim.requestCount({ route: GET })).toBe(1);
		expect(sim.requestCount({ route: POST })).toBe(2);
	});

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

	it('Delete Snapshot, an answer that is not HTTP after it was carried out: reported deleted, no second DELETE', async () => {
		for (const date of [`${LAST_YEAR}-03-31`, `${LAST_YEAR}-06-30`])
			expect((await run(snapshotRows('del', date), snapshotSpec())).result.error).toBeUndefined();
		sim.setFaults(DELETE, { sequence: ['garbage'] });
		const { result, out } = await run([{ identifier: id('del'), date: `${LAST_YEAR}-02-01` }], {
			type: 'portfolioSnapshots',
			parameters: {
				operation: 'deleteSnapshot',
				portfolio: { __rl: true, mode: 'id', value: '={{ $json.identifier }}' },
				snapshotDate: '={{ $json.date }}',
			},
		});
		expect(result.error).toBeUndefined();
		expect(out[0].json.outcome).toBe('snapshot_deleted');
		expect(String(out[0].json.message)).toContain('what came back was not a readable HTTP answer');
		expect(sim.requestCount({ route: DELETE })).toBe(1);
	});
});

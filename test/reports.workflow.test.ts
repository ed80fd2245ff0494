/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Sustainability Reports node, run inside n8n's engine (test/workflow/runner.ts) against the API simulator over HTTP:
 * the report is created, the PDF downloaded from the second (download) listener and attached to an email.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, INode } from 'n8n-workflow';

import { lastCompletedQuarterEnd } from '../nodes/shared/input/dates';
import { SustainabilityReports } from '../nodes/SustainabilityReports/SustainabilityReports.node';
import { reportFileName } from '../nodes/SustainabilityReports/actions/reportItems';
import {
	BENCHMARK_INDICES,
	REDIRECT_PATH,
	SECRET_PAGE_TEXT,
	SIM_KEYS,
	findIsins,
} from './simulator';
import type { FaultKind } from './simulator';
import { chainWorkflow, inTimeZone } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { runWorkflow } from './workflow/runner';
import { useSimulator } from './helpers/simulator';
import { pairedTo as paired } from './helpers/portfolioRouteTests';
import { fullText } from './helpers/lookupRuns';

const ROUTE = 'POST /reports' as const;
const ISINS = findIsins((data) => data.known && !data.isFund, 4, 'SE');
const [FUND] = findIsins((data) => data.known && data.isFund, 1, 'IE');

/** Holdings as a sheet gives them (Weight % / Market Value headers), in Swedish crowns. */
const HOLDINGS: IDataObject[] = (
	[
		[ISINS[0], 'Alpha AB', 'Stock', '40%', '400 000'],
		[ISINS[1], 'Beta AB', 'Stock', 35, 350000],
		['', 'Cash SEK', 'Cash', 5, 50000],
		[ISINS[2], 'Gamma AB', 'Stock', 20, 200000],
	] as const
).map(([isin, name, type, weight, marketValue]) => ({
	isin,
	name,
	instrument_type: type,
	currency: 'SEK',
	'Weight %': weight,
	'Market Value': marketValue,
}));

const sim = useSimulator();

interface Flow {
	email?: boolean;
	onError?: INode['onError'];
	/** The workflow's Timezone setting (default: none, n8n's default time zone). */
	timezone?: string;
	/** Node settings: Retry On Fail and its tries. */
	settings?: NodeSpec['settings'];
}

function workflow(rows: IDataObject[], parameters: IDataObject, flow: Flow = {}) {
	const report: NodeSpec = {
		type: 'sustainabilityReports',
		name: 'Report',
		parameters: {
			operation: 'generatePdfReport',
			reportName: 'Nordic Balanced Fund',
			reportId: 'nordic-balanced',
			...parameters,
		},
		onError: flow.onError,
		settings: flow.settings,
	};
	const email: NodeSpec = {
		type: 'n8n-nodes-base.emailSend',
		typeVersion: 2.1,
		name: 'Send Email',
		parameters: {
			fromEmail: 'reports@example.com',
			toEmail: 'client@example.com',
			subject: '=Sustainability report {{ $json.report_id }} {{ $json.snapshot_at }}',
			emailFormat: 'text',
			text: 'Please find the report attached.',
			options: { attachments: 'data' },
		},
		credentials: { smtp: { id: 'smtp', name: 'SMTP' } },
	};
	const chain = flow.email ? chainWorkflow(rows, report, email) : chainWorkflow(rows, report);
	return flow.timezone ? inTimeZone(chain, flow.timezone) : chain;
}

/** `rows` -> the report node (-> Send Email), against the file's simulator or another Base URL. */
async function run(
	rows: IDataObject[],
	parameters: IDataObject,
	flow: Flow = {},
	baseUrl = sim.url,
) {
	return await runWorkflow(workflow(rows, parameters, flow), {
		credentials: {
			sustainabilityComplianceApi: { apiKey: SIM_KEYS.allFamilies, baseUrl },
			smtp: { host: 'localhost', port: 25, user: '', password: '', secure: false },
		},
		coreNodes: 'standIns',
	});
}

/** How many pages poppler's pdftoppm renders of `pdf`; undefined where pdftoppm is not installed. */
function renderedPages(pdf: Buffer): number | undefined {
	if (spawnSync('pdftoppm', ['-v']).error) return undefined;
	const dir = mkdtempSync(join(tmpdir(), 'report-pdf-'));
	try {
		const file = join(dir, 'report.pdf');
		writeFileSync(file, pdf);
		execFileSync('pdftoppm', ['-png', '-r', '50', file, join(dir, 'page')], { stdio: 'pipe' });
		return readdirSync(dir).filter((name) => name.endsWith('.png')).length;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('Sustainability Reports node (workflow, simulator)', () => {
	it('creates the report, downloads the PDF without the API key and hands it to Send Email as an attachment', async () => {
		const result = await run(HOLDINGS, { snapshotDate: '2025-08-14T00:00:00' }, { email: true });
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(sim.requestCount({ route: ROUTE })).toBe(1);

		const body = sim.requests({ route: ROUTE })[0].body as IDataObject;
		expect(body).toMatchObject({
			name: 'Nordic Balanced Fund',
			identifier: 'nordic-balanced',
			type: 'esg-overview',
			snapshot_at: '2025-08-14',
			benchmark_index: 'S&P 500',
		});
		expect(body).not.toHaveProperty('benchmark_etf_mutual_fund');
		expect(body).not.toHaveProperty('methodology_id');
		expect(body.holdings).toEqual(
			[
				[ISINS[0], 'Alpha AB', 40, 400000],
				[ISINS[1], 'Beta AB', 35, 350000],
				[ISINS[2], 'Gamma AB', 20, 200000],
			].map(([isin, name, weight, market_value]) => ({
				isin,
				name,
				instrument_type: 'stock',
				currency: 'SEK',
				weight,
				market_value,
			})),
		);

		const [report] = result.items('Report');
		expect(result.items('Report')).toHaveLength(1);
		expect(paired(report)).toEqual([0, 1, 2, 3]);
		expect(report.json).toMatchObject({
			name: 'Nordic Balanced Fund',
			report_id: 'nordic-balanced',
			type: 'esg-overview',
			snapshot_at: '2025-09-30',
			default_benchmark: BENCHMARK_INDICES['S&P 500'],
			holdings_count: 3,
			removed_count: 1,
			removed_rows: [{ item: 2, name: 'Cash SEK', isin: null, reason: 'cash row' }],
			downloaded: true,
			file_name: 'nordic-balanced_esg-overview_2025-09-30.pdf',
		});
		expect(report.json.request_id).toEqual(expect.any(String));
		expect(report.json.identifier).toEqual(expect.any(String));
		expect(String(report.json.location_url)).toMatch(new RegExp(`^${sim.downloadUrl}/documents/`));
		expect(report.binary?.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: 'nordic-balanced_esg-overview_2025-09-30.pdf',
		});

		const pdf = await result.binary('Report', 0, 'data');
		expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(report.json.file_size).toBe(pdf.length);
		// A PDF that renders; said aloud where poppler's pdftoppm is not installed (CI has it).
		const pages = renderedPages(pdf);
		if (pages !== undefined) expect(pages).toBeGreaterThan(0);
		// eslint-disable-next-line no-console -- a check left out is said, not passed in silence
		else console.warn('pdftoppm is not installed: the report PDF was not rendered');

		// The download went to the other host, without the API key.
		const downloads = sim.downloads();
		expect(downloads).toHaveLength(1);
		expect(downloads[0].status).toBe(200);
		expect(downloads[0].headers).not.toHaveProperty('x-api-key');
		expect(JSON.stringify(downloads[0].headers)).not.toContain(SIM_KEYS.allFamilies);

		// The binary flows straight into the Send Email node as an attachment.
		expect(result.emails).toHaveLength(1);
		const [email] = result.emails;
		expect(email.subject).toBe('Sustainability report nordic-balanced 2025-09-30');
		expect(email.attachments).toHaveLength(1);
		expect(email.attachments[0]).toMatchObject({
			property: 'data',
			fileName: 'nordic-balanced_esg-overview_2025-09-30.pdf',
			mimeType: 'application/pdf',
			size: pdf.length,
		});
		expect(email.attachments[0].content.equals(pdf)).toBe(true);
	});

	it('Group By: one report per group, each paired to its group, in the chosen binary field; the fund ISIN benchmark wins', async () => {
		const rows = HOLDINGS.map((row, index) => ({
			...row,
			portfolio: index < 2 ? 'P-1' : 'P/2 Växt',
		}));
		const result = await run(rows, {
			groupBy: 'portfolio',
			reportId: '={{ $json.portfolio }}',
			reportType: 'mifid2',
			methodology: 2,
			benchmarkFundIsin: ` ${FUND.toLowerCase()} `,
			binaryPropertyName: 'report',
			snapshotDate: '2025-02-01',
		});
		expect(result.error).toBeUndefined();
		const items = result.items('Report');
		expect(items.map(paired)).toEqual([
			[0, 1],
			[2, 3],
		]);
		expect(items.map((item) => item.json.portfolio)).toEqual(['P-1', 'P/2 Växt']);
		expect(items.map((item) => item.json.report_id)).toEqual(['P-1', 'P/2 Växt']);
		expect(items.map((item) => item.binary?.report?.fileName)).toEqual([
			'P-1_mifid2_2025-03-31.pdf',
			'P_2_Vaxt_mifid2_2025-03-31.pdf',
		]);
		expect(items[1].json.removed_count).toBe(1);
		const bodies = sim.requests({ route: ROUTE }).map((request) => request.body as IDataObject);
		expect(bodies).toHaveLength(2);
		for (const body of bodies) {
			expect(body.benchmark_etf_mutual_fund).toBe(FUND);
			expect(body).not.toHaveProperty('benchmark_index');
			expect(body.methodology_id).toBe(2);
			expect(body.type).toBe('mifid2');
		}
		expect(items[0].json.default_benchmark).toBe(FUND);
		expect((await result.binary('Report', 1, 'report')).subarray(0, 5).toString()).toBe('%PDF-');
		expect(sim.downloads()).toHaveLength(2);
	});

	it('with Download PDF off, returns only the link; an empty Snapshot Date means the last completed quarter end', async () => {
		// UTC+14: the zone in which a new day, and on a quarter's last day a new quarter, starts first.
		const result = await run(
			HOLDINGS,
			{ downloadPdf: false, benchmarkIndex: 'OMX Stockholm' },
			{ timezone: 'Pacific/Kiritimati' },
		);
		expect(result.error).toBeUndefined();
		const [report] = result.items('Report');
		expect(report.binary).toBeUndefined();
		expect(report.json.downloaded).toBe(false);
		expect(report.json.location_url).toEqual(expect.stringContaining('/documents/'));
		expect(sim.downloads()).toHaveLength(0);
		const body = sim.requests({ route: ROUTE })[0].body as IDataObject;
		expect(body.snapshot_at).toBe(lastCompletedQuarterEnd(new Date(), 'Pacific/Kiritimati'));
		expect(report.json).toMatchObject({
			snapshot_at: body.snapshot_at,
			snapshot_date: body.snapshot_at,
		});
		expect(body.benchmark_index).toBe('OMX Stockholm');
	});

	it.each([
		["={{ new Date('2025-09-30T22:00:00Z') }}", '2025-09-30T22:00:00.000Z'],
		["={{ DateTime.fromISO('2025-10-01') }}", '2025-10-01T00:00:00.000+02:00'],
	])(
		'in Europe/Berlin, Snapshot Date %s (midnight of 1 October in Berlin) gives the report of Q4 2025, with a note',
		async (snapshotDate, shown) => {
			const result = await run(
				HOLDINGS,
				{ snapshotDate, downloadPdf: false },
				{ timezone: 'Europe/Berlin' },
			);
			expect(result.error).toBeUndefined();
			const body = sim.requests({ route: ROUTE })[0].body as IDataObject;
			expect(body.snapshot_at).toBe('2025-10-01');
			const [report] = result.items('Report');
			expect(report.json).toMatchObject({ snapshot_at: '2025-12-31', snapshot_date: '2025-10-01' });
			expect(String(report.json.snapshot_date_note)).toMatch(
				/^Snapshot Date \S+ read as 2025-10-01 \(Q4 2025\): it is exactly midnight in the workflow's time zone Europe\/Berlin; in UTC/,
			);
			// The DateTime is shown as n8n's expression gives it (in the process's zone); the Date always in UTC.
			if (shown.endsWith('Z')) expect(report.json.snapshot_date_note).toContain(shown);
		},
	);

	// Issue 35: a date-only value that reaches the node as a moment (UTC midnight) was read in the workflow's zone: in
	// New York (n8n's default) or Los Angeles the report was for the quarter, or the year, before.
	it.each<[string, string | undefined, string, string, string]>([
		['the default zone', undefined, "={{ new Date('2025-10-01') }}", '2025-10-01', '2025-12-31'],
		[
			'America/Los_Angeles',
			'America/Los_Angeles',
			'2025-01-01T00:00:00Z',
			'2025-01-01',
			'2025-03-31',
		],
		['Europe/Berlin', 'Europe/Berlin', '2025-10-01T00:00:00+09:00', '2025-10-01', '2025-12-31'],
	])(
		'%s (Timezone setting %s): Snapshot Date %s, midnight in one reading only, is sent as %s (quarter end %s), with a hint',
		async (_zone, timezone, snapshotDate, sent, quarterEnd) => {
			const result = await run(HOLDINGS, { snapshotDate, downloadPdf: false }, { timezone });
			expect(result.error).toBeUndefined();
			expect((sim.requests({ route: ROUTE })[0].body as IDataObject).snapshot_at).toBe(sent);
			const [report] = result.items('Report');
			expect(report.json).toMatchObject({ snapshot_at: quarterEnd, snapshot_date: sent });
			expect(String(report.json.snapshot_date_note)).toContain(
				`read as ${sent} (Q${Number(quarterEnd.slice(5, 7)) / 3} 2025): it is exactly midnight in`,
			);
			const hints = (
				(result.runData.Report?.[0] as { hints?: Array<{ message: string }> } | undefined)?.hints ??
				[]
			).map((hint) => hint.message);
			expect(hints).toContainEqual(expect.stringMatching(`^Snapshot Date read as ${sent}, Q`));
		},
	);

	it.each<[string, string | undefined, string]>([
		['the default zone', undefined, '2025-10-01T02:00:00Z'],
		['Europe/Berlin', 'Europe/Berlin', '2025-09-30T23:30:00Z'],
	])(
		'%s (Timezone setting %s): Snapshot Date %s, in two quarters and midnight in neither, is refused before any report is generated',
		async (_zone, timezone, snapshotDate) => {
			const result = await run(HOLDINGS, { snapshotDate, downloadPdf: false }, { timezone });
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toMatch(
				/Snapshot Date "\S+" is a moment that falls in two quarters: .*2025-09-30 \(Q3 2025\).*2025-10-01 \(Q4 2025\)/,
			);
			expect((result.error as { description?: string }).description).toMatch(
				/YYYY-MM-DD text \(2025-09-30 for Q3 2025, 2025-10-01 for Q4 2025\)/,
			);
			expect(sim.requestCount({ route: ROUTE })).toBe(0);
		},
	);

	describe('with download links that have expired', () => {
		const expiring = useSimulator({ reportLinkTtlMs: -1 });

		it('an expired download link gives a clear error with the request ID', async () => {
			const result = await run(HOLDINGS, {}, {}, expiring.url);
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toMatch(
				/^The report was created, but its download link has expired or is no longer valid \(403\) The storage service answered: AccessDenied: Request has expired\./,
			);
			expect(expiring.requests({ route: ROUTE })[0].status).toBe(201);
			expect((result.error as { description?: string }).description).toMatch(
				/Request ID \(quote it to support\): [0-9a-f-]{36}/,
			);
			// 403 is final: no retry of the download, and no second report.
			expect(expiring.downloads()).toHaveLength(1);
			expect(expiring.requestCount({ route: ROUTE })).toBe(1);
		});

		it('continueOnFail: a failed download becomes error items that keep the request ID', async () => {
			const result = await run(HOLDINGS, {}, { onError: 'continueRegularOutput' }, expiring.url);
			expect(result.status).toBe('success');
			const items = result.items('Report');
			expect(items).toHaveLength(4);
			expect(items.map(paired)).toEqual([[0], [1], [2], [3]]);
			for (const item of items) {
				expect(String(item.json.error)).toContain('download link has expired');
				expect(String(item.json.error_details)).toMatch(
					/Request ID \(quote it to support\): [0-9a-f-]{36}/,
				);
			}
		});
	});

	it('a 504 says the report may exist but cannot be retrieved, and to retry with fewer holdings (no retry)', async () => {
		sim.setFaults(ROUTE, { sequence: ['504'] });
		const result = await run(HOLDINGS, {});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'The report took longer than the API allows (29 seconds). It may still have been generated, but it cannot be retrieved. Run again with fewer holdings.',
		);
		expect(sim.requestCount({ route: ROUTE })).toBe(1);
		expect(sim.downloads()).toHaveLength(0);
	});

	describe('bad input fails before any request, naming the item and the field', () => {
		const year = new Date().getUTCFullYear() + 1;
		const withoutWeight = HOLDINGS.map((row) => ({ ...row }));
		delete withoutWeight[3]['Weight %'];
		const secondGroupWithoutCurrency: IDataObject[] = HOLDINGS.map((row, index) => ({
			...row,
			portfolio: index < 2 ? 'A' : 'B',
		}));
		delete secondGroupWithoutCurrency[3].currency;

		it.each<[string, IDataObject[], IDataObject, string | RegExp]>([
			['missing weight', withoutWeight, {}, /^The weight is missing/],
			[
				'invalid benchmark fund ISIN',
				HOLDINGS,
				{ benchmarkFundIsin: 'IE00B5BMR088' },
				'Benchmark Fund ISIN is not valid: "IE00B5BMR088" fails the ISIN check digit (a typo?)',
			],
			[
				'snapshot date in a future year',
				HOLDINGS,
				{ snapshotDate: `${year}-03-31T00:00:00` },
				`Snapshot Date "${year}-03-31T00:00:00" is in a future year; the API only accepts snapshot dates up to the end of the current year`,
			],
			[
				'a bad second group (the first group is not sent either)',
				secondGroupWithoutCurrency,
				{ groupBy: 'portfolio' },
				/^The currency is missing/,
			],
			[
				'a Report ID over 200 characters',
				HOLDINGS,
				{ downloadPdf: false, reportId: 'r'.repeat(20_000) },
				/^Report ID is 20000 characters long \("r{40}…"\); at most 200 are accepted/,
			],
			[
				'Other Index with an empty name',
				HOLDINGS,
				{ downloadPdf: false, benchmarkIndex: 'other', benchmarkIndexName: '' },
				'Benchmark Index Name is empty',
			],
		])('%s', async (_, rows, parameters, message) => {
			const result = await run(rows, parameters);
			expect(result.status).toBe('error');
			if (typeof message === 'string') expect(result.error?.message).toBe(message);
			else expect(fullText(result.error)).toMatch(message);
			expect(sim.requestCount()).toBe(0);
		});
	});

	describe('a dropped or failing download is tried again up to twice', () => {
		/** A stand-in API whose report link answers `plan` in turn: 'drop' closes the connection, a number is a status. */
		async function flakyApi(plan: Array<'drop' | number>) {
			const downloads: Array<{ answer: 'drop' | number; apiKey: unknown }> = [];
			const server = createServer((req, res) => {
				req.resume();
				const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
				if (req.method === 'POST' && req.url === '/reports') {
					res.writeHead(201, { 'content-type': 'application/json' });
					res.end(
						JSON.stringify({
							document: { location_url: `${base}/documents/r1.pdf`, request_id: 'req-flaky-1' },
							metadata: {
								snapshot_at: '2025-06-30',
								type: 'esg-overview',
								default_benchmark: 'XC0000000001',
								identifier: 'rpt_1',
							},
						}),
					);
					return;
				}
				const answer = plan[downloads.length] ?? 200;
				downloads.push({ answer, apiKey: req.headers['x-api-key'] });
				if (answer === 'drop') {
					req.socket.destroy();
					return;
				}
				res.writeHead(answer, {
					'content-type': answer === 200 ? 'application/pdf' : 'text/plain',
				});
				res.end(answer === 200 ? '%PDF-1.4\n%flaky\n' : 'Service Unavailable');
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			return {
				url,
				downloads,
				close: () => new Promise<void>((resolve) => server.close(() => resolve())),
			};
		}

		async function runAgainstFlakyApi(plan: Array<'drop' | number>) {
			const api = await flakyApi(plan);
			try {
				const result = await run(HOLDINGS, { snapshotDate: '2025-05-05' }, {}, api.url);
				return { result, downloads: api.downloads };
			} finally {
				await api.close();
			}
		}

		it('a dropped connection and a 503 are retried, then the PDF is returned', async () => {
			const { result, downloads } = await runAgainstFlakyApi(['drop', 503]);
			expect(result.error).toBeUndefined();
			expect(downloads.map((download) => download.answer)).toEqual(['drop', 503, 200]);
			expect(downloads.every((download) => download.apiKey === undefined)).toBe(true);
			expect((await result.binary('Report')).toString('latin1')).toBe('%PDF-1.4\n%flaky\n');
		});

		it('after three failed tries, an error with the request ID', async () => {
			const { result, downloads } = await runAgainstFlakyApi(['drop', 'drop', 'drop', 200]);
			expect(result.status).toBe('error');
			expect(downloads).toHaveLength(3);
			expect(fullText(result.error)).toMatch(
				/^The report was created, but the PDF download kept failing \(.+\) after 3 tries/,
			);
			expect((result.error as { description?: string }).description).toContain(
				'Request ID (quote it to support): req-flaky-1',
			);
		});
	});

	describe('the PDF download: public https only, no redirect, capped, storage errors by code and message only', () => {
		const description = (result: { error?: Error }) =>
			String((result.error as { description?: string } | undefined)?.description);
		const downloadPort = () => new URL(sim.downloadUrl).port;

		it.each([
			[
				'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
				'a link-local address (such as a cloud metadata service) (169.254.169.254)',
			],
			[
				'https://0xa9fea9fe{path}',
				'a link-local address (such as a cloud metadata service) (169.254.169.254)',
			],
			[
				'https://[::ffff:169.254.169.254]{path}',
				'a link-local address (such as a cloud metadata service) ([::ffff:a9fe:a9fe])',
			],
			['https://10.0.0.1{path}', 'a private network address (10.0.0.1)'],
			['https://[fd00::1]{path}', 'a private network address ([fd00::1])'],
			['https://0.0.0.0{path}', 'an unspecified address (0.0.0.0)'],
			['https://intranet{path}', 'a private network address (intranet)'],
		])(
			'a link to %s is refused before any connection, also with a local Base URL',
			async (template, words) => {
				sim.setReportLink(template);
				const result = await run(HOLDINGS, {});
				expect(result.status).toBe('error');
				expect(result.error?.message).toMatch(
					/^The report was created, but its download link was not fetched(: it points to .+)?$/,
				);
				expect(result.error?.message.length).toBeLessThanOrEqual(150);
				const refusal = `The report was created, but its download link was not fetched: it points to ${words}`;
				expect(fullText(result.error).slice(0, refusal.length)).toBe(refusal);
				expect(description(result)).toContain(
					'The report was generated and counts against the monthly quota',
				);
				expect(sim.requestCount({ route: ROUTE })).toBe(1);
				expect(sim.downloads()).toHaveLength(0);
			},
		);

		it('a local link is fetched only on the local host name of the Base URL (the simulator), in its normalised form', async () => {
			const localhostBase = `http://localhost:${new URL(sim.url).port}`;
			const fetched = await run(HOLDINGS, {}, {}, localhostBase);
			expect(fetched.error).toBeUndefined();
			expect(String(fetched.items('Report')[0].json.location_url)).toMatch(
				/^http:\/\/localhost:\d+\/documents\//,
			);
			expect(sim.downloads()).toHaveLength(1);

			// Another spelling of this computer is another local service as far as the Base URL says: refused.
			sim.reset();
			sim.setReportLink(`http://127.0.0.1:{port}{path}`);
			const other = await run(HOLDINGS, {}, {}, localhostBase);
			expect(other.error?.message).toBe(
				'The report was created, but its download link was not fetched: it points to this computer (a loopback address) (127.0.0.1)',
			);
			sim.setReportLink(`http://[::ffff:127.0.0.1]:{port}{path}`);
			const mapped = await run(HOLDINGS, {});
			expect(mapped.error?.message).toBe(
				'The report was created, but its download link was not fetched: it points to this computer (a loopback address) ([::ffff:7f00:1])',
			);
			expect(sim.downloads()).toHaveLength(0);

			// 0x7f000001 is 127.0.0.1 once normalised: the Base URL's own host, fetched at the normalised address.
			sim.setReportLink(`http://0x7f000001:{port}{path}`);
			const hex = await run(HOLDINGS, {});
			expect(hex.error).toBeUndefined();
			expect(sim.downloads().map((download) => download.headers.host)).toEqual([
				`127.0.0.1:${downloadPort()}`,
			]);
		});

		it('a redirect is not followed: the error names only the target origin, nothing is fetched there', async () => {
			sim.setDownloadFaults(['redirect']);
			const result = await run(HOLDINGS, {});
			expect(result.status).toBe('error');
			expect(result.error?.message).toBe(
				`The report was created, but its download link answered with a redirect (302) to http://localhost:${downloadPort()}.`,
			);
			expect(fullText(result.error)).toContain(
				`to http://localhost:${downloadPort()}. Nothing was fetched there: a report link must answer with the PDF itself.\n`,
			);
			expect(JSON.stringify(result.run)).not.toContain('sim-redirect-token');
			expect(sim.downloads().map((download) => [download.status, download.path])).toEqual([
				[302, expect.stringMatching(/^\/documents\//)],
			]);
			expect(
				sim
					.downloads()
					.some((download) => download.path === new URL(REDIRECT_PATH, 'http://x').pathname),
			).toBe(false);
		});

		it('an error page is never echoed: not in the error, not in the output, not in the run data; the link is kept', async () => {
			sim.setDownloadFaults(['secret-page', 'secret-page', 'secret-page']);
			const failed = await run(HOLDINGS, {});
			expect(failed.error?.message).toBe(
				'The report was created, but the PDF download failed (500)',
			);
			expect(description(failed)).toContain('Tried 3 times.');
			expect(JSON.stringify(failed.run)).not.toContain(SECRET_PAGE_TEXT);
			expect(sim.downloads()).toHaveLength(3);

			sim.reset();
			sim.setDownloadFaults(['secret-page', 'secret-page', 'secret-page']);
			const continued = await run(HOLDINGS, {}, { onError: 'continueRegularOutput' });
			expect(continued.status).toBe('success');
			const items = continued.items('Report');
			expect(items).toHaveLength(4);
			for (const item of items) {
				expect(item.json.error).toBe('The report was created, but the PDF download failed (500)');
				expect(String(item.json.error_details)).toMatch(
					new RegExp(
						`Report link: http://127\\.0\\.0\\.1:${downloadPort()}/documents/[0-9a-f]+\\.pdf`,
					),
				);
			}
			expect(JSON.stringify(continued.run)).not.toContain(SECRET_PAGE_TEXT);
		});

		it('a storage service JSON error (Google Cloud Storage) is reported by its reason and message only', async () => {
			sim.setDownloadFaults(['gcs-json-error']);
			const result = await run(HOLDINGS, {});
			expect(result.error?.message).toBe(
				'The report was created, but its download link has expired or is no longer valid (403)',
			);
			expect(description(result)).toMatch(
				/^The storage service answered: forbidden: Anonymous caller does not have storage\.objects\.get access to the Google Cloud Storage object\. Report links/,
			);
			expect(JSON.stringify(result.run)).not.toContain(SECRET_PAGE_TEXT);
			expect(sim.downloads()).toHaveLength(1);
		});

		it.each([
			['oversized', 'announced as 100 MB'],
			['oversized-unannounced', 'the download was stopped there'],
		] as const)(
			'a body above 50 MB (%s) is refused and not read to the end',
			async (fault, how) => {
				sim.setDownloadFaults([fault]);
				const result = await run(HOLDINGS, {});
				expect(result.status).toBe('error');
				expect(result.error?.message).toBe(
					`The report was created, but its download is larger than 50 MB (${how}), far more than a report, so it was not kept`,
				);
				const [download] = sim.downloads();
				expect(download.fault).toBe(fault);
				expect(download.complete).toBe(false);
				expect(sim.downloads()).toHaveLength(1);
			},
		);
	});

	describe('Settings > Retry On Fail never generates a report twice within one execution', () => {
		const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };
		const THREE = HOLDINGS.map((row, index) => ({
			...row,
			portfolio: ['P-1', 'P-2', 'P-3', 'P-3'][index],
		}));
		const GROUPED = { groupBy: 'portfolio', reportId: '={{ $json.portfolio }}' };
		const generatedReports = () =>
			sim.requests({ route: ROUTE }).filter((request) => !request.fault).length;

		it('a failure on report 3 of 3: the retry sends only report 3 and outputs all three', async () => {
			// A redirect is not retried by the node's own transport: n8n's Retry On Fail runs the node again.
			sim.setFaults(ROUTE, { sequence: [null, null, '302'] });
			const result = await run(THREE, GROUPED, { settings: RETRY });
			expect(result.error).toBeUndefined();
			expect(sim.requestCount({ route: ROUTE })).toBe(4);
			expect(generatedReports()).toBe(3);
			const items = result.items('Report');
			expect(items.map((item) => item.json.report_id)).toEqual(['P-1', 'P-2', 'P-3']);
			expect(items.map(paired)).toEqual([[0], [1], [2, 3]]);
			expect(sim.downloads()).toHaveLength(3);
			// The execution hint above the output says what the node does about Retry On Fail.
			expect(JSON.stringify(result.run)).toContain(
				'Retry On Fail is on: a report this execution generated is never generated or charged again.',
			);
			for (let index = 0; index < 3; index++)
				expect((await result.binary('Report', index, 'data')).subarray(0, 5).toString()).toBe(
					'%PDF-',
				);
		});

		it.each<[string, FaultKind, string[], string[]]>([
			[
				'an uncertain outcome (dropped after it was carried out)',
				'processed-drop',
				[
					'Whether the API carried out the PDF report request is not known',
					'Of 3 reports, before the run stopped: 2 generated (',
					'1 outcome unknown (may have been generated: ',
					'0 not generated',
				],
				['may have been generated'],
			],
			[
				'a 504 (the report may still have been generated)',
				'504',
				['It may still have been generated'],
				[],
			],
		])(
			'%s is not sent again by the retry, and fails again',
			async (_, fault, inMessage, inDescription) => {
				sim.setFaults(ROUTE, { sequence: [null, null, fault] });
				const result = await run(THREE, GROUPED, { settings: RETRY });
				expect(result.status).toBe('error');
				expect(sim.requestCount({ route: ROUTE })).toBe(3);
				for (const text of inMessage) expect(fullText(result.error)).toContain(text);
				const description = (result.error as { description?: string }).description;
				for (const text of [...inDescription, 'Retry On Fail did not send this report again'])
					expect(description).toContain(text);
			},
		);

		it('a failed download: the retry downloads the report already generated, without a second POST', async () => {
			sim.setDownloadFaults([null, null, 'redirect']);
			const result = await run(THREE, GROUPED, { settings: RETRY });
			expect(result.error).toBeUndefined();
			expect(sim.requestCount({ route: ROUTE })).toBe(3);
			expect(result.items('Report')).toHaveLength(3);
			expect(sim.downloads()).toHaveLength(4);
		});

		it('without Retry On Fail nothing changes: the failure stops the run', async () => {
			sim.setFaults(ROUTE, { sequence: [null, null, '302'] });
			const result = await run(THREE, GROUPED);
			expect(result.status).toBe('error');
			expect(sim.requestCount({ route: ROUTE })).toBe(3);
			expect(fullText(result.error)).toContain('running again generates them anew');
		});
	});

	it('file names are sanitised', () => {
		expect(reportFileName('Kund: Ödmjuk/Fond *1*', 'esg-overview', '2025-06-30')).toBe(
			'Kund_Odmjuk_Fond_1_esg-overview_2025-06-30.pdf',
		);
		expect(reportFileName('../..', 'mifid2', '2025-06-30')).toBe('report_mifid2_2025-06-30.pdf');
	});
});

describe('benchmark index: the SEK index, names not in the list, names of earlier versions', () => {
	const SOLACTIVE = 'Solactive SEK IG Credit Index';
	const sentIndex = () => (sim.requests({ route: ROUTE })[0].body as IDataObject).benchmark_index;

	it('the SEK index is listed under the name the service publishes, not under its old name', () => {
		const benchmark = new SustainabilityReports().description.properties.find(
			(property) => property.name === 'benchmarkIndex',
		);
		const names = (benchmark?.options ?? []).map((option) =>
			'value' in option ? option.value : undefined,
		);
		expect(names).toContain(SOLACTIVE);
		expect(names).not.toContain('Nordic Credit Partners SEK IG Credit Index');
	});

	it.each([
		['its listed name', SOLACTIVE],
		['the old name a saved workflow has', 'Nordic Credit Partners SEK IG Credit Index'],
		['an expression giving its name', `={{ "${SOLACTIVE}" }}`],
	])('the SEK index by %s is sent as the Solactive one, and the API takes it', async (_, name) => {
		const result = await run(HOLDINGS, { downloadPdf: false, benchmarkIndex: name });
		expect(result.error).toBeUndefined();
		expect(sentIndex()).toBe(SOLACTIVE);
		expect(result.items('Report')[0].json).toMatchObject({
			benchmark_index: SOLACTIVE,
			default_benchmark: BENCHMARK_INDICES[SOLACTIVE],
		});
	});

	it('Other Index: the typed name is sent as it is, and an index the API does not know comes back as its error', async () => {
		const result = await run(HOLDINGS, {
			downloadPdf: false,
			benchmarkIndex: 'other',
			benchmarkIndexName: ' MSCI World ',
		});
		expect(sim.requestCount({ route: ROUTE })).toBe(1);
		expect(sentIndex()).toBe('MSCI World');
		expect(result.status).toBe('error');
		expect(
			`${result.error?.message} ${(result.error as { description?: string }).description ?? ''}`,
		).toMatch(/benchmark_index/);
	});

	it('an expression may give any index name: it is not refused locally', async () => {
		await run(HOLDINGS, { downloadPdf: false, benchmarkIndex: '={{ "Vendor New Index 2026" }}' });
		expect(sentIndex()).toBe('Vendor New Index 2026');
	});
});

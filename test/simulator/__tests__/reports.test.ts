/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console, @n8n/community-nodes/no-dangerous-functions
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * POST /reports: response, real PDF (rendered with pdftoppm), download listener, link expiry, errors.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	BENCHMARK_INDICES,
	OVERSIZED_BYTES,
	REDIRECT_PATH,
	SECRET_PAGE_TEXT,
	SIM_KEYS,
	startSimulator,
} from '../index';
import {
	COMPANIES,
	FUNDS,
	call,
	enumError,
	requiredError,
	sleep,
	typeError,
	without,
} from './helpers';
import { useSimulator } from '../../helpers/simulator';

const HAS_POPPLER = spawnSync('which', ['pdftoppm']).status === 0;
if (!HAS_POPPLER)
	console.warn(
		'pdftoppm not found (apt-get install poppler-utils): PDF rendering assertions are skipped',
	);

function holdings(count: number) {
	return Array.from({ length: count }, (_, i) => ({
		isin: COMPANIES[i % COMPANIES.length],
		name: `Holding ${i + 1} (A/S)`,
		currency: 'EUR',
		weight: Math.round((100 / count) * 100) / 100,
		market_value: 1000 + i,
	}));
}

function reportBody(extra: Record<string, unknown> = {}) {
	return {
		name: 'Quarterly ESG',
		identifier: 'client-42',
		type: 'esg-overview',
		snapshot_at: '2025-05-10',
		holdings: holdings(3),
		...extra,
	};
}

/** Renders every page with pdftoppm and extracts the text with pdftotext. */
function renderPdf(pdf: Buffer): { pages: number; text: string; stderr: string } {
	const dir = mkdtempSync(join(tmpdir(), 'sim-report-'));
	try {
		const file = join(dir, 'report.pdf');
		writeFileSync(file, pdf);
		const render = spawnSync('pdftoppm', ['-r', '20', '-png', file, join(dir, 'page')], {
			encoding: 'utf8',
		});
		if (render.status !== 0) throw new Error(`pdftoppm failed: ${render.stderr}`);
		const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
		return {
			pages: readdirSync(dir).filter((name) => name.endsWith('.png')).length,
			text,
			stderr: render.stderr,
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('reports', () => {
	const post = (body: unknown, key?: string) => call(sim.url, 'POST', '/reports', { body, key });

	const sim = useSimulator({ now: () => new Date('2025-08-15T00:00:00Z') });

	it('answers 201 with a link on another origin and the report metadata', async () => {
		const res = await post(reportBody());
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			document: {
				location_url: expect.any(String),
				request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			},
			metadata: {
				snapshot_at: '2025-06-30',
				type: 'esg-overview',
				default_benchmark: BENCHMARK_INDICES['S&P 500'],
				identifier: expect.stringMatching(/^rpt_[0-9a-f]+$/),
			},
		});
		const link = new URL(res.body.document.location_url);
		expect(link.origin).toBe(sim.downloadUrl);
		expect(link.origin).not.toBe(new URL(sim.url).origin);
		expect(link.pathname).toMatch(/^\/documents\/[0-9a-f]+\.pdf$/);
	});

	it('picks the benchmark: index given, ETF/mutual fund ISIN first', async () => {
		const benchmarkOf = async (extra: Record<string, unknown>) =>
			(await post(reportBody(extra))).body.metadata.default_benchmark;
		const sek = 'Solactive SEK IG Credit Index';
		expect(await benchmarkOf({ benchmark_index: 'DAX' })).toBe(BENCHMARK_INDICES.DAX);
		expect(await benchmarkOf({ benchmark_index: sek })).toBe(BENCHMARK_INDICES[sek]);
		const etf = { benchmark_index: 'DAX', benchmark_etf_mutual_fund: FUNDS[0] };
		expect(await benchmarkOf(etf)).toBe(FUNDS[0]);
		expect(new Set(Object.values(BENCHMARK_INDICES)).size).toBe(17);
	});

	it('serves a real PDF without needing the API key, and records the download', async () => {
		const body = reportBody({
			name: 'Big (report) Ünicode',
			type: 'mifid2',
			methodology_id: 3,
			holdings: holdings(250),
			benchmark_index: 'OMX Stockholm',
		});
		const res = await post(body);
		const download = await fetch(res.body.document.location_url);
		expect(download.status).toBe(200);
		expect(download.headers.get('content-type')).toBe('application/pdf');
		const pdf = Buffer.from(await download.arrayBuffer());
		expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
		expect(pdf.subarray(-6).toString('latin1')).toBe('%%EOF\n');

		const [record] = sim.downloads();
		expect(record.status).toBe(200);
		expect(record.path).toBe(new URL(res.body.document.location_url).pathname);
		expect(record.headers['x-api-key']).toBeUndefined();

		if (!HAS_POPPLER) return;
		const rendered = renderPdf(pdf);
		expect(rendered.stderr).toBe('');
		expect(rendered.pages).toBeGreaterThanOrEqual(4);
		for (const expected of [
			'Big (report) Ünicode',
			'mifid2',
			'client-42',
			'2025-06-30',
			'OMX Stockholm',
			'MiFID II Sustainability Preferences',
			COMPANIES[0],
			'Holding 200 (A/S)',
			'... and 50 more',
		]) {
			expect(rendered.text).toContain(expected);
		}
		expect(rendered.text).not.toContain('Holding 201 (A/S)');
	});

	it('expires links after reportLinkTtlMs (403 AccessDenied) and answers 404 for unknown tokens', async () => {
		const short = await startSimulator({ reportLinkTtlMs: 150 });
		try {
			const res = await call(short.url, 'POST', '/reports', {
				body: reportBody({ snapshot_at: '2024-01-01' }),
			});
			const url = res.body.document.location_url as string;
			expect((await fetch(url)).status).toBe(200);
			await sleep(200);
			const expired = await fetch(url);
			expect(expired.status).toBe(403);
			expect(await expired.text()).toContain('<Code>AccessDenied</Code>');
			const unknown = await fetch(`${short.downloadUrl}/documents/0123abcd.pdf`);
			expect(unknown.status).toBe(404);
			expect(short.downloads().map((d) => d.status)).toEqual([200, 403, 404]);
		} finally {
			await short.close();
		}
	});

	it('answers the documented 400s', async () => {
		const schemaMessage = 'An error occurred while processing your request';
		const noIdentifierNorType = without(reportBody(), 'identifier', 'type');
		const missing = await post(noIdentifierNorType);
		expect(missing.status).toBe(400);
		expect(missing.body.data).toEqual({
			message: schemaMessage,
			error: [requiredError('.body.identifier'), requiredError('.body.type')],
		});
		const badType = await post(reportBody({ type: 'pdf' }));
		expect(badType.body.data.error).toEqual([
			enumError('.body.type', 'must be equal to one of the allowed values: esg-overview, mifid2'),
		]);
		const badIndex = await post(reportBody({ benchmark_index: 'Nikkei 225' }));
		expect(badIndex.status).toBe(400);
		expect(badIndex.body.data.error[0]).toMatchObject({
			path: '.body.benchmark_index',
			errorCode: 'enum.openapi.validation',
		});
		const nullIsin = await post(reportBody({ holdings: [{ ...holdings(1)[0], isin: null }] }));
		expect(nullIsin.body.data.error).toEqual([typeError('.body.holdings[0].isin', 'string')]);
		const noWeight = without(holdings(1)[0], 'weight');
		expect((await post(reportBody({ holdings: [noWeight] }))).body.data.error[0].path).toBe(
			'.body.holdings[0].weight',
		);
		for (const [extra, message] of [
			[{ holdings: [] }, 'Please provide at least one holding'],
			[{ snapshot_at: '2026-03-01' }, 'Snapshot date cannot be higher than actual date'],
			[{ snapshot_at: '31.03.2025' }, 'You are not using a valid date as snapshot parameter'],
			[{ type: 'mifid2', methodology_id: 42 }, 'Methodology not found'],
		] as const)
			expect((await post(reportBody(extra))).body).toEqual({ data: { message } });
		expect(sim.downloads()).toEqual([]);
	});

	it('is available to every valid key (not a data family)', async () => {
		expect((await post(reportBody(), SIM_KEYS.esgOnly)).status).toBe(201);
		expect((await post(reportBody(), SIM_KEYS.disabled)).status).toBe(403);
	});

	describe("download faults and report links (for clients' download policies)", () => {
		it('gives the link on the host name the API was addressed by', async () => {
			const port = new URL(sim.url).port;
			const res = await call(`http://localhost:${port}`, 'POST', '/reports', {
				body: reportBody(),
			});
			const link = new URL(res.body.document.location_url);
			expect(link.hostname).toBe('localhost');
			expect(link.port).toBe(new URL(sim.downloadUrl).port);
			expect((await fetch(link)).status).toBe(200);
		});

		it('setReportLink fills {url}, {path} and {port} into the link; reset() restores the usual link', async () => {
			sim.setReportLink('https://10.0.0.1:{port}{path}?was={url}');
			const link = (await post(reportBody())).body.document.location_url as string;
			const port = new URL(sim.downloadUrl).port;
			expect(link).toMatch(
				new RegExp(
					`^https://10\\.0\\.0\\.1:${port}/documents/[0-9a-f]+\\.pdf\\?was=http://127\\.0\\.0\\.1:${port}/documents/`,
				),
			);
			sim.reset();
			expect(new URL((await post(reportBody())).body.document.location_url).origin).toBe(
				sim.downloadUrl,
			);
		});

		it('answers the download faults in order, then normally, and records them', async () => {
			sim.setDownloadFaults(['redirect', 'secret-page', 'gcs-json-error', null]);
			const link = (await post(reportBody())).body.document.location_url as string;
			const redirect = await fetch(link, { redirect: 'manual' });
			expect(redirect.status).toBe(302);
			const location = new URL(redirect.headers.get('location')!);
			expect(location.hostname).toBe('localhost');
			expect(`${location.pathname}${location.search}`).toBe(REDIRECT_PATH);
			const page = await fetch(link);
			expect(page.status).toBe(500);
			expect(await page.text()).toContain(SECRET_PAGE_TEXT);
			const gcs = await fetch(link);
			expect(gcs.status).toBe(403);
			expect(((await gcs.json()) as { error: unknown }).error).toMatchObject({
				code: 403,
				message: expect.stringContaining('storage.objects.get'),
			});
			expect((await fetch(link)).status).toBe(200);
			expect(sim.downloads().map((d) => [d.status, d.fault])).toEqual([
				[302, 'redirect'],
				[500, 'secret-page'],
				[403, 'gcs-json-error'],
				[200, null],
			]);
		});

		it('oversized: a PDF of OVERSIZED_BYTES, announced or chunked; a client that stops early leaves it incomplete', async () => {
			sim.setDownloadFaults(['oversized', 'oversized-unannounced']);
			const link = (await post(reportBody())).body.document.location_url as string;
			const announced = await fetch(link);
			expect(announced.headers.get('content-length')).toBe(String(OVERSIZED_BYTES));
			const reader = announced.body!.getReader();
			const first = await reader.read();
			expect(Buffer.from(first.value!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
			await reader.cancel();
			const unannounced = await fetch(link);
			expect(unannounced.headers.get('content-length')).toBeNull();
			expect(unannounced.headers.get('transfer-encoding')).toBe('chunked');
			await unannounced.body!.cancel();
			await sleep(50);
			const records = sim.downloads();
			expect(records.map((record) => [record.fault, record.complete])).toEqual([
				['oversized', false],
				['oversized-unannounced', false],
			]);
			for (const record of records) expect(record.bytes).toBeLessThan(OVERSIZED_BYTES);
		});

		it('refuses unknown download fault kinds', () => {
			expect(() => sim.setDownloadFaults(['teapot' as never])).toThrow(
				'Unknown download fault kind: teapot',
			);
		});
	});
});

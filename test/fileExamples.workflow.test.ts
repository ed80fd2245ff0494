/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { csvHoldings, WORKBOOK_DATE, WORKBOOK_HOLDINGS } from '../scripts/sample-holdings';
import { instrumentData } from './simulator';
import { useSimulator } from './helpers/simulator';
import { EXAMPLE_RUNS } from './workflow/exampleRuns';
import { EXAMPLES_DIR, UPLOAD_FORM, withSampleFiles } from './workflow/fileExamples';
import { inProcessSkipReason } from './workflow/inProcess';
import { findN8nNodesBase } from './workflow/node-types';
import { loadWorkflowFile, runWorkflow } from './workflow/runner';
import { sheetRows } from './workflow/sheets';

/**
 * The examples that start from a file (10: upload form, 11: holdings workbook on disk), in n8n's engine with the real
 * Form Trigger, Extract From File, Read/Write Files from Disk and Convert to File of the cached n8n install (without
 * one they are skipped, as the demo skips them). The form's upload is pinned (the harness serves no forms); the real
 * n8n check (test/e2e/real-n8n.ts) posts it to the form instead.
 */
const sim = useSimulator();
const credentials = () => ({
	sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url },
});
const load = (file: string) => withSampleFiles(loadWorkflowFile(join(EXAMPLES_DIR, file)));
const upload = load('10-upload-holdings-form.json');
const quarterly = load('11-quarterly-workbook-snapshots-reports.json');
const skip = inProcessSkipReason(upload) ?? inProcessSkipReason(quarterly);
const describeWithN8n = skip ? describe.skip : describe;

/** The simulator's SFDR article of an ISIN, as the simplified output writes it. */
const articleOf = (isin: string) => {
	const sfdr = instrumentData(isin).sfdr;
	return sfdr === null ? undefined : `Article ${sfdr}`;
};

describeWithN8n('file examples (real n8n-nodes-base nodes of the cached n8n)', () => {
	async function runUpload(run: 0 | 1) {
		const result = await runWorkflow(
			{ ...upload, pinData: EXAMPLE_RUNS['10'][run].pinData!() } as never,
			{ credentials: credentials() },
		);
		expect(result.error).toBeUndefined();
		// The Form Ending page waits for the browser to fetch it (and the file).
		expect(result.status).toBe('waiting');
		expect(result.executionOrder[result.executionOrder.length - 1]).toBe(UPLOAD_FORM.completion);
		const workbook = sheetRows(await result.binary(UPLOAD_FORM.workbook), findN8nNodesBase()!);
		return { result, workbook, summary: result.items('Summary and Workbook')[0].json };
	}

	it('10: an uploaded workbook (date, percent and number cells) comes back with SFDR and PAI per holding, in 3 requests', async () => {
		const { result, workbook, summary } = await runUpload(0);
		expect(sim.requestCount()).toBe(3);
		expect(result.items(UPLOAD_FORM.workbook)[0].binary?.data).toMatchObject({
			fileName: 'holdings.sample_sfdr-pai.xlsx',
		});
		expect(workbook).toHaveLength(WORKBOOK_HOLDINGS.length);
		workbook.forEach((row, index) => {
			const holding = WORKBOOK_HOLDINGS[index];
			expect([index, row.Name, row.Weight, row['Market Value']]).toEqual([
				index,
				holding.name,
				holding.weight,
				holding.marketValue,
			]);
			if (!holding.isin) {
				expect(row).toMatchObject({ sfdr_found: false });
				return;
			}
			const data = instrumentData(holding.isin);
			expect([index, row.sfdr_article, row.pai_scope_1_emissions]).toEqual([
				index,
				articleOf(holding.isin),
				data.pai.scope_1_emissions ?? undefined,
			]);
		});
		// The summary: every listed holding by market value, the cash row left out.
		const listed = WORKBOOK_HOLDINGS.filter((h) => h.isin);
		expect(summary).toMatchObject({
			holdings_count: listed.length,
			total_market_value: listed.reduce((sum, h) => sum + h.marketValue, 0),
			removed_count: 1,
		});
		const share = (article: number) =>
			Math.round(
				(listed
					.filter((h) => instrumentData(h.isin).sfdr === article)
					.reduce((sum, h) => sum + h.marketValue, 0) /
					(summary.total_market_value as number)) *
					10_000,
			) / 100;
		expect([summary.article_9_percent, summary.article_8_percent]).toEqual([share(9), share(8)]);
	});

	it('10: an uploaded CSV (";" and European numbers) with a cash row and a row without ISIN', async () => {
		const { workbook, summary } = await runUpload(1);
		expect(sim.requestCount()).toBe(3);
		const holdings = csvHoldings();
		expect(workbook.map((row) => row.Name)).toEqual(holdings.map((h) => h.Name));
		workbook.forEach((row, index) => {
			const isin = holdings[index].ISIN;
			if (!isin) {
				expect([index, row.sfdr_found, row.sfdr_reason]).toEqual([
					index,
					false,
					'no ISIN in field "ISIN"',
				]);
				return;
			}
			expect([index, row.sfdr_article]).toEqual([index, articleOf(isin)]);
		});
		// 1.425.000,00 read as 1425000: the listed holdings' market values add up.
		const listed = holdings.filter((h) => h.ISIN);
		expect(summary).toMatchObject({
			holdings_count: listed.length,
			total_market_value: listed.reduce((sum, h) => sum + h.marketValue, 0),
			removed_count: 2,
		});
	});

	it('11: the workbook on disk: one snapshot per portfolio at the Excel date, a PDF report each, emailed with the table', async () => {
		const result = await runWorkflow(quarterly, { credentials: credentials(), mode: 'trigger' });
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: 'POST /portfolios' })).toBe(2);
		expect(sim.requestCount({ route: 'POST /reports' })).toBe(2);

		const portfolios = ['growth-europe', 'global-core'];
		const stored = result.items('Store Snapshots').map((item) => item.json);
		expect(stored.map((s) => [s.portfolio_id, s.snapshot_date, s.snapshot_date_note])).toEqual(
			portfolios.map((id) => [
				id,
				WORKBOOK_DATE,
				`Snapshot Date 46022 read as the Excel date ${WORKBOOK_DATE}`,
			]),
		);
		// Percent cells (fractions of 1) sent as percentages.
		const bodies = sim.requests({ route: 'POST /portfolios' }).map((r) => r.body as IDataObject);
		for (const [p, id] of portfolios.entries()) {
			const rows = WORKBOOK_HOLDINGS.filter((h) => h.portfolioId === id);
			expect(bodies[p]).toMatchObject({ identifier: id, snapshot_at: WORKBOOK_DATE });
			expect((bodies[p].holdings as IDataObject[]).map((h) => [h.weight, h.market_value])).toEqual(
				rows.map((h) => [Math.round(h.weight * 10_000) / 100, h.marketValue]),
			);
		}

		expect(result.emails).toHaveLength(2);
		for (const [p, email] of result.emails.entries()) {
			expect(email.attachments).toEqual([
				expect.objectContaining({
					fileName: `${portfolios[p]}_esg-overview_${WORKBOOK_DATE}.pdf`,
					mimeType: 'application/pdf',
				}),
			]);
			expect(email.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
			for (const s of stored)
				expect(email.html).toContain(
					`<tr><td>${String(s.name)}</td><td>${WORKBOOK_DATE}</td><td>created</td><td>${String(s.holdings_count)}</td><td>0</td></tr>`,
				);
		}
	});
});

it('the file examples run in process, or the reason they do not is an n8n install', () => {
	if (skip) expect(skip).toMatch(/no n8n install found|not loadable/);
	else expect(findN8nNodesBase()).toBeDefined();
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { readFileSync } from 'fs';
import { dirname, join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import {
	csvHoldings,
	quarterlyHoldings,
	QUARTER_ENDS,
	sampleFiles,
	WORKBOOK_DATE,
	WORKBOOK_HOLDINGS,
} from '../scripts/sample-holdings';
import { instrumentData } from './simulator';
import {
	annexColumns,
	expectedStatements,
	FED_INDICATORS,
	fedRowsOf,
	NODE_ROUNDING,
	rowsOfStatement,
	statementFileName,
} from './helpers/annualPaiStatement';
import { useSimulator } from './helpers/simulator';
import { EXAMPLE_RUNS } from './workflow/exampleRuns';
import {
	EXAMPLES_DIR,
	MIME_TYPES,
	recordCompletionPage,
	UPLOAD_FORM,
	withSampleFiles,
} from './workflow/fileExamples';
import { inProcessSkipReason } from './workflow/inProcess';
import { findN8nNodesBase, loadCoreNodes, projectN8nNodesBase } from './workflow/node-types';
import { loadWorkflowFile, runWorkflow } from './workflow/runner';
import { sheetRows } from './workflow/sheets';

/**
 * The examples that start from a file (10: upload form, 11: holdings workbook on disk), in n8n's engine with the real
 * Form Trigger, Form, Extract From File, Read/Write Files from Disk and Convert to File of n8n-nodes-base (a
 * devDependency pinned to the n8n-core release the tests run). The form's upload is pinned (the harness serves no
 * forms) and its completion page read from the Form node (`recordCompletionPage`); the real n8n check
 * (test/e2e/real-n8n.ts) posts the upload to the form instead.
 */
const sim = useSimulator();
const credentials = () => ({
	sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url },
});
const load = (file: string) => withSampleFiles(loadWorkflowFile(join(EXAMPLES_DIR, file)));
const upload = load('10-upload-holdings-form.json');
const quarterly = load('11-quarterly-workbook-snapshots-reports.json');
const annual = load('13-annual-pai-statement.json');
const skip =
	inProcessSkipReason(upload) ?? inProcessSkipReason(quarterly) ?? inProcessSkipReason(annual);

/** The simulator's SFDR article of an ISIN, as the simplified output writes it. */
const articleOf = (isin: string) => {
	const sfdr = instrumentData(isin).sfdr;
	return sfdr === null ? undefined : `Article ${sfdr}`;
};

describe('file examples (real n8n-nodes-base nodes)', () => {
	async function runUpload(run: 0 | 1) {
		const page = recordCompletionPage(loadCoreNodes().types['n8n-nodes-base.form']);
		const result = await runWorkflow(
			{ ...upload, pinData: EXAMPLE_RUNS['10'][run].pinData!() } as never,
			{ credentials: credentials(), nodeTypes: page.nodeTypes },
		);
		expect(result.error).toBeUndefined();
		// The Form Ending page waits for the browser to fetch it (and the file).
		expect(result.status).toBe('waiting');
		expect(result.executionOrder[result.executionOrder.length - 1]).toBe(UPLOAD_FORM.completion);
		const workbook = sheetRows(await result.binary(UPLOAD_FORM.workbook), findN8nNodesBase()!);
		expect(page.messages).toHaveLength(1);
		const [intro, , ...shares] = page.messages[0].split('\n');
		expect(intro).toBe(
			'The download of ' +
				(result.items(UPLOAD_FORM.workbook)[0].binary?.data.fileName ?? '') +
				' starts now: one row per holding with its SFDR article and PAI indicators.',
		);
		return { result, workbook, shares, summary: result.items('Summary and Workbook')[0].json };
	}

	/** A portfolio's line on the completion page, from the simulator's data (market values of the listed holdings). */
	function sharesLine(holdings: Array<{ isin: string; marketValue: number }>, removed: number) {
		const listed = holdings.filter((h) => h.isin);
		const total = listed.reduce((sum, h) => sum + h.marketValue, 0);
		const share = (article: number | null) =>
			Math.round(
				(listed
					.filter((h) => instrumentData(h.isin).sfdr === article)
					.reduce((sum, h) => sum + h.marketValue, 0) /
					total) *
					10_000,
			) / 100;
		return `Article 9 ${share(9)} %, Article 8 ${share(8)} %, Article 6 ${share(6)} %, no data ${share(null)} % (${listed.length} holdings; rows left out: ${removed}).`;
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
			expect([index, row.Name, row['Market Value']]).toEqual([
				index,
				holding.name,
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
		// One summary per portfolio (Group By the sheet's portfolio columns): its listed holdings by market value, the
		// cash row left out.
		const portfolios = [...new Set(WORKBOOK_HOLDINGS.map((h) => h.portfolioId))];
		expect(result.items('Portfolio Summary').map((item) => item.json)).toMatchObject(
			portfolios.map((id) => {
				const holdings = WORKBOOK_HOLDINGS.filter((h) => h.portfolioId === id);
				const listed = holdings.filter((h) => h.isin);
				return {
					'Portfolio ID': id,
					'Portfolio Name': holdings[0].portfolioName,
					holdings_count: listed.length,
					total_market_value: listed.reduce((sum, h) => sum + h.marketValue, 0),
					removed_count: holdings.length - listed.length,
				};
			}),
		);
		expect(summary['Portfolio ID']).toBe(portfolios[0]);
	});

	it('10: the returned workbook shows the date and percent cells as the upload did, and the completion page one line per portfolio', async () => {
		const { workbook, shares } = await runUpload(0);
		// Extract From File reads 46022 and 0.25; the upload showed 2025-12-31 and 25.0%.
		expect(workbook.map((row) => [row.Name, row.Date, row.Weight])).toEqual(
			WORKBOOK_HOLDINGS.map((h) => [h.name, WORKBOOK_DATE, `${Math.round(h.weight * 100)} %`]),
		);
		const portfolios = [...new Set(WORKBOOK_HOLDINGS.map((h) => h.portfolioId))];
		expect(shares).toEqual([
			'By market value, per portfolio:',
			...portfolios.map((id) => {
				const holdings = WORKBOOK_HOLDINGS.filter((h) => h.portfolioId === id);
				const removed = holdings.filter((h) => !h.isin).length;
				return `${id} / ${holdings[0].portfolioName}: ${sharesLine(holdings, removed)}`;
			}),
		]);
	});

	it('10: an uploaded CSV (";" and European numbers) with a cash row and a row without ISIN', async () => {
		const { workbook, summary, shares } = await runUpload(1);
		expect(sim.requestCount()).toBe(3);
		const holdings = csvHoldings();
		expect(workbook.map((row) => row.Name)).toEqual(holdings.map((h) => h.Name));
		// Text cells come back as they were; one portfolio, one line.
		expect(workbook.map((row) => row['Weight %'])).toEqual(
			holdings.map((h) => h.weight.toFixed(1).replace('.', ',')),
		);
		expect(shares).toEqual([
			`By market value: ${sharesLine(
				holdings.map((h) => ({ isin: h.ISIN, marketValue: h.marketValue })),
				2,
			)}`,
		]);
		workbook.forEach((row, index) => {
			const isin = holdings[index].ISIN;
			if (!isin) {
				// The sheet's empty cell comes back as "" (not a missing column), and the reason says so.
				expect([index, row.ISIN, row.sfdr_found, row.sfdr_reason]).toEqual([
					index,
					'',
					false,
					'no ISIN in field "ISIN" (the cell is empty, shown as "")',
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

/**
 * Example 13, the annual PAI statement, in n8n's engine against the simulator: every figure of the two funds' and the
 * entity's statements (year N and N−1, the quarter values, coverage) recomputed from the simulator's own data by an
 * independent implementation of Annex I's formulas (test/helpers/annualPaiStatement.ts, not the node's code), to the
 * node's rounding; the workbooks it emails have the columns of Annex I, Table 1.
 */
const FED_PAIS: number[] = Object.values(FED_INDICATORS).map((indicator) => indicator.pai);

describe('13: annual PAI statement (real n8n-nodes-base nodes)', () => {
	const STATEMENT = 'PAI Statement';
	const holdings = quarterlyHoldings();
	const statements = expectedStatements(holdings, NODE_ROUNDING);

	async function runAnnual(entry: 0 | 1) {
		const run = EXAMPLE_RUNS['13'][entry];
		run.before?.(sim);
		const result = await runWorkflow(
			{ ...annual, ...(run.pinData ? { pinData: run.pinData() } : {}) } as never,
			{ credentials: credentials(), mode: 'trigger', startNode: run.startNode },
		);
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		return result;
	}

	it('every figure of both funds and the entity, year N and N−1, matches an independent recomputation', async () => {
		const result = await runAnnual(0);
		const rows = result.items(STATEMENT).map((item) => item.json);
		expect(statements.map((s) => s.label)).toEqual(['Growth Europe', 'Global Core', 'Entity']);
		for (const statement of statements) {
			const own = rowsOfStatement(rows, statement);
			// The Annex's rows in its order (PAI 1 has four metric rows), each mapped; year N is 2025.
			const pais = own.map((row) => row.pai as number);
			expect([statement.label, pais]).toEqual([statement.label, [...pais].sort((a, b) => a - b)]);
			expect([statement.label, [...new Set(pais)]]).toEqual([
				statement.label,
				Array.from({ length: 18 }, (_, i) => i + 1),
			]);
			for (const row of own)
				expect([statement.label, row.pai, row.year_n, row.mapped, row.quarters_missing]).toEqual([
					statement.label,
					row.pai,
					2025,
					true,
					[],
				]);
			// PAI 2, 3, 4 and 10: impacts of 2025 and 2024, the quarter values of both years, coverage.
			expect([statement.label, fedRowsOf(own)]).toEqual([statement.label, statement.fedRows]);
			for (const row of own.filter((r) => FED_PAIS.includes(r.pai as number)))
				if (row.pai === 4 || row.pai === 10)
					expect([statement.label, row.unit]).toEqual([statement.label, '%']);
			// The rows the API cannot feed (PAI 1 needs each company's enterprise value, 5–9 and 11–18 data it never
			// gives): no figure, and an explanation of what is missing.
			for (const row of own.filter((r) => !FED_PAIS.includes(r.pai as number))) {
				expect([statement.label, row.pai, row.impact_year_n, row.impact_year_n_minus_1]).toEqual([
					statement.label,
					row.pai,
					null,
					null,
				]);
				expect(String(row.explanation).length).toBeGreaterThan(20);
			}
		}
		// Every quarter's holdings come from one request over all quarters and funds: every ISIN asked once.
		const requests = sim.requests({ route: 'POST /instruments/sustainability-data' });
		expect(requests).toHaveLength(1);
		expect(sim.requestCount()).toBe(1);
		const asked = JSON.stringify(requests[0].body);
		for (const isin of new Set(holdings.map((h) => h.isin).filter(Boolean)))
			expect([isin, asked.split(isin).length - 1]).toEqual([isin, 1]);
	});

	it('one workbook per statement with the columns of Annex I Table 1, all attached to one email', async () => {
		const result = await runAnnual(0);
		const rows = result.items(STATEMENT).map((item) => item.json);
		expect(result.emails).toHaveLength(1);
		const [email] = result.emails;
		expect(email.subject).toBe('Statement of principal adverse impacts 2025: 3 workbooks');
		expect(email.attachments.map((a) => a.fileName).sort()).toEqual([
			'pai-statement_2025_entity.xlsx',
			'pai-statement_2025_global-core.xlsx',
			'pai-statement_2025_growth-europe.xlsx',
		]);
		const columns = annexColumns(2025);
		for (const statement of statements) {
			const attachment = email.attachments.find(
				(a) => a.fileName === statementFileName(statement, 2025),
			)!;
			expect(attachment.mimeType).toBe(MIME_TYPES.xlsx);
			expect(email.text).toContain(`- ${statement.label}: ${attachment.fileName}`);
			const sheet = sheetRows(attachment.content, findN8nNodesBase()!);
			const own = rowsOfStatement(rows, statement);
			expect(sheet).toHaveLength(own.length);
			// The Annex's six columns in its order, on every row (an impact without a figure is an empty text cell).
			for (const row of sheet) expect(Object.keys(row)).toEqual(columns);
			sheet.forEach((cells, r) => {
				const row = own[r];
				expect([statement.label, r, cells['Impact 2025'], cells['Impact 2024']]).toEqual([
					statement.label,
					r,
					row.impact_year_n ?? '',
					row.impact_year_n_minus_1 ?? '',
				]);
				expect(cells['Adverse sustainability indicator']).toContain(
					String(row.adverse_sustainability_indicator),
				);
				expect(cells.Metric).toContain(String(row.metric));
				expect(cells.Explanation).toBe(
					(row.coverage_percent === null
						? ''
						: `Data coverage ${String(row.coverage_percent)} % of the current value of all investments (average of the quarter ends). `) +
						String(row.explanation),
				);
			});
		}
	});

	it('the upload form (the second entry point) gives the same statement as the workbook on disk', async () => {
		const fromDisk = (await runAnnual(0)).items(STATEMENT).map((item) => item.json);
		expect(fromDisk.filter((row) => row.statement === 'entity').length).toBeGreaterThan(0);
		sim.reset();
		const uploaded = await runAnnual(1);
		expect(uploaded.executionOrder).toContain('Uploaded Holdings Rows');
		expect(uploaded.executionOrder).not.toContain('Read Quarterly Holdings');
		expect(uploaded.items(STATEMENT).map((item) => item.json)).toEqual(fromDisk);
		expect(uploaded.emails).toHaveLength(1);
		expect(sim.requestCount()).toBe(1);
	});

	it('the quarterly sample: eight quarter ends, two funds, a cash row and a holding without data in each quarter', () => {
		expect([...new Set(holdings.map((h) => h.date))]).toEqual(QUARTER_ENDS);
		for (const date of QUARTER_ENDS)
			for (const statement of statements.filter((s) => s.fund)) {
				const rows = holdings.filter(
					(h) => h.date === date && h.portfolioId === statement.fund!.id,
				);
				expect(rows.filter((h) => h.type === 'Cash' && !h.isin && h.marketValue > 0)).toHaveLength(
					1,
				);
				expect(rows.some((h) => h.isin.startsWith('XX') && !instrumentData(h.isin).known)).toBe(
					true,
				);
				expect(new Set(rows.map((h) => h.currency))).toEqual(new Set(['EUR']));
			}
		// The files in examples/ are what scripts/sample-holdings.ts writes.
		for (const [name, bytes] of sampleFiles())
			expect([name, readFileSync(join(EXAMPLES_DIR, name)).equals(bytes)]).toEqual([name, true]);
	});
});

it('the file examples run in process with the n8n-nodes-base devDependency, the release of the pinned n8n-core', () => {
	expect(skip).toBeUndefined();
	const own = projectN8nNodesBase();
	expect(own).toBeDefined();
	expect(findN8nNodesBase({})).toBe(own);
	const version = (dir: string) =>
		(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
	expect(version(own!)).toBe(version(dirname(require.resolve('n8n-core/package.json'))));
});

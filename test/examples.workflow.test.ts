/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions -- test tooling runs in Node, outside n8n's sandbox */
import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { instrumentData, taxonomyKpis } from './simulator';
import { findN8nNodesBase } from './workflow/node-types';
import { inProcessSkipReason } from './workflow/inProcess';
import { loadWorkflowFile, runWorkflow } from './workflow/runner';
import type { WorkflowRunResult } from './workflow/runner';
import { csvSingleRow } from './helpers/csv';
import { expectedNewBreachLines } from './helpers/exclusionScreen';
import type { ScreenRow } from './helpers/exclusionScreen';
import { expectedPaiStatementCells, sheetNumber } from './helpers/paiStatement';
import { sfdrMoves } from './helpers/sfdrMoves';
import { useSimulator } from './helpers/simulator';
import { dataTableRows, resetDataTables } from './workflow/standins';

/** Every example workflow, run as a user would import it, with assertions on what it produces. */
const examplesDir = join(__dirname, '..', 'examples');
const holdings = JSON.parse(
	readFileSync(join(examplesDir, 'holdings.sample.json'), 'utf8'),
) as Record<string, string>[];
const listed = holdings.filter((h) => h.ISIN);

const sim = useSimulator({ temperatureRoute: true });

const credentials = () => ({
	sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url },
});
const run = (file: string) =>
	runWorkflow(loadWorkflowFile(join(examplesDir, file)), { credentials: credentials() });

describe('example workflows', () => {
	it('every example is a workflow the tests run', () => {
		expect(readdirSync(examplesDir).filter((f) => /^\d\d-.*\.json$/.test(f))).toEqual([
			'01-holdings-sfdr-pai-involvements.json',
			'02-snapshot-history.json',
			'03-quarterly-report-email.json',
			'04-taxonomy-and-sustainable-investments.json',
			'05-temperature-score.json',
			'06-weekly-sfdr-watch.json',
			'07-quarterly-pai-statement.json',
			'08-compliance-assistant.json',
			'09-mcp-server.json',
			'10-upload-holdings-form.json',
			'11-quarterly-workbook-snapshots-reports.json',
			'12-weekly-sfdr-watch-data-table.json',
			'13-annual-pai-statement.json',
			'14-daily-exclusion-screen.json',
		]);
	});

	// The in-process harness has no AI nodes (and no model): 08 runs in a real n8n, test/e2e/agent-tools.ts.
	// 09 needs n8n's MCP Server Trigger and an MCP client: test/e2e/mcp-server.ts runs it in a real n8n.
	it('09: the in-process harness skips the MCP server example and says why; its seven tools', () => {
		const workflow = loadWorkflowFile(join(examplesDir, '09-mcp-server.json')) as {
			nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
			connections: Record<string, { ai_tool?: Array<Array<{ node: string }>> }>;
		};
		expect(inProcessSkipReason(workflow)).toMatch(
			/AI nodes \(mcpTrigger, toolWorkflow\).*npm run test:n8n:mcp/,
		);
		const trigger = workflow.nodes.find((node) => node.type.endsWith('.mcpTrigger'))!;
		const tools = Object.entries(workflow.connections)
			.filter(([, outputs]) => outputs.ai_tool?.[0]?.[0]?.node === trigger.name)
			.map(([name]) => name);
		expect(tools).toEqual([
			'Get SFDR Classification',
			'Get PAI Indicators',
			'Get ESG Data',
			'Get Business Involvements',
			'EU Taxonomy Portfolio Alignment',
			'Portfolio Summary',
			'Screen Against Paris-Aligned Exclusions',
		]);
		for (const node of workflow.nodes.filter((n) => n.type.startsWith('n8n-nodes-sustainability')))
			expect(JSON.stringify(node.parameters).match(/\$fromAI\('(isins|holdings)'/)?.[1]).toBe(
				node.parameters.operation === 'getPortfolioAlignment' ? 'holdings' : 'isins',
			);
	});

	it('08: the in-process harness skips the AI agent example and says why', () => {
		const workflow = loadWorkflowFile(join(examplesDir, '08-compliance-assistant.json'));
		expect(inProcessSkipReason(workflow as { nodes?: Array<{ type?: string }> })).toMatch(
			/AI nodes \(chatTrigger, agent, lmChatOpenAi\).*npm run test:n8n:agent/,
		);
		const tools = (
			workflow as { nodes: Array<{ type: string; parameters: Record<string, unknown> }> }
		).nodes.filter(
			(node) => node.type === 'n8n-nodes-sustainability-compliance.sustainabilityInstrumentsTool',
		);
		expect(tools.map((tool) => tool.parameters.operation)).toEqual([
			'getSfdrClassification',
			'getPaiIndicators',
			'screenHoldings',
		]);
		// No hand-written descriptions: each tool sends its operation's preset (nodes/shared/ui/toolDescriptions.ts).
		for (const tool of tools) {
			expect(tool.parameters).not.toHaveProperty('descriptionType');
			expect(tool.parameters).not.toHaveProperty('toolDescription');
			expect(tool.parameters.isinList).toContain("$fromAI('isins'");
		}
	});

	it('01: one row per holding with SFDR, PAI and business involvements, in 3 requests', async () => {
		const result = await run('01-holdings-sfdr-pai-involvements.json');
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(3);
		const rows = result.items('Business Involvements').map((i) => i.json);
		expect(rows).toHaveLength(holdings.length);
		rows.forEach((row, index) => {
			expect(row.Name).toBe(holdings[index].Name);
			const isin = holdings[index].ISIN;
			if (!isin) {
				expect(row).toMatchObject({ sfdr_found: false, sfdr_reason: 'no ISIN in field "ISIN"' });
				return;
			}
			const data = instrumentData(isin);
			expect(row).toMatchObject({
				sfdr_isin: isin,
				sfdr_found: data.known,
				sfdr_classification: data.sfdr,
			});
			expect(row.pai_scope_1_emissions).toBe(data.pai.scope_1_emissions);
			expect(row.business_involvements_total_score).toBe(data.scores?.total ?? null);
		});
	});

	it('02: one snapshot per portfolio and quarter, then the stored portfolios', async () => {
		const result = await run('02-snapshot-history.json');
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: 'POST /portfolios' })).toBe(6);
		expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
		const stored = result.items('Store Snapshots').map((i) => i.json);
		expect(stored.map((s) => [s.portfolio_id, s.outcome, s.quarter_end])).toEqual([
			['growth-eu', 'created', '2025-03-31'],
			['growth-eu', 'updated', '2025-06-30'],
			['growth-eu', 'updated', '2025-09-30'],
			['global-core', 'created', '2025-03-31'],
			['global-core', 'updated', '2025-06-30'],
			['global-core', 'updated', '2025-09-30'],
		]);
		const listing = result.items('List Portfolios').map((i) => i.json);
		expect(listing.map((p) => [p.identifier, p.snapshots])).toEqual([
			['svc-portfolio:org-a_growth-eu', ['2025-03-31', '2025-06-30', '2025-09-30']],
			['svc-portfolio:org-a_global-core', ['2025-03-31', '2025-06-30', '2025-09-30']],
		]);
	});

	it('03: the quarterly MiFID II report is a PDF attached to the email, downloaded without the key', async () => {
		const result = await run('03-quarterly-report-email.json');
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		const [request] = sim.requests({ route: 'POST /reports' });
		expect(request.body).toMatchObject({
			type: 'mifid2',
			methodology_id: 3,
			benchmark_index: 'EURO STOXX 50',
		});
		const pdf = await result.binary('Generate MiFID II Report', 0, 'data');
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
		expect(sim.downloads()).toHaveLength(1);
		expect(sim.downloads()[0].headers['x-api-key']).toBeUndefined();
		expect(result.emails).toHaveLength(1);
		expect(result.emails[0].attachments).toEqual([
			expect.objectContaining({
				fileName: expect.stringMatching(/^growth-europe_mifid2_\d{4}-\d{2}-\d{2}\.pdf$/),
				mimeType: 'application/pdf',
				size: pdf.length,
			}),
		]);
	});

	it('04: EU Taxonomy KPIs as the API computes them, and classes matched by ISIN, the cash row reported', async () => {
		const result = await run('04-taxonomy-and-sustainable-investments.json');
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(2);
		const expected = taxonomyKpis(
			listed.map((h) => ({
				isin: h.ISIN,
				instrument_type: h.Type === 'Sovereign Bond' ? 'sovereign-bond' : h.Type.toLowerCase(),
				market_value: sheetNumber(h['Market Value']),
			})),
		)!;
		const table = result.items('EU Taxonomy KPIs').map((i) => i.json);
		expect(Object.fromEntries(table.map((row) => [row.kpi, row.percent]))).toEqual(expected);
		expect(table[0]).toMatchObject({ removed_count: 1, holdings_count: listed.length });

		const classes = result.items('Sustainable Investment Classes').map((i) => i.json);
		expect(classes).toHaveLength(holdings.length);
		classes.forEach((row, index) => {
			if (!holdings[index].ISIN)
				return expect(row).toMatchObject({
					removed: true,
					label: 'Not classified',
					removed_reason: 'cash row',
				});
			expect(row.isin).toBe(holdings[index].ISIN);
			expect(row.classification).toBe(
				instrumentData(holdings[index].ISIN).sustainableInvestment.classification,
			);
		});
	});

	it('05: the portfolio temperature after waiting through the calculation lock', async () => {
		const result = await run('05-temperature-score.json');
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(2);
		const items = result.items('Portfolio Temperature').map((i) => i.json);
		const summary = items.find((i) => i.type === 'portfolio')!;
		const scored = items.filter(
			(i) => i.type !== 'portfolio' && typeof i.temperature_score === 'number',
		);
		const weighted = scored.reduce(
			(sum, i) => sum + (i.market_value as number) * (i.temperature_score as number),
			0,
		);
		const total = scored.reduce((sum, i) => sum + (i.market_value as number), 0);
		expect(summary.portfolio_temperature_score).toBeCloseTo(weighted / total, 3);
		expect(summary.removed_rows).toEqual([
			{ item: 14, name: 'Cash EUR', isin: null, reason: 'cash row' },
		]);
	});

	it('npm run demo runs every example but the AI ones (08, 09) on a machine without n8n, and writes the PDF', () => {
		const out = mkdtempSync(join(tmpdir(), 'sc-demo-'));
		// As on a fresh clone after `npm ci`: no n8n cached under $HOME; n8n's file nodes come from the devDependency.
		const home = mkdtempSync(join(tmpdir(), 'sc-demo-home-'));
		const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
		delete env.N8N_E2E_CACHE;
		const demo = spawnSync(
			'npx',
			['ts-node', '--transpile-only', 'scripts/demo.ts', '--out', out],
			{
				cwd: join(__dirname, '..'),
				encoding: 'utf8',
				timeout: 240_000,
				env,
			},
		);
		expect(demo.stdout).toContain('12 passed, 0 failed, 2 skipped');
		expect(demo.stdout.match(/SKIPPED: .*/g)).toEqual([
			expect.stringMatching(/^SKIPPED: uses n8n's AI nodes \(chatTrigger, agent, lmChatOpenAi\)/),
			expect.stringMatching(/^SKIPPED: uses n8n's AI nodes \(mcpTrigger, toolWorkflow\)/),
		]);
		expect(demo.stdout).toContain('08-compliance-assistant.json');
		expect(demo.stdout).toContain('09-mcp-server.json');
		expect(demo.stdout).toMatch(/SKIPPED: uses n8n's AI nodes/);
		expect(demo.stdout).toMatch(
			/run 2 of 2[^]*email that would be sent to compliance@example.com: "SFDR watch: \d+ holding\(s\) downgraded"/,
		);
		expect(demo.stdout).toMatch(
			/14-daily-exclusion-screen[^]*run 2 of 2[^]*email that would be sent to compliance@example.com: "Exclusion screen: \d+ new breach\(es\)"/,
		);
		expect(demo.status).toBe(0);
		expect(
			readdirSync(join(out, '03-quarterly-report-email')).some((f) => f.endsWith('.pdf')),
		).toBe(true);
		expect(
			readdirSync(join(out, '07-quarterly-pai-statement')).some((f) => f.endsWith('.csv')),
		).toBe(true);
		expect(demo.stdout).toMatch(/OK \(waits at the form's completion page/);
		expect(readdirSync(join(out, '10-upload-holdings-form', 'run-1'))).toContain(
			'holdings.sample_sfdr-pai.xlsx',
		);
		expect(
			readdirSync(join(out, '11-quarterly-workbook-snapshots-reports')).filter((f) =>
				f.endsWith('.pdf'),
			),
		).toHaveLength(2);
		// 13: the workbook on disk, then the same workbook through the form: one workbook per statement each time.
		for (const run of ['run-1', 'run-2'])
			expect(
				readdirSync(join(out, '13-annual-pai-statement', run))
					.filter((f) => f.startsWith('pai-statement_'))
					.sort(),
			).toEqual([
				'pai-statement_2025_entity.xlsx',
				'pai-statement_2025_global-core.xlsx',
				'pai-statement_2025_growth-europe.xlsx',
			]);
	}, 250_000);
});

/**
 * 06 and 07 use n8n's If, Merge and Convert to File: run with the harness's stand-ins and, when an n8n install is
 * cached, with the real nodes (the other examples' tests use whichever the harness finds).
 */
const coreNodeModes: Array<'standIns' | 'auto'> = findN8nNodesBase()
	? ['standIns', 'auto']
	: ['standIns'];

function expectCoreNodes(result: WorkflowRunResult, coreNodes: 'standIns' | 'auto'): void {
	if (coreNodes === 'standIns') expect(result.realNodes).toEqual([]);
	else expect(result.standIns).toEqual(['n8n-nodes-base.emailSend']);
}

describe.each(coreNodeModes)('example workflows 06 and 07 (core nodes: %s)', (coreNodes) => {
	it('06: the first run remembers and emails nothing; the next week one email lists exactly the downgraded holdings', async () => {
		const workflow = loadWorkflowFile(join(examplesDir, '06-weekly-sfdr-watch.json'));
		// As the active workflow's schedule runs it (a manual run in the editor is not remembered).
		const options = { credentials: credentials(), mode: 'trigger' as const, coreNodes };

		const week1 = await runWorkflow(workflow, options);
		expect(week1.error).toBeUndefined();
		expectCoreNodes(week1, coreNodes);
		expect(sim.requestCount()).toBe(1);
		expect(week1.emails).toEqual([]);
		expect(week1.items('Only Downgrades')).toEqual([]);
		expect(week1.staticDataSaved).toBe(true);

		sim.setDataVersion(2);
		const week2 = await runWorkflow({ ...workflow, staticData: week1.savedStaticData }, options);
		expect(week2.error).toBeUndefined();

		// Independently: the holdings whose class is lower in the later edition of the data.
		const { changed, downgraded } = sfdrMoves(listed);
		expect(downgraded.length).toBeGreaterThan(0);
		expect(changed.length).toBeGreaterThan(downgraded.length); // upgrades and new data reach the If node, and stop there

		expect(week2.emails).toHaveLength(1);
		const [email] = week2.emails;
		expect(email).toMatchObject({ to: 'compliance@example.com', attachments: [] });
		expect(email.subject).toBe(`SFDR watch: ${downgraded.length} holding(s) downgraded`);
		const lines = email.text!.split('\n').filter((line) => line.startsWith('- '));
		expect(lines).toEqual(
			downgraded.map((h) => `- ${h.isin} ${h.name}: Article ${h.from} → Article ${h.to}`),
		);
	});

	it('12: 06 remembering in a Data Table: week 1 writes every class to the table, week 2 emails exactly the downgrades, as 06 does', async () => {
		resetDataTables();
		const workflow = loadWorkflowFile(join(examplesDir, '12-weekly-sfdr-watch-data-table.json'));
		// Run as the schedule runs it; the Data Table (the in-process stand-in) keeps the rows between the runs.
		const options = { credentials: credentials(), mode: 'trigger' as const, coreNodes };

		const week1 = await runWorkflow(workflow, options);
		expect(week1.error).toBeUndefined();
		expect(sim.requestCount()).toBe(1);
		expect(week1.emails).toEqual([]);
		// The cash row (no ISIN), and the word that nothing was remembered before.
		expect(week1.items('SFDR Changes').map((item) => item.json.status)).toEqual([
			'not_checked',
			'nothing_remembered',
		]);
		const remembered = dataTableRows('sfdr_watch_memory');
		expect(remembered.map((row) => row.isin)).toEqual(listed.map((h) => h.ISIN));
		// Nothing in static data: the memory is the table.
		expect(week1.staticData).toEqual({});

		sim.setDataVersion(2);
		const week2 = await runWorkflow(workflow, options);
		expect(week2.error).toBeUndefined();
		const { downgraded } = sfdrMoves(listed);
		expect(week2.emails).toHaveLength(1);
		const [email] = week2.emails;
		expect(email.subject).toBe(`SFDR watch: ${downgraded.length} holding(s) downgraded`);
		expect(email.text!.split('\n').filter((line) => line.startsWith('- '))).toEqual(
			downgraded.map((h) => `- ${h.isin} ${h.name}: Article ${h.from} → Article ${h.to}`),
		);
		// Week 2's results are in the table: one row per holding, updated, none added.
		expect(dataTableRows('sfdr_watch_memory')).toHaveLength(remembered.length);
		expect(
			dataTableRows('sfdr_watch_memory').map(
				(row) => (JSON.parse(row.result as string) as { classification: unknown }).classification,
			),
		).toEqual(listed.map((h) => instrumentData(h.ISIN, 2).sfdr));
	});

	it('14: day 1 remembers every screen and emails nothing; day 2 emails exactly the new breaches (fund, holding, rule, value), as worked out from the data', async () => {
		const workflow = loadWorkflowFile(join(examplesDir, '14-daily-exclusion-screen.json')) as {
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
		};
		const options = { credentials: credentials(), mode: 'trigger' as const, coreNodes };
		sim.setAnswerShape({ measures: 'vendor' });
		const day1 = await runWorkflow(workflow as never, options);
		expect(day1.error).toBeUndefined();
		expectCoreNodes(day1, coreNodes);
		expect(day1.emails).toEqual([]);
		expect(day1.items('Screen Changes').map((item) => item.json.change)).toEqual([
			'nothing_remembered',
		]);
		// Each data family the rules need, asked once for the distinct ISINs of both funds.
		expect(sim.requestCount()).toBe(3);

		sim.setDataVersion(2);
		const day2 = await runWorkflow({ ...workflow, staticData: day1.savedStaticData } as never, {
			...options,
		});
		expect(day2.error).toBeUndefined();

		// Independently, from the simulator's data: each rule's outcome per holding on day 1 and day 2.
		const screen = workflow.nodes.find((node) => node.name === 'Screen Changes')!.parameters;
		const rows = JSON.parse(
			workflow.nodes.find((node) => node.name === 'Holdings of Both Funds')!.parameters
				.jsonOutput as string,
		).rows as ScreenRow[];
		const [coal, article] = (screen.rules as { rule: Array<{ label: string }> }).rule;
		const expected = expectedNewBreachLines(rows, [coal.label, article.label]);
		expect(expected.length).toBeGreaterThan(1);
		// A holding in both funds (Apple, Article 8 to 6) is a new breach in each.
		expect(expected.filter((line) => line.includes('US0378331005'))).toHaveLength(2);
		expect(day2.emails).toHaveLength(1);
		const [email] = day2.emails;
		expect(email).toMatchObject({ to: 'compliance@example.com', attachments: [] });
		expect(email.subject).toBe(`Exclusion screen: ${expected.length} new breach(es)`);
		expect(email.text!.split('\n').filter((line) => line.startsWith('- '))).toEqual(expected);

		// The same day again: nothing new, no email.
		const again = await runWorkflow(
			{ ...workflow, staticData: day2.savedStaticData } as never,
			options,
		);
		expect(again.error).toBeUndefined();
		expect(again.emails).toEqual([]);
	});

	it('07: one CSV with the SFDR shares and PAI weighted averages, as recomputed from the per-ISIN data, emailed', async () => {
		const result = await runWorkflow(
			loadWorkflowFile(join(examplesDir, '07-quarterly-pai-statement.json')),
			{ credentials: credentials(), coreNodes },
		);
		expect(result.error).toBeUndefined();
		expectCoreNodes(result, coreNodes);
		expect(sim.requestCount()).toBe(2);

		expect(result.emails).toHaveLength(1);
		const [email] = result.emails;
		const [attachment] = email.attachments;
		expect(email.attachments).toHaveLength(1);
		expect(attachment).toMatchObject({
			fileName: expect.stringMatching(/^pai-statement_\d{4}-(03-31|06-30|09-30|12-31)\.csv$/),
			mimeType: 'text/csv',
		});
		const csv = csvSingleRow(attachment.content.toString('utf8'));

		// The cash row is left out; every figure recomputed from the simulator's per-ISIN data.
		const expected = expectedPaiStatementCells(holdings);
		expect(expected.removed_count).toBe('1');
		for (const [column, cell] of Object.entries(expected))
			expect([column, csv[column]]).toEqual([column, cell]);
		expect(email.text).toContain(`Article 9 ${csv.article_9_percent} %`);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions -- test tooling runs in Node, outside n8n's sandbox */
import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { instrumentData, taxonomyKpis } from './simulator';
import { loadWorkflowFile, runWorkflow } from './workflow/runner';
import { useSimulator } from './helpers/simulator';

/** Every example workflow, run as a user would import it, with assertions on what it produces. */
const examplesDir = join(__dirname, '..', 'examples');
const holdings = JSON.parse(
	readFileSync(join(examplesDir, 'holdings.sample.json'), 'utf8'),
) as Record<string, string>[];
const listed = holdings.filter((h) => h.ISIN);
const number = (text: string) => Number(text.replace(/[,%]/g, ''));

const sim = useSimulator({ temperatureRoute: true });

const run = (file: string) =>
	runWorkflow(loadWorkflowFile(join(examplesDir, file)), {
		credentials: { sustainabilityComplianceApi: { apiKey: 'sim-all-families', baseUrl: sim.url } },
	});

describe('example workflows', () => {
	it('every example is a workflow the tests run', () => {
		expect(readdirSync(examplesDir).filter((f) => /^\d\d-.*\.json$/.test(f))).toEqual([
			'01-holdings-sfdr-pai-involvements.json',
			'02-snapshot-history.json',
			'03-quarterly-report-email.json',
			'04-taxonomy-and-sustainable-investments.json',
			'05-temperature-score.json',
		]);
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
				market_value: number(h['Market Value']),
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

	it('npm run demo runs all examples against the embedded simulator and writes the PDF', () => {
		const out = mkdtempSync(join(tmpdir(), 'sc-demo-'));
		const demo = spawnSync(
			'npx',
			['ts-node', '--transpile-only', 'scripts/demo.ts', '--out', out],
			{
				cwd: join(__dirname, '..'),
				encoding: 'utf8',
				timeout: 240_000,
			},
		);
		expect(demo.stdout).toContain('5 passed, 0 failed');
		expect(demo.status).toBe(0);
		expect(
			readdirSync(join(out, '03-quarterly-report-email')).some((f) => f.endsWith('.pdf')),
		).toBe(true);
	}, 250_000);
});

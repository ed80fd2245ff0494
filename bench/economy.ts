/**
 * Section 1, request economy: how many requests the simulator sees for a given piece of work, against the floor
 * (ceil(distinct ISINs / 10,000) on the instruments routes, one per group on the portfolio routes, 0 for input with
 * a locally detectable error), and what the same work costs with n8n's HTTP Request node (computed).
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from '../test/simulator';
import type { RouteKey } from '../test/simulator';
import type { BenchContext, Section } from './context';
import { int } from './measure';
import { generateRows } from './nodes/GenerateItems.node';
import type { SectionResult } from './report';
import type { ChildSimulator } from './sim';
import { benchWorkflow, timedRun } from './workflows';
import type { NodeUnderTest } from './workflows';

const MAX_INSTRUMENTS = 10_000;
const MONTHLY_QUOTA = 10_000;
const THIS_YEAR = new Date().getUTCFullYear();
const LAST_YEAR = THIS_YEAR - 1;
const QUARTER_DATES = [
	`${LAST_YEAR}-03-31`,
	`${LAST_YEAR}-06-30`,
	`${LAST_YEAR}-09-30`,
	`${LAST_YEAR}-12-31`,
];

interface Case {
	operation: string;
	input: string;
	/** Rows as a Code step would emit them, or the Generate Items node's parameters. */
	rows: IDataObject[] | { generate: { count: number; distinct: number } };
	rowCount: number;
	node: NodeUnderTest;
	route: RouteKey;
	/** Work that asks several routes (Screen Holdings): the requests of all of them count, `route` among them. */
	routes?: RouteKey[];
	floor: number;
	floorLabel: string;
	/** What the HTTP Request node costs after Aggregate. */
	aggregate: string;
	/** The run is expected to fail before any request (bad input). */
	expectError?: boolean;
}

interface Measured {
	case: Case;
	requests: number;
	downloads?: number;
	status: string;
	error?: string;
	seconds: number;
}

const instruments = (operation: string, extra: IDataObject = {}): NodeUnderTest => ({
	type: 'sustainabilityInstruments',
	parameters: { operation, ...extra },
});

/** `portfolios` × `holdings` rows of known, non-fund companies, with everything every portfolio route needs. */
function holdingRows(
	portfolios: number,
	holdings: number,
	dates: string[] = [QUARTER_DATES[3]],
): IDataObject[] {
	const isins = findIsins((data) => data.known && !data.isFund, holdings, 'SE');
	const rows: IDataObject[] = [];
	for (let p = 0; p < portfolios; p++) {
		for (const date of dates) {
			for (let h = 0; h < holdings; h++) {
				rows.push({
					portfolio_id: `fund-${p}`,
					portfolio_name: `Fund ${p}`,
					date,
					isin: isins[(h + p) % isins.length],
					name: `Company ${(h + p) % isins.length}`,
					instrument_type: 'Stock',
					currency: 'SEK',
					weight: Number((100 / holdings).toFixed(4)),
					market_value: 1000 + h,
				});
			}
		}
	}
	return rows;
}

function perItemCost(rows: number): string {
	return rows > MONTHLY_QUOTA
		? `${int(rows)} (over the monthly quota of ${int(MONTHLY_QUOTA)})`
		: int(rows);
}

function cases(quick: boolean): Case[] {
	const items = quick ? 2_500 : 25_000;
	const distinct = quick ? 2_000 : 20_000;
	const list: Case[] = [];
	const instrumentOps: Array<[string, RouteKey]> = [
		['getSfdrClassification', 'POST /instruments/sustainability-profile'],
		['getPaiIndicators', 'POST /instruments/sustainability-data'],
		['getBusinessInvolvements', 'POST /instruments/business-involvements'],
		['getEsgData', 'POST /instruments/esg-data'],
	];
	for (const [operation, route] of instrumentOps) {
		list.push({
			operation: `Sustainability Instruments: ${operation}`,
			input: `${int(items)} items, ${int(distinct)} distinct ISINs`,
			rows: { generate: { count: items, distinct } },
			rowCount: items,
			node: instruments(operation),
			route,
			floor: Math.ceil(distinct / MAX_INSTRUMENTS),
			floorLabel: `ceil(${int(distinct)} / 10,000) = ${Math.ceil(distinct / MAX_INSTRUMENTS)}`,
			aggregate:
				items > MAX_INSTRUMENTS ? `refused (403): ${int(items)} instruments in one request` : '1',
		});
	}

	// Screen Holdings, Paris-aligned preset: business involvements and PAI indicators, each once per 10,000 ISINs.
	const screenFamilies: RouteKey[] = [
		'POST /instruments/business-involvements',
		'POST /instruments/sustainability-data',
	];
	const screenFloor = screenFamilies.length * Math.ceil(distinct / MAX_INSTRUMENTS);
	list.push({
		operation: 'Sustainability Instruments: screenHoldings, Paris-aligned preset',
		input: `${int(items)} items, ${int(distinct)} distinct ISINs`,
		rows: { generate: { count: items, distinct } },
		rowCount: items,
		node: instruments('screenHoldings', { screenPreset: 'pab' }),
		route: screenFamilies[0],
		routes: screenFamilies,
		floor: screenFloor,
		floorLabel: `2 data families × ceil(${int(distinct)} / 10,000) = ${screenFloor}`,
		aggregate:
			items > MAX_INSTRUMENTS
				? `refused (403): ${int(items)} instruments in one request, on each of 2 routes`
				: '2 (one per route), then an If node per rule and a Code node for the shares',
	});

	const [snapPortfolios, snapHoldings] = quick ? [5, 20] : [50, 50];
	const snapshots = holdingRows(snapPortfolios, snapHoldings, QUARTER_DATES);
	const snapshotNode = (extra: IDataObject = {}): NodeUnderTest => ({
		type: 'portfolioSnapshots',
		parameters: {
			operation: 'createOrUpdateSnapshot',
			portfolioId: '={{ $json.portfolio_id }}',
			portfolioName: '={{ $json.portfolio_name }}',
			snapshotDate: '={{ $json.date }}',
			currency: 'SEK',
			groupBy: 'portfolio_id, date',
			...extra,
		},
	});
	const groups = snapPortfolios * QUARTER_DATES.length;
	list.push({
		operation: "Portfolio Snapshots: createOrUpdateSnapshot, Group By 'portfolio_id, date'",
		input: `${int(snapshots.length)} rows: ${snapPortfolios} portfolios × 4 quarters × ${snapHoldings} holdings`,
		rows: snapshots,
		rowCount: snapshots.length,
		node: snapshotNode(),
		route: 'POST /portfolios',
		floor: groups,
		floorLabel: `${groups} groups`,
		aggregate: '1, but every portfolio and quarter merged into one snapshot (wrong)',
	});

	const [portfolios, holdings] = quick ? [10, 20] : [100, 50];
	const portfolioRows = holdingRows(portfolios, holdings);
	list.push({
		operation: "EU Taxonomy: getPortfolioAlignment, Group By 'portfolio_id'",
		input: `${int(portfolioRows.length)} rows: ${portfolios} portfolios × ${holdings} holdings`,
		rows: portfolioRows,
		rowCount: portfolioRows.length,
		node: {
			type: 'euTaxonomy',
			parameters: { operation: 'getPortfolioAlignment', groupBy: 'portfolio_id' },
		},
		route: 'POST /taxonomy/insights',
		floor: portfolios,
		floorLabel: `${portfolios} groups`,
		aggregate: '1, but all portfolios taken as one (wrong)',
	});
	const methodology = { __rl: true, mode: 'list', value: 1 };
	list.push({
		operation: "Sustainable Investments: classifyHoldings, Group By 'portfolio_id'",
		input: `${int(portfolioRows.length)} rows: ${portfolios} portfolios × ${holdings} holdings`,
		rows: portfolioRows,
		rowCount: portfolioRows.length,
		node: {
			type: 'sustainableInvestments',
			parameters: { operation: 'classifyHoldings', methodology, groupBy: 'portfolio_id' },
		},
		route: 'POST /sustainable-investments/insights',
		floor: portfolios,
		floorLabel: `${portfolios} groups`,
		aggregate: '1, but weights worked out over all portfolios together (wrong)',
	});
	const [reports, reportHoldings] = quick ? [4, 20] : [20, 30];
	const reportRows = holdingRows(reports, reportHoldings);
	const reportNode = (extra: IDataObject = {}): NodeUnderTest => ({
		type: 'sustainabilityReports',
		parameters: {
			operation: 'generatePdfReport',
			reportName: '={{ $json.portfolio_name }}',
			reportId: '={{ $json.portfolio_id }}',
			snapshotDate: '={{ $json.date }}',
			groupBy: 'portfolio_id',
			...extra,
		},
	});
	list.push({
		operation: "Sustainability Reports: generatePdfReport, Group By 'portfolio_id'",
		input: `${int(reportRows.length)} rows: ${reports} portfolios × ${reportHoldings} holdings (PDFs downloaded)`,
		rows: reportRows,
		rowCount: reportRows.length,
		node: reportNode(),
		route: 'POST /reports',
		floor: reports,
		floorLabel: `${reports} groups`,
		aggregate: '1, one report for all portfolios (wrong)',
	});

	// Input with an error the node finds before sending anything.
	const badIsinRows = { generate: { count: items, distinct } };
	list.push({
		operation: 'Sustainability Instruments: getSfdrClassification',
		input: `${int(items)} items, the last with an invalid ISIN (check digit)`,
		rows: badIsinRows,
		rowCount: items,
		node: instruments('getSfdrClassification'),
		route: 'POST /instruments/sustainability-profile',
		floor: 0,
		floorLabel: '0 (refused locally)',
		aggregate:
			items > MAX_INSTRUMENTS ? 'refused (403)' : '1 (the API answers the ISIN with empty values)',
		expectError: true,
	});
	const missingValue = portfolioRows.map((row, index) =>
		index === portfolioRows.length - 1 ? { ...row, market_value: '' } : row,
	);
	list.push({
		operation: "EU Taxonomy: getPortfolioAlignment, Group By 'portfolio_id'",
		input: `${int(missingValue.length)} rows, the last without a market value`,
		rows: missingValue,
		rowCount: missingValue.length,
		node: {
			type: 'euTaxonomy',
			parameters: { operation: 'getPortfolioAlignment', groupBy: 'portfolio_id' },
		},
		route: 'POST /taxonomy/insights',
		floor: 0,
		floorLabel: '0 (refused locally)',
		aggregate: 'refused (400): missing required properties',
		expectError: true,
	});
	list.push({
		operation: "Sustainable Investments: classifyHoldings, Group By 'portfolio_id'",
		input: `${int(missingValue.length)} rows, the last without a market value`,
		rows: missingValue,
		rowCount: missingValue.length,
		node: {
			type: 'sustainableInvestments',
			parameters: { operation: 'classifyHoldings', methodology, groupBy: 'portfolio_id' },
		},
		route: 'POST /sustainable-investments/insights',
		floor: 0,
		floorLabel: '0 (refused locally)',
		aggregate: 'refused (400): missing required properties',
		expectError: true,
	});
	const futureDate = snapshots.map((row) =>
		row.portfolio_id === `fund-${snapPortfolios - 1}` && row.date === QUARTER_DATES[3]
			? { ...row, date: `${THIS_YEAR + 1}-03-31` }
			: row,
	);
	list.push({
		operation: "Portfolio Snapshots: createOrUpdateSnapshot, Group By 'portfolio_id, date'",
		input: `${int(futureDate.length)} rows, the last group dated next year`,
		rows: futureDate,
		rowCount: futureDate.length,
		node: snapshotNode(),
		route: 'POST /portfolios',
		floor: 0,
		floorLabel: '0 (refused locally)',
		aggregate: 'refused (400): future-year date',
		expectError: true,
	});
	const futureReport = reportRows.map((row) =>
		row.portfolio_id === `fund-${reports - 1}` ? { ...row, date: `${THIS_YEAR + 1}-03-31` } : row,
	);
	list.push({
		operation: "Sustainability Reports: generatePdfReport, Group By 'portfolio_id'",
		input: `${int(futureReport.length)} rows, the last group dated next year`,
		rows: futureReport,
		rowCount: futureReport.length,
		node: reportNode(),
		route: 'POST /reports',
		floor: 0,
		floorLabel: '0 (refused locally)',
		aggregate: 'refused (400): future-year date',
		expectError: true,
	});
	return list;
}

async function measure(sim: ChildSimulator, entry: Case): Promise<Measured> {
	await sim.reset();
	let workflow = benchWorkflow(entry.rows, entry.node);
	if (entry.expectError && !Array.isArray(entry.rows)) {
		// The generated input, then a Code step that breaks the last item's ISIN check digit.
		const rows = generateWithBadLast(entry.rows.generate.count, entry.rows.generate.distinct);
		workflow = benchWorkflow(rows, entry.node);
	}
	const started = performance.now();
	const run = await timedRun(workflow, sim.url, { timeoutMs: 600_000 });
	const stats = await sim.stats();
	return {
		case: entry,
		requests: (entry.routes ?? [entry.route]).reduce(
			(sum, route) => sum + (stats.byRoute[route] ?? 0),
			0,
		),
		downloads: entry.route === 'POST /reports' ? await sim.downloads() : undefined,
		status: run.result.status,
		error: run.result.error?.message,
		seconds: (performance.now() - started) / 1000,
	};
}

function generateWithBadLast(count: number, distinct: number): IDataObject[] {
	// Same rows as the Generate Items node, the last ISIN with a wrong check digit.
	const rows = generateRows(count, distinct) as IDataObject[];
	const last = rows[rows.length - 1];
	const isin = String(last.isin);
	rows[rows.length - 1] = { ...last, isin: `${isin.slice(0, 11)}${(Number(isin[11]) + 1) % 10}` };
	return rows;
}

export const economy: Section = {
	id: 'economy',
	title: '1. Request economy',
	async run(context: BenchContext): Promise<SectionResult> {
		const sim = await context.simulator();
		const measured: Measured[] = [];
		for (const entry of cases(context.quick)) {
			context.log(`economy: ${entry.operation}: ${entry.input}`);
			const result = await measure(sim, entry);
			const failed = result.status !== 'success' || result.error !== undefined;
			if (failed !== !!entry.expectError) {
				throw new Error(
					`${entry.operation} (${entry.input}): expected ${entry.expectError ? 'an error' : 'success'}, got ${result.status} ${result.error ?? ''}`,
				);
			}
			measured.push(result);
		}
		await sim.close();
		const row = (m: Measured) => [
			m.case.operation,
			m.case.input,
			`${m.requests}${m.downloads !== undefined && m.downloads > 0 ? ` (+ ${m.downloads} PDF downloads)` : ''}`,
			m.case.floorLabel,
			m.requests === m.case.floor ? 'yes' : 'NO',
			perItemCost(m.case.rowCount * (m.case.routes?.length ?? 1)),
			m.case.aggregate,
		];
		const columns = [
			'Operation',
			'Input',
			'Requests seen by the simulator',
			'Floor',
			'At the floor',
			'HTTP Request node, one item at a time',
			'HTTP Request after Aggregate',
		];
		const good = measured.filter((m) => !m.case.expectError);
		const bad = measured.filter((m) => m.case.expectError);
		const command = context.command('economy');
		return {
			id: 'economy',
			title: this.title,
			tables: [
				{
					title: 'Requests per piece of work',
					command,
					columns,
					rows: good.map(row),
					notes: [
						"Requests: every request the simulator received on the API listener for the route (its own count), in one workflow run inside n8n's engine.",
						'HTTP Request node columns are computed, not run: one request per input item; or one request with every row after an Aggregate node. The instruments routes refuse more than 10,000 instruments in one request (403); on the portfolio routes one request mixes every group into one portfolio.',
					],
				},
				{
					title: 'Input with an error found before sending',
					command,
					columns,
					rows: bad.map(row),
					notes: bad.map(
						(m) => `${m.case.operation} (${m.case.input}): "${(m.error ?? '').slice(0, 160)}"`,
					),
				},
			],
			data: measured.map((m) => ({ ...m, case: { ...m.case, rows: undefined } })),
			checks: [
				{
					name: 'every piece of work at its floor',
					ok: measured.every((m) => m.requests === m.case.floor),
					value: `${measured.filter((m) => m.requests === m.case.floor).length} of ${measured.length}`,
				},
			],
		};
	},
};

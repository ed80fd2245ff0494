/**
 * Section 6, column mapping (holdings nodes, version 2): 10,000 holdings through EU Taxonomy with Holding Columns =
 * Map Each Column Manually (the columns dragged in: plain references, read from each item) and with every field an
 * expression n8n evaluates per item, against Map Automatically (the baseline), alternating in one process.
 */
import type { IDataObject } from 'n8n-workflow';

import { ROUTES } from '../nodes/shared/api/routes';
import { makeIsins } from '../test/helpers/isins';
import { bracketed, manualHoldingColumns } from '../test/helpers/workflows';
import type { BenchContext, Section } from './context';
import { collectGarbage, int, median, ms, ratio } from './measure';
import type { SectionResult, Table } from './report';
import { NODE, benchWorkflow, timedRun } from './workflows';

const ROUTE = 'POST /taxonomy/insights';

/** The columns as the editor writes them when each is dragged from the input panel. */
const DRAGGED: IDataObject = {
	isin: '={{ $json.ISIN }}',
	name: '={{ $json.Name }}',
	instrument_type: '={{ $json.Type }}',
	currency: '={{ $json.Currency }}',
	weight: '={{ $json["Weight %"] }}',
	market_value: '={{ $json["Market Value"] }}',
};

const manual = (value: IDataObject) => ({
	holdingColumns: manualHoldingColumns(ROUTES.taxonomy, value),
});

const MODES = [
	{ id: 'auto', label: 'Map Automatically (baseline)', parameters: {} },
	{
		id: 'manual',
		label: 'Map Each Column Manually, columns dragged in',
		parameters: manual(DRAGGED),
	},
	{
		id: 'evaluated',
		label: 'Map Each Column Manually, every field an expression n8n evaluates',
		parameters: manual(bracketed(DRAGGED)),
	},
] as const;

type ModeId = (typeof MODES)[number]['id'];
type Target = 'simulator' | 'replay';

interface Sample {
	nodeStepMs: number;
	executeMs: number;
}

interface Row {
	target: Target;
	mode: ModeId;
	samples: Sample[];
}

/** Sheet-like rows with the usual headers (what Map Automatically finds) and text numbers as a sheet gives them. */
function holdingRows(count: number): IDataObject[] {
	return makeIsins(count, 0, 'DE').map((isin, row) => ({
		ISIN: isin,
		Name: `Holding ${row}`,
		Type: row % 7 === 0 ? 'Mutual Fund' : 'Stock',
		Currency: 'EUR',
		'Weight %': `${(100 / count).toFixed(4)}%`,
		'Market Value': `${(1000 + row).toLocaleString('en-US')}.50`,
	}));
}

export const mapping: Section = {
	id: 'mapping',
	title: '6. Holding Columns: Map Each Column Manually against Map Automatically',
	async run(context: BenchContext): Promise<SectionResult> {
		const count = 10_000;
		const runs = context.quick ? 3 : 7;
		const rows = holdingRows(count);
		const sim = await context.simulator();
		const results: Row[] = [];
		const workflowFor = (mode: (typeof MODES)[number]) =>
			benchWorkflow(rows, {
				type: 'euTaxonomy',
				typeVersion: 2,
				parameters: { operation: 'getPortfolioAlignment', ...mode.parameters },
			});
		const sample = async (target: Target, mode: (typeof MODES)[number]): Promise<Sample> => {
			const before = target === 'simulator' ? await sim.requestCount(ROUTE) : 0;
			const run = await timedRun(
				workflowFor(mode),
				target === 'simulator' ? sim.url : sim.replayUrl,
			);
			if (run.result.error) throw run.result.error;
			if (run.result.items(NODE).length !== 1) throw new Error(`${mode.label}: no summary item`);
			if (target === 'simulator') {
				const requests = (await sim.requestCount(ROUTE)) - before;
				if (requests !== 1) throw new Error(`${mode.label}: ${requests} requests in a run, not 1`);
			}
			return { nodeStepMs: run.nodeStepMs, executeMs: run.executeMs };
		};
		for (const target of ['simulator', 'replay'] as const) {
			context.log(
				`mapping: ${target}, ${int(count)} holdings, ${MODES.length} modes × ${runs} runs`,
			);
			const byMode = new Map<ModeId, Row>();
			for (const mode of MODES) {
				const row: Row = { target, mode: mode.id, samples: [] };
				results.push(row);
				byMode.set(mode.id, row);
			}
			for (const mode of MODES) await sample(target, mode);
			for (let run = 0; run < runs; run++) {
				for (let turn = 0; turn < MODES.length; turn++) {
					const mode = MODES[(run + turn) % MODES.length];
					byMode.get(mode.id)!.samples.push(await sample(target, mode));
				}
			}
			collectGarbage();
		}
		await sim.close();

		const baselineOf = (row: Row) =>
			results.find((other) => other.target === row.target && other.mode === 'auto')!;
		const stepRatio = (row: Row) =>
			median(row.samples.map((s) => s.nodeStepMs)) /
			median(baselineOf(row).samples.map((s) => s.nodeStepMs));
		const executeRatio = (row: Row) =>
			median(row.samples.map((s) => s.executeMs)) /
			median(baselineOf(row).samples.map((s) => s.executeMs));
		const label = (id: ModeId) => MODES.find((mode) => mode.id === id)!.label;

		const table: Table = {
			title: `${int(count)} holdings through EU Taxonomy (version 2), Get Portfolio Alignment`,
			command: context.command('mapping'),
			columns: [
				'Answers from',
				'Holding Columns',
				'Node step median',
				'Ratio step / baseline',
				'Node execute() median',
				'Ratio execute() / baseline',
			],
			rows: results.map((row) => [
				row.target === 'simulator' ? 'simulator' : 'replayed answers',
				label(row.mode),
				ms(median(row.samples.map((s) => s.nodeStepMs))),
				ratio(stepRatio(row)),
				ms(median(row.samples.map((s) => s.executeMs))),
				ratio(executeRatio(row)),
			]),
			notes: [
				`Median of ${runs} runs per mode after one warm-up run of each, the modes taking turns in one process (the first mode rotates each round). One request per run in every mode; the same rows (usual headers, weights as "0.0100%", market values as "1,234.50", some types "Mutual Fund") and the same request body in every mode.`,
				'Columns dragged in: the editor writes {{ $json.ISIN }} or {{ $json["Market Value"] }}; such a plain reference is read from the item directly. Every field an expression: the same columns in brackets, {{ ($json.ISIN) }}, which n8n evaluates for each item and field (what any computed mapping costs).',
				'Replayed answers: every request is answered by a replay of the answer the simulator gave to the identical request (bench/simHost.ts), so the ratio shows the client-side cost.',
			],
		};
		const checks = results
			.filter((row) => row.mode === 'manual')
			.map((row) => {
				const value = stepRatio(row);
				return {
					name: `${label(row.mode)}: node step / Map Automatically ≤ 1.5 at ${int(count)} holdings (${row.target})`,
					ok: value <= 1.5,
					value: ratio(value),
				};
			});
		return { id: 'mapping', title: this.title, tables: [table], data: results, checks };
	},
};

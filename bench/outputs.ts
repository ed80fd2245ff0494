/**
 * Section 5, output modes: Get SFDR Classification and Get PAI Indicators with Output = Portfolio Summary (without
 * and with Group By) and Only Changes Since Last Run (its second run, from the first run's saved static data) against
 * the same operation with Output = Add to Input Items (the baseline), alternating in one process.
 */
import type { IDataObject } from 'n8n-workflow';

import type { BenchContext, Section } from './context';
import { collectGarbage, int, mb, median, ms, ratio, withMemoryPeak } from './measure';
import type { MemoryPeak } from './measure';
import type { SectionResult, Table } from './report';
import type { ChildSimulator } from './sim';
import { NODE, benchWorkflow, timedRun } from './workflows';

/** Portfolios the rows are spread over (the `portfolio` column) for Group By. */
const PORTFOLIOS = 50;

const OPERATIONS = [
	{
		operation: 'getSfdrClassification',
		label: 'Get SFDR Classification',
		route: 'POST /instruments/sustainability-profile',
	},
	{
		operation: 'getPaiIndicators',
		label: 'Get PAI Indicators',
		route: 'POST /instruments/sustainability-data',
	},
] as const;

type Operation = (typeof OPERATIONS)[number];

const MODES = [
	{
		id: 'baseline',
		label: 'Add to Input Items (baseline)',
		parameters: { outputMode: 'addToItems' },
	},
	{
		id: 'summary',
		label: 'Portfolio Summary',
		parameters: { outputMode: 'portfolioSummary', marketValueField: 'market_value' },
	},
	{
		id: 'summaryGrouped',
		label: `Portfolio Summary, Group By portfolio (${PORTFOLIOS})`,
		parameters: {
			outputMode: 'portfolioSummary',
			marketValueField: 'market_value',
			groupBy: 'portfolio',
		},
	},
	{
		id: 'changes',
		label: 'Only Changes Since Last Run (2nd run)',
		parameters: { outputMode: 'changesSinceLastRun' },
	},
] as const;

type ModeId = (typeof MODES)[number]['id'];
type Target = 'simulator' | 'replay';

interface Sample {
	executeMs: number;
	nodeStepMs: number;
	memory: MemoryPeak;
	outputs: number;
	/** Requests the simulator saw during the run (simulator target only). */
	requests?: number;
}

interface Row {
	target: Target;
	operation: Operation['label'];
	items: number;
	mode: ModeId;
	samples: Sample[];
	/** Only Changes: bytes of the static data the first run saved (JSON), and of the node's remembered-results text. */
	staticDataBytes?: number;
	stateTextBytes?: number;
}

function workflowFor(operation: Operation, count: number, mode: (typeof MODES)[number]) {
	return benchWorkflow(
		{ generate: { count, distinct: count, marketValue: true, groups: PORTFOLIOS } },
		{
			type: 'sustainabilityInstruments',
			parameters: { operation: operation.operation, ...mode.parameters },
		},
	);
}

async function sample(
	sim: ChildSimulator,
	target: Target,
	operation: Operation,
	count: number,
	mode: (typeof MODES)[number],
	staticData: string | undefined,
): Promise<Sample> {
	const workflow = workflowFor(operation, count, mode);
	const before = target === 'simulator' ? await sim.requestCount(operation.route) : 0;
	const { value, memory } = await withMemoryPeak(async () => {
		const run = await timedRun(
			// A fresh copy each time: the run writes its own results into the static data it is given.
			{
				...workflow,
				staticData: staticData === undefined ? undefined : (JSON.parse(staticData) as IDataObject),
			},
			target === 'simulator' ? sim.url : sim.replayUrl,
			// An active workflow's run, as Only Changes is meant to be used (the same for every mode).
			{ mode: 'trigger' },
		);
		if (run.result.error) throw run.result.error;
		return {
			executeMs: run.executeMs,
			nodeStepMs: run.nodeStepMs,
			outputs: run.result.items(NODE).length,
		};
	});
	const requests =
		target === 'simulator' ? (await sim.requestCount(operation.route)) - before : undefined;
	return { ...value, memory, requests };
}

export const outputs: Section = {
	id: 'outputs',
	title:
		'5. Output modes: Portfolio Summary and Only Changes Since Last Run against Add to Input Items',
	async run(context: BenchContext): Promise<SectionResult> {
		const sizes = context.quick ? [10_000] : [10_000, 100_000];
		const runsFor = (count: number) => (context.quick ? 3 : count > 10_000 ? 3 : 5);
		const sim = await context.simulator();
		const rows: Row[] = [];
		for (const operation of OPERATIONS) {
			for (const count of sizes) {
				const runs = runsFor(count);
				context.log(
					`outputs: ${operation.label}, ${int(count)} items, ${MODES.length} modes × ${runs} runs`,
				);
				// The first run of Only Changes, on data version 1: what it saves is where every measured run starts.
				await sim.reset();
				const first = await timedRun(workflowFor(operation, count, MODES[3]), sim.url, {
					mode: 'trigger',
				});
				if (first.result.error) throw first.result.error;
				if (!first.result.staticDataSaved) throw new Error('the first run saved no static data');
				const staticData = JSON.stringify(first.result.savedStaticData);
				const stateText = (first.result.savedStaticData[`node:${NODE}`] as IDataObject | undefined)
					?.lastResults;
				if (typeof stateText !== 'string')
					throw new Error('no remembered results after the first run');
				// Data version 2 moves some ISINs' results, so the measured runs of Only Changes report changes.
				await sim.setDataVersion(2);
				const byMode = new Map<string, Row>();
				for (const target of ['simulator', 'replay'] as const) {
					for (const mode of MODES) {
						const row: Row = {
							target,
							operation: operation.label,
							items: count,
							mode: mode.id,
							samples: [],
						};
						if (mode.id === 'changes') {
							row.staticDataBytes = Buffer.byteLength(staticData);
							row.stateTextBytes = Buffer.byteLength(stateText);
						}
						rows.push(row);
						byMode.set(`${target}:${mode.id}`, row);
					}
				}
				const stateFor = (mode: (typeof MODES)[number]) =>
					mode.id === 'changes' ? staticData : undefined;
				for (const target of ['simulator', 'replay'] as const) {
					// Warm-up (JIT, keep-alive sockets, the replay's recordings of version 2's answers): not counted.
					for (const mode of MODES)
						await sample(sim, target, operation, count, mode, stateFor(mode));
					for (let run = 0; run < runs; run++) {
						// Rotate which mode goes first, so drift (other load, heap growth) hits every mode alike.
						for (let turn = 0; turn < MODES.length; turn++) {
							const mode = MODES[(run + turn) % MODES.length];
							byMode
								.get(`${target}:${mode.id}`)!
								.samples.push(await sample(sim, target, operation, count, mode, stateFor(mode)));
						}
					}
					collectGarbage();
				}
				const requests = new Set(
					rows
						.filter((row) => row.target === 'simulator' && row.items === count)
						.filter((row) => row.operation === operation.label)
						.flatMap((row) => row.samples.map((s) => s.requests)),
				);
				if (requests.size !== 1) {
					throw new Error(
						`${operation.label}, ${int(count)} items: request counts differ between modes (${[...requests].join(', ')})`,
					);
				}
			}
		}
		await sim.close();

		const baselineOf = (row: Row) =>
			rows.find(
				(other) =>
					other.target === row.target &&
					other.operation === row.operation &&
					other.items === row.items &&
					other.mode === 'baseline',
			)!;
		const stepRatio = (row: Row) =>
			median(row.samples.map((s) => s.nodeStepMs)) /
			median(baselineOf(row).samples.map((s) => s.nodeStepMs));
		const executeRatio = (row: Row) =>
			median(row.samples.map((s) => s.executeMs)) /
			median(baselineOf(row).samples.map((s) => s.executeMs));
		const heapRatio = (row: Row) =>
			median(row.samples.map((s) => s.memory.heapDelta)) /
			median(baselineOf(row).samples.map((s) => s.memory.heapDelta));
		const modeLabel = (id: ModeId) => MODES.find((mode) => mode.id === id)!.label;
		const kb = (bytes: number | undefined) =>
			bytes === undefined ? '–' : `${int(Math.round(bytes / 1024))} KB`;

		const table = (target: Target): Table => ({
			title:
				target === 'simulator'
					? 'Against the simulator (its computing time included in every mode)'
					: "Against recorded simulator answers (replayed: the server's time left out, so the client's own cost shows)",
			command: context.command('outputs'),
			columns: [
				'Operation',
				'Items',
				'Output',
				'Requests / run',
				'Output items',
				'Node step median',
				'Ratio step / baseline',
				'Node execute() median',
				'Ratio execute() / baseline',
				'Peak heap Δ (ratio)',
				'Peak RSS Δ',
				'Saved static data (remembered results)',
			],
			rows: rows
				.filter((row) => row.target === target)
				.map((row) => {
					const simulatorRow = rows.find(
						(other) =>
							other.target === 'simulator' &&
							other.operation === row.operation &&
							other.items === row.items &&
							other.mode === row.mode,
					)!;
					return [
						row.operation,
						int(row.items),
						modeLabel(row.mode),
						simulatorRow.samples[0]?.requests ?? '–',
						int(median(row.samples.map((s) => s.outputs))),
						ms(median(row.samples.map((s) => s.nodeStepMs))),
						row.mode === 'baseline' ? '1.00×' : ratio(stepRatio(row)),
						ms(median(row.samples.map((s) => s.executeMs))),
						row.mode === 'baseline' ? '1.00×' : ratio(executeRatio(row)),
						`${mb(median(row.samples.map((s) => s.memory.heapDelta)))} (${ratio(heapRatio(row))})`,
						mb(median(row.samples.map((s) => s.memory.rssDelta))),
						row.mode === 'changes' ? `${kb(row.staticDataBytes)} (${kb(row.stateTextBytes)})` : '–',
					];
				}),
			notes:
				target === 'simulator'
					? [
							`Median of ${context.quick ? 3 : '5 (10,000 items) or 3 (100,000 items)'} runs per output mode after one warm-up run of each, the modes taking turns in one process (the first mode rotates each round); the simulator runs in a child process.`,
							`Input: one distinct ISIN per row, rows { row, isin, name, market_value, portfolio } from the bench-only Generate Items node (${PORTFOLIOS} portfolios, row by row in turn), the same rows in every mode. Request counts are the simulator's per run, checked equal in every mode.`,
							'Node step: the run data executionTime of the node (n8n also copies the input and keeps the paired items around execute()). Node execute(): time inside our node only.',
							"Only Changes Since Last Run: the second run of the workflow (an active workflow's run, mode trigger), each measured run starting from the static data the first run saved (on the simulator's data version 1); the measured runs get data version 2, so some ISINs changed and come out. Every mode runs in mode trigger and on data version 2. Saved static data: the JSON of the workflow's static data after the first run, and in brackets the node's remembered-results text within it.",
							'Memory: peak of process.memoryUsage() sampled every 5 ms during the whole workflow run (input node, our node, run data) minus the level after a forced GC just before, median of the runs; in brackets the ratio to the baseline.',
						]
					: [
							'Same runs, but every request is answered by a replay of the answer the simulator gave to the identical request (bench/simHost.ts), so the ratios show the client-side cost of each output mode.',
						],
		});
		const checks = rows
			.filter(
				(row) => row.target === 'simulator' && row.items === 10_000 && row.mode !== 'baseline',
			)
			.map((row) => {
				const value = stepRatio(row);
				return {
					name: `${row.operation}, ${modeLabel(row.mode)}: node step / baseline ≤ 1.5 at 10,000 items (simulator)`,
					ok: value <= 1.5,
					value: ratio(value),
				};
			});
		return {
			id: 'outputs',
			title: this.title,
			tables: [table('simulator'), table('replay')],
			data: rows,
			checks,
		};
	},
};

import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import type { DataVersion, InstrumentData } from './simulator/data';
import { useSimulator } from './helpers/simulator';
import { chainWorkflow, credentialsFor } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { hintMessages as hintsOf } from './helpers/lookupRuns';
import { runWorkflow } from './workflow/runner';
import type { RunWorkflowOptions, WorkflowInput, WorkflowRunResult } from './workflow/runner';

// Only Changes Since Last Run with Remember In = Rows Given Here (issue 37): the previous results come in as rows (a
// Data Table's Get Many, here a node pinned to them), the new ones go out on the second output, To Remember.

const sim = useSimulator();

type Mode = NonNullable<RunWorkflowOptions['mode']>;

const REMEMBERED = 'Get Remembered Rows';

function watchNode(parameters: IDataObject = {}): NodeSpec {
	return {
		type: 'sustainabilityInstruments',
		name: 'Node',
		parameters: {
			operation: 'getSfdrClassification',
			outputMode: 'changesSinceLastRun',
			rememberIn: 'rows',
			rememberedRows: `={{ $('${REMEMBERED}').all() }}`,
			...parameters,
		},
	};
}

/**
 * Trigger -> Get Remembered Rows (pinned to `remembered`; [] as a Data Table with Always Output Data gives it: one
 * empty item) -> Input (the watch list) -> the watch node.
 */
function withMemory(isins: string[], remembered: IDataObject[], node: NodeSpec): WorkflowInput {
	const chain = chainWorkflow(
		isins.map((isin) => ({ isin })),
		node,
	);
	const memoryNode: INode = {
		id: 'm',
		name: REMEMBERED,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [100, 0],
		parameters: {},
	};
	return {
		...chain,
		nodes: [...chain.nodes, memoryNode],
		connections: {
			...chain.connections,
			Trigger: { main: [[{ node: REMEMBERED, type: 'main', index: 0 }]] },
			[REMEMBERED]: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
		},
		pinData: {
			...chain.pinData,
			[REMEMBERED]: (remembered.length ? remembered : [{}]).map((json) => ({ json })),
		},
	};
}

async function run(
	workflow: WorkflowInput,
	{ mode = 'trigger', version = 1 }: { mode?: Mode; version?: DataVersion } = {},
): Promise<WorkflowRunResult> {
	sim.setDataVersion(version);
	const result = await runWorkflow(workflow, { credentials: credentialsFor(sim.url), mode });
	expect(result.error).toBeUndefined();
	return result;
}

const changesOf = (result: WorkflowRunResult) => result.items('Node', 0).map((item) => item.json);
const toRemember = (result: WorkflowRunResult) => result.items('Node', 1).map((item) => item.json);

/** The SFDR result columns as the node gives them, from the simulator's data (independent of the node's code). */
function sfdrColumns(data: InstrumentData): IDataObject {
	return {
		isin: data.isin,
		found: data.sfdr !== null,
		classification: data.sfdr,
		article: data.sfdr === null ? null : `Article ${data.sfdr}`,
		description: data.sfdrDescription,
	};
}

/** What is remembered for an ISIN: its result columns without the isin. */
function storedResult(isin: string, version: DataVersion): IDataObject {
	const result = sfdrColumns(instrumentData(isin, version));
	delete result.isin;
	return result;
}

/** The ISINs whose default compared columns differ between data versions 1 and 2. */
const movesBetweenVersions = (isin: string) => {
	const before = sfdrColumns(instrumentData(isin, 1));
	const after = sfdrColumns(instrumentData(isin, 2));
	return ['classification', 'article', 'description'].some(
		(field) => before[field] !== after[field],
	);
};

/** ISINs that move between versions 1 and 2 and ISINs that do not. */
function watchList(): { moving: string[]; still: string[] } {
	const moving = findIsins((d) => d.known && movesBetweenVersions(d.isin), 3);
	const still = findIsins((d) => d.known && !movesBetweenVersions(d.isin), 3);
	return { moving, still };
}

/** The same watch with static data (the default), two runs: what the rows memory must match. */
async function staticDataChanges(isins: string[]): Promise<IDataObject[]> {
	const node: NodeSpec = {
		type: 'sustainabilityInstruments',
		name: 'Node',
		parameters: { operation: 'getSfdrClassification', outputMode: 'changesSinceLastRun' },
	};
	const workflow = chainWorkflow(
		isins.map((isin) => ({ isin })),
		node,
	);
	const first = await run(workflow);
	const second = await run({ ...workflow, staticData: first.savedStaticData }, { version: 2 });
	return changesOf(second);
}

describe('Only Changes Since Last Run remembering in rows the user keeps (a Data Table)', () => {
	it('hands out the results on To Remember; fed back, the next run reports exactly what static data reports', async () => {
		const { moving, still } = watchList();
		const isins = [...still, ...moving];
		const node = watchNode();

		const first = await run(withMemory(isins, [], node));
		// Two outputs: the changes (here the one word that nothing was remembered) and the rows to write back.
		expect(first.outputs.Node).toHaveLength(2);
		expect(changesOf(first)).toEqual([
			expect.objectContaining({ isin: null, status: 'nothing_remembered' }),
		]);
		expect(hintsOf(first).join(' ')).toMatch(/No remembered rows came in/);
		const rows = toRemember(first);
		expect(rows.map((row) => row.isin)).toEqual(isins);
		for (const row of rows) {
			expect(Object.keys(row).sort()).toEqual(['isin', 'last_seen_run', 'result']);
			expect(row.last_seen_run).toBe(1);
			expect(JSON.parse(row.result as string)).toEqual(storedResult(row.isin as string, 1));
		}
		// Each row to remember is paired with the input item of its ISIN.
		expect(first.items('Node', 1).map((item) => item.pairedItem)).toEqual(
			isins.map((_, index) => [{ item: index }]),
		);

		// Nothing changed: nothing comes out.
		const same = await run(withMemory(isins, rows, node));
		expect(changesOf(same)).toEqual([]);
		expect(toRemember(same).map((row) => row.last_seen_run)).toEqual(isins.map(() => 2));

		// The vendor's data moved: exactly what the static-data form reports.
		const second = await run(withMemory(isins, toRemember(same), node), { version: 2 });
		expect(changesOf(second).map((json) => json.isin)).toEqual(moving);
		expect(changesOf(second)).toEqual(await staticDataChanges(isins));
	});

	it('reads rows in any order with other columns, keeps an ISIN no longer watched, names and skips malformed rows', async () => {
		const { moving, still } = watchList();
		const isins = [...still, ...moving];
		const node = watchNode();
		const first = await run(withMemory(isins, [], node));
		// As a Data Table's Get Many gives them: its own columns (id, createdAt, updatedAt), another column, reversed.
		const table = toRemember(first)
			.map(
				(row, index): IDataObject => ({
					id: index + 1,
					createdAt: '2026-11-20T07:00:00.000Z',
					updatedAt: '2026-11-20T07:00:00.000Z',
					note: 'kept by the team',
					...row,
				}),
			)
			.reverse();
		const [removed, ...watched] = isins;
		const [broken] = moving;
		const malformed: IDataObject[] = [
			// The ISIN's result as a sheet might spoil it: not JSON.
			...table.map((row) => (row.isin === broken ? { ...row, result: 'Article 8' } : row)),
			{ isin: 'not an isin', result: '{}', last_seen_run: 1 },
			{ result: '{}', last_seen_run: 1 },
			{ isin: still[1], result: '{"classification":6}', last_seen_run: 'last week' },
			// A sheet appended to: an older row of a watched ISIN.
			{ isin: still[2], result: '{"classification":6}', last_seen_run: 0 },
		];
		const second = await run(withMemory(watched, malformed, node), { version: 2 });

		const out = changesOf(second);
		const skipped = out.filter((json) => json.status === 'remembered_row_skipped');
		expect(skipped.map((json) => [json.isin, json.reason])).toEqual([
			[
				broken,
				expect.stringMatching(/^Remembered row \d+ was skipped: its "result" is not JSON text/),
			],
			['not an isin', expect.stringMatching(/row 7 was skipped: its "isin" is no ISIN/)],
			[null, expect.stringMatching(/row 8 was skipped: it has no "isin" column/)],
			[
				still[1],
				expect.stringMatching(
					/row 9 was skipped: its "last_seen_run" is not a whole number: last week\. Its other row is used\./,
				),
			],
			[
				still[2],
				expect.stringMatching(
					/row 10 was skipped: another row has the same ISIN \(row \d+, of a later or the same run, is used\)/,
				),
			],
		]);
		expect(hintsOf(second).join(' ')).toMatch(/5 remembered rows could not be used/);
		// Every moved ISIN but the broken one is reported; the broken one is compared as seen for the first time.
		expect(out.filter((json) => json.status === 'changed').map((json) => json.isin)).toEqual(
			moving.filter((isin) => isin !== broken),
		);
		// The ISIN no longer watched is handed out again (kept until Forget ISINs Missing For), the broken one mended.
		const handedOut = toRemember(second);
		expect(handedOut.map((row) => row.isin).sort()).toEqual([...isins].sort());
		expect(handedOut.find((row) => row.isin === removed)?.last_seen_run).toBe(1);
		expect(JSON.parse(handedOut.find((row) => row.isin === broken)!.result as string)).toEqual(
			storedResult(broken, 2),
		);
		expect(hintsOf(second).join(' ')).toMatch(/1 remembered ISIN not in this input \(kept\)/);
	});

	it('refuses Remembered Rows that are no list of rows, before any request', async () => {
		const [isin] = findIsins((d) => d.known);
		sim.setDataVersion(1);
		const result = await runWorkflow(
			withMemory([isin], [], watchNode({ rememberedRows: '={{ 42 }}' })),
			{ credentials: credentialsFor(sim.url), mode: 'trigger' },
		);
		expect(result.error?.message).toMatch(/Remembered Rows must be a list of rows, got a number/);
		expect(sim.requestCount()).toBe(0);
	});

	it('property: the rows handed out, fed back, report no change; a changed vendor answer reports exactly the moved ISINs', async () => {
		const pool = findIsins((d) => d.known || movesBetweenVersions(d.isin), 24);
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 8 }),
				fc.boolean(),
				async (isins, shuffle) => {
					const node = watchNode();
					const first = await run(withMemory(isins, [], node));
					let rows = toRemember(first);
					if (shuffle) rows = [...rows].reverse();
					const again = await run(withMemory(isins, rows, node));
					expect(changesOf(again)).toEqual([]);
					const moved = await run(withMemory(isins, rows, node), { version: 2 });
					expect(changesOf(moved).map((json) => json.isin)).toEqual(
						isins.filter(movesBetweenVersions),
					);
				},
			),
			{ numRuns: 12 },
		);
	});
});

describe('static data that did not come back', () => {
	it('a run of the active workflow that starts with nothing remembered says so in its hint and on its output', async () => {
		const isins = findIsins((d) => d.known, 3);
		const node: NodeSpec = {
			type: 'sustainabilityInstruments',
			name: 'Node',
			parameters: { operation: 'getSfdrClassification', outputMode: 'changesSinceLastRun' },
		};
		const workflow = chainWorkflow(
			isins.map((isin) => ({ isin })),
			node,
		);
		// Queue mode on n8n 2.41.1: every run of the worker starts from the same empty static data.
		for (const attempt of [1, 2]) {
			const result = await run(workflow, { mode: 'webhook' });
			expect(result.outputs.Node).toHaveLength(1);
			expect(changesOf(result)).toEqual([
				{
					isin: null,
					status: 'nothing_remembered',
					reason: expect.stringMatching(
						/Nothing was remembered before this run: 3 ISINs now remembered.*did not bring back.*remember in a Data Table/,
					),
				},
			]);
			expect(hintsOf(result)).toContain(
				'Nothing remembered (first run, or memory lost). In queue mode or on n8n Cloud, remember in a Data Table.',
			);
			expect(attempt).toBeGreaterThan(0);
		}
	});
});

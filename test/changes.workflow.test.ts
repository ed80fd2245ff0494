import type { IDataObject } from 'n8n-workflow';

import { LARGE_STATE_BYTES } from '../nodes/SustainabilityInstruments/actions/changes';
import { decodeState, encodeState } from '../nodes/SustainabilityInstruments/actions/changesState';
import { findIsins, instrumentData } from './simulator';
import type { DataVersion, InstrumentData } from './simulator/data';
import { makeIsin } from './helpers/isins';
import { useSimulator } from './helpers/simulator';
import { INPUT_NODE, chainWorkflow, credentialsFor } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { descriptionOf, hintMessages as hintsOf, fullText } from './helpers/lookupRuns';
import { runWorkflow } from './workflow/runner';
import type { RunWorkflowOptions, WorkflowInput, WorkflowRunResult } from './workflow/runner';

const SFDR = 'POST /instruments/sustainability-profile' as const;

const sim = useSimulator();

type Mode = NonNullable<RunWorkflowOptions['mode']>;

/** The Instruments node with Output > Only Changes Since Last Run. */
function watchNode(operation: string, parameters: IDataObject = {}, name = 'Node'): NodeSpec {
	return {
		type: 'sustainabilityInstruments',
		name,
		parameters: { operation, outputMode: 'changesSinceLastRun', ...parameters },
	};
}

/**
 * A workflow run the way n8n runs it again and again: each run starts from the static data n8n saved after the
 * previous one ('trigger' mode: an active workflow's run, unless told otherwise).
 */
class Runs {
	staticData: IDataObject = {};
	last?: WorkflowRunResult;

	/** A run that may fail. */
	async attempt(
		workflow: WorkflowInput,
		{ mode = 'trigger', version = 1 }: { mode?: Mode; version?: DataVersion } = {},
	): Promise<WorkflowRunResult> {
		sim.setDataVersion(version);
		const result = await runWorkflow(
			{ ...workflow, staticData: this.staticData },
			{ credentials: credentialsFor(sim.url), mode },
		);
		this.staticData = result.savedStaticData;
		this.last = result;
		return result;
	}

	async run(...args: Parameters<Runs['attempt']>): Promise<WorkflowRunResult> {
		const result = await this.attempt(...args);
		expect(result.error).toBeUndefined();
		return result;
	}

	/** The node's remembered results per ISIN, read back. */
	results(node = 'Node'): ReturnType<typeof decodeState>['state']['results'] {
		const { lastResults } = this.staticData[`node:${node}`] as IDataObject;
		return decodeState(lastResults, this.remembered(node).scope).state.results;
	}

	/** The node's remembered results, as kept in its static data. */
	remembered(node = 'Node'): { isins: Record<string, unknown[]>; run: number; scope: string } {
		return JSON.parse((this.staticData[`node:${node}`] as IDataObject).lastResults as string);
	}
}

/** The chain Trigger -> Input (an item per ISIN) -> `nodes`. */
const watching = (isins: string[], ...nodes: NodeSpec[]) =>
	chainWorkflow(
		isins.map((isin) => ({ isin })),
		...nodes,
	);

const outputOf = (result: WorkflowRunResult, node = 'Node') =>
	result.items(node).map((item) => item.json);

/** The one item of a Remember Only run that started with nothing remembered. */
const nothingRemembered = (isins: number) => ({
	isin: null,
	status: 'nothing_remembered',
	reason: expect.stringMatching(
		new RegExp(`^Nothing was remembered before this run: ${isins} ISINs now remembered`),
	) as unknown,
});

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

/** Written out per pair: the directions the issue names. */
const DIRECTIONS: Record<string, string> = {
	'9>8': 'downgrade',
	'9>6': 'downgrade',
	'8>6': 'downgrade',
	'6>8': 'upgrade',
	'6>9': 'upgrade',
	'8>9': 'upgrade',
	'6>null': 'lost_data',
	'8>null': 'lost_data',
	'9>null': 'lost_data',
	'null>6': 'new_data',
	'null>8': 'new_data',
	'null>9': 'new_data',
};

/** What the node should report for an ISIN between data versions 1 and 2, over the default fields. */
function expectedSfdrChange(isin: string): IDataObject | undefined {
	const before = sfdrColumns(instrumentData(isin, 1));
	const after = sfdrColumns(instrumentData(isin, 2));
	const changes = ['classification', 'article', 'description']
		.filter((field) => before[field] !== after[field])
		.map((field) => ({ field, from: before[field], to: after[field] }));
	if (changes.length === 0) return undefined;
	return {
		isin,
		status: 'changed',
		direction: DIRECTIONS[`${before.classification}>${after.classification}`] ?? null,
		changes,
		previous: before,
		current: after,
	};
}

const v1 = (isin: string) => instrumentData(isin, 1);
const v2 = (isin: string) => instrumentData(isin, 2);

/** Holdings with an ISIN of every kind of SFDR move in data version 2, and ISINs that do not move. */
function sfdrHoldings(): { isins: Record<string, string>; rows: IDataObject[] } {
	const [down98] = findIsins((d) => d.sfdr === 9 && v2(d.isin).sfdr === 8);
	const [down86] = findIsins((d) => d.sfdr === 8 && v2(d.isin).sfdr === 6);
	const [up68] = findIsins((d) => d.sfdr === 6 && v2(d.isin).sfdr === 8);
	const [up89] = findIsins((d) => d.sfdr === 8 && v2(d.isin).sfdr === 9);
	const [lost] = findIsins((d) => d.sfdr !== null && v2(d.isin).known && v2(d.isin).sfdr === null);
	const [gained] = findIsins((d) => !d.known && v2(d.isin).sfdr !== null);
	const [same] = findIsins((d) => d.sfdr !== null && v2(d.isin).sfdr === d.sfdr);
	const [stillUnknown] = findIsins((d) => !d.known && !v2(d.isin).known);
	const isins = { down98, down86, up68, up89, lost, gained, same, stillUnknown };
	const rows = Object.entries(isins).map(([name, isin]) => ({ name, isin }));
	// The downgraded ISIN twice (two accounts hold it): one output item paired with both.
	rows.push({ name: 'down98 again', isin: down98.toLowerCase() });
	return { isins, rows };
}

describe('Only Changes Since Last Run inside n8n', () => {
	it('reports every SFDR direction between two runs of the active workflow, and nothing that did not change', async () => {
		const { isins, rows } = sfdrHoldings();
		const workflow = chainWorkflow(rows, watchNode('getSfdrClassification'));
		const runs = new Runs();

		// The first run says that nothing was remembered before it (issue 37: a first run and memory that did not come
		// back look the same from inside the run), and outputs no ISIN.
		const first = await runs.run(workflow);
		expect(outputOf(first)).toEqual([nothingRemembered(8)]);
		expect(first.staticDataSaved).toBe(true);
		expect(Object.keys(runs.remembered().isins).sort()).toEqual(Object.values(isins).sort());

		const second = await runs.run(workflow, { version: 2 });
		const expected = Object.values(isins)
			.map(expectedSfdrChange)
			.filter((change): change is IDataObject => change !== undefined);
		expect(outputOf(second)).toEqual(expected);
		const directions = Object.fromEntries(
			outputOf(second).map((json) => [json.isin as string, json.direction]),
		);
		expect(directions).toEqual({
			[isins.down98]: 'downgrade',
			[isins.down86]: 'downgrade',
			[isins.up68]: 'upgrade',
			[isins.up89]: 'upgrade',
			[isins.lost]: 'lost_data',
			[isins.gained]: 'new_data',
		});
		const downgrade = second.items('Node').find((item) => item.json.isin === isins.down98)!;
		expect(downgrade.pairedItem).toEqual([{ item: 0 }, { item: 8 }]);
		expect(downgrade.json.changes).toContainEqual({ field: 'classification', from: 9, to: 8 });

		// Nothing changed since the second run.
		const third = await runs.run(workflow, { version: 2 });
		expect(third.items('Node')).toEqual([]);
		expect(runs.remembered().run).toBe(3);
	});

	it('on the first run, remembers only by default, or outputs every ISIN as new; later-joining ISINs likewise', async () => {
		const [a, b, c, d] = findIsins((data) => data.known, 4);
		const [unknown] = findIsins((data) => !data.known && !v2(data.isin).known);

		// Output as New.
		const asNew = new Runs();
		const node = watchNode('getSfdrClassification', { firstSeen: 'outputAsNew' });
		const first = await asNew.run(watching([a, b, unknown], node));
		expect(outputOf(first)).toEqual(
			[a, b, unknown].map((isin) => {
				const current = sfdrColumns(v1(isin));
				return {
					isin,
					status: 'new',
					direction: null,
					changes: ['classification', 'article', 'description']
						.filter((field) => current[field] !== null)
						.map((field) => ({ field, from: null, to: current[field] })),
					previous: null,
					current,
				};
			}),
		);
		const joined = await asNew.run(watching([a, b, unknown, c], node));
		expect(outputOf(joined).map((json) => [json.isin, json.status])).toEqual([[c, 'new']]);

		// Remember Only (the default): nothing on the first run, nothing for a later-joining ISIN, whose change is
		// then reported.
		const rememberOnly = new Runs();
		const quiet = watchNode('getSfdrClassification');
		expect(outputOf(await rememberOnly.run(watching([a, b], quiet)))).toEqual([
			nothingRemembered(2),
		]);
		expect((await rememberOnly.run(watching([a, b, c, d], quiet))).items('Node')).toEqual([]);
		const later = await rememberOnly.run(watching([a, b, c, d], quiet), {
			version: 2,
		});
		expect(outputOf(later).map((json) => json.isin)).toEqual(
			[a, b, c, d].filter((isin) => expectedSfdrChange(isin)),
		);
		expect(hintsOf(later).join(' ')).toMatch(/Compared 4 ISINs/);
	});

	it('ignores PAI moves up to the tolerance and reports the larger ones; Fields to Compare picks the columns', async () => {
		const drifted = findIsins(
			(d) =>
				d.known &&
				v2(d.isin).pai.carbon_footprint !== null &&
				d.pai.carbon_footprint !== v2(d.isin).pai.carbon_footprint,
			30,
		);
		const [lost] = findIsins((d) => d.known && v2(d.isin).known && v2(d.isin).sfdr === null);
		const isins = [...drifted, lost];
		const tolerance = 10;
		const moved = (isin: string) => {
			const from = v1(isin).pai.carbon_footprint;
			const to = v2(isin).pai.carbon_footprint;
			return from === null || to === null ? from !== to : Math.abs(to - from) > tolerance;
		};
		const above = isins.filter(moved);
		// Some drift stays under the tolerance, some goes over it: the test shows both sides.
		expect(above.length).toBeGreaterThan(1);
		expect(above.length).toBeLessThan(isins.length - 1);

		const workflow = watching(
			isins,
			watchNode('getPaiIndicators', {
				compareFields: 'carbon_footprint',
				numericTolerance: tolerance,
			}),
		);
		const runs = new Runs();
		await runs.run(workflow);
		const second = await runs.run(workflow, { version: 2 });
		expect(outputOf(second).map((json) => json.isin)).toEqual(above);
		for (const json of outputOf(second)) {
			const isin = json.isin as string;
			expect(json).not.toHaveProperty('direction');
			expect(json.changes).toEqual([
				{
					field: 'carbon_footprint',
					from: v1(isin).pai.carbon_footprint,
					to: v2(isin).pai.carbon_footprint,
				},
			]);
			expect((json.current as IDataObject).scope_1_emissions).toBe(v2(isin).pai.scope_1_emissions);
		}

		// Without a tolerance every move counts.
		const exact = new Runs();
		const noTolerance = watching(
			isins,
			watchNode('getPaiIndicators', { compareFields: 'carbon_footprint' }),
		);
		await exact.run(noTolerance);
		expect(outputOf(await exact.run(noTolerance, { version: 2 })).map((j) => j.isin)).toEqual(
			isins,
		);
	});

	it('Fields to Compare = classification: one change per moved ISIN; a name that is no column is refused', async () => {
		const { isins, rows } = sfdrHoldings();
		const workflow = chainWorkflow(
			rows,
			watchNode('getSfdrClassification', { compareFields: 'Classification' }),
		);
		const runs = new Runs();
		await runs.run(workflow);
		const second = await runs.run(workflow, { version: 2 });
		const moved = Object.values(isins).filter((isin) => v1(isin).sfdr !== v2(isin).sfdr);
		expect(outputOf(second).map((json) => json.isin)).toEqual(moved);
		for (const json of outputOf(second)) {
			const isin = json.isin as string;
			expect(json.changes).toEqual([
				{ field: 'classification', from: v1(isin).sfdr, to: v2(isin).sfdr },
			]);
		}

		const typo = await new Runs().attempt(
			chainWorkflow(rows, watchNode('getSfdrClassification', { compareFields: 'clasification' })),
		);
		expect(fullText(typo.error)).toMatch(
			/Fields to Compare: "clasification" is not a result column/,
		);
		expect(typo.staticDataSaved).toBe(false);
	});

	it('Fields to Compare as the output shows the names: "Carbon Footprint" compares carbon_footprint, prefixes and any separator', async () => {
		const drifted = findIsins(
			(d) =>
				d.known &&
				v2(d.isin).pai.carbon_footprint !== null &&
				d.pai.carbon_footprint !== null &&
				d.pai.carbon_footprint !== v2(d.isin).pai.carbon_footprint,
			3,
		);
		const steady = findIsins(
			(d) =>
				d.known && v2(d.isin).known && d.pai.carbon_footprint === v2(d.isin).pai.carbon_footprint,
			2,
		);
		const isins = [drifted[0], steady[0], drifted[1], steady[1], drifted[2]];
		const rows = isins.map((isin) => ({ isin }));
		const compare = async (compareFields: string) => {
			const runs = new Runs();
			const workflow = chainWorkflow(rows, watchNode('getPaiIndicators', { compareFields }));
			await runs.run(workflow);
			return outputOf(await runs.run(workflow, { version: 2 }));
		};

		const changed = await compare('Carbon Footprint');
		expect(changed.map((json) => json.isin)).toEqual(drifted);
		for (const json of changed) {
			const isin = json.isin as string;
			expect(json.changes).toEqual([
				{
					field: 'carbon_footprint',
					from: v1(isin).pai.carbon_footprint,
					to: v2(isin).pai.carbon_footprint,
				},
			]);
		}

		// With the prefix of Add to Input Items + Simplify, beside another name after a semicolon and a new line.
		const two = await compare('PAI_Carbon_Footprint;\nscope 1 emissions');
		const scopeMoved = (isin: string) =>
			v1(isin).pai.scope_1_emissions !== v2(isin).pai.scope_1_emissions;
		expect(two.map((json) => json.isin)).toEqual(
			isins.filter((isin) => drifted.includes(isin) || scopeMoved(isin)),
		);
		for (const json of two) {
			const isin = json.isin as string;
			expect((json.changes as IDataObject[]).map((change) => change.field)).toEqual(
				[
					drifted.includes(isin) ? 'carbon_footprint' : '',
					scopeMoved(isin) ? 'scope_1_emissions' : '',
				].filter(Boolean),
			);
		}

		// An unknown name is refused by name, listing the columns; nothing is remembered.
		const unknown = await new Runs().attempt(
			chainWorkflow(
				rows,
				watchNode('getPaiIndicators', { compareFields: 'Carbon Footprint, Carbon Print' }),
			),
		);
		expect(unknown.error?.message).toBe(
			'Fields to Compare: "Carbon Print" is not a result column of the PAI indicators',
		);
		expect(descriptionOf(unknown.error)).toMatch(/carbon_footprint, carbon_footprint_unit/);
		expect(unknown.staticDataSaved).toBe(false);
	});

	it('forgets an ISIN missing for Forget ISINs Missing For runs in a row, and keeps one missing for fewer', async () => {
		const [a, b, c] = findIsins((d) => d.known, 3);
		const node = watchNode('getSfdrClassification', {
			forgetAfterRuns: 2,
			firstSeen: 'outputAsNew',
		});
		const input = (...isins: string[]) => watching(isins, node);
		const runs = new Runs();
		await runs.run(input(a, b, c)); // run 1: all three
		await runs.run(input(a, c)); // run 2: b missing (1 run)
		const third = await runs.run(input(a, b)); // run 3: b is back, compared (not new); c missing (1 run)
		expect(third.items('Node')).toEqual([]);
		await runs.run(input(a, b)); // run 4: c missing (2 runs): forgotten from now on
		const back = await runs.run(input(a, b, c)); // run 5: c comes back as new
		expect(outputOf(back).map((json) => [json.isin, json.status])).toEqual([[c, 'new']]);

		// Dropped from the static data once it missed 2 whole runs.
		const dropped = new Runs();
		await dropped.run(input(a, b, c)); // run 1
		await dropped.run(input(a, b)); // run 2
		await dropped.run(input(a, b)); // run 3
		expect([...dropped.results().keys()].sort()).toEqual([a, b, c].sort());
		await dropped.run(input(a, b)); // run 4: c missed runs 2 and 3
		expect([...dropped.results().keys()].sort()).toEqual([a, b].sort());
		expect(hintsOf(dropped.last!).join(' ')).toMatch(
			/1 ISIN not in the input for 2 runs in a row forgotten/,
		);
	});

	it('counts several calls of the node in one execution (two inputs, or a loop) as one run', async () => {
		const [a, b, c, d] = findIsins((data) => data.known && v2(data.isin).sfdr !== data.sfdr, 4);
		// Trigger -> Input (a, b) and Input B (c, d), both -> Node: n8n runs Node twice in one execution.
		const base = chainWorkflow(
			[{ isin: a }, { isin: b }],
			watchNode('getSfdrClassification', { forgetAfterRuns: 1, firstSeen: 'outputAsNew' }),
		);
		const workflow: WorkflowInput = {
			...base,
			nodes: [...base.nodes, { ...INPUT_NODE, id: 'i2', name: 'Input B', position: [200, 200] }],
			connections: {
				Trigger: {
					main: [
						[
							{ node: 'Input', type: 'main', index: 0 },
							{ node: 'Input B', type: 'main', index: 0 },
						],
					],
				},
				Input: { main: [[{ node: 'Node', type: 'main', index: 0 }]] },
				'Input B': { main: [[{ node: 'Node', type: 'main', index: 0 }]] },
			},
			pinData: { ...base.pinData, 'Input B': [{ json: { isin: c } }, { json: { isin: d } }] },
		};
		const runs = new Runs();
		const first = await runs.run(workflow);
		expect(first.runData.Node).toHaveLength(2);
		// The second call does not see a and b, yet they are not missing: same run.
		expect([...runs.results().keys()].sort()).toEqual([a, b, c, d].sort());
		expect(runs.remembered().run).toBe(1);

		const second = await runs.run(workflow, { version: 2 });
		const calls = second.runData.Node.map((task) =>
			(task.data?.main[0] ?? []).map((item) => [item.json.isin, item.json.status]),
		);
		expect(calls).toEqual([
			[
				[a, 'changed'],
				[b, 'changed'],
			],
			[
				[c, 'changed'],
				[d, 'changed'],
			],
		]);
		expect(runs.remembered().run).toBe(2);
	});

	it('starts afresh when the node is switched to another operation', async () => {
		const [a, b] = findIsins((d) => d.known, 2);
		const rows = [{ isin: a }, { isin: b }];
		const runs = new Runs();
		await runs.run(chainWorkflow(rows, watchNode('getSfdrClassification')));
		expect(runs.remembered().scope).toMatch(/SFDR/i);
		const switched = await runs.run(
			chainWorkflow(rows, watchNode('getEsgData', { firstSeen: 'outputAsNew' })),
			{ version: 2 },
		);
		// The SFDR results are not compared with ESG data: every ISIN is seen for the first time.
		expect(outputOf(switched).map((json) => [json.isin, json.status])).toEqual([
			[a, 'new'],
			[b, 'new'],
		]);
		expect(hintsOf(switched).join(' ')).toMatch(/another operation/);
		expect(runs.remembered().scope).not.toMatch(/SFDR/i);

		// Business involvements: another Minimum Threshold filters the involvements differently: afresh too.
		const involvements = (minimumThreshold: number) =>
			chainWorkflow(
				rows,
				watchNode('getBusinessInvolvements', { firstSeen: 'outputAsNew', minimumThreshold }),
			);
		await runs.run(involvements(0));
		expect((await runs.run(involvements(0))).items('Node')).toEqual([]);
		expect(outputOf(await runs.run(involvements(5))).map((json) => json.status)).toEqual([
			'new',
			'new',
		]);
	});

	it('takes the ISINs from a typed list; items without a usable ISIN come out as not_checked on every run', async () => {
		const { isins } = sfdrHoldings();
		const list = `${isins.down98}, ${isins.up68}\nUS0000000000 ${isins.same}`;
		const node = watchNode('getSfdrClassification', {
			isinSource: 'list',
			isinList: list,
			options: { invalidIsins: 'skip' },
		});
		const workflow = chainWorkflow([{ any: 'item' }], node);
		const runs = new Runs();
		const first = await runs.run(workflow);
		expect(first.items('Node')).toEqual([
			{
				json: {
					// The entry as typed (issue 28).
					isin: 'US0000000000',
					status: 'not_checked',
					reason: expect.stringMatching(/US0000000000.*check digit/),
				},
				pairedItem: [{ item: 0 }],
			},
			{ json: nothingRemembered(3), pairedItem: [{ item: 0 }] },
		]);
		const second = await runs.run(workflow, { version: 2 });
		expect(second.items('Node').map((item) => [item.json.isin, item.json.status])).toEqual([
			[isins.down98, 'changed'],
			[isins.up68, 'changed'],
			['US0000000000', 'not_checked'],
		]);
		for (const item of second.items('Node')) expect(item.pairedItem).toEqual([{ item: 0 }]);
		// Changed and not checked rows with the same columns, in the same order.
		const columns = Object.keys(second.items('Node')[0].json);
		expect(columns.slice(0, 3)).toEqual(['isin', 'status', 'reason']);
		for (const item of second.items('Node')) expect(Object.keys(item.json)).toEqual(columns);

		// Field source: a row without an ISIN and one with an invalid ISIN, each paired with its own item.
		const fieldRows = [
			{ isin: isins.down98 },
			{ name: 'cash' },
			{ isin: 'DE0007164601' },
			{ isin: isins.same },
		];
		const fieldWorkflow = chainWorkflow(
			fieldRows,
			watchNode('getSfdrClassification', { options: { invalidIsins: 'skip' } }, 'Field Node'),
		);
		const fieldRuns = new Runs();
		for (const version of [1, 2] as const) {
			const result = await fieldRuns.run(fieldWorkflow, { version });
			const notChecked = result
				.items('Field Node')
				.filter((item) => item.json.status === 'not_checked');
			expect(notChecked).toEqual([
				{
					json: expect.objectContaining({
						isin: null,
						status: 'not_checked',
						reason: 'no ISIN in field "isin"',
					}),
					pairedItem: [{ item: 1 }],
				},
				{
					// The value the item held, as written (issue 28).
					json: expect.objectContaining({
						isin: 'DE0007164601',
						status: 'not_checked',
						reason: expect.stringMatching(/DE0007164601/),
					}),
					pairedItem: [{ item: 2 }],
				},
			]);
		}
		expect(fieldRuns.last!.items('Field Node')[0].json).toMatchObject({
			isin: isins.down98,
			direction: 'downgrade',
		});
	});

	it('keeps the remembered results of a failed batch (Continue on error) and reports their changes on the next run', async () => {
		const isins = findIsins((d) => d.known && v2(d.isin).sfdr !== d.sfdr, 4);
		const workflow = watching(isins, {
			...watchNode('getSfdrClassification', { options: { batchSize: 2, concurrency: 1 } }),
			onError: 'continueRegularOutput',
		});
		const runs = new Runs();
		await runs.run(workflow);
		const rememberedBefore = runs.results();

		// The second batch (the last two ISINs) is refused with a 400.
		sim.setFaults(SFDR, { sequence: [null, 'echo-key'] });
		const failedRun = await runs.run(workflow, { version: 2 });
		const out = failedRun.items('Node');
		expect(out.map((item) => [item.json.isin, item.json.status])).toEqual([
			[isins[0], 'changed'],
			[isins[1], 'changed'],
			[isins[2], 'not_checked'],
			[isins[3], 'not_checked'],
		]);
		expect(out[2].json.error).toEqual(expect.any(String));
		expect(out[3].pairedItem).toEqual([{ item: 3 }]);
		const rememberedAfter = runs.results();
		for (const isin of isins.slice(2))
			expect(rememberedAfter.get(isin)!.result).toEqual(rememberedBefore.get(isin)!.result);
		expect(rememberedAfter.get(isins[0])!.result.classification).toBe(v2(isins[0]).sfdr);

		// The next run reports what the failed batch could not.
		const retry = await runs.run(workflow, { version: 2 });
		expect(outputOf(retry)).toEqual(isins.slice(2).map(expectedSfdrChange));
	});

	it('a run started in the editor compares with the saved results but is not remembered', async () => {
		const { isins, rows } = sfdrHoldings();
		const workflow = chainWorkflow(rows, watchNode('getSfdrClassification'));
		const runs = new Runs();
		await runs.run(workflow); // the active workflow's run: saved
		const saved = runs.staticData;

		const manual = await runs.run(workflow, { mode: 'manual', version: 2 });
		expect(outputOf(manual).map((json) => json.isin)).toEqual(
			Object.values(isins).filter((isin) => expectedSfdrChange(isin)),
		);
		expect(manual.staticDataSaved).toBe(false);
		expect(runs.staticData).toEqual(saved);
		expect(hintsOf(manual).join(' ')).toMatch(/started in the editor.*not save/);

		// So the next run of the active workflow reports the same changes again.
		const active = await runs.run(workflow, { version: 2 });
		expect(outputOf(active)).toEqual(outputOf(manual));
		expect(active.staticDataSaved).toBe(true);
		expect(hintsOf(active).join(' ')).not.toMatch(/started in the editor/);
	});

	it('remembers the results even when a later node fails, as n8n saves static data after a failed execution', async () => {
		const [a, b] = findIsins((d) => d.known, 2);
		// The node after the watch fails: no column "missing" in the watch's output.
		const workflow = chainWorkflow(
			[{ isin: a }, { isin: b }],
			watchNode('getSfdrClassification', { firstSeen: 'outputAsNew' }),
			{
				type: 'sustainabilityInstruments',
				name: 'Fails',
				parameters: { operation: 'getEsgData', isinField: 'missing' },
			},
		);
		const runs = new Runs();
		const failing = await runs.attempt(workflow);
		expect(failing.status).toBe('error');
		expect(fullText(failing.error)).toMatch(/No input item has an ISIN/);
		expect(failing.items('Node')).toHaveLength(2);
		expect(failing.staticDataSaved).toBe(true);

		// The next run has nothing new to say: the changes the failed node received are not reported again.
		expect((await runs.run(workflow)).items('Node')).toEqual([]);
	});

	it('Simplify gives flat previous_ and current_ columns of the compared fields and changed_fields', async () => {
		const { isins } = sfdrHoldings();
		const workflow = chainWorkflow(
			[{ isin: isins.down86 }, { isin: isins.same }],
			watchNode('getSfdrClassification', {
				compareFields: 'classification, article',
				simplify: true,
			}),
		);
		const runs = new Runs();
		await runs.run(workflow);
		const second = await runs.run(workflow, { version: 2 });
		expect(outputOf(second)).toEqual([
			{
				isin: isins.down86,
				status: 'changed',
				direction: 'downgrade',
				changed_fields: 'classification, article',
				previous_classification: 8,
				current_classification: 6,
				previous_article: 'Article 8',
				current_article: 'Article 6',
			},
		]);
	});

	it.each(['getSfdrClassification', 'getPaiIndicators', 'getEsgData', 'getBusinessInvolvements'])(
		'%s remembers 10,000 ISINs in under 1.2 MB of static data',
		async (operation) => {
			const isins = Array.from({ length: 10_000 }, (_, i) => makeIsin('US', i + 1));
			const runs = new Runs();
			await runs.run(watching(isins, watchNode(operation)));
			expect(runs.results().size).toBe(10_000);
			// What n8n writes to its database: the static data as JSON (measured: 0.40 MB for SFDR, 0.87 MB for PAI).
			expect(Buffer.byteLength(JSON.stringify(runs.staticData))).toBeLessThan(1_200_000);
			// One text, not an object per ISIN: n8n wraps every object of static data in a Proxy when it loads it.
			expect(Object.keys(runs.staticData['node:Node'] as IDataObject)).toEqual(['lastResults']);
		},
		60_000,
	);
});

describe('a large remembered state', () => {
	it(`warns above ${LARGE_STATE_BYTES / 1_000_000} MB of remembered results, and not below`, async () => {
		const [a] = findIsins((data) => data.known, 1);
		const workflow = chainWorkflow([{ isin: a }], watchNode('getSfdrClassification'));
		const runs = new Runs();
		const small = await runs.run(workflow);
		expect(hintsOf(small).join(' ')).not.toMatch(/static data/);

		// 150,000 ISINs remembered from earlier runs (still within Forget ISINs Missing For): about 6 MB.
		const { scope } = runs.remembered();
		const { state } = decodeState((runs.staticData['node:Node'] as IDataObject).lastResults, scope);
		const remembered = state.results.get(a)!;
		for (let index = 0; index < 150_000; index++)
			state.results.set(makeIsin('XS', index), {
				lastSeen: state.runs,
				result: remembered.result,
			});
		runs.staticData = {
			'node:Node': { lastResults: encodeState(state, scope) },
		};
		const large = await runs.run(workflow);
		const warning = hintsOf(large).find((hint) => /static data/.test(hint));
		expect(warning).toMatch(
			/^Remembered results: \d+\.\d MB of static data \(150,001 ISINs\), over 5 MB: watch fewer ISINs per node\.$/,
		);
		expect(Object.keys(runs.remembered().isins)).toHaveLength(150_001);
	}, 60_000);
});

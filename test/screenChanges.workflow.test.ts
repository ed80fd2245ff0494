/**
 * Screen Holdings with Output = Only Changes Since Last Run (issue 39, item 4), run inside n8n's engine against the
 * simulator's data versions 1 and 2 (a later week: some SFDR classes moved, some ISINs lost their data), as an active
 * workflow's schedule runs it: each run starts from the static data n8n saved after the last (or from the rows the last
 * run handed out on To Remember). Every expectation is worked out here from the simulator's per-ISIN data.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import type { DataVersion } from './simulator/data';
import { hintMessages } from './helpers/lookupRuns';
import { makeIsin } from './helpers/isins';
import { startProxy } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import { chainWorkflow, credentialsFor } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import { runWorkflow } from './workflow/runner';
import type { WorkflowInput, WorkflowRunResult } from './workflow/runner';

const sim = useSimulator();
beforeEach(() => sim.setAnswerShape({ measures: 'vendor' }));

type State = 'breach' | 'pass' | 'not_checked';

/** The three rules, with what each reads of the simulator's data and how it decides (worked out here). */
const RULES: Array<{
	label: string;
	rule: IDataObject;
	value: (isin: string, version: DataVersion) => number | boolean | null;
	breach: (value: number | boolean) => boolean;
	threshold: number | boolean;
}> = [
	{
		label: 'Article 8+',
		rule: { type: 'minSfdrArticle', article: 8, label: 'Article 8+' },
		value: (isin, version) => instrumentData(isin, version).sfdr,
		breach: (value) => (value as number) < 8,
		threshold: 8,
	},
	{
		label: 'UNGC',
		rule: { type: 'indicatorFalse', indicator: 'violations_un_global_compact', label: 'UNGC' },
		value: (isin, version) =>
			instrumentData(isin, version).vendorIndicators.violations_un_global_compact,
		breach: (value) => value === true,
		threshold: false,
	},
	{
		label: 'Coal',
		rule: { type: 'involvement', category: 'thermal_coal', threshold: 1, label: 'Coal' },
		value: (isin, version) =>
			instrumentData(isin, version).businessInvolvements.thermal_coal?.weight ?? null,
		breach: (value) => (value as number) > 0 && (value as number) >= 1,
		threshold: 1,
	},
];

function stateOf(isin: string, version: DataVersion, label: string): State {
	const rule = RULES.find((entry) => entry.label === label)!;
	const value = rule.value(isin, version);
	if (value === null) return 'not_checked';
	return rule.breach(value) ? 'breach' : 'pass';
}

const v1 = (isin: string) => instrumentData(isin, 1);
const v2 = (isin: string) => instrumentData(isin, 2);
const violation = (isin: string, version: DataVersion) =>
	instrumentData(isin, version).vendorIndicators.violations_un_global_compact;
const coal = (isin: string) => v1(isin).businessInvolvements.thermal_coal?.weight ?? 0;

// Article 8 in week 1, Article 6 in week 2; no UNGC violation, no coal: one new breach (Article 8+).
const [DOWN] = findIsins(
	(d) =>
		d.sfdr === 8 &&
		v2(d.isin).sfdr === 6 &&
		violation(d.isin, 1) === false &&
		violation(d.isin, 2) === false &&
		coal(d.isin) === 0,
	1,
	'DE',
);
// Article 6 then 8: a resolved breach.
const [UP] = findIsins(
	(d) =>
		d.sfdr === 6 &&
		v2(d.isin).sfdr === 8 &&
		violation(d.isin, 1) === false &&
		violation(d.isin, 2) === false &&
		coal(d.isin) === 0,
	1,
	'DE',
);
// Article 9, no violation in week 1; in week 2 its data is gone: Article 8+ and UNGC newly not checkable.
const [LOST] = findIsins(
	(d) =>
		d.sfdr === 9 &&
		v2(d.isin).sfdr === null &&
		violation(d.isin, 1) === false &&
		coal(d.isin) === 0,
	1,
	'DE',
);
// Over the coal threshold in both weeks, nothing else moves: a breach that stays (reported on no second run).
const [STEADY] = findIsins(
	(d) =>
		d.sfdr === 9 &&
		v2(d.isin).sfdr === 9 &&
		violation(d.isin, 1) === false &&
		violation(d.isin, 2) === false &&
		coal(d.isin) >= 1,
	1,
	'DE',
);
// No data in either week.
const UNKNOWN = makeIsin('XX', 3939);

const ISINS = [DOWN, UP, LOST, STEADY, UNKNOWN];
const NAMES: Record<string, string> = {
	[DOWN]: 'Down AG',
	[UP]: 'Up SA',
	[LOST]: 'Lost NV',
	[STEADY]: 'Steady Coal plc',
	[UNKNOWN]: 'Unknown Co',
};

const screenNode = (parameters: IDataObject = {}): NodeSpec => ({
	type: 'sustainabilityInstruments',
	name: 'Node',
	typeVersion: 2,
	parameters: {
		operation: 'screenHoldings',
		screenPreset: 'custom',
		rules: { rule: RULES.map((entry) => entry.rule) },
		isinField: 'isin',
		outputMode: 'changesSinceLastRun',
		...parameters,
	},
});

const rowsOf = (isins: string[], fund?: string) =>
	isins.map((isin) => ({ ...(fund ? { fund } : {}), isin, name: NAMES[isin] ?? isin }));

/** Runs as an active workflow's schedule does: each run starts from the static data saved after the last. */
class Runs {
	staticData: IDataObject = {};

	async run(
		workflow: WorkflowInput,
		version: DataVersion,
		url = sim.url,
	): Promise<WorkflowRunResult> {
		sim.setDataVersion(version);
		const result = await runWorkflow(
			{ ...workflow, staticData: this.staticData },
			{ credentials: credentialsFor(url), mode: 'trigger' },
		);
		expect(result.error).toBeUndefined();
		this.staticData = result.savedStaticData;
		return result;
	}
}

const changesOf = (result: WorkflowRunResult, output = 0) =>
	result.items('Node', output).map((item) => item.json);

/**
 * The change items from week `from` to week `to` for `isins` of one fund, worked out from the data: per holding, per
 * rule, the change of its state (a rule not checked before and passing now is no change).
 */
function expectedChanges(
	isins: string[],
	from: DataVersion | null,
	to: DataVersion,
	fund?: string,
): IDataObject[] {
	const out: IDataObject[] = [];
	for (const isin of isins)
		for (const rule of RULES) {
			const before = from === null ? null : stateOf(isin, from, rule.label);
			const now = stateOf(isin, to, rule.label);
			let change: string | undefined;
			if (before === now) continue;
			if (now === 'breach') change = 'new_breach';
			else if (now === 'not_checked') change = 'newly_not_checked';
			else if (before === 'breach') change = 'resolved_breach';
			if (!change) continue;
			const value = rule.value(isin, to);
			const previousValue = before === 'breach' ? rule.value(isin, from!) : null;
			out.push({
				change,
				...(fund ? { fund } : {}),
				isin,
				name: NAMES[isin],
				rule: rule.label,
				value: change === 'new_breach' ? value : null,
				threshold: change === 'newly_not_checked' && before !== 'breach' ? null : rule.threshold,
				previous: before,
				previous_value: previousValue,
			});
		}
	return out;
}

/** The items without their texts (why, source), which the tests check apart. */
const withoutWhy = (items: IDataObject[]) =>
	items.map((item) => {
		const rest = { ...item };
		delete rest.why;
		delete rest.source;
		return rest;
	});

describe('Screen Holdings: Only Changes Since Last Run', () => {
	it('the picked ISINs move as the test needs (worked out from the data)', () => {
		expect(ISINS.every(Boolean)).toBe(true);
		expect(stateOf(DOWN, 1, 'Article 8+')).toBe('pass');
		expect(stateOf(DOWN, 2, 'Article 8+')).toBe('breach');
		expect(stateOf(UP, 1, 'Article 8+')).toBe('breach');
		expect(stateOf(UP, 2, 'Article 8+')).toBe('pass');
		expect(stateOf(LOST, 2, 'Article 8+')).toBe('not_checked');
		expect(stateOf(LOST, 2, 'UNGC')).toBe('not_checked');
		expect(stateOf(LOST, 2, 'Coal')).toBe('pass');
		expect(stateOf(STEADY, 2, 'Coal')).toBe('breach');
	});

	it('first run remembers only (nothing_remembered); an unchanged second run outputs nothing; the week after, each new breach, resolved breach and rule newly not checkable once', async () => {
		const runs = new Runs();
		const workflow = chainWorkflow(rowsOf(ISINS), screenNode());

		const first = await runs.run(workflow, 1);
		expect(changesOf(first)).toEqual([
			expect.objectContaining({ change: 'nothing_remembered', isin: null }),
		]);
		expect(hintMessages(first).join(' ')).toMatch(/First run with nothing remembered: 5 ISINs/);

		const unchanged = await runs.run(workflow, 1);
		expect(changesOf(unchanged)).toEqual([]);

		const week2 = await runs.run(workflow, 2);
		const changes = changesOf(week2);
		const expected = expectedChanges(ISINS, 1, 2);
		expect(withoutWhy(changes)).toEqual(expected);
		// Each kind is there, and the breach that stayed (STEADY's coal) is not.
		expect(expected.map((item) => `${item.change} ${item.isin} ${item.rule}`)).toEqual([
			`new_breach ${DOWN} Article 8+`,
			`resolved_breach ${UP} Article 8+`,
			`newly_not_checked ${LOST} Article 8+`,
			`newly_not_checked ${LOST} UNGC`,
		]);
		expect(changes[0].source).toMatch(/SFDR article at least 8/);
		expect(changes[1].why).toBe('the rule passes now');
		expect(changes[2].why).toMatch(/no .*data for this ISIN/);
		expect(week2.items('Node').map((item) => item.pairedItem)).toEqual([
			[{ item: 0 }],
			[{ item: 1 }],
			[{ item: 2 }],
			[{ item: 2 }],
		]);
		expect(hintMessages(week2).join(' ')).toMatch(
			/1 new breach, 1 resolved, 2 rules newly not checkable/,
		);

		// Reported once: the same week again brings nothing.
		expect(changesOf(await runs.run(workflow, 2))).toEqual([]);
	});

	it('Holdings (JSON): the same changes as from input items, each paired with the one input item that held the list', async () => {
		const runs = new Runs();
		const workflow = chainWorkflow(
			[{ list: rowsOf(ISINS) }],
			screenNode({ isinSource: 'holdingsJson', holdingsJson: '={{ $json.list }}' }),
		);
		expect(changesOf(await runs.run(workflow, 1))).toEqual([
			expect.objectContaining({ change: 'nothing_remembered' }),
		]);
		expect(changesOf(await runs.run(workflow, 1))).toEqual([]);
		const week2 = await runs.run(workflow, 2);
		expect(withoutWhy(changesOf(week2))).toEqual(expectedChanges(ISINS, 1, 2));
		expect(week2.items('Node').map((item) => item.pairedItem)).toEqual(
			Array(4).fill([{ item: 0 }]),
		);
		expect(changesOf(await runs.run(workflow, 2))).toEqual([]);
	});

	it('On the First Run = Output Every Breach: every breach and every rule not checked (that some holding could be checked on) comes out', async () => {
		const runs = new Runs();
		const workflow = chainWorkflow(rowsOf(ISINS), screenNode({ firstSeen: 'outputAsNew' }));
		const first = await runs.run(workflow, 1);
		expect(withoutWhy(changesOf(first))).toEqual(expectedChanges(ISINS, null, 1));
		expect(changesOf(first).filter((item) => item.change === 'new_breach')).toEqual([
			expect.objectContaining({ isin: UP, rule: 'Article 8+', value: 6 }),
			expect.objectContaining({ isin: STEADY, rule: 'Coal', value: coal(STEADY) }),
		]);
		expect(changesOf(await runs.run(workflow, 1))).toEqual([]);
	});

	it('Group By: one item per fund that holds the ISIN; a holding new to a fund has its breaches reported there, not in the fund that already held it', async () => {
		const runs = new Runs();
		const week1 = [...rowsOf([DOWN, UP], 'Alpha'), ...rowsOf([DOWN, LOST], 'Beta')];
		await runs.run(chainWorkflow(week1, screenNode({ groupBy: 'fund' })), 1);
		// Week 2: Beta also buys UP (in breach in week 1 already, known from Alpha) and STEADY (new to both).
		const week2 = [...week1, ...rowsOf([UP, STEADY], 'Beta')];
		const result = await runs.run(chainWorkflow(week2, screenNode({ groupBy: 'fund' })), 1);
		expect(withoutWhy(changesOf(result))).toEqual([
			...expectedChanges([UP, STEADY], null, 1, 'Beta').filter(
				(item) => item.change === 'new_breach',
			),
		]);
		const week3 = await runs.run(chainWorkflow(week2, screenNode({ groupBy: 'fund' })), 2);
		expect(withoutWhy(changesOf(week3))).toEqual([
			...expectedChanges([DOWN, UP], 1, 2, 'Alpha'),
			...expectedChanges([DOWN, LOST, UP, STEADY], 1, 2, 'Beta'),
		]);
		expect(
			changesOf(week3).filter((item) => item.isin === DOWN && item.change === 'new_breach'),
		).toEqual([
			expect.objectContaining({ fund: 'Alpha' }),
			expect.objectContaining({ fund: 'Beta' }),
		]);
	});

	it('a rule whose answer left the ISIN out this run is no change: what was remembered is kept and compared on the next run', async () => {
		const runs = new Runs();
		const workflow = chainWorkflow(rowsOf(ISINS), screenNode());
		await runs.run(workflow, 1);
		// Week 2 through a proxy whose SFDR answer leaves DOWN out.
		const proxy = await startProxy(sim.url, (path, body) => {
			if (path.endsWith('/instruments/sustainability-profile') && Array.isArray(body?.data))
				body.data = (body.data as IDataObject[]).filter((entry) => entry.isin !== DOWN);
			return body;
		});
		try {
			const left = await runs.run(workflow, 2, proxy.url);
			expect(changesOf(left).map((item) => `${item.change} ${item.isin} ${item.rule}`)).toEqual([
				`resolved_breach ${UP} Article 8+`,
				`newly_not_checked ${LOST} Article 8+`,
				`newly_not_checked ${LOST} UNGC`,
			]);
		} finally {
			await proxy.close();
		}
		const next = await runs.run(workflow, 2);
		expect(withoutWhy(changesOf(next))).toEqual(
			expectedChanges([DOWN], 1, 2).filter((item) => item.rule === 'Article 8+'),
		);
	});

	it('Remember In = Rows Given Here: To Remember hands out one row per ISIN; fed back, the next run reports what static data reports', async () => {
		const REMEMBERED = 'Get Remembered Rows';
		const withMemory = (remembered: IDataObject[]): WorkflowInput => {
			const chain = chainWorkflow(
				rowsOf(ISINS),
				screenNode({ rememberIn: 'rows', rememberedRows: `={{ $('${REMEMBERED}').all() }}` }),
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
		};
		const runs = new Runs();
		const first = await runs.run(withMemory([]), 1);
		expect(changesOf(first)).toEqual([expect.objectContaining({ change: 'nothing_remembered' })]);
		const rows = changesOf(first, 1);
		expect(rows.map((row) => row.isin)).toEqual(ISINS);
		expect(runs.staticData).toEqual({});
		const second = await runs.run(withMemory(rows), 2);
		expect(withoutWhy(changesOf(second))).toEqual(expectedChanges(ISINS, 1, 2));
	});

	it('a holding without an ISIN is said every run (not_screened), never dropped', async () => {
		const runs = new Runs();
		const rows = [...rowsOf([DOWN]), { isin: '', name: 'Cash EUR' }];
		const workflow = chainWorkflow(
			rows,
			screenNode({ invalidIsins: 'skip', firstSeen: 'outputAsNew' }),
		);
		for (const version of [1, 2] as const) {
			const out = changesOf(await runs.run(workflow, version));
			expect(out.filter((item) => item.change === 'not_screened')).toEqual([
				expect.objectContaining({ name: 'Cash EUR', why: expect.stringMatching(/^not sent: /) }),
			]);
		}
	});
});

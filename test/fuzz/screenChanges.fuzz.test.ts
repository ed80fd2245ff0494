/**
 * Screen Holdings, Output = Only Changes Since Last Run (issue 39), over generated sequences of runs: each run screens
 * a generated subset of a pool of ISINs (whose rule outcomes differ between the simulator's data versions 1 and 2) in
 * a generated data version, some runs through a proxy whose SFDR answer leaves one ISIN out. Properties, against a
 * model written from the documented rules: the first run outputs only nothing_remembered; every later run outputs
 * exactly one item per rule whose outcome changed since the last run that settled it (new breach, resolved breach,
 * newly not checkable), so a change is reported once and an unchanged run reports nothing; a rule its answer left out
 * is never a change.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData } from '../simulator';
import type { DataVersion } from '../simulator/data';
import { makeIsin } from '../helpers/isins';
import { startProxy } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { chainWorkflow, credentialsFor } from '../helpers/workflows';
import { runWorkflow } from '../workflow/runner';
import { FUZZ_SEED, runs } from './arbitraries';

const sim = useSimulator({ answerShape: { measures: 'vendor' } });

type State = 'breach' | 'pass' | 'not_checked';

const RULES: Array<{
	label: string;
	rule: IDataObject;
	state: (isin: string, v: DataVersion) => State;
}> = [
	{
		label: 'Article 8+',
		rule: { type: 'minSfdrArticle', article: 8, label: 'Article 8+' },
		state: (isin, v) => {
			const sfdr = instrumentData(isin, v).sfdr;
			return sfdr === null ? 'not_checked' : sfdr < 8 ? 'breach' : 'pass';
		},
	},
	{
		label: 'UNGC',
		rule: { type: 'indicatorFalse', indicator: 'violations_un_global_compact', label: 'UNGC' },
		state: (isin, v) => {
			const value = instrumentData(isin, v).vendorIndicators.violations_un_global_compact;
			return value === null ? 'not_checked' : value ? 'breach' : 'pass';
		},
	},
	{
		label: 'Coal',
		rule: { type: 'involvement', category: 'thermal_coal', threshold: 1, label: 'Coal' },
		state: (isin, v) => {
			const weight = instrumentData(isin, v).businessInvolvements.thermal_coal?.weight;
			return weight === undefined ? 'not_checked' : weight >= 1 ? 'breach' : 'pass';
		},
	},
];

const moves = (isin: string) => RULES.some((rule) => rule.state(isin, 1) !== rule.state(isin, 2));

/** ISINs whose outcomes move between the versions, ones that stay, one unknown in version 1 only, one never known. */
const POOL = [
	...findIsins((d) => d.known && moves(d.isin), 4, 'NL'),
	...findIsins((d) => d.known && !moves(d.isin), 2, 'NL'),
	...findIsins((d) => !d.known && instrumentData(d.isin, 2).known, 1, 'NL'),
	makeIsin('XX', 77),
];

interface RunCase {
	version: DataVersion;
	isins: string[];
	/** An ISIN of the run the SFDR answer leaves out (through a proxy), or null. */
	leftOut: string | null;
}

const runCase: fc.Arbitrary<RunCase> = fc
	.record({
		version: fc.constantFrom<DataVersion>(1, 2),
		isins: fc.subarray(POOL, { minLength: 1 }),
	})
	.chain(({ version, isins }) =>
		fc
			.option(fc.constantFrom(...isins), { nil: null, freq: 3 })
			.map((leftOut) => ({ version, isins, leftOut })),
	);

/** The model: what each run outputs, from the remembered outcomes per ISIN and rule (unsettled ones kept). */
function expectedRuns(cases: RunCase[]): string[][] {
	const remembered = new Map<string, Map<string, State>>();
	return cases.map(({ version, isins, leftOut }, index) => {
		const now = (isin: string, label: string): State | 'unsettled' =>
			isin === leftOut && label === 'Article 8+'
				? 'unsettled'
				: RULES.find((rule) => rule.label === label)!.state(isin, version);
		const out: string[] = [];
		if (index === 0) out.push('nothing_remembered');
		else {
			const checked = new Set(
				RULES.filter((rule) =>
					isins.some((isin) => ['breach', 'pass'].includes(now(isin, rule.label))),
				).map((rule) => rule.label),
			);
			for (const isin of isins) {
				const before = remembered.get(isin);
				for (const { label } of RULES) {
					const state = now(isin, label);
					if (state === 'unsettled') continue;
					const was = before?.get(label);
					if (was === undefined && state === 'not_checked' && !checked.has(label)) continue;
					if (was === state) continue;
					if (state === 'breach') out.push(`new_breach ${isin} ${label}`);
					else if (state === 'not_checked') out.push(`newly_not_checked ${isin} ${label}`);
					else if (was === 'breach') out.push(`resolved_breach ${isin} ${label}`);
				}
			}
		}
		for (const isin of isins) {
			const kept = remembered.get(isin) ?? new Map<string, State>();
			const next = new Map<string, State>();
			for (const { label } of RULES) {
				const state = now(isin, label);
				if (state !== 'unsettled') next.set(label, state);
				else if (kept.has(label)) next.set(label, kept.get(label)!);
			}
			remembered.set(isin, next);
		}
		return out;
	});
}

describe('Screen Holdings, Only Changes Since Last Run (fast-check)', () => {
	it('each change of a rule outcome is reported once, in the run it happens; unchanged runs and left-out answers report nothing', async () => {
		let leftOut: string | null = null;
		const proxy = await startProxy(sim.url, (path, body) => {
			if (
				leftOut &&
				path.endsWith('/instruments/sustainability-profile') &&
				Array.isArray(body?.data)
			)
				body.data = (body.data as IDataObject[]).filter((entry) => entry.isin !== leftOut);
			return body;
		});
		try {
			await fc.assert(
				fc.asyncProperty(fc.array(runCase, { minLength: 2, maxLength: 4 }), async (cases) => {
					let staticData: IDataObject = {};
					const expected = expectedRuns(cases);
					for (const [index, { version, isins, leftOut: left }] of cases.entries()) {
						sim.setDataVersion(version);
						leftOut = left;
						const result = await runWorkflow(
							{
								...chainWorkflow(
									isins.map((isin) => ({ isin, name: isin })),
									{
										type: 'sustainabilityInstruments',
										name: 'Node',
										typeVersion: 2,
										parameters: {
											operation: 'screenHoldings',
											screenPreset: 'custom',
											rules: { rule: RULES.map((rule) => rule.rule) },
											outputMode: 'changesSinceLastRun',
										},
									},
								),
								staticData,
							},
							{ credentials: credentialsFor(proxy.url), mode: 'trigger' },
						);
						expect(result.error).toBeUndefined();
						staticData = result.savedStaticData;
						const got = result
							.items('Node')
							.map((item) =>
								item.json.change === 'nothing_remembered'
									? 'nothing_remembered'
									: `${item.json.change} ${item.json.isin} ${item.json.rule}`,
							);
						expect({ run: index, got }).toEqual({ run: index, got: expected[index] });
					}
				}),
				{ numRuns: runs(10), seed: FUZZ_SEED },
			);
		} finally {
			leftOut = null;
			await proxy.close();
		}
	});
});

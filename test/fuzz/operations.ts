/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The fuzz loop shared by the HTTP suites: runs an operation's cases against the simulator with a fixed
 * seed, checks the harness properties and the operation's item contract, and keeps counts so a suite can
 * check that its cases reached the API at all (generators that always fail locally would prove nothing).
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import { FUZZ_SEED } from './arbitraries';
import { describeCase, expectAll, pairedIndices, runCase } from './harness';
import type { FuzzCase, FuzzOutcome } from './harness';

export interface Tally {
	runs: number;
	succeeded: number;
	failedNamed: number;
	refusedByN8n: number;
	withRequests: number;
	badRequests: Record<string, number>;
}

const tallies: Record<string, Tally> = {};

/** After the file's tests, with FUZZ_VERBOSE set: the seed and each test's tally. */
export function logTalliesAfterAll(): void {
	afterAll(() => {
		if (process.env.FUZZ_VERBOSE)
			console.log(`fuzz seed ${FUZZ_SEED}`, JSON.stringify(tallies, null, 1));
	});
}

/** Keeps the tally under the current test's name and checks its cases reached the API and some succeeded. */
export function expectReachedTheApi(tally: Tally): void {
	tallies[expect.getState().currentTestName ?? '?'] = tally;
	expect(tally.withRequests).toBeGreaterThan(0);
	expect(tally.succeeded).toBeGreaterThan(0);
}

export type Contract = (fuzz: FuzzCase, outcome: FuzzOutcome, violations: string[]) => void;

export async function fuzzOperation(
	sim: () => Simulator,
	cases: fc.Arbitrary<FuzzCase>,
	contract: Contract,
	numRuns: number,
	setup?: (sim: Simulator) => Promise<void>,
): Promise<Tally> {
	const tally: Tally = {
		runs: 0,
		succeeded: 0,
		failedNamed: 0,
		refusedByN8n: 0,
		withRequests: 0,
		badRequests: {},
	};
	await fc.assert(
		fc.asyncProperty(cases, async (fuzz) => {
			const outcome = await runCase(sim(), fuzz, { setup });
			tally.runs++;
			if (outcome.refused) tally.refusedByN8n++;
			else if (outcome.result?.error) tally.failedNamed++;
			else tally.succeeded++;
			if (outcome.requests.length) tally.withRequests++;
			for (const said of outcome.badRequests)
				tally.badRequests[said] = (tally.badRequests[said] ?? 0) + 1;
			if (outcome.result && !outcome.result.error) contract(fuzz, outcome, outcome.violations);
			if (outcome.violations.length) throw new Error(describeCase(fuzz, outcome));
		}),
		{ seed: FUZZ_SEED, numRuns, endOnFailure: !process.env.FUZZ_SHRINK },
	);
	return tally;
}

function isErrorItem(item: INodeExecutionData): boolean {
	return typeof item.json.error === 'string';
}

/**
 * Portfolio-level routes (snapshots, EU Taxonomy, temperature, reports): every input item is paired to some
 * output item, and each result item accounts for each of its items as a holding or a removed row.
 */
export const portfolioContract: Contract = (fuzz, outcome, violations) => {
	expectAll(violations, pairedIndices(outcome.output), fuzz.items.length, 'portfolio route');
	const fromItems = (fuzz.parameters.holdingsSource ?? 'items') === 'items';
	for (const item of outcome.output) {
		if (isErrorItem(item)) continue;
		const {
			holdings_count: holdings,
			removed_count: removed,
			removed_rows: removedRows,
		} = item.json as IDataObject;
		if (typeof holdings !== 'number' || typeof removed !== 'number') continue;
		const paired = new Set(pairedIndices([item]));
		if (fromItems && holdings + removed !== paired.size) {
			violations.push(
				`result paired to ${paired.size} item(s) counts ${holdings} holding(s) + ${removed} removed`,
			);
		}
		for (const row of (Array.isArray(removedRows) ? removedRows : []) as IDataObject[]) {
			if (!paired.has(row.item as number))
				violations.push(`removed row of item ${String(row.item)} is not paired to its result`);
		}
	}
};

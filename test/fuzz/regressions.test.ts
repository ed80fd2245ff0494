/**
 * Regression tests of the bugs the fuzz suites found, each as the smallest workflow that showed it,
 * run inside n8n's engine against the simulator. Each test names what used to happen.
 */

import { readSnapshotDate, describeDateProblem } from '../../nodes/shared/input/dates';
import { normalizeInstrumentType } from '../../nodes/shared/input/holdingFields';
import { objectOf } from './arbitraries';
import { fuzzWorkflow, pairedIndices, runCase } from './harness';
import { runWorkflow } from '../workflow/runner';
import { startProxy } from '../helpers/proxy';
import { credentialsFor } from '../helpers/workflows';
import type { FuzzCase } from './harness';
import { useSimulator } from '../helpers/simulator';

const sim = useSimulator();

/** A holdings cell whose object has a `toString` key: String(value) throws "Cannot convert object to primitive value". */
const hostileObject = objectOf([['toString', 'x']]);
const apple = {
	isin: 'US0378331005',
	name: 'Apple',
	instrument_type: 'stock',
	currency: 'USD',
	weight: 50,
	market_value: 1000,
};

async function run(fuzz: FuzzCase) {
	const outcome = await runCase(sim, fuzz);
	expect(outcome.violations).toEqual([]);
	return outcome;
}

/** Runs `fuzz` and expects it to fail with `message` before sending any request. */
async function expectRefused(message: string | RegExp, fuzz: FuzzCase) {
	const { result, requests } = await run(fuzz);
	if (typeof message === 'string') expect(result?.error?.message).toBe(message);
	else expect(result?.error?.message).toMatch(message);
	expect(requests).toHaveLength(0);
}

describe('fuzz regressions', () => {
	it('holdings: an object in a text column is refused by name (was a TypeError "Cannot convert object to primitive value")', async () => {
		for (const field of ['name', 'currency']) {
			await expectRefused(`The ${field} must be text, got an object: {"toString":"x"}`, {
				type: 'euTaxonomy',
				items: [apple, { ...apple, [field]: hostileObject }],
				parameters: { operation: 'getPortfolioAlignment' },
			});
		}
	});

	it('holdings: instrument type "constructor" is not taken from Object.prototype (was sent without a type: 400)', async () => {
		expect(normalizeInstrumentType('constructor')).toBeUndefined();
		await expectRefused('Instrument type "Constructor" is not one the API knows', {
			type: 'euTaxonomy',
			items: [{ ...apple, instrument_type: 'Constructor' }],
			parameters: { operation: 'getPortfolioAlignment' },
		});
	});

	it('Group By "constructor": the items\' own column, never Object\'s constructor function', async () => {
		const { result, output } = await run({
			type: 'euTaxonomy',
			items: [
				{ ...apple, constructor: 'A' },
				{ ...apple, isin: 'US5949181045', constructor: 'B' },
			],
			parameters: { operation: 'getPortfolioAlignment', groupBy: 'constructor' },
		});
		expect(result?.error).toBeUndefined();
		expect(output.map((item) => item.json.constructor)).toEqual(['A', 'B']);
		await expectRefused('The Group By field "toString" is empty or missing', {
			type: 'euTaxonomy',
			items: [apple],
			parameters: { operation: 'getPortfolioAlignment', groupBy: 'toString' },
		});
	});

	it('Create or Update Snapshot: a Portfolio ID expression giving an object is refused by name (was a TypeError)', async () => {
		await expectRefused('Portfolio ID must be text, got an object: {"toString":"x"}', {
			type: 'portfolioSnapshots',
			items: [{ ...apple, pid: hostileObject }],
			parameters: {
				operation: 'createOrUpdateSnapshot',
				portfolioId: '={{ $json.pid }}',
				portfolioName: 'P',
				snapshotDate: '2025-03-31',
			},
		});
	});

	it('Update: an identifier with half an emoji is refused before sending (was "URI malformed")', async () => {
		await expectRefused(/^Portfolio "svc-portfolio:org-a_fund.?" contains a broken character/, {
			type: 'portfolioSnapshots',
			items: [{ id: 'svc-portfolio:org-a_fund\uD83D' }],
			parameters: {
				operation: 'update',
				portfolio: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				updateFields: { name: 'New' },
			},
		});
	});

	it('Classify Holdings: a non-numeric methodology from the list mode is refused (was sent as text: schema 400)', async () => {
		await expectRefused('Methodology ID "standard" is not a number', {
			type: 'sustainableInvestments',
			items: [{ ...apple, m: 'standard' }],
			parameters: {
				operation: 'classifyHoldings',
				methodology: { __rl: true, mode: 'list', value: '={{ $json.m }}' },
			},
		});
	});

	it('Business Involvements: Minimum Threshold from an expression is sent as a number, or refused (was sent as "5" or null: schema 400)', async () => {
		const threshold = (value: unknown): FuzzCase => ({
			type: 'sustainabilityInstruments',
			items: [{ isin: 'US0378331005', t: value }],
			parameters: { operation: 'getBusinessInvolvements', minimumThreshold: '={{ $json.t }}' },
		});
		const sent = await run(threshold('5'));
		expect(
			sent.requests.map(
				(request) => (request.body as { minimum_threshold?: unknown }).minimum_threshold,
			),
		).toEqual([5]);
		await expectRefused(
			'Minimum Threshold must be a number, got a string: five',
			threshold('five'),
		);
	});

	it('Options > Batch Size from an expression that is not a number is refused (was an empty batch: 400 "Please provide at least one instrument")', async () => {
		await expectRefused('Options > Batch Size must be a number, got a string: abc', {
			type: 'sustainabilityInstruments',
			items: [{ isin: 'US0378331005', b: 'abc' }],
			parameters: { operation: 'getSfdrClassification', options: { batchSize: '={{ $json.b }}' } },
		});
	});

	it('ISIN Field "constructor": reads the item\'s own field only', async () => {
		const { result, requests } = await run({
			type: 'sustainabilityInstruments',
			items: [{ name: 'no isin here' }],
			parameters: { operation: 'getSfdrClassification', isinField: 'constructor' },
		});
		expect(result?.error).toBeUndefined();
		expect(requests).toHaveLength(0);
	});

	it('Report: a Report Name expression giving a list is refused by name', async () => {
		await expectRefused('Report Name must be text, got a list: ["a","b"]', {
			type: 'sustainabilityReports',
			items: [{ ...apple, n: ['a', 'b'] }],
			parameters: {
				operation: 'generatePdfReport',
				reportName: '={{ $json.n }}',
				reportId: 'r1',
				snapshotDate: '2025-03-31',
			},
		});
	});

	it('Get Many / Get Methodologies: an error of the one request for the run pairs to item 0 only (was one error item per input item)', async () => {
		for (const fuzz of [
			{
				type: 'portfolioSnapshots',
				parameters: { operation: 'getMany', returnAll: false, limit: '={{ $json.limit }}' },
			},
			{ type: 'sustainableInvestments', parameters: { operation: 'getMethodologies' } },
		]) {
			const { output, requests } = await run({
				...fuzz,
				items: [{ limit: 'many' }, { limit: 'many' }, { limit: 'many' }],
				onError: 'continueErrorOutput',
			});
			if (fuzz.type === 'portfolioSnapshots') {
				expect(requests).toHaveLength(0);
				expect(output).toHaveLength(1);
				expect(output[0].json.error).toMatch(/^Limit/);
			}
			expect(pairedIndices(output)).toEqual(output.map(() => 0));
		}
	});

	it('describeDateProblem shows any value (was a TypeError for objects with a toString key)', () => {
		const read = readSnapshotDate(hostileObject);
		expect(read).toEqual({ problem: 'unreadable' });
		expect(describeDateProblem('unreadable', hostileObject)).toMatch(
			/^\{"toString":"x"\} is not a date the API can read/,
		);
	});

	it('EU Taxonomy table: an answer without any KPI (all are optional) still gives each group a row (its items were lost)', async () => {
		// The simulator always answers KPIs: a proxy in front of it answers the spec-conforming `{"data": {}}`.
		const proxy = await startProxy(sim.url, (path, body) =>
			path === '/taxonomy/insights' ? { data: {} } : body,
		);
		try {
			const url = proxy.url;
			const items = [
				{ ...apple, portfolio: 'A' },
				{ ...apple, portfolio: 'B' },
				{ ...apple, portfolio: 'B', isin: 'US5949181045' },
			];
			const result = await runWorkflow(
				fuzzWorkflow({
					type: 'euTaxonomy',
					items,
					parameters: { operation: 'getPortfolioAlignment', output: 'table', groupBy: 'portfolio' },
				}),
				{ credentials: credentialsFor(url) },
			);
			expect(result.error).toBeUndefined();
			const rows = result.items('Node');
			expect(
				rows.map((row) => [row.json.portfolio, row.json.kpi, row.json.holdings_count]),
			).toEqual([
				['A', null, 1],
				['B', null, 2],
			]);
			expect(pairedIndices(rows).sort()).toEqual([0, 1, 2]);
		} finally {
			await proxy.close();
		}
	});
});

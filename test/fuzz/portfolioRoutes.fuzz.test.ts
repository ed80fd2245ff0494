/**
 * HTTP fuzz of the operations that send a portfolio of holdings: Create or Update Snapshot, EU Taxonomy,
 * Classify Holdings, Temperature Score and PDF report. The real node runs inside n8n's engine against the
 * simulator; few runs per operation (each is a workflow run), fixed seed (FUZZ_SEED to replay).
 * Properties: see harness.ts (error naming the item, no 400 a local check could prevent, items accounted).
 */
import fc from 'fast-check';

import { useSimulator } from '../helpers/simulator';
import { KNOWN_ISINS, dateLike, hostileString, isinLike, mistyped, runs } from './arbitraries';
import { expectAll, expectOnePerItem, pairedIndices } from './harness';
import type { FuzzCase } from './harness';
import {
	expectReachedTheApi,
	fuzzOperation,
	logTalliesAfterAll,
	portfolioContract,
} from './operations';
import {
	assemble,
	cleanItems,
	holdingsItems,
	holdingsParams,
	onError,
	param,
	printable,
	textParam,
} from './params';
import type { Param } from './params';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });
logTalliesAfterAll();

const snapshotDateParam = fc.oneof(
	{
		weight: 3,
		arbitrary: dateLike
			.filter((value) => typeof value === 'string')
			.map((value) => ({ name: 'snapshotDate', literal: value })),
	},
	{ weight: 2, arbitrary: fc.constant({ name: 'snapshotDate', literal: '={{ $json.date }}' }) },
	{
		weight: 1,
		arbitrary: dateLike.map((value) => ({ name: 'snapshotDate', expression: { value } })),
	},
);

/**
 * Cases of one operation: fuzzed rows and parameters (3 in 4), or a clean sheet with sound parameters
 * (`clean`), so that every operation also reaches the API and succeeds now and then.
 */
function holdingsCase(
	type: string,
	operation: string,
	withCash: boolean,
	own: fc.Arbitrary<Param[]>,
	clean: fc.Arbitrary<Param[]>,
) {
	const fuzzed = fc
		.tuple(holdingsItems(), holdingsParams(withCash), own, onError)
		.map(([items, shared, specific, mode]) =>
			printable({
				type,
				...assemble(items, { operation }, [...shared, ...specific]),
				onError: mode,
			}),
		);
	const sound = fc
		.tuple(cleanItems(), clean, onError)
		.map(([items, specific, mode]) =>
			printable({ type, ...assemble(items, { operation }, specific), onError: mode }),
		);
	return fc.oneof({ weight: 3, arbitrary: fuzzed }, { weight: 1, arbitrary: sound });
}

const literal = (name: string, value: unknown): Param => ({ name, literal: value });

/** Fuzzes one operation's holdingsCase against the simulator `numRuns` times; some runs must reach the API. */
async function fuzzHoldings(
	numRuns: number,
	caseOf: Parameters<typeof holdingsCase>,
	contract = portfolioContract,
): Promise<void> {
	expectReachedTheApi(
		await fuzzOperation(() => sim, holdingsCase(...caseOf), contract, runs(numRuns)),
	);
}

describe('fuzz: operations that send holdings, against the simulator', () => {
	it('Portfolio Snapshots: Create or Update Snapshot', async () => {
		const own = fc.tuple(
			fc.oneof(
				textParam('portfolioId', 'growth-eu', 'pf_1', 'A-1'),
				fc.constant({ name: 'portfolioId', literal: '={{ $json.portfolio }}' }),
			),
			textParam('portfolioName', 'Growth Europe', 'Nestlé & Co'),
			param('currency', fc.constantFrom('USD', 'EUR', 'SEK', 'usd', 'XXX', '€', 'EURO', '')),
			snapshotDateParam,
		);
		const clean = fc
			.constantFrom('2025-03-31', '2024-12-31')
			.map((date) => [
				literal('portfolioId', 'growth-eu'),
				literal('portfolioName', 'Growth Europe'),
				literal('currency', 'EUR'),
				literal('snapshotDate', date),
			]);
		await fuzzHoldings(40, ['portfolioSnapshots', 'createOrUpdateSnapshot', false, own, clean]);
	});

	it('EU Taxonomy: Get Portfolio Alignment', async () => {
		const own = fc.tuple(param('output', fc.constantFrom('summary', 'table')));
		const clean = fc.constantFrom('summary', 'table').map((output) => [literal('output', output)]);
		await fuzzHoldings(35, ['euTaxonomy', 'getPortfolioAlignment', true, own, clean]);
	});

	it('Sustainable Investments: Classify Holdings', async () => {
		const methodology = fc
			.tuple(
				fc.constantFrom('list', 'id', 'id'),
				fc.oneof(
					{ weight: 5, arbitrary: fc.constantFrom<unknown>(1, 2, 3, '1', ' 2 ') },
					{ weight: 1, arbitrary: fc.constantFrom<unknown>(99, 0, -1, 1.5, 'abc', '1e2', '') },
					{ weight: 1, arbitrary: hostileString },
				),
				fc.option(
					fc.oneof(
						fc.constantFrom<unknown>(2, '3', Number.NaN, Infinity, -0, 1.5),
						hostileString,
						mistyped,
					),
					{ nil: undefined },
				),
			)
			.map(([mode, value, expression]) =>
				expression === undefined
					? [{ name: 'methodology', literal: { __rl: true, mode, value } }]
					: [
							{ name: 'methodology', literal: { __rl: true, mode, value: '={{ $json.p.m }}' } },
							{ name: 'm', expression: { value: expression } },
						],
			);
		const contract = (
			fuzz: FuzzCase,
			outcome: Parameters<typeof portfolioContract>[1],
			violations: string[],
		) => {
			if ((fuzz.parameters.holdingsSource ?? 'items') === 'items') {
				expectOnePerItem(
					violations,
					outcome.output,
					fuzz.items.length,
					'classify holdings (one item per input item)',
				);
			} else if (outcome.output.some((item) => typeof item.json.error === 'string')) {
				expectAll(
					violations,
					pairedIndices(outcome.output),
					fuzz.items.length,
					'classify holdings (error items)',
				);
			} else {
				// JSON source: one item per entry of the array, each paired to the item the array was read at.
				for (const index of pairedIndices(outcome.output))
					if (index !== 0) violations.push(`JSON row paired to item ${index}`);
			}
		};
		const clean = fc
			.constantFrom(1, 2, 3)
			.map((value) => [literal('methodology', { __rl: true, mode: 'list', value })]);
		await fuzzHoldings(
			35,
			['sustainableInvestments', 'classifyHoldings', true, methodology, clean],
			contract,
		);
	});

	it('Temperature Score: Get Portfolio Temperature', async () => {
		const own = fc.tuple(
			param('output', fc.constantFrom('perHolding', 'raw')),
			fc.constant({ name: 'waitForCalculation', literal: true }),
			param('pollInterval', fc.constantFrom(1, 0, -5), fc.constantFrom(1, Number.NaN, '2', null)),
			param('maxWait', fc.constantFrom(2, 1, 0), fc.constantFrom(2, Number.NaN, 'x', null)),
		);
		const clean = fc
			.constantFrom('perHolding', 'raw')
			.map((output) => [
				literal('output', output),
				literal('pollInterval', 1),
				literal('maxWait', 2),
			]);
		await fuzzHoldings(30, ['temperatureScore', 'getPortfolioTemperature', true, own, clean]);
	});

	it('Sustainability Reports: Generate PDF Report', async () => {
		const own = fc.tuple(
			textParam('reportName', 'Growth Europe Q1', 'Nestlé & Co'),
			textParam('reportId', 'growth-eu', 'rpt/../1', 'a?b#c'),
			param('reportType', fc.constantFrom('esg-overview', 'mifid2', 'mifid2', 'pdf', '')),
			fc.oneof(snapshotDateParam, fc.constant({ name: 'snapshotDate', literal: '' })),
			param(
				'benchmarkIndex',
				fc.constantFrom(
					'S&P 500',
					'DAX',
					'OMX Stockholm',
					'Solactive SEK IG Credit Index',
					'Nordic Credit Partners SEK IG Credit Index',
					'S&P500',
					'dax',
					'',
				),
			),
			param(
				'benchmarkFundIsin',
				fc.oneof(
					fc.constantFrom('', '', KNOWN_ISINS[5]),
					isinLike.filter((value) => typeof value === 'string'),
				),
			),
			param('methodology', fc.constantFrom<unknown>('', 1, 2, '3', 99, 'abc', 1.5)),
			param('downloadPdf', fc.boolean(), fc.constantFrom(true, false, 'yes', 0, null)),
			param('binaryPropertyName', fc.constantFrom('data', 'report', '', ' ')),
		);
		const clean = fc
			.tuple(fc.constantFrom('esg-overview', 'mifid2'), fc.boolean())
			.map(([type, download]) => [
				literal('reportName', 'Growth Europe'),
				literal('reportId', 'growth-eu'),
				literal('reportType', type),
				literal('snapshotDate', '2025-03-31'),
				literal('downloadPdf', download),
			]);
		await fuzzHoldings(30, ['sustainabilityReports', 'generatePdfReport', false, own, clean]);
	});
});

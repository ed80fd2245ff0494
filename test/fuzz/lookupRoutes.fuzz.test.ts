/**
 * HTTP fuzz of the per-ISIN and per-item operations: the four instruments lookups, Update and Delete
 * Snapshot, Get Many portfolios and Get Methodologies. Same properties as portfolioRoutes.fuzz.test.ts.
 */
import fc from 'fast-check';

import { useSimulator } from '../helpers/simulator';
import type { Simulator } from '../simulator';
import {
	KNOWN_ISINS,
	dateLike,
	hostileString,
	isinLike,
	mistyped,
	objectOf,
	runs,
} from './arbitraries';
import { expectAll, expectOnePerItem, pairedIndices } from './harness';
import type { FuzzCase } from './harness';
import { expectReachedTheApi, fuzzOperation, logTalliesAfterAll } from './operations';
import type { Contract } from './operations';
import { assemble, onError, param, printable } from './params';
import type { Param } from './params';

const sim = useSimulator();
logTalliesAfterAll();

const literal = (name: string, value: unknown): Param => ({ name, literal: value });

/** What an expression may give a number parameter. */
const numberish = fc.oneof(
	fc.constantFrom<unknown>(
		'5',
		' 7 ',
		'abc',
		'',
		'1e400',
		'1,5',
		Number.NaN,
		Infinity,
		-Infinity,
		null,
		2.5,
		-3,
	),
	mistyped,
	hostileString,
);

/** Items carrying an ISIN under some column (or nested, or none), plus noise. */
const isinItems = fc.array(
	fc
		.tuple(
			fc.constantFrom('isin', 'ISIN', 'Isin Code', 'holding', 'none'),
			isinLike,
			fc.constantFrom('Apple', 'x', ''),
		)
		.map(([column, isin, name]) => {
			if (column === 'holding')
				return objectOf([
					['holding', objectOf([['isin', isin]])],
					['name', name],
				]);
			if (column === 'none')
				return objectOf([
					['name', name],
					['constructor', isin],
				]);
			return objectOf([
				[column, isin],
				['name', name],
				['__proto__', { polluted: true }],
			]);
		}),
	{ minLength: 1, maxLength: 8 },
);
const cleanIsinItems = fc.array(
	fc.constantFrom(...KNOWN_ISINS).map((isin) => ({ isin })),
	{ minLength: 1, maxLength: 6 },
);

const isinListText = fc
	.array(
		fc.oneof(
			isinLike.filter((value) => typeof value === 'string'),
			fc.constantFrom(...KNOWN_ISINS),
		),
		{ maxLength: 6 },
	)
	.chain((entries) => {
		const list = entries as string[];
		return fc.oneof(
			fc.constantFrom(', ', '\n', ' ; ', ' ', '\t').map((separator) => list.join(separator)),
			// As AI models write a list ($fromAI): JSON arrays (also cut short, fenced or encoded twice), quoted
			// entries, lower case, duplicates.
			fc
				.constantFrom<(items: string[]) => string>(
					(items) => JSON.stringify(items),
					(items) => JSON.stringify(items).slice(0, -1),
					(items) => '```json\n' + JSON.stringify(items) + '\n```',
					(items) => JSON.stringify(JSON.stringify(items)),
					(items) => `[${items.map((item) => `'${item}'`).join(', ')}]`,
					(items) => items.map((item) => `"${item.toLowerCase()}"`).join(';\n'),
					(items) => [...items, ...items].join(', '),
				)
				.map((write) => write(list)),
		);
	});

function instrumentsCases(operation: string): fc.Arbitrary<FuzzCase> {
	const fuzzed = fc
		.tuple(
			isinItems,
			fc.constantFrom('field', 'field', 'list'),
			param(
				'isinField',
				fc.constantFrom(
					'isin',
					'ISIN',
					'isin code',
					'holding.isin',
					'holding.__proto__',
					'constructor',
					'missing',
					'',
				),
			),
			param(
				'isinList',
				isinListText,
				// An expression may give the list itself, with duplicates, or anything else.
				fc.oneof(
					isinListText,
					isinListText.map((text) => text.split(/[\s,;]+/)),
					fc.array(fc.oneof(isinLike, mistyped), { maxLength: 5 }),
					hostileString,
					mistyped,
				),
			),
			param('outputMode', fc.constantFrom('addToItems', 'perInstrument', 'portfolioSummary')),
			param('simplify', fc.boolean()),
			fc.option(fc.constantFrom('fail', 'skip', 'send'), { nil: undefined }),
			fc.option(
				param('batchSize', fc.constantFrom<unknown>(1, 2, 3, 10_000, 0, -5, 1.5), numberish),
				{ nil: undefined },
			),
			fc.option(param('concurrency', fc.constantFrom<unknown>(1, 2, 8, 0, 100), numberish), {
				nil: undefined,
			}),
			param('minimumThreshold', fc.constantFrom(0, 5, 30, -1, 1e9), numberish),
			onError,
		)
		.map(
			([
				items,
				source,
				field,
				list,
				mode,
				simplify,
				invalidIsins,
				batchSize,
				concurrency,
				threshold,
				errorMode,
			]) => {
				const assembled = assemble(items, { operation, isinSource: source }, [
					field,
					list,
					mode,
					simplify,
					...(batchSize ? [batchSize] : []),
					...(concurrency ? [concurrency] : []),
					...(operation === 'getBusinessInvolvements' ? [threshold] : []),
				]);
				// Batch Size and Concurrency live in the Options collection.
				const { batchSize: size, concurrency: workers, ...parameters } = assembled.parameters;
				const options = {
					...(invalidIsins ? { invalidIsins } : {}),
					...(size !== undefined ? { batchSize: size } : {}),
					...(workers !== undefined ? { concurrency: workers } : {}),
				};
				return printable({
					type: 'sustainabilityInstruments',
					items: assembled.items,
					parameters: { ...parameters, options },
					onError: errorMode,
				});
			},
		);
	const sound = fc
		.tuple(cleanIsinItems, fc.constantFrom('addToItems', 'perInstrument'), fc.boolean(), onError)
		.map(([items, mode, simplify, errorMode]) =>
			printable({
				type: 'sustainabilityInstruments',
				...assemble(items, { operation, outputMode: mode, simplify }, []),
				onError: errorMode,
			}),
		);
	return fc.oneof({ weight: 3, arbitrary: fuzzed }, { weight: 1, arbitrary: sound });
}

/** Add to Input Items: each input item once, in order; One Item per Instrument: each input item paired somewhere. */
const instrumentsContract: Contract = (fuzz, outcome, violations) => {
	const count = fuzz.items.length;
	if (
		outcome.output.some(
			(item) => typeof item.json.error === 'string' && item.json.found === undefined,
		)
	) {
		expectAll(violations, pairedIndices(outcome.output), count, 'instruments (error items)');
		return;
	}
	if (fuzz.parameters.isinSource === 'list') {
		for (const index of pairedIndices(outcome.output))
			if (index !== 0) violations.push(`list source: output paired to item ${index}`);
		return;
	}
	const mode = outcome.result?.runData.Node?.[0]
		? (fuzz.parameters.outputMode ?? 'addToItems')
		: 'addToItems';
	// An expression for the mode: whatever it gives, every input item is paired somewhere (as below).
	if (mode === 'addToItems') {
		expectOnePerItem(violations, outcome.output, count, 'add to input items');
		outcome.output.forEach((item, index) => {
			const paired = pairedIndices([item]);
			if (paired.length !== 1 || paired[0] !== index)
				violations.push(`output item ${index} is paired to ${paired.join(', ')}`);
		});
		return;
	}
	expectAll(violations, pairedIndices(outcome.output), count, 'one item per instrument');
};

const identifier = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.constantFrom(
			'svc-portfolio:org-a_pf-1',
			'svc-portfolio:org-a_pf-2',
			' svc-portfolio:org-a_pf-1 ',
		),
	},
	{ weight: 2, arbitrary: hostileString.map((tail) => `svc-portfolio:org-a_${tail}`) },
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			'pf-1',
			'',
			'svc-portfolio:',
			'svc-portfolio:../..',
			'svc-portfolio:org-a_a/b?c#d%2F',
			'svc-portfolio:org-a_\uD800',
			'svc-portfolio:org-a_💶\uDC00',
			'svc-portfolio:org-a_%',
		),
	},
	{ weight: 1, arbitrary: hostileString },
);

/** Stores pf-1 (two quarters) and pf-2 (one) in org-a before each run, so that Update and Delete can succeed. */
async function storePortfolios(sim: Simulator): Promise<void> {
	for (const [id, date] of [
		['pf-1', '2025-03-31'],
		['pf-1', '2024-12-31'],
		['pf-2', '2025-03-31'],
	]) {
		const response = await fetch(`${sim.url}/portfolios`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': 'sim-all-families' },
			body: JSON.stringify({
				identifier: id,
				name: id,
				currency: 'EUR',
				snapshot_at: date,
				holdings: [{ isin: KNOWN_ISINS[0], name: 'Apple', currency: 'USD', market_value: 1 }],
			}),
		});
		if (response.status !== 201)
			throw new Error(`setup: POST /portfolios answered ${response.status}`);
	}
}

function perItemCases(operation: string, own: fc.Arbitrary<Param[]>): fc.Arbitrary<FuzzCase> {
	return fc
		.tuple(
			fc.array(
				fc.record({
					id: identifier,
					date: dateLike,
					name: fc.oneof(fc.constantFrom('Renamed', 'Nestlé'), hostileString, mistyped),
				}),
				{ minLength: 1, maxLength: 5 },
			),
			fc.oneof(
				fc.constant(literal('portfolio', { __rl: true, mode: 'id', value: '={{ $json.id }}' })),
				identifier.map((value) => literal('portfolio', { __rl: true, mode: 'id', value })),
				fc.constant(
					literal('portfolio', { __rl: true, mode: 'list', value: 'svc-portfolio:org-a_pf-2' }),
				),
			),
			own,
			onError,
		)
		.map(([items, portfolio, specific, errorMode]) =>
			printable({
				type: 'portfolioSnapshots',
				...assemble(items, { operation }, [portfolio, ...specific]),
				onError: errorMode,
			}),
		);
}

const onePerItem: Contract = (fuzz, outcome, violations) =>
	expectOnePerItem(violations, outcome.output, fuzz.items.length, 'per item');

/** Fuzzes an Update or Delete Snapshot with the portfolios stored; some runs must reach the API. */
async function fuzzPerItem(operation: string, own: fc.Arbitrary<Param[]>): Promise<void> {
	const cases = perItemCases(operation, own);
	expectReachedTheApi(await fuzzOperation(() => sim, cases, onePerItem, runs(35), storePortfolios));
}

describe('fuzz: lookups and per-item operations, against the simulator', () => {
	it.each(['getSfdrClassification', 'getPaiIndicators', 'getBusinessInvolvements', 'getEsgData'])(
		'Sustainability Instruments: %s',
		async (operation) => {
			expectReachedTheApi(
				await fuzzOperation(() => sim, instrumentsCases(operation), instrumentsContract, runs(30)),
			);
		},
	);

	it('Portfolio Snapshots: Update', async () => {
		const own = fc
			.record(
				{
					name: fc.oneof(fc.constantFrom('Renamed', '={{ $json.name }}', ''), hostileString),
					currency: fc.oneof(
						fc.constantFrom('EUR', 'sek', 'XXX', '€', '={{ $json.name }}'),
						hostileString,
					),
				},
				{ requiredKeys: [] },
			)
			.map((fields) => [literal('updateFields', fields)]);
		await fuzzPerItem('update', own);
	});

	it('Portfolio Snapshots: Delete Snapshot', async () => {
		const own = fc
			.oneof(
				fc.constantFrom('={{ $json.date }}', '2025-03-31', '2024-10-01', '2099-01-01'),
				dateLike.filter((value) => typeof value === 'string'),
			)
			.map((date) => [literal('snapshotDate', date)]);
		await fuzzPerItem('deleteSnapshot', own);
	});

	it('Portfolio Snapshots: Get Many', async () => {
		const cases = fc
			.tuple(
				fc.array(fc.constant({}), { minLength: 1, maxLength: 3 }),
				param('returnAll', fc.boolean()),
				param('limit', fc.constantFrom(1, 2, 50, 0, -1, 1.5)),
				param('nameContains', fc.oneof(fc.constantFrom('', 'pf', 'PF-1'), hostileString)),
				onError,
			)
			.map(([items, returnAll, limit, nameContains, errorMode]) => {
				const assembled = assemble(items, { operation: 'getMany' }, [
					returnAll,
					limit,
					nameContains,
				]);
				const { nameContains: needle, ...parameters } = assembled.parameters;
				return printable({
					type: 'portfolioSnapshots',
					items: assembled.items,
					parameters: {
						...parameters,
						options: needle === undefined ? {} : { nameContains: needle },
					},
					onError: errorMode,
				});
			});
		const contract: Contract = (_fuzz, outcome, violations) => {
			for (const index of pairedIndices(outcome.output))
				if (index !== 0) violations.push(`listing paired to item ${index}`);
		};
		expectReachedTheApi(await fuzzOperation(() => sim, cases, contract, runs(15), storePortfolios));
	});

	it('Sustainable Investments: Get Methodologies', async () => {
		const cases = fc
			.tuple(
				fc.array(
					fc.oneof(fc.constant({}), fc.constant(objectOf([['__proto__', { polluted: 1 }]]))),
					{ minLength: 1, maxLength: 3 },
				),
				onError,
			)
			.map(([items, errorMode]) =>
				printable({
					type: 'sustainableInvestments',
					items,
					parameters: { operation: 'getMethodologies' },
					onError: errorMode,
				}),
			);
		const contract: Contract = (_fuzz, outcome, violations) => {
			if (outcome.output.length !== 3)
				violations.push(`${outcome.output.length} methodologies, expected 3`);
			for (const index of pairedIndices(outcome.output))
				if (index !== 0) violations.push(`methodology paired to item ${index}`);
		};
		expectReachedTheApi(await fuzzOperation(() => sim, cases, contract, runs(5)));
	});
});

/**
 * Numbers as the sheet means them (issue 27), run inside n8n's engine against the simulator: each column's number
 * format decided from all its values, a value that still reads two ways refused by name with both readings, the
 * Number Format and Weights Are options, weights given as fractions of 1, totals far from 100 %, accounting
 * negatives and currencies. What was sent is read from the simulator's request log.
 */
import { hintText } from '../nodes/shared/base/hints';
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from './simulator';
import { useSimulator } from './helpers/simulator';
import { snapshotSpec } from './helpers/workflows';
import type { NodeSpec } from './helpers/workflows';
import {
	LAST_YEAR,
	descriptionOf,
	hintMessages,
	instrumentsSpec,
	runNode,
	fullText,
} from './helpers/lookupRuns';

const REPORTS = 'POST /reports' as const;
const SNAPSHOTS = 'POST /portfolios' as const;
const ISINS = findIsins((data) => data.known && !data.isFund, 4, 'DE');

const sim = useSimulator();

/** Holdings of one portfolio: each row's weight and market value as given. */
function holdings(
	values: Array<[weight: string | number, marketValue: string | number]>,
	extra: IDataObject = {},
): IDataObject[] {
	return values.map(([weight, marketValue], index) => ({
		portfolio_id: 'fund-a',
		portfolio_name: 'Fund A',
		date: `${LAST_YEAR}-05-10`,
		isin: ISINS[index],
		name: `Company ${index}`,
		instrument_type: 'Stock',
		currency: 'EUR',
		weight,
		market_value: marketValue,
		...extra,
	}));
}

const report = (parameters: IDataObject = {}, typeVersion = 1): NodeSpec => ({
	type: 'sustainabilityReports',
	typeVersion,
	parameters: {
		operation: 'generatePdfReport',
		reportName: 'Fund A',
		reportId: 'fund-a',
		snapshotDate: `${LAST_YEAR}-06-30`,
		downloadPdf: false,
		...parameters,
	},
});

async function run(items: IDataObject[], spec: NodeSpec) {
	const { result, out } = await runNode(sim.url, items, spec);
	return { result, out, hints: hintMessages(result) };
}

const sent = (route: typeof REPORTS | typeof SNAPSHOTS, field: 'weight' | 'market_value') =>
	sim
		.requests({ route })
		.map((request) =>
			((request.body as IDataObject).holdings as IDataObject[]).map((h) => h[field]),
		);

describe('number format per column', () => {
	it('sends 1.234 as 1234 when the column also holds 1.234,50, and says how it was read', async () => {
		const { result, out, hints } = await run(
			holdings([
				[50, '1.234'],
				[30, '1.234,50'],
				[20, '12,5'],
			]),
			report(),
		);
		expect(result.error).toBeUndefined();
		expect(sent(REPORTS, 'market_value')).toEqual([[1234, 1234.5, 12.5]]);
		const notes = out[0].json.input_notes as string[];
		expect(notes).toHaveLength(1);
		expect(notes[0]).toContain('"1.234" in Item 0 reads two ways; read as 1234');
		expect(notes[0]).toContain('"1.234,50" in Item 1');
		expect(hints).toContain(hintText(notes[0]));
	});

	it('refuses an undecidable 1.234 by name with both readings, before any request', async () => {
		const { result } = await run(
			holdings([
				[50, 1000],
				[30, '1.234'],
				[20, 700],
			]),
			report(),
		);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'Market value "1.234" reads two ways: 1234 (written 1.234,56) or 1.234 (written 1,234.56), and no other value of the column tells which',
		);
		expect(descriptionOf(result.error)).toContain('Number Format');
		expect(sim.requestCount()).toBe(0);
	});

	it('refuses 1.234 in a column that mixes both formats, naming a value of each', async () => {
		const { result } = await run(
			holdings([
				[50, '1,234.5'],
				[30, '1.234'],
				[20, '1.234,5'],
			]),
			report(),
		);
		expect(fullText(result.error)).toContain(
			'it holds values written both ways ("1,234.5" in Item 0, "1.234,5" in Item 2)',
		);
		expect(sim.requestCount()).toBe(0);
	});

	it('follows Number Format: 1.234 is 1234 written 1.234,56 and 1.234 written 1,234.56', async () => {
		const rows = holdings([
			[50, '1.234'],
			[50, 1000],
		]);
		await run(rows, report({ options: { numberFormat: 'comma' } }));
		await run(rows, report({ options: { numberFormat: 'dot' } }));
		expect(sent(REPORTS, 'market_value')).toEqual([
			[1234, 1000],
			[1.234, 1000],
		]);
	});

	it('settles a portfolio by the values of the other portfolios of the run (Group By)', async () => {
		const rows = [
			...holdings([[100, '1.234']]),
			...holdings([[100, '2.500,75']], { portfolio_id: 'fund-b', portfolio_name: 'Fund B' }),
		];
		const { result } = await run(rows, snapshotSpec());
		expect(result.error).toBeUndefined();
		expect(sent(SNAPSHOTS, 'market_value')).toEqual([[1234], [2500.75]]);
	});

	it('reads accounting negatives and currencies; refuses a currency other than the holding’s', async () => {
		const { result, out } = await run(
			holdings([
				[60, '€1.234,50'],
				[40, '(1.000,00 EUR)'],
			]),
			snapshotSpec(),
		);
		expect(result.error).toBeUndefined();
		expect(sent(SNAPSHOTS, 'market_value')).toEqual([[1234.5, -1000]]);
		expect(out[0].json.input_notes).toContainEqual(
			'A holding has a negative market value (Item 1: -1000); sent as given, as a short position.',
		);

		sim.reset();
		const refused = await run(holdings([[100, '1,234.50 USD']]), snapshotSpec());
		expect(refused.result.error?.message).toBe(
			`Market value "1,234.50 USD" is in USD, but the holding's currency is EUR`,
		);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('weights', () => {
	it('never sends 0.12 / 0.38 / 0.50 as percent: read as fractions, sent as 12 / 38 / 50, and said', async () => {
		const { result, out, hints } = await run(
			holdings([
				[0.12, 1200],
				[0.38, 3800],
				[0.5, 5000],
			]),
			report(),
		);
		expect(result.error).toBeUndefined();
		expect(sent(REPORTS, 'weight')).toEqual([[12, 38, 50]]);
		const notes = out[0].json.input_notes as string[];
		expect(notes).toEqual([
			expect.stringContaining('read as fractions of 1 and sent as percentages'),
		]);
		expect(hints).toEqual(expect.arrayContaining(notes.map((note) => hintText(note))));
	});

	it('refuses weights that read two ways, and follows Weights Are when it is set', async () => {
		const rows = holdings([
			[0.2, 2000],
			[0.3, 3000],
		]);
		const refused = await run(rows, report());
		expect(refused.result.error?.message).toBe(
			'The weights read two ways, as fractions or as percentages',
		);
		expect(fullText(refused.result.error)).toContain(
			'The weights read two ways, as fractions or as percentages: all are at most 1 and they add up to 0.5, so 0.2 may be a fraction (20 %) or a percentage (0.2 %)',
		);
		expect(sim.requestCount()).toBe(0);

		const asFractions = await run(rows, report({ options: { weightsAre: 'fraction' } }));
		expect(asFractions.result.error).toBeUndefined();
		const asPercent = await run(rows, report({ options: { weightsAre: 'percent' } }));
		expect(sent(REPORTS, 'weight')).toEqual([
			[20, 30],
			[0.2, 0.3],
		]);
		// 50 % and 0.5 % in all: both said.
		expect(asFractions.out[0].json.input_notes).toEqual([
			expect.stringContaining('add up to 50 %, not 100 %'),
		]);
		expect(asPercent.out[0].json.input_notes).toEqual([
			expect.stringContaining('add up to 0.5 %, not 100 %'),
		]);
	});

	it('weights adding up to 250 on the group (200 sent) never go into a report: worked out from market values, said in the output and the hint', async () => {
		const rows = [
			...holdings([
				[100, 1000],
				[100, 3000],
			]),
			{ ...holdings([[50, 500]])[0], isin: '', name: 'Cash', instrument_type: 'Cash' },
		];
		const { result, out, hints } = await run(rows, report());
		expect(result.error).toBeUndefined();
		expect(sent(REPORTS, 'weight')).toEqual([[25, 75]]);
		const note =
			"Weights worked out from market values (market value ÷ total × 100): the weights add up to 200 across 2 holdings, which no portfolio's weights (0 to 100, adding up to about 100) do. The report was not built from the weights as given.";
		// The note that the weights "were sent as given" is not said: they were not.
		expect(out[0].json.input_notes).toEqual([note]);
		expect(hints).toContain(hintText(note));
		expect(hints.some((hint) => hint.startsWith('The weights of this portfolio add up to'))).toBe(
			false,
		);
	});

	it('reads fractions in version 2 from Holdings (JSON) as well, and says nothing when weights add up to 100', async () => {
		const json = JSON.stringify(
			holdings([
				[0.25, 1],
				[0.75, 3],
			]),
		);
		const fractions = await run([{}], report({ holdingsSource: 'json', holdingsJson: json }, 2));
		expect(fractions.result.error).toBeUndefined();
		const plain = await run(
			holdings([
				[25, 1],
				[75, 3],
			]),
			report({}, 2),
		);
		expect(sent(REPORTS, 'weight')).toEqual([
			[25, 75],
			[25, 75],
		]);
		expect(fractions.out[0].json.input_notes).toHaveLength(1);
		expect(plain.out[0].json).not.toHaveProperty('input_notes');
		expect(plain.hints.filter((hint) => hint !== '1 request sent.')).toEqual([]);
	});
});

describe('Portfolio Summary (Instruments node)', () => {
	const summary = (parameters: IDataObject = {}) =>
		instrumentsSpec('getSfdrClassification', { outputMode: 'portfolioSummary', ...parameters });
	const rows = (...values: string[]) =>
		values.map((market_value, index) => ({ isin: ISINS[index], market_value }));

	it('weights 1.234 as 1234 when the column writes 1.234,50, and says so on the summary', async () => {
		const { result, out } = await run(rows('1.234', '1.234,50'), summary());
		expect(result.error).toBeUndefined();
		expect(out[0].json.total_market_value).toBe(2468.5);
		expect(out[0].json.input_notes).toEqual([expect.stringContaining('read as 1234')]);
	});

	it('refuses an undecidable 1.234 before any request, or follows Number Format', async () => {
		const refused = await run(rows('1.234', '500'), summary());
		expect(fullText(refused.result.error)).toContain(
			'Market value "1.234" in field "market_value" reads two ways',
		);
		expect(sim.requestCount()).toBe(0);
		const chosen = await run(rows('1.234', '500'), summary({ numberFormat: 'dot' }));
		expect(chosen.out[0].json.total_market_value).toBe(501.23);
	});
});

describe('number parameters', () => {
	it('refuses a Batch Size of "1,000" naming both readings', async () => {
		const { result } = await run(
			[{ isin: ISINS[0] }],
			instrumentsSpec('getSfdrClassification', { options: { batchSize: '={{ "1,000" }}' } }),
		);
		expect(result.error?.message).toBe(
			'Options > Batch Size "1,000" reads two ways: 1 (written 1.234,56) or 1000 (written 1,234.56)',
		);
		expect(sim.requestCount()).toBe(0);
	});
});

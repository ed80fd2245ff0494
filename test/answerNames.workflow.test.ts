/**
 * Indicator and category names are kept whatever they are called (issue 27): an answer naming an indicator
 * `__proto__` or `constructor` (the API may add indicators) comes out under that name, in every output mode, and
 * never reads something of Object.prototype. Run in n8n's engine; a loopback proxy adds the names to the
 * simulator's answers.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins } from './simulator';
import { runWithEntriesRewritten } from './helpers/proxy';
import { useSimulator } from './helpers/simulator';
import type { NodeSpec } from './helpers/workflows';
import { instrumentsSpec } from './helpers/lookupRuns';

const sim = useSimulator();
const ISINS = findIsins((data) => data.known && !data.isFund, 2, 'DE');
const ROWS = ISINS.map((isin, index) => ({ isin, market_value: [3000, 1000][index] }));

/** Defines own properties, so `__proto__` really is a member (assigning it would set the prototype). */
function withOwn(record: IDataObject, members: Array<[string, unknown]>): void {
	for (const [key, value] of members)
		Object.defineProperty(record, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
}

/** Adds indicators (or involvement categories) named `__proto__` and `constructor` to each entry of the answer. */
const runThroughProxy = (spec: NodeSpec) =>
	runWithEntriesRewritten(sim.url, ROWS, spec, (entry) => {
		const data = entry.sustainability_data as IDataObject;
		if (data.business_involvements) {
			withOwn(data.business_involvements as IDataObject, [
				['__proto__', { weight: 12.5, count: 1 }],
				['constructor', { weight: 20, count: 2 }],
			]);
		} else {
			withOwn(data, [
				['__proto__', { value: 1.5, unit: 'tCO2e' }],
				['constructor', { value: 2.5, unit: 'tCO2e' }],
			]);
		}
	});

const own = (record: unknown, key: string) =>
	Object.prototype.hasOwnProperty.call(record, key)
		? (record as IDataObject)[key]
		: `missing ${key}`;

describe('indicator and category names', () => {
	it.each([false, true])(
		'keeps PAI indicators named __proto__ and constructor, per instrument (Simplify %p)',
		async (simplify) => {
			const out = await runThroughProxy(
				instrumentsSpec('getPaiIndicators', { outputMode: 'perInstrument', simplify }),
			);
			expect(out).toHaveLength(2);
			for (const json of out) {
				const data = simplify ? json : (json.pai_indicators ?? json);
				if (simplify) {
					expect(own(data, '__proto__')).toBe(1.5);
					expect(own(data, 'constructor')).toBe(2.5);
					expect(own(data, '__proto___unit')).toBe('tCO2e');
				} else {
					expect(JSON.stringify(json)).toContain('"__proto__":{"value":1.5,"unit":"tCO2e"}');
					expect(JSON.stringify(json)).toContain('"constructor":{"value":2.5,"unit":"tCO2e"}');
				}
				expect(JSON.stringify(json)).not.toContain('function Object');
			}
		},
	);

	it('summarises indicators named __proto__ and constructor like any other', async () => {
		const [summary] = await runThroughProxy(
			instrumentsSpec('getPaiIndicators', { outputMode: 'portfolioSummary' }),
		);
		const indicators = summary.indicators as IDataObject;
		expect(own(indicators, '__proto__')).toMatchObject({ weighted_average: 1.5, unit: 'tCO2e' });
		expect(own(indicators, 'constructor')).toMatchObject({ weighted_average: 2.5, unit: 'tCO2e' });
		expect(JSON.stringify(summary)).not.toContain('function Object');
	});

	it('summarises business involvement categories named __proto__ and constructor', async () => {
		const [summary] = await runThroughProxy(
			instrumentsSpec('getBusinessInvolvements', { outputMode: 'portfolioSummary' }),
		);
		const involvements = summary.involvements as IDataObject;
		expect(own(involvements, '__proto__')).toMatchObject({ percent: 100 });
		expect(own(involvements, 'constructor')).toMatchObject({ percent: 100 });
	});
});

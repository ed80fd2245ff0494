import {
	compareResults,
	sfdrDirection,
	valueChanged,
} from '../../nodes/SustainabilityInstruments/actions/changesCompare';
import {
	STATE_VERSION,
	decodeState,
	encodeState,
	forgotten,
} from '../../nodes/SustainabilityInstruments/actions/changesState';
import type { ChangesState } from '../../nodes/SustainabilityInstruments/actions/changesState';

const SCOPE = '["SFDR classification",{}]';

describe('sfdrDirection', () => {
	it.each([
		[9, 8, 'downgrade'],
		[9, 6, 'downgrade'],
		[8, 6, 'downgrade'],
		[6, 8, 'upgrade'],
		[6, 9, 'upgrade'],
		[8, 9, 'upgrade'],
		[9, null, 'lost_data'],
		[6, null, 'lost_data'],
		[null, 8, 'new_data'],
		[null, 6, 'new_data'],
		[8, 8, null],
		[null, null, null],
	])('%p to %p is %p', (from, to, direction) => {
		expect(sfdrDirection(from, to)).toBe(direction);
	});
});

describe('valueChanged', () => {
	it('counts any difference without a tolerance, and only a larger one with it', () => {
		expect(valueChanged(1, 1)).toBe(false);
		expect(valueChanged(1, 1.0001)).toBe(true);
		expect(valueChanged(10, 10.5, 0.5)).toBe(false);
		expect(valueChanged(10, 9.5, 0.5)).toBe(false);
		expect(valueChanged(10, 10.51, 0.5)).toBe(true);
	});

	it('a value appearing or disappearing is a change whatever the tolerance; null and a missing value are the same', () => {
		expect(valueChanged(null, 0, 1000)).toBe(true);
		expect(valueChanged(3, null, 1000)).toBe(true);
		expect(valueChanged(undefined, null)).toBe(false);
		expect(valueChanged('tCO2e', 'tCO2e')).toBe(false);
		expect(valueChanged('tCO2e', 'ktCO2e')).toBe(true);
		expect(valueChanged({ a: 1 }, { a: 1 })).toBe(false);
		expect(valueChanged({ a: 1 }, { a: 2 })).toBe(true);
	});
});

describe('compareResults', () => {
	it('lists the changed fields and remembers the current result', () => {
		const { changes, remember } = compareResults(
			{ found: true, classification: 8, article: 'Article 8' },
			{ found: true, classification: 6, article: 'Article 6' },
			['classification', 'article'],
			0,
		);
		expect(changes).toEqual([
			{ field: 'classification', from: 8, to: 6 },
			{ field: 'article', from: 'Article 8', to: 'Article 6' },
		]);
		expect(remember).toEqual({ found: true, classification: 6, article: 'Article 6' });
	});

	it('keeps the remembered value of a move within the tolerance, so that small moves add up', () => {
		let remembered: Record<string, unknown> = { carbon_footprint: 100 };
		const reported: number[] = [];
		for (const value of [100.4, 100.8, 101.2, 101.3]) {
			const { changes, remember } = compareResults(
				remembered as never,
				{ carbon_footprint: value },
				['carbon_footprint'],
				1,
			);
			if (changes.length) reported.push(value);
			remembered = remember;
		}
		// 100 -> 100.4 -> 100.8 stay within 1 of 100; 101.2 is 1.2 away: reported, and the new reference.
		expect(reported).toEqual([101.2]);
		expect(remembered).toEqual({ carbon_footprint: 101.2 });
	});

	it('never applies the tolerance to the SFDR classification', () => {
		expect(
			compareResults({ classification: 9 }, { classification: 8 }, ['classification'], 5),
		).toMatchObject({ changes: [{ field: 'classification', from: 9, to: 8 }] });
	});

	it('ignores fields that are not compared, but remembers their current value', () => {
		const { changes, remember } = compareResults(
			{ classification: 8, description: 'old' },
			{ classification: 8, description: 'new' },
			['classification'],
			0,
		);
		expect(changes).toEqual([]);
		expect(remember).toEqual({ classification: 8, description: 'new' });
	});
});

describe('forgotten', () => {
	it('forgets an ISIN that missed that many whole runs before this one', () => {
		// Last seen in run 1; runs 2 and 3 without it: in run 4 it has missed 2 runs.
		expect(forgotten(1, 3, 2)).toBe(false);
		expect(forgotten(1, 4, 2)).toBe(true);
		// Seen earlier in this same run (a loop): never.
		expect(forgotten(5, 5, 1)).toBe(false);
	});
});

describe('the remembered state', () => {
	const state: ChangesState = {
		runs: 7,
		execution: 'e1',
		results: new Map([
			[
				'US0378331005',
				{
					lastSeen: 7,
					result: {
						found: true,
						classification: 8,
						description: 'Article 8 - promotes environmental or social characteristics',
					},
				},
			],
			[
				'DE0007236101',
				{
					lastSeen: 5,
					result: {
						found: true,
						classification: 8,
						description: 'Article 8 - promotes environmental or social characteristics',
						extra: { nested: [1, 2] },
					},
				},
			],
		]),
	};

	it('round-trips, texts kept once', () => {
		const text = encodeState(state, SCOPE);
		expect(text.split('Article 8 - promotes').length).toBe(2);
		const { state: read, problem } = decodeState(text, SCOPE);
		expect(problem).toBeUndefined();
		expect(read.runs).toBe(7);
		expect(read.execution).toBe('e1');
		expect(read.results.get('DE0007236101')).toEqual(state.results.get('DE0007236101'));
		// A column only the other ISIN has comes back as null.
		expect(read.results.get('US0378331005')).toEqual({
			lastSeen: 7,
			result: { ...state.results.get('US0378331005')!.result, extra: null },
		});
	});

	it('gives each ISIN its own copy of an object value, and keeps a text that reads like JSON a text', () => {
		const entry = () => ({
			lastSeen: 1,
			result: { extra: { nested: [1] }, note: '{"nested":[1]}' },
		});
		const shared: ChangesState = {
			runs: 1,
			execution: 'e1',
			results: new Map([
				['US0378331005', entry()],
				['DE0007236101', entry()],
			]),
		};
		const text = encodeState(shared, SCOPE);
		const read = decodeState(text, SCOPE).state.results;
		expect(read.get('US0378331005')).toEqual(shared.results.get('US0378331005'));
		expect(read.get('DE0007236101')).toEqual(shared.results.get('DE0007236101'));
		expect(read.get('US0378331005')!.result.extra).not.toBe(read.get('DE0007236101')!.result.extra);
		// Encoding what was decoded gives the same text.
		expect(encodeState({ runs: 1, execution: 'e1', results: read }, SCOPE)).toBe(text);
	});

	it('starts afresh from nothing, from another operation, another version or an unreadable text', () => {
		const text = encodeState(state, SCOPE);
		expect(decodeState(undefined, SCOPE)).toEqual({
			state: { runs: 0, execution: '', results: new Map() },
		});
		expect(decodeState(text, '["ESG data",{}]').problem).toBe('otherScope');
		expect(
			decodeState(text.replace(`"version":${STATE_VERSION}`, '"version":99'), SCOPE).problem,
		).toBe('otherVersion');
		const damaged = JSON.parse(text) as { texts: string[] };
		damaged.texts = [];
		expect(decodeState(JSON.stringify(damaged), SCOPE).problem).toBe('unreadable');
		expect(decodeState('{not json', SCOPE)).toMatchObject({
			problem: 'unreadable',
			state: { runs: 0 },
		});
	});
});

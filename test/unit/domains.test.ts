import {
	COUNT,
	MAX_MAGNITUDE,
	NOT_NEGATIVE,
	PERCENT,
	domainAt,
	withinDomain,
} from '../../nodes/shared/api/answerShapes';
import { describeOutside, settleDomains } from '../../nodes/shared/api/domains';
import { ROUTES } from '../../nodes/shared/api/routes';

describe('number domains (answerShapes.ts) and settleDomains (domains.ts)', () => {
	it('withinDomain: range with its tolerance, whole numbers, the list, and ±MAX_MAGNITUDE for every number', () => {
		expect(withinDomain(PERCENT, 100.004)).toBe(true);
		expect(withinDomain(PERCENT, 100.5)).toBe(false);
		expect(withinDomain(PERCENT, -0.02)).toBe(false);
		expect(withinDomain(NOT_NEGATIVE, MAX_MAGNITUDE)).toBe(true);
		expect(withinDomain(NOT_NEGATIVE, 1e308)).toBe(false);
		expect(withinDomain({ words: 'any' }, -1e19)).toBe(false);
		expect(withinDomain(COUNT, 2.5)).toBe(false);
		expect(withinDomain({ oneOf: [6, 8, 9], words: 'article' }, 7)).toBe(false);
		expect(withinDomain(PERCENT, 'not a number')).toBe(true);
	});

	it('domainAt: the first rule whose path matches (* any member or index, a RegExp by name)', () => {
		const { domains } = ROUTES.paiIndicators.answer;
		expect(
			domainAt(domains, ['data', 3, 'sustainability_data', 'scope_1_emissions', 'value']),
		).toBe(NOT_NEGATIVE);
		expect(
			domainAt(domains, ['data', 3, 'sustainability_data', 'unknown_thing', 'value']).words,
		).toBe('a finite number');
		expect(domainAt(ROUTES.taxonomy.answer.domains, ['data', 'taxonomy_alignment_%'])).toBe(
			PERCENT,
		);
	});

	it('settleDomains: nulls what is outside, names it, and copies nothing when everything is inside', () => {
		const inside = { data: { 'taxonomy_alignment_%': 12.5, 'taxonomy_eligible_%': null } };
		const same = settleDomains(ROUTES.taxonomy.answer.domains, inside);
		expect(same.value).toBe(inside);
		expect(same.outside).toEqual([]);

		const answer = { data: { 'taxonomy_alignment_%': 250, 'taxonomy_eligible_%': 40 } };
		const settled = settleDomains(ROUTES.taxonomy.answer.domains, answer);
		expect(settled.value).toEqual({
			data: { 'taxonomy_alignment_%': null, 'taxonomy_eligible_%': 40 },
		});
		expect(answer.data['taxonomy_alignment_%']).toBe(250);
		expect(settled.outside.map((value) => describeOutside(value, 1))).toEqual([
			'taxonomy_alignment_% is 250, outside its range (a percentage, 0 to 100)',
		]);
	});

	it('settleDomains: a key named __proto__ is set as an own member, never on the prototype', () => {
		const answer = JSON.parse('{"data":{"__proto__":-5}}') as object;
		const settled = settleDomains(ROUTES.taxonomy.answer.domains, answer).value as {
			data: Record<string, unknown>;
		};
		expect(Object.prototype.hasOwnProperty.call(settled.data, '__proto__')).toBe(true);
		expect(settled.data['__proto__']).toBeNull();
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

import { describeInvalidIsin, isValidIsin, normalizeIsin } from '../../nodes/shared/isin';
import { makeIsins } from '../helpers/isins';

describe('ISIN', () => {
	it.each(['US0378331005', 'DE0007164600', 'IE00B4L5Y983', 'SE0000108656', 'GB0002634946'])(
		'accepts the real ISIN %s',
		(isin) => {
			expect(isValidIsin(isin)).toBe(true);
		},
	);

	it('rejects a wrong check digit, bad length, bad country and bad characters', () => {
		expect(isValidIsin('US0378331006')).toBe(false);
		expect(isValidIsin('US037833100')).toBe(false);
		expect(isValidIsin('120378331005')).toBe(false);
		expect(isValidIsin('US03783-1005')).toBe(false);
		expect(describeInvalidIsin('US0378331006')).toMatch(/check digit/);
		expect(describeInvalidIsin('US03')).toMatch(/4 characters/);
		expect(describeInvalidIsin('1S0378331005')).toMatch(/country code/);
	});

	it('normalises pasted values', () => {
		expect(normalizeIsin(' us 0378331005 ')).toBe('US0378331005');
		expect(normalizeIsin(null)).toBe('');
		expect(normalizeIsin({})).toBe('');
	});

	it('the test generator makes valid, distinct ISINs', () => {
		const isins = makeIsins(1000);
		expect(new Set(isins).size).toBe(1000);
		expect(isins.every(isValidIsin)).toBe(true);
	});
});

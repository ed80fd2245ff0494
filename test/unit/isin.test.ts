import { describeInvalidIsin, isValidIsin, normalizeIsin } from '../../nodes/shared/input/isin';
import { makeIsins } from '../helpers/isins';

describe('ISIN', () => {
	it.each(['US0378331005', 'DE0007164600', 'IE00B4L5Y983', 'SE0000108656', 'GB0002634946'])(
		'accepts the real ISIN %s',
		(isin) => {
			expect(isValidIsin(isin)).toBe(true);
		},
	);

	it('rejects a wrong check digit, bad length, bad country and bad characters', () => {
		for (const invalid of ['US0378331006', 'US037833100', '120378331005', 'US03783-1005'])
			expect([invalid, isValidIsin(invalid)]).toEqual([invalid, false]);
		expect(describeInvalidIsin('US0378331006')).toMatch(/check digit/);
		expect(describeInvalidIsin('US03')).toMatch(/4 characters/);
		expect(describeInvalidIsin('1S0378331005')).toMatch(/country code/);
	});

	it('normalises pasted values', () => {
		expect(normalizeIsin(' us 0378331005 ')).toBe('US0378331005');
		expect(normalizeIsin(null)).toBe('');
		expect(normalizeIsin({})).toBe('');
	});

	it.each([
		['a zero-width space', 'US0378\u200B331005'],
		['a zero-width non-joiner and joiner', 'US\u200C0378\u200D331005'],
		['a word joiner', 'US0378331005\u2060'],
		['a byte order mark', '\uFEFFUS0378331005'],
		['a soft hyphen', 'US0378\u00AD331005'],
		['direction marks', '\u200EUS0378331005\u200F'],
		[
			'bidi embeddings, overrides and isolates',
			'\u202AUS\u202B03\u202C78\u202D33\u202E10\u2066\u2067\u2068\u206905',
		],
		['full-width letters and digits', 'ＵＳ０３７８３３１００５'],
		['full-width lower-case letters', 'ｕｓ0378331005'],
		['invisible characters, spaces and lower case together', ' \uFEFFus 0378\u200B331005\u00AD '],
	])('cleans a value with %s into the valid ISIN', (_, value) => {
		expect(normalizeIsin(value)).toBe('US0378331005');
		expect(isValidIsin(normalizeIsin(value))).toBe(true);
	});

	it('does not fold compatibility characters other than full-width ones (that would be a guess)', () => {
		expect(normalizeIsin('US037833100²')).toBe('US037833100²');
		expect(normalizeIsin('US037833100①')).toBe('US037833100①');
		expect(describeInvalidIsin(normalizeIsin('US037833100²'))).toBe(
			'"US037833100²" contains the character "²" (U+00B2) at position 12; an ISIN has only letters A–Z and digits 0–9',
		);
	});

	it('names a look-alike Cyrillic or Greek letter and its position instead of guessing', () => {
		expect(normalizeIsin('US03783З1005')).toBe('US03783З1005');
		expect(describeInvalidIsin(normalizeIsin('US03783З1005'))).toBe(
			'"US03783З1005" contains the Cyrillic letter "З" (U+0417) at position 8, which looks like a Latin letter or digit; retype it',
		);
		// Lower case stays as typed (only ASCII letters are upper-cased), so the message shows what was typed.
		expect(describeInvalidIsin(normalizeIsin('us0378331oо5'))).toBe(
			'"US0378331Oо5" contains the Cyrillic letter "о" (U+043E) at position 11, which looks like a Latin letter or digit; retype it',
		);
		// A look-alike in the country code: named, not "does not start with a two-letter country code".
		expect(describeInvalidIsin('UЅ0378331005')).toBe(
			'"UЅ0378331005" contains the Cyrillic letter "Ѕ" (U+0405) at position 2, which looks like a Latin letter or digit; retype it',
		);
		expect(describeInvalidIsin('US0378331ΟΟ5')).toMatch(
			/^"US0378331ΟΟ5" contains the Greek letter "Ο" \(U\+039F\) at position 10, which looks like/,
		);
		// One with no Latin twin is named too.
		expect(describeInvalidIsin('USЖ378331005')).toBe(
			'"USЖ378331005" contains the Cyrillic letter "Ж" (U+0416) at position 3; an ISIN has only Latin letters A–Z and digits 0–9',
		);
	});

	it('names other unexpected characters with their code point, before the length', () => {
		expect(describeInvalidIsin('US0378\u2061331005')).toBe(
			'"US0378\u2061331005" contains an invisible character (U+2061) at position 7; retype the ISIN or delete that character',
		);
		expect(describeInvalidIsin('US03783–31005')).toBe(
			'"US03783–31005" contains the character "–" (U+2013) at position 8; an ISIN has only letters A–Z and digits 0–9',
		);
		expect(describeInvalidIsin('US03783-1005')).toBe(
			'"US03783-1005" contains the character "-" (U+002D) at position 8; an ISIN has only letters A–Z and digits 0–9',
		);
		// Plain ASCII of the wrong length still gets the length.
		expect(describeInvalidIsin('["US0378331005"')).toMatch(/has 15 characters; an ISIN has 12$/);
		expect(describeInvalidIsin('US037833100X')).toBe(
			'"US037833100X" ends in the letter "X"; the last character of an ISIN is its check digit (0–9)',
		);
	});

	it('the test generator makes valid, distinct ISINs', () => {
		const isins = makeIsins(1000);
		expect(new Set(isins).size).toBe(1000);
		expect(isins.every(isValidIsin)).toBe(true);
	});
});

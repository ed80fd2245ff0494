import { kindOf, showValue } from './values';

const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/**
 * Longest value ever sent as an ISIN, even with "Invalid ISINs: Send Anyway": an ISIN has 12 characters, and a
 * longer value is a whole cell or document mapped by mistake (a megabyte would be sent, and echoed back).
 */
const MAX_ISIN_INPUT_LENGTH = 64;

/** Why a value cannot be an ISIN at all (not text, or far too long), shown by a short prefix only; else undefined. */
export function unsendableIsin(raw: unknown, normalized: string): string | undefined {
	if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
		return `${kindOf(raw)} (${showValue(raw, 30)}), not text`;
	}
	if (normalized.length > MAX_ISIN_INPUT_LENGTH) {
		return `${normalized.length} characters ("${showValue(normalized, 20)}"), far more than the 12 of an ISIN`;
	}
	return undefined;
}

/** Trim, drop inner spaces and upper-case, as people paste ISINs from sheets and PDFs. */
export function normalizeIsin(raw: unknown): string {
	// Already clean (the usual case): nothing to strip or upper-case.
	if (typeof raw === 'string' && ISIN_SHAPE.test(raw)) return raw;
	if (typeof raw !== 'string' && typeof raw !== 'number') return '';
	return String(raw).replace(/\s+/g, '').toUpperCase();
}

/** A Luhn digit's share of the sum: doubled digits above 4 give their digit sum (2 × d − 9). */
const luhn = (digit: number, doubled: boolean) =>
	doubled ? (digit > 4 ? digit * 2 - 9 : digit * 2) : digit;

/** ISO 6166: two letters, nine alphanumerics, one Luhn check digit over the letters expanded to numbers. */
export function isValidIsin(isin: string): boolean {
	if (!ISIN_SHAPE.test(isin)) return false;
	// From the right over the first 11 characters, the rightmost digit doubled; a letter counts as its two digits
	// (A = 10 ... Z = 35), units first. No intermediate string: this runs once per input item.
	let sum = 0;
	let doubled = true;
	for (let i = 10; i >= 0; i--) {
		const code = isin.charCodeAt(i);
		if (code >= 65) {
			const value = code - 55;
			sum += luhn(value % 10, doubled) + luhn(Math.floor(value / 10), !doubled);
		} else {
			sum += luhn(code - 48, doubled);
			doubled = !doubled;
		}
	}
	return (10 - (sum % 10)) % 10 === isin.charCodeAt(11) - 48;
}

/** Why an ISIN is invalid, in words a user can act on. */
export function describeInvalidIsin(isin: string): string {
	if (isin.length !== 12)
		return `"${showValue(isin)}" has ${isin.length} characters; an ISIN has 12`;
	if (!/^[A-Z]{2}/.test(isin)) return `"${isin}" does not start with a two-letter country code`;
	if (!ISIN_SHAPE.test(isin)) return `"${isin}" contains characters an ISIN cannot have`;
	return `"${isin}" fails the ISIN check digit (a typo?)`;
}

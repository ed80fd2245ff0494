const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/** Trim, drop inner spaces and upper-case, as people paste ISINs from sheets and PDFs. */
export function normalizeIsin(raw: unknown): string {
	if (typeof raw !== 'string' && typeof raw !== 'number') return '';
	return String(raw).replace(/\s+/g, '').toUpperCase();
}

/** ISO 6166: two letters, nine alphanumerics, one Luhn check digit over the letters expanded to numbers. */
export function isValidIsin(isin: string): boolean {
	if (!ISIN_SHAPE.test(isin)) return false;
	let digits = '';
	for (const ch of isin.slice(0, 11)) {
		digits += ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
	}
	let sum = 0;
	let double = true;
	for (let i = digits.length - 1; i >= 0; i--) {
		let d = digits.charCodeAt(i) - 48;
		if (double) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
		double = !double;
	}
	return (10 - (sum % 10)) % 10 === isin.charCodeAt(11) - 48;
}

/** Why an ISIN is invalid, in words a user can act on. */
export function describeInvalidIsin(isin: string): string {
	if (isin.length !== 12) return `"${truncate(isin)}" has ${isin.length} characters; an ISIN has 12`;
	if (!/^[A-Z]{2}/.test(isin)) return `"${isin}" does not start with a two-letter country code`;
	if (!ISIN_SHAPE.test(isin)) return `"${isin}" contains characters an ISIN cannot have`;
	return `"${isin}" fails the ISIN check digit (a typo?)`;
}

export function truncate(value: string, max = 40): string {
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

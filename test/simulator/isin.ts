/**
 * ISIN helpers: shape check and check-digit computation (Luhn over the letter-expanded digits).
 */

export const ISIN_PATTERN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

export function isIsinShaped(value: string): boolean {
	return ISIN_PATTERN.test(value);
}

/** Check digit of the first eleven characters of an ISIN. */
export function isinCheckDigit(first11: string): number {
	const digits = first11
		.toUpperCase()
		.split('')
		.map((char) => parseInt(char, 36).toString())
		.join('');
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let digit = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return (10 - (sum % 10)) % 10;
}

/** Builds a well-formed ISIN from a two-letter prefix and a nine-character national code (left-padded with zeros). */
export function makeIsin(country: string, nationalCode: string | number): string {
	const code = String(nationalCode).toUpperCase().padStart(9, '0');
	if (!/^[A-Z]{2}$/.test(country) || !/^[A-Z0-9]{9}$/.test(code)) {
		throw new Error(`Cannot build an ISIN from ${country} and ${code}`);
	}
	const first11 = country + code;
	return first11 + String(isinCheckDigit(first11));
}

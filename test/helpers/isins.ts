/** Valid ISINs for tests: country prefix + 9 characters from the counter + the ISO 6166 check digit. */
export function withCheckDigit(body11: string): string {
	let digits = '';
	for (const ch of body11) digits += ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
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
	return body11 + String((10 - (sum % 10)) % 10);
}

export function makeIsin(n: number, country = 'XS'): string {
	return withCheckDigit(country + String(n).padStart(9, '0'));
}

export function makeIsins(count: number, start = 0, country = 'XS'): string[] {
	return Array.from({ length: count }, (_, i) => makeIsin(start + i, country));
}

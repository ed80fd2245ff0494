/** Valid ISINs for tests, built by the simulator's `makeIsin(country, nationalCode)` (the one ISIN builder). */
import { isinCheckDigit, makeIsin } from '../simulator/isin';

export { makeIsin };

/** The eleven characters given + their ISO 6166 check digit. */
export function withCheckDigit(body11: string): string {
	return body11 + String(isinCheckDigit(body11));
}

/** `count` ISINs of one country with national codes start, start + 1, … */
export function makeIsins(count: number, start = 0, country = 'XS'): string[] {
	return Array.from({ length: count }, (_, i) => makeIsin(country, start + i));
}

/**
 * Reads a number as spreadsheets and CSV exports write it: `1,234.50`, `1 234,50`, `1.234,50`, `12.5%`.
 * Returns undefined when the value is not a finite number in any of those forms.
 */
export function parseLooseNumber(value: unknown, { percent = false } = {}): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	let text = value.trim().replace(/[\s\u00a0\u202f'’_]/g, '');
	if (percent && text.endsWith('%')) text = text.slice(0, -1);
	if (text === '' || text.length > 40) return undefined;

	const commas = text.split(',').length - 1;
	const dots = text.split('.').length - 1;
	let decimal: string | undefined;
	let thousands: string | undefined;
	if (commas && dots) {
		decimal = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
		thousands = decimal === ',' ? '.' : ',';
	} else if (commas) {
		// "1,234" and "1,234,567" group thousands; "1,5" is a decimal comma.
		if (commas > 1 || /^[+-]?\d{1,3},\d{3}$/.test(text)) thousands = ',';
		else decimal = ',';
	} else if (dots > 1) {
		thousands = '.';
	} else if (dots) {
		decimal = '.';
	}
	const cut = decimal ? text.lastIndexOf(decimal) : -1;
	let integer = cut >= 0 ? text.slice(0, cut) : text;
	const fraction = cut >= 0 ? text.slice(cut + 1) : undefined;
	if (thousands) {
		const grouped = new RegExp(`^[+-]?\\d{1,3}(\\${thousands}\\d{3})+$`);
		if (!grouped.test(integer)) return undefined;
		integer = integer.split(thousands).join('');
	}
	text = fraction === undefined ? integer : `${integer}.${fraction}`;
	if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return undefined;
	const parsed = Number(text);
	return Number.isFinite(parsed) ? parsed : undefined;
}

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

	const lastComma = text.lastIndexOf(',');
	const lastDot = text.lastIndexOf('.');
	if (lastComma >= 0 && lastDot >= 0) {
		const decimal = lastComma > lastDot ? ',' : '.';
		const thousands = decimal === ',' ? '.' : ',';
		text = text.split(thousands).join('').replace(decimal, '.');
	} else if (lastComma >= 0) {
		const commas = text.split(',').length - 1;
		// "1,234" and "1,234,567" group thousands; "1,5" is a decimal comma.
		const grouped = commas > 1 || /^[+-]?\d{1,3},\d{3}$/.test(text);
		text = grouped ? text.split(',').join('') : text.replace(',', '.');
	} else if (text.split('.').length > 2) {
		text = text.split('.').join('');
	}
	if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return undefined;
	const parsed = Number(text);
	return Number.isFinite(parsed) ? parsed : undefined;
}

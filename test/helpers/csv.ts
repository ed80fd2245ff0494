/**
 * Reads a CSV file as SheetJS writes it (what n8n's Convert to File node makes): an optional UTF-8 byte order mark,
 * rows separated by "\n", a cell in quotes when it holds a comma, a newline or a quote (quotes doubled).
 */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [[]];
	let cell = '';
	let quoted = false;
	const body = text.replace(/^\ufeff/, '');
	for (let i = 0; i < body.length; i++) {
		const char = body[i];
		if (quoted) {
			if (char === '"' && body[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (char === '"') quoted = false;
			else cell += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			rows[rows.length - 1].push(cell);
			cell = '';
		} else if (char === '\n') {
			rows[rows.length - 1].push(cell);
			rows.push([]);
			cell = '';
		} else cell += char;
	}
	rows[rows.length - 1].push(cell);
	return rows;
}

/** A CSV with a header row and ONE data row, as { column: cell text }; throws on any other shape. */
export function csvSingleRow(text: string): Record<string, string> {
	const [header, row, ...rest] = parseCsv(text);
	if (!row || rest.length > 0)
		throw new Error(`expected a header and one row, got ${rest.length + (row ? 2 : 1)} rows`);
	if (new Set(header).size !== header.length)
		throw new Error(`duplicate columns in ${header.join(', ')}`);
	if (row.length !== header.length)
		throw new Error(`${row.length} cells for ${header.length} columns`);
	return Object.fromEntries(header.map((column, index) => [column, row[index]]));
}

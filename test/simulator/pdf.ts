/**
 * A minimal hand-written PDF 1.4 writer (Helvetica text only) and the report layout.
 */

export interface PdfText {
	x: number;
	y: number;
	size: number;
	text: string;
	bold?: boolean;
}

export type PdfPage = PdfText[];

const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;

/** Text to a PDF literal string in WinAnsi (Latin-1 subset); other characters become '?'. */
function pdfString(text: string): string {
	let out = '';
	for (const char of text) {
		const code = char.codePointAt(0) ?? 63;
		const printable = (code >= 32 && code < 127) || (code >= 160 && code <= 255);
		const safe = printable ? char : '?';
		out += safe === '\\' || safe === '(' || safe === ')' ? `\\${safe}` : safe;
	}
	return `(${out})`;
}

function contentStream(page: PdfPage): string {
	return page
		.map(
			(item) =>
				`BT /${item.bold ? 'F2' : 'F1'} ${item.size} Tf 1 0 0 1 ${item.x} ${item.y} Tm ${pdfString(item.text)} Tj ET`,
		)
		.join('\n');
}

/** Builds a complete PDF: catalog, page tree, two fonts, one page object and content stream per page, xref, trailer. */
export function buildPdf(pages: readonly PdfPage[], title = 'Report'): Buffer {
	const pageList = pages.length > 0 ? pages : [[]];
	const firstPageObject = 6;
	const objects: string[] = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		`<< /Type /Pages /Kids [${pageList.map((_, i) => `${firstPageObject + 2 * i} 0 R`).join(' ')}] /Count ${pageList.length} >>`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
		`<< /Title ${pdfString(title)} /Producer (Sustainability Compliance API simulator) >>`,
	];
	pageList.forEach((page, i) => {
		const contentObject = firstPageObject + 2 * i + 1;
		objects.push(
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentObject} 0 R >>`,
		);
		const stream = contentStream(page);
		objects.push(
			`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
		);
	});

	const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
	let offset = parts[0].length;
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(offset);
		const chunk = Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
		parts.push(chunk);
		offset += chunk.length;
	});
	const xref = [
		'xref',
		`0 ${objects.length + 1}`,
		'0000000000 65535 f ',
		...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
		'trailer',
		`<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>`,
		'startxref',
		String(offset),
		'%%EOF',
		'',
	].join('\n');
	parts.push(Buffer.from(xref, 'latin1'));
	return Buffer.concat(parts);
}

// ---- Report layout -----------------------------------------------------------------------------------------

export const MAX_LISTED_HOLDINGS = 200;

export interface ReportContent {
	name: string;
	type: string;
	identifier: string;
	quarterEnd: string;
	benchmark: string;
	methodology: string | null;
	holdings: { name: string; isin: string; weight: number }[];
}

const MARGIN = 50;
const LINE = 14;
const NAME_X = MARGIN;
const ISIN_X = 360;
const WEIGHT_X = 470;
const BOTTOM = 60;

function truncate(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

function formatWeight(weight: number): string {
	return `${Number.isFinite(weight) ? weight.toFixed(2) : String(weight)} %`;
}

/** Report PDF: a header block, then holdings (name, ISIN, weight), at most MAX_LISTED_HOLDINGS plus an "... and N more" line. */
export function renderReportPdf(report: ReportContent): Buffer {
	const pages: PdfPage[] = [];
	let page: PdfPage = [];
	let y = PAGE_HEIGHT - MARGIN;
	const line = (text: string, size = 10, x = MARGIN, bold = false) =>
		page.push({ x, y, size, text, bold });
	const tableHeader = () => {
		line('Name', 10, NAME_X, true);
		line('ISIN', 10, ISIN_X, true);
		line('Weight', 10, WEIGHT_X, true);
		y -= LINE;
	};
	const newPage = () => {
		pages.push(page);
		page = [];
		y = PAGE_HEIGHT - MARGIN;
		line(`${truncate(report.name, 70)} (continued)`, 10, MARGIN, true);
		y -= LINE * 1.5;
		tableHeader();
	};

	line(`Sustainability report: ${truncate(report.name, 60)}`, 16, MARGIN, true);
	y -= LINE * 2;
	const details: [string, string][] = [
		['Type', report.type],
		['Identifier', report.identifier],
		['Quarter end', report.quarterEnd],
		['Benchmark', report.benchmark],
		...(report.methodology ? ([['Methodology', report.methodology]] as [string, string][]) : []),
		['Holdings', String(report.holdings.length)],
	];
	for (const [label, value] of details) {
		line(`${label}: ${truncate(value, 90)}`);
		y -= LINE;
	}
	y -= LINE;
	tableHeader();

	const listed = report.holdings.slice(0, MAX_LISTED_HOLDINGS);
	for (const holding of listed) {
		if (y < BOTTOM) newPage();
		line(truncate(holding.name, 55), 9, NAME_X);
		line(holding.isin, 9, ISIN_X);
		line(formatWeight(holding.weight), 9, WEIGHT_X);
		y -= LINE;
	}
	const more = report.holdings.length - listed.length;
	if (more > 0) {
		if (y < BOTTOM) newPage();
		line(`... and ${more} more`, 9, NAME_X);
	}
	pages.push(page);
	pages.forEach((items, i) =>
		items.push({ x: MARGIN, y: 30, size: 8, text: `Page ${i + 1} of ${pages.length}` }),
	);
	return buildPdf(pages, `Sustainability report: ${report.name}`);
}

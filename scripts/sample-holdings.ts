/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- dev script runs in Node, outside n8n's sandbox */
/**
 * Writes the sample holdings files of examples/ from the tables below, byte for byte the same on every run:
 *
 * - `holdings.sample.csv`: the holdings of examples/holdings.sample.json as a European custodian exports them
 *   (`;`-separated, `1.425.000,00`, weights `9,5`), with the cash row and a row without ISIN.
 * - `holdings.sample.xlsx`: two portfolios in one sheet as a portfolio system exports them: a date cell (Excel
 *   serial, shown yyyy-mm-dd), a percent cell for the weight (0.095 shown 9.5%), number cells for the market value.
 * - `holdings.quarterly.sample.xlsx` (examples/13, the annual PAI statement): the holdings of two funds at the four
 *   quarter ends of 2025 and of 2024 in one sheet, market values in EUR, with a cash row and a holding the
 *   simulator has no data for (ISIN starting XX) in each quarter, and holdings bought and sold during the years.
 *
 * The workbook is written by hand (a zip of six XML parts, stored, with a fixed timestamp) so that it needs no
 * dependency and never changes unless the data does.
 *
 *   npx ts-node --transpile-only scripts/sample-holdings.ts          (writes the files)
 *   npx ts-node --transpile-only scripts/sample-holdings.ts --check  (exit 1 when a file is not what it would write)
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const examplesDir = resolve(__dirname, '..', 'examples');

export const CSV_FILE = 'holdings.sample.csv';
export const XLSX_FILE = 'holdings.sample.xlsx';
export const QUARTERLY_XLSX_FILE = 'holdings.quarterly.sample.xlsx';

interface JsonHolding {
	ISIN: string;
	Name: string;
	Type: string;
	Currency: string;
	'Weight %': string;
	'Market Value': string;
}

/** A holding without an ISIN that is not cash: the lookups report it (`found: false`), the summaries remove it. */
const UNLISTED = {
	ISIN: '',
	Name: 'Nordic Logistics Private Loan',
	Type: 'Other',
	Currency: 'EUR',
	weight: 2,
	marketValue: 300_000,
};

/** The rows of the CSV: holdings.sample.json, the cash row made smaller by the unlisted loan's 2 %. */
export function csvHoldings(): Array<{
	ISIN: string;
	Name: string;
	Type: string;
	Currency: string;
	weight: number;
	marketValue: number;
}> {
	const json = JSON.parse(
		readFileSync(join(examplesDir, 'holdings.sample.json'), 'utf8'),
	) as JsonHolding[];
	const rows = json.map((holding) => ({
		ISIN: holding.ISIN,
		Name: holding.Name,
		Type: holding.Type,
		Currency: holding.Currency,
		weight: Number(holding['Weight %'].replace('%', '')),
		marketValue: Number(holding['Market Value'].replace(/,/g, '')),
	}));
	const cash = rows.find((row) => row.Type === 'Cash')!;
	cash.weight -= UNLISTED.weight;
	cash.marketValue -= UNLISTED.marketValue;
	rows.splice(rows.indexOf(cash), 0, UNLISTED);
	return rows;
}

/** 1.425.000,00 */
function europeanNumber(value: number, decimals: number): string {
	const [whole, fraction] = value.toFixed(decimals).split('.');
	const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
	return fraction ? `${grouped},${fraction}` : grouped;
}

export function sampleCsv(): string {
	const lines = ['ISIN;Name;Type;Currency;Weight %;Market Value'];
	for (const row of csvHoldings())
		lines.push(
			[
				row.ISIN,
				row.Name,
				row.Type,
				row.Currency,
				europeanNumber(row.weight, 1),
				europeanNumber(row.marketValue, 2),
			].join(';'),
		);
	return `${lines.join('\r\n')}\r\n`;
}

/** The workbook's rows: two portfolios at one quarter end. */
export const WORKBOOK_DATE = '2025-12-31';
export const WORKBOOK_HOLDINGS: Array<{
	portfolioId: string;
	portfolioName: string;
	isin: string;
	name: string;
	type: string;
	currency: string;
	/** A fraction of 1, as a percent cell holds it. */
	weight: number;
	marketValue: number;
}> = [
	[
		'growth-europe',
		'Growth Europe',
		'NL0010273215',
		'ASML Holding NV',
		'Stock',
		'EUR',
		0.25,
		2_500_000,
	],
	['growth-europe', 'Growth Europe', 'DE0007236101', 'Siemens AG', 'Stock', 'EUR', 0.2, 2_000_000],
	['growth-europe', 'Growth Europe', 'DE0007164600', 'SAP SE', 'Stock', 'EUR', 0.2, 2_000_000],
	[
		'growth-europe',
		'Growth Europe',
		'FR0000120271',
		'TotalEnergies SE',
		'Stock',
		'EUR',
		0.15,
		1_500_000,
	],
	[
		'growth-europe',
		'Growth Europe',
		'DK0062498333',
		'Novo Nordisk A/S',
		'Stock',
		'DKK',
		0.15,
		1_500_000,
	],
	['growth-europe', 'Growth Europe', '', 'Cash EUR', 'Cash', 'EUR', 0.05, 500_000],
	['global-core', 'Global Core', 'US0378331005', 'Apple Inc.', 'Stock', 'USD', 0.3, 3_000_000],
	['global-core', 'Global Core', 'US5949181045', 'Microsoft Corp.', 'Stock', 'USD', 0.3, 3_000_000],
	[
		'global-core',
		'Global Core',
		'IE00B4L5Y983',
		'iShares Core MSCI World UCITS ETF',
		'ETF',
		'USD',
		0.25,
		2_500_000,
	],
	['global-core', 'Global Core', 'CH0038863350', 'Nestlé SA', 'Stock', 'CHF', 0.15, 1_500_000],
].map(([portfolioId, portfolioName, isin, name, type, currency, weight, marketValue]) => ({
	portfolioId: portfolioId as string,
	portfolioName: portfolioName as string,
	isin: isin as string,
	name: name as string,
	type: type as string,
	currency: currency as string,
	weight: weight as number,
	marketValue: marketValue as number,
}));

/** The Excel serial of a YYYY-MM-DD date (1899-12-30 is day 0 from 1900-03-01 on). */
export function excelSerial(date: string): number {
	return (Date.parse(`${date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

const xmlEscape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function columnName(index: number): string {
	let name = '';
	for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
		name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
	return name;
}

/** Cell styles (styles.xml cellXfs): 0 text, 1 date yyyy-mm-dd, 2 percent 0.0%, 3 number #,##0.00. */
type Cell = string | { number: number; style: 0 | 1 | 2 | 3 };

function sheetXml(rows: Cell[][]): string {
	const body = rows
		.map((cells, r) => {
			const xml = cells
				.map((cell, c) => {
					const ref = `${columnName(c)}${r + 1}`;
					// An empty cell is not written, as Excel does: Extract From File then leaves the column out.
					if (cell === '') return '';
					if (typeof cell === 'string')
						return `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(cell)}</t></is></c>`;
					return `<c r="${ref}"${cell.style ? ` s="${cell.style}"` : ''}><v>${cell.number}</v></c>`;
				})
				.join('');
			return `<row r="${r + 1}">${xml}</row>`;
		})
		.join('');
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

function workbookRows(): Cell[][] {
	const header: Cell[] = [
		'Portfolio ID',
		'Portfolio Name',
		'Date',
		'ISIN',
		'Name',
		'Type',
		'Currency',
		'Weight',
		'Market Value',
	];
	const rows: Cell[][] = [
		header,
		...WORKBOOK_HOLDINGS.map((h): Cell[] => [
			h.portfolioId,
			h.portfolioName,
			{ number: excelSerial(WORKBOOK_DATE), style: 1 },
			h.isin,
			h.name,
			h.type,
			h.currency,
			{ number: h.weight, style: 2 },
			{ number: h.marketValue, style: 3 },
		]),
	];
	return rows;
}

function workbookParts(rows: Cell[][]): Array<[string, string]> {
	const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
	const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
	const pkg = 'http://schemas.openxmlformats.org/package/2006';
	const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
	return [
		[
			'[Content_Types].xml',
			`${xml}<Types xmlns="${pkg}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
		],
		[
			'_rels/.rels',
			`${xml}<Relationships xmlns="${pkg}/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		],
		[
			'xl/workbook.xml',
			`${xml}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Holdings" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		],
		[
			'xl/_rels/workbook.xml.rels',
			`${xml}<Relationships xmlns="${pkg}/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
		],
		[
			'xl/styles.xml',
			`${xml}<styleSheet xmlns="${main}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="0.0%"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
		],
		['xl/worksheets/sheet1.xml', sheetXml(rows)],
	];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/** A zip of stored (uncompressed) entries, all dated 1980-01-01 00:00 (the first date a zip can hold). */
function zip(entries: Array<[string, string]>): Buffer {
	const DOS_DATE = (0 << 9) | (1 << 5) | 1;
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const [name, text] of entries) {
		const data = Buffer.from(text, 'utf8');
		const fileName = Buffer.from(name, 'utf8');
		const crc = crc32(data);
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4); // version needed
		local.writeUInt16LE(0x0800, 6); // UTF-8 names
		local.writeUInt16LE(0, 8); // stored
		local.writeUInt16LE(0, 10); // time
		local.writeUInt16LE(DOS_DATE, 12);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt32LE(data.length, 22);
		local.writeUInt16LE(fileName.length, 26);
		local.writeUInt16LE(0, 28);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4); // made by
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(0x0800, 8);
		central.writeUInt16LE(0, 10);
		central.writeUInt16LE(0, 12);
		central.writeUInt16LE(DOS_DATE, 14);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(data.length, 20);
		central.writeUInt32LE(data.length, 24);
		central.writeUInt16LE(fileName.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, fileName, data);
		centrals.push(central, fileName);
		offset += local.length + fileName.length + data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

export function sampleWorkbook(): Buffer {
	return zip(workbookParts(workbookRows()));
}

/** The quarter ends of the quarterly sample, oldest first: 2024's four, then 2025's. */
export const QUARTER_ENDS = ['2024', '2025'].flatMap((year) =>
	['03-31', '06-30', '09-30', '12-31'].map((day) => `${year}-${day}`),
);

/** One row of the quarterly sample: a holding of a fund at a quarter end, its market value in EUR. */
export interface QuarterlyHolding {
	portfolioId: string;
	portfolioName: string;
	/** YYYY-MM-DD, one of QUARTER_ENDS (an Excel date cell in the workbook). */
	date: string;
	isin: string;
	name: string;
	type: string;
	currency: 'EUR';
	marketValue: number;
}

/**
 * The funds' positions: [ISIN, name, type, market value at the first quarter end it is held, the QUARTER_ENDS indexes
 * it is held at (all when omitted)]. Chosen for the simulator's data: SAP SE and the iShares ETF are among the ISINs it
 * does not know, the XX ones never known; Eni and BNP Paribas have no answer on UN Global Compact violations; ASML is
 * held by both funds (the entity statement counts both positions).
 */
const QUARTERLY_POSITIONS: Record<
	string,
	{ name: string; positions: Array<[string, string, string, number, number[]?]> }
> = {
	'growth-europe': {
		name: 'Growth Europe',
		positions: [
			['NL0010273215', 'ASML Holding NV', 'Stock', 2_400_000],
			['DE0007236101', 'Siemens AG', 'Stock', 2_000_000],
			['DE0007164600', 'SAP SE', 'Stock', 1_800_000],
			['FR0000120271', 'TotalEnergies SE', 'Stock', 1_500_000],
			['DK0062498333', 'Novo Nordisk A/S', 'Stock', 1_500_000],
			['IT0003132476', 'Eni SpA', 'Stock', 900_000, [0, 1, 2, 3, 4]],
			['FR0000131104', 'BNP Paribas SA', 'Stock', 1_000_000, [3, 4, 5, 6, 7]],
			['XXBALTWIND17', 'Baltic Wind Private Placement', 'Other', 300_000],
			['', 'Cash EUR', 'Cash', 500_000],
		],
	},
	'global-core': {
		name: 'Global Core',
		positions: [
			['US0378331005', 'Apple Inc.', 'Stock', 3_000_000],
			['US5949181045', 'Microsoft Corp.', 'Stock', 3_000_000],
			['IE00B4L5Y983', 'iShares Core MSCI World UCITS ETF', 'ETF', 2_500_000],
			['CH0038863350', 'Nestlé SA', 'Stock', 1_500_000],
			['DE0005557508', 'Deutsche Telekom AG', 'Stock', 1_200_000],
			['NL0010273215', 'ASML Holding NV', 'Stock', 800_000, [2, 3, 4, 5, 6, 7]],
			['GB0002374006', 'Diageo plc', 'Stock', 700_000, [0, 1, 2, 3, 4, 5]],
			['ES0144580Y14', 'Iberdrola SA', 'Stock', 900_000, [4, 5, 6, 7]],
			['XXPRIVCRED25', 'Nordic Private Credit Note', 'Other', 400_000],
			['', 'Cash EUR', 'Cash', 400_000],
		],
	},
};

/**
 * The quarterly sample's rows, by quarter end, then fund, then position. A position's value moves from quarter to
 * quarter by a fixed pattern (−6 % … +6 %), rounded to whole hundreds of euros, so that every quarter differs.
 */
export function quarterlyHoldings(): QuarterlyHolding[] {
	const rows: QuarterlyHolding[] = [];
	for (const [q, date] of QUARTER_ENDS.entries())
		for (const [portfolioId, fund] of Object.entries(QUARTERLY_POSITIONS))
			fund.positions.forEach(([isin, name, type, firstValue, heldAt], k) => {
				if (heldAt && !heldAt.includes(q)) return;
				const move = 1 + 0.02 * (((q * 3 + k) % 7) - 3);
				rows.push({
					portfolioId,
					portfolioName: fund.name,
					date,
					isin,
					name,
					type,
					currency: 'EUR',
					marketValue: Math.round((firstValue * move) / 100) * 100,
				});
			});
	return rows;
}

function quarterlyWorkbookRows(): Cell[][] {
	const header: Cell[] = [
		'Portfolio ID',
		'Portfolio Name',
		'Date',
		'ISIN',
		'Name',
		'Type',
		'Currency',
		'Market Value',
	];
	return [
		header,
		...quarterlyHoldings().map((h): Cell[] => [
			h.portfolioId,
			h.portfolioName,
			{ number: excelSerial(h.date), style: 1 },
			h.isin,
			h.name,
			h.type,
			h.currency,
			{ number: h.marketValue, style: 3 },
		]),
	];
}

export function sampleQuarterlyWorkbook(): Buffer {
	return zip(workbookParts(quarterlyWorkbookRows()));
}

/** Each file of examples/ the script writes, with the bytes it writes. */
export function sampleFiles(): Array<[string, Buffer]> {
	return [
		[CSV_FILE, Buffer.from(sampleCsv(), 'utf8')],
		[XLSX_FILE, sampleWorkbook()],
		[QUARTERLY_XLSX_FILE, sampleQuarterlyWorkbook()],
	];
}

function main(): void {
	const check = process.argv.includes('--check');
	const files = sampleFiles();
	let stale = 0;
	for (const [name, bytes] of files) {
		const path = join(examplesDir, name);
		const same = existsSync(path) && readFileSync(path).equals(bytes);
		if (check) {
			if (!same) stale++;
			console.log(`${name}: ${same ? 'up to date' : 'differs from what the script writes'}`);
		} else {
			writeFileSync(path, bytes);
			console.log(`wrote examples/${name} (${bytes.length} bytes)`);
		}
	}
	process.exit(stale ? 1 : 0);
}

if (require.main === module) main();

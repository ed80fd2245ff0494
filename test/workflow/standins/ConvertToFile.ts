/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.convertToFile` ("Convert to File" v1, 1.1). Used by the
 * workflow test harness when no real n8n-nodes-base install is available.
 *
 * Subset implemented: operation 'csv' (packages/nodes-base/nodes/Files/ConvertToFile/actions/spreadsheet.operation.ts
 * and utils/binary.ts convertJsonToSpreadsheetBinary) with `binaryPropertyName` and options `fileName`, `delimiter`,
 * `headerRow`. As the real node: ALL input items become ONE file item `{ json: {}, binary: { <property>: file } }`
 * paired to every input item; each item's json is flattened (nested keys joined with '.', n8n's flattenObject);
 * the columns are the keys in the order first met; the file is what SheetJS writes (n8n 2.20 uses xlsx 0.18.5,
 * 2.41 @e965/xlsx 0.20.3; both write the same CSV): a UTF-8 byte order mark, rows joined by "\n" without a final
 * one, a cell quoted when it holds the delimiter, a newline or a quote (quotes doubled), booleans TRUE / FALSE,
 * null and missing values empty, numbers in Excel's "General" format (at most 11 characters, so
 * 12.3456789012345 is written 12.3456789: see `generalNumber`). The default file name is "File.csv". Every other
 * operation (XLSX, HTML, JSON, ...) and option is refused.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

interface CsvOptions {
	delimiter?: string;
	fileName?: string;
	headerRow?: boolean;
}

const IMPLEMENTED_OPTIONS = ['delimiter', 'fileName', 'headerRow'];

/** n8n-nodes-base utils/utilities.ts flattenObject. */
function flattenObject(data: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const key of Object.keys(data)) {
		const value = data[key];
		if (value !== null && typeof value === 'object') {
			if (value instanceof Date) {
				out[key] = value.toString();
				continue;
			}
			const flat = flattenObject(value as IDataObject);
			for (const inner in flat) {
				if (flat[inner] === undefined) continue;
				out[`${key}.${inner}`] = flat[inner];
			}
		} else {
			out[key] = value;
		}
	}
	return out;
}

// SheetJS SSF "General" number format (ssf.js SSF_general_num and helpers, Apache-2.0).
const stripDecimal = (o: string) =>
	o.indexOf('.') === -1 ? o : o.replace(/(?:\.0*|(\.\d*[1-9])0+)$/, '$1');
const normalizeExp = (o: string) =>
	o.indexOf('E') === -1
		? o
		: o.replace(/(?:\.0*|(\.\d*[1-9])0+)[Ee]/, '$1E').replace(/(E[+-])(\d)$/, '$10$2');
function smallExp(v: number): string {
	const width = v < 0 ? 12 : 11;
	let o = stripDecimal(v.toFixed(12));
	if (o.length <= width) return o;
	o = v.toPrecision(10);
	if (o.length <= width) return o;
	return v.toExponential(5);
}
function largeExp(v: number): string {
	const o = stripDecimal(v.toFixed(11));
	return o.length > (v < 0 ? 12 : 11) || o === '0' || o === '-0' ? v.toPrecision(6) : o;
}
export function generalNumber(v: number): string {
	if ((v | 0) === v) return v.toString(10);
	if (!isFinite(v)) return isNaN(v) ? '#NUM!' : '#DIV/0!';
	const exponent = Math.floor(Math.log(Math.abs(v)) * Math.LOG10E);
	let o: string;
	if (exponent >= -4 && exponent <= -1) o = v.toPrecision(10 + exponent);
	else if (Math.abs(exponent) <= 9) o = smallExp(v);
	else if (exponent === 10) o = v.toFixed(10).substr(0, 12);
	else o = largeExp(v);
	return stripDecimal(normalizeExp(o.toUpperCase()));
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'number') return generalNumber(value);
	if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
	return String(value);
}

function csvCell(text: string, delimiter: string): string {
	const fs = delimiter.charCodeAt(0);
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === fs || code === 10 || code === 34) return `"${text.replace(/"/g, '""')}"`;
	}
	return text;
}

export function toCsv(rows: IDataObject[], delimiter: string, headerRow: boolean): string {
	const columns: string[] = [];
	for (const row of rows)
		for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
	const lines: string[][] = rows.map((row) => columns.map((column) => cellText(row[column])));
	if (headerRow) lines.unshift(columns);
	return lines
		.map((cells, index) =>
			cells
				.map((text, column) =>
					// SheetJS quotes a lone "ID" in the first cell (a file starting "ID" is read as SYLK by Excel)
					index === 0 && column === 0 && text === 'ID' ? '"ID"' : csvCell(text, delimiter),
				)
				.join(delimiter),
		)
		.join('\n');
}

export class ConvertToFileStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Convert to File',
		name: 'convertToFile',
		icon: 'fa:file-export',
		group: ['input'],
		version: [1, 1.1],
		description: 'Convert JSON data to binary data (test-only stand-in)',
		defaults: { name: 'Convert to File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Convert to CSV', value: 'csv' },
					{ name: 'Convert to HTML', value: 'html' },
					{ name: 'Convert to ICS', value: 'iCal' },
					{ name: 'Convert to JSON', value: 'toJson' },
					{ name: 'Convert to ODS', value: 'ods' },
					{ name: 'Convert to RTF', value: 'rtf' },
					{ name: 'Convert to Text File', value: 'toText' },
					{ name: 'Convert to XLS', value: 'xls' },
					{ name: 'Convert to XLSX', value: 'xlsx' },
					{ name: 'Move Base64 String to File', value: 'toBinary' },
				],
				default: 'csv',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				displayOptions: { show: { operation: ['csv', 'html', 'rtf', 'ods', 'xls', 'xlsx'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: { show: { operation: ['csv', 'html', 'rtf', 'ods', 'xls', 'xlsx'] } },
				options: [
					{
						displayName: 'Compression',
						name: 'compression',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '/operation': ['xlsx', 'ods'] } },
					},
					{
						displayName: 'Delimiter',
						name: 'delimiter',
						type: 'string',
						default: ',',
						displayOptions: { show: { '/operation': ['csv'] } },
					},
					{ displayName: 'File Name', name: 'fileName', type: 'string', default: '' },
					{ displayName: 'Header Row', name: 'headerRow', type: 'boolean', default: true },
					{
						displayName: 'Sheet Name',
						name: 'sheetName',
						type: 'string',
						default: 'Sheet',
						displayOptions: { show: { '/operation': ['ods', 'xls', 'xlsx'] } },
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation !== 'csv') {
			throw new NodeOperationError(
				node,
				`The Convert to File stand-in of the test harness implements "Convert to CSV" only (got "${operation}")`,
			);
		}
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as CsvOptions;
		const unknown = Object.keys(options).filter((key) => !IMPLEMENTED_OPTIONS.includes(key));
		if (unknown.length) {
			throw new NodeOperationError(
				node,
				`The Convert to File stand-in of the test harness does not implement option(s) ${unknown.join(', ')}`,
			);
		}
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', 0, 'data') as string;
		const pairedItem = items.map((_, item) => ({ item }));
		const delimiter = options.delimiter?.length ? options.delimiter : ',';
		const csv = toCsv(
			items.map((item) => flattenObject(item.json)),
			delimiter,
			options.headerRow !== false,
		);
		const fileName = options.fileName !== undefined ? options.fileName : 'File.csv';
		const binaryData = await this.helpers.prepareBinaryData(
			Buffer.from(`\ufeff${csv}`, 'utf8'),
			fileName,
		);
		return [[{ json: {}, binary: { [binaryPropertyName]: binaryData }, pairedItem }]];
	}
}

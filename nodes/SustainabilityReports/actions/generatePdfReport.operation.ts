import { NodeApiError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';

import {
	BENCHMARK_INDICES,
	MAX_BENCHMARK_NAME_LENGTH,
	MAX_CLIENT_ID_LENGTH,
	RENAMED_BENCHMARK_INDICES,
	REPORT_TYPES,
} from '../../shared/constants';
import { lastCompletedQuarterEnd } from '../../shared/dates';
import {
	groupByProperty,
	holdingsProperties,
	methodologyProperty,
	portfolioGroups,
	readHoldingsParameters,
	readMethodologyId,
	readSnapshotDateParameter,
	readTextParameter,
	removedSummary,
} from '../../shared/descriptions';
import { asNodeError, findRequestId, inputError } from '../../shared/errors';
import { forEachGroup, pairedTo } from '../../shared/execution';
import { holdingsBody } from '../../shared/holdings';
import type { ItemGroup, RemovedRow, SourcedHolding } from '../../shared/holdings';
import { describeInvalidIsin, isValidIsin, normalizeIsin } from '../../shared/isin';
import { ROUTES } from '../../shared/routes';
import { apiRequest, networkErrorCode } from '../../shared/transport';
import { ownValue, showValue } from '../../shared/values';
import { sleepUnlessCancelled } from '../../shared/sleep';

const show = { operation: ['generatePdfReport'] };
const displayOptions = { show };

const DEFAULT_BENCHMARK = 'S&P 500';
/** Benchmark option that shows the Benchmark Index Name field. */
const OTHER_BENCHMARK = 'other';

export const description: INodeProperties[] = [
	{
		displayName: 'Report Name',
		name: 'reportName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Balanced Fund Q3 2025',
		description: 'Name shown in the report, for example the portfolio or client name',
		displayOptions,
	},
	{
		displayName: 'Report ID',
		name: 'reportId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'balanced-fund',
		description:
			'Your own label for this report (the API requires one; it is not linked to stored portfolios). Also used in the file name.',
		displayOptions,
	},
	{
		displayName: 'Report Type',
		name: 'reportType',
		type: 'options',
		options: REPORT_TYPES.map(({ name, value }) => ({ name, value })),
		default: 'esg-overview',
		description: 'Kind of report to build',
		displayOptions,
	},
	{
		displayName: 'Snapshot Date',
		name: 'snapshotDate',
		type: 'dateTime',
		default: '',
		description:
			'Date of the holdings; the report uses the end of its quarter. Leave empty for the last completed quarter end. Dates in a future year are refused.',
		hint: 'Any date in the quarter to report on; leave empty for the last completed quarter',
		displayOptions,
	},
	{
		displayName: 'Benchmark',
		name: 'benchmarkIndex',
		type: 'options',
		options: [
			...[...BENCHMARK_INDICES].sort((a, b) => a.localeCompare(b)).map((index) => ({ name: index, value: index })),
			{ name: 'Other Index (Type Its Name)', value: OTHER_BENCHMARK },
		],
		default: DEFAULT_BENCHMARK,
		description:
			'Index the portfolio is compared with. Benchmark ETF or Mutual Fund ISIN, when filled in, takes priority. An expression may give any index name; the API decides whether it knows it.',
		displayOptions,
	},
	{
		displayName: 'Benchmark Index Name',
		name: 'benchmarkIndexName',
		type: 'string',
		default: '',
		// Not `required`: n8n shows this field whenever Benchmark is an expression, and would then stop the run.
		placeholder: 'e.g. MSCI World',
		description: 'Full name of an index the vendor offers that is not in the list, exactly as the vendor writes it',
		hint: 'The API answers with an error naming the index if it does not know it',
		displayOptions: { show: { ...show, benchmarkIndex: [OTHER_BENCHMARK] } },
	},
	{
		displayName: 'Benchmark ETF or Mutual Fund ISIN',
		name: 'benchmarkFundIsin',
		type: 'string',
		default: '',
		placeholder: 'IE00B5BMR087',
		description: 'ISIN of an ETF or mutual fund to compare with instead of the Benchmark index. Leave empty to use the index.',
		hint: 'When filled in, this fund is the benchmark and the index above is not sent',
		displayOptions,
	},
	methodologyProperty(
		{ show: { ...show, reportType: ['mifid2'] } },
		false,
		"Sustainable-investment methodology of the MiFID II report: pick one your API key can use, or type its ID. Empty uses the API's default.",
	),
	...holdingsProperties('reports', displayOptions),
	groupByProperty(displayOptions, 'reports'),
	{
		displayName: 'Download PDF',
		name: 'downloadPdf',
		type: 'boolean',
		default: true,
		description:
			'Whether to download the PDF at once and output it as a file (the link expires). When off, only the link is returned.',
		displayOptions,
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the PDF in',
		description: 'For example, give this name to the Attachments option of a Send Email or Gmail node',
		displayOptions: { show: { ...show, downloadPdf: [true] } },
	},
];

/** Display names of the text parameters, for messages. */
const LABELS: Record<string, string> = {
	reportName: 'Report Name',
	reportId: 'Report ID',
	reportType: 'Type',
	benchmarkFundIsin: 'Benchmark ETF or Mutual Fund ISIN',
	benchmarkIndex: 'Benchmark',
	benchmarkIndexName: 'Benchmark Index Name',
	binaryPropertyName: 'Put Output File in Field',
};

interface ReportRequest {
	body: IDataObject;
	reportId: string;
	reportType: string;
	quarterEnd: string;
	binaryProperty?: string;
}

interface PreparedGroup extends ItemGroup {
	request?: ReportRequest;
	holdings?: SourcedHolding[];
	removed?: RemovedRow[];
	error?: Error;
}

interface ReportAnswer {
	document?: { location_url?: unknown; request_id?: unknown };
	metadata?: { snapshot_at?: unknown; type?: unknown; default_benchmark?: unknown; identifier?: unknown };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const node = this.getNode();

	// Every group is checked before the first request: a report is only asked for when all input is sound.
	const groups: PreparedGroup[] = portfolioGroups.call(this, items).map((group) => {
		try {
			return { ...group, ...prepareReport.call(this, items, group) };
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(node, error);
			return { ...group, error: error as Error };
		}
	});

	return await (forEachGroup<PreparedGroup>).call(this, items, groups, async (group) => {
		if (group.error) throw group.error;
		const request = group.request!;
		const itemIndex = group.itemIndices[0];
		const answer = (await apiRequest.call(this, ROUTES.reports, { body: request.body, itemIndex })) as ReportAnswer;
		const requestId = findRequestId(answer) ?? null;
		const locationUrl = typeof answer.document?.location_url === 'string' ? answer.document.location_url : '';
		const metadata = answer.metadata ?? {};
		const quarterEnd = typeof metadata.snapshot_at === 'string' ? metadata.snapshot_at : request.quarterEnd;
		const type = typeof metadata.type === 'string' ? metadata.type : request.reportType;

		const json: IDataObject = {
			...(group.values as IDataObject),
			name: request.body.name as string,
			report_id: request.reportId,
			type,
			snapshot_at: quarterEnd,
			default_benchmark: (metadata.default_benchmark ?? null) as string | null,
			identifier: (metadata.identifier ?? null) as string | null,
			request_id: requestId,
			location_url: locationUrl || null,
			benchmark_index: (request.body.benchmark_index ?? null) as string | null,
			benchmark_etf_mutual_fund: (request.body.benchmark_etf_mutual_fund ?? null) as string | null,
			...(request.body.methodology_id !== undefined ? { methodology_id: request.body.methodology_id as number } : {}),
			holdings_count: group.holdings!.length,
			...removedSummary(group.removed!),
		};

		if (!request.binaryProperty) {
			json.downloaded = false;
			return [{ json, pairedItem: pairedTo(group.itemIndices) }];
		}
		if (!locationUrl) {
			throw new NodeApiError(node, answer as unknown as JsonObject, {
				message: 'The API created the report but its answer has no download link (document.location_url)',
				description: requestId ? `Request ID (quote it to support): ${requestId}` : undefined,
				itemIndex,
			});
		}
		const pdf = await downloadReport.call(this, locationUrl, requestId, itemIndex);
		const fileName = reportFileName(request.reportId, type, quarterEnd);
		const binaryData = await this.helpers.prepareBinaryData(pdf, fileName, 'application/pdf');
		json.downloaded = true;
		json.file_name = fileName;
		json.file_size = pdf.length;
		return [{ json, binary: { [request.binaryProperty]: binaryData }, pairedItem: pairedTo(group.itemIndices) }];
	});
}

/** Reads and checks a group's parameters and holdings (parameters with expressions at the group's first item). */
function prepareReport(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	group: ItemGroup,
): { request: ReportRequest; holdings: SourcedHolding[]; removed: RemovedRow[] } {
	const node = this.getNode();
	const first = group.itemIndices[0];
	const text = (name: string, fallback = '') => readTextParameter.call(this, name, first, LABELS[name] ?? name, { fallback });

	const name = text('reportName');
	if (!name) throw inputError(node, first, 'Report Name is empty', 'Give the name to show in the report, for example the portfolio name.');
	const reportId = text('reportId');
	if (!reportId) {
		throw inputError(node, first, 'Report ID is empty', 'The API requires a label for each report, for example the portfolio identifier.');
	}
	if (reportId.length > MAX_CLIENT_ID_LENGTH) {
		throw inputError(
			node,
			first,
			`Report ID is ${reportId.length} characters long ("${showValue(reportId, 40)}"); at most ${MAX_CLIENT_ID_LENGTH} are accepted`,
			'Use a short label such as the portfolio ID (it is also used in the file name), or check what is mapped to Report ID. Nothing was sent.',
		);
	}
	const reportType = text('reportType', 'esg-overview');
	if (!REPORT_TYPES.some(({ value }) => value === reportType)) {
		throw inputError(node, first, `Type "${showValue(reportType)}" is not a report type`, `Use one of: ${REPORT_TYPES.map(({ value }) => value).join(', ')}.`);
	}

	const { date: snapshotAt, quarterEnd } = readSnapshotDateParameter.call(this, first, {
		emptyDefault: () => lastCompletedQuarterEnd(),
		invalidFix: 'Pick a date up to today, or leave the field empty for the last completed quarter end.',
	});

	const body: IDataObject = { name, identifier: reportId, type: reportType, snapshot_at: snapshotAt };
	const fundIsin = normalizeIsin(text('benchmarkFundIsin'));
	if (fundIsin) {
		if (!isValidIsin(fundIsin)) {
			throw inputError(
				node,
				first,
				`Benchmark ETF or Mutual Fund ISIN is not valid: ${describeInvalidIsin(fundIsin)}`,
				'Correct the ISIN, or leave the field empty to compare with the Benchmark index.',
			);
		}
		body.benchmark_etf_mutual_fund = fundIsin;
	} else {
		body.benchmark_index = readBenchmarkIndex.call(this, first);
	}
	if (reportType === 'mifid2') {
		const methodologyId = readMethodologyId.call(this, first);
		if (methodologyId !== undefined) body.methodology_id = methodologyId;
	}

	let binaryProperty: string | undefined;
	if (this.getNodeParameter('downloadPdf', first, true) as boolean) {
		binaryProperty = text('binaryPropertyName', 'data');
		if (!binaryProperty) {
			throw inputError(node, first, 'Put Output File in Field is empty', 'Give the name of the binary field for the PDF, for example data.');
		}
	}

	const { holdings, removed } = readHoldingsParameters.call(this, 'reports', items, group.itemIndices);
	if (holdings.length === 0) {
		throw inputError(
			node,
			first,
			`no holding to put in the report${removed.length ? ` (${removed.length} row(s) removed as cash or without ISIN)` : ''}`,
			'A report needs at least one holding with an ISIN, a name, a currency, a weight and a market value.',
		);
	}
	body.holdings = holdingsBody(holdings);
	return { request: { body, reportId, reportType, quarterEnd, binaryProperty }, holdings, removed };
}

const DOWNLOAD_RETRIES = 2;
const DOWNLOAD_TIMEOUT_MS = 60_000;
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Fetches the PDF from `document.location_url`: another host (a presigned link), so no API key is sent.
 * Deliberately without credentials; a dropped connection or a 5xx is tried again up to twice.
 */
async function downloadReport(
	this: IExecuteFunctions,
	url: string,
	requestId: string | null,
	itemIndex: number,
): Promise<Buffer> {
	const node = this.getNode();
	const support = requestId ? `Request ID (quote it to support): ${requestId}` : 'The API gave no request ID.';
	const fail = (message: string, detail: string, httpCode?: number) =>
		new NodeApiError(node, { message, ...(requestId ? { request_id: requestId } : {}) } as JsonObject, {
			message,
			description: `${detail}\n${support}`,
			httpCode: httpCode === undefined ? undefined : String(httpCode),
			itemIndex,
		});

	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOST.test(parsed.hostname)))) {
		throw fail('The report was created, but its download link is not an https:// address, so it was not fetched', `Link: ${url.slice(0, 200)}`);
	}

	const signal = this.getExecutionCancelSignal();
	const request: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: DOWNLOAD_TIMEOUT_MS,
		headers: { accept: 'application/pdf' },
		...(signal ? { abortSignal: signal } : {}),
	};

	for (let attempt = 1; ; attempt++) {
		let response: { statusCode: number; body: unknown; headers: Record<string, unknown> } | undefined;
		let dropped: string | undefined;
		try {
			response = (await this.helpers.httpRequest(request)) as typeof response;
		} catch (error) {
			dropped = signal?.aborted ? undefined : networkErrorCode(error);
			if (!dropped) throw fail('The report was created, but downloading the PDF failed', `Error: ${(error as Error).message}`);
		}
		const status = response?.statusCode ?? 0;
		if (response && status >= 200 && status < 300) {
			const pdf = toBuffer(response.body);
			if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
				throw fail(
					'The report was created, but its download link did not return a PDF',
					`Got ${pdf.length} bytes of ${String(response.headers?.['content-type'] ?? 'unknown type')}.`,
					status,
				);
			}
			return pdf;
		}
		const retryable = dropped !== undefined || status >= 500;
		if (!retryable || attempt > DOWNLOAD_RETRIES) {
			if (dropped) {
				// The code goes in the details: NodeApiError swaps a message naming ECONNRESET & co. for a generic one.
				throw fail(
					`The report was created, but the PDF download kept failing (connection lost) after ${attempt} tries`,
					`Connection error: ${dropped}. The link may expire soon: run the node again to generate the report anew.`,
				);
			}
			const said = storageMessage(response!.body);
			if (status === 403 || status === 404 || status === 410) {
				throw fail(
					`The report was created, but its download link has expired or is no longer valid (${status}${said ? `: ${said}` : ''})`,
					'Report links are valid for a short time only. Run the node again to generate the report and download it at once.',
					status,
				);
			}
			throw fail(
				`The report was created, but the PDF download failed (${status}${said ? `: ${said}` : ''})`,
				attempt > 1 ? `Tried ${attempt} times.` : 'Run the node again to generate the report anew.',
				status,
			);
		}
		this.logger.debug('Sustainability Compliance API: retrying report download', { status: dropped ?? status, attempt });
		await sleepUnlessCancelled(500 * attempt, signal);
	}
}

function toBuffer(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (typeof body === 'string') return Buffer.from(body, 'latin1');
	return Buffer.alloc(0);
}

/** The storage host answers errors as XML (`<Code>AccessDenied</Code><Message>Request has expired</Message>`). */
function storageMessage(body: unknown): string | undefined {
	const text = toBuffer(body).subarray(0, 4000).toString('utf8');
	const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
	const message = /<Message>([^<]{1,300})<\/Message>/.exec(text)?.[1];
	if (code || message) return [code, message].filter(Boolean).join(': ');
	return text.trim() ? text.trim().slice(0, 200) : undefined;
}

/** `<report id>_<type>_<quarter end>.pdf`, with only letters, digits, dot, dash and underscore. */
export function reportFileName(reportId: string, type: string, quarterEnd: string): string {
	const clean = (value: string) =>
		value
			.normalize('NFKD')
			.replace(/[\u0300-\u036f]/g, '')
			.replace(/[^A-Za-z0-9._-]+/g, '_')
			.replace(/_+/g, '_')
			.replace(/^[._]+|[._]+$/g, '');
	const stem = [clean(reportId).slice(0, 100) || 'report', clean(type), clean(quarterEnd)].filter(Boolean).join('_');
	return `${stem}.pdf`;
}

/**
 * The index name to send: a listed one, one typed under Other Index, or any name an expression gives (vendors add
 * indices; the API refuses names it does not know, naming them). A name earlier versions listed is sent as renamed.
 */
function readBenchmarkIndex(this: IExecuteFunctions, itemIndex: number): string {
	const node = this.getNode();
	const chosen = readTextParameter.call(this, 'benchmarkIndex', itemIndex, LABELS.benchmarkIndex, { fallback: DEFAULT_BENCHMARK });
	let index = chosen || DEFAULT_BENCHMARK;
	let label = LABELS.benchmarkIndex;
	if (chosen === OTHER_BENCHMARK) {
		label = LABELS.benchmarkIndexName;
		index = readTextParameter.call(this, 'benchmarkIndexName', itemIndex, label);
		if (!index) {
			throw inputError(node, itemIndex, 'Benchmark Index Name is empty', `Type the index name exactly as the vendor writes it, or pick an index from the Benchmark list (${BENCHMARK_INDICES.join(', ')}).`);
		}
	}
	if (index.length > MAX_BENCHMARK_NAME_LENGTH) {
		throw inputError(
			node,
			itemIndex,
			`${label} is ${index.length} characters long ("${showValue(index, 40)}"); an index name has at most ${MAX_BENCHMARK_NAME_LENGTH}`,
			`Check what is mapped to ${label}: it should be an index name such as ${DEFAULT_BENCHMARK}.`,
		);
	}
	return ownValue(RENAMED_BENCHMARK_INDICES, index) ?? index;
}

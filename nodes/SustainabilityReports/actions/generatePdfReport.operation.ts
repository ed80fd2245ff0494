import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
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
	holdingsOptions,
} from '../../shared/descriptions';
import { holdingsBody, removedSummary } from '../../shared/holdings';
import type { RemovedRow, SourcedHolding } from '../../shared/holdings';
import { describeGroupValues, portfolioGroups } from '../../shared/grouping';
import type { ItemGroup } from '../../shared/grouping';
import {
	readHoldingsParameters,
	readMethodologyId,
	readSnapshotDateParameter,
	readTextParameter,
} from '../../shared/parameters';
import { asNodeError, findRequestId, inputError } from '../../shared/errors';
import { listNames, pairedTo, prepareGroups, runGroups } from '../../shared/execution';
import type { PreparedGroup } from '../../shared/execution';
import { describeInvalidIsin, isValidIsin, normalizeIsin } from '../../shared/isin';
import { addRunNote } from '../../shared/hints';
import { planOneRequestEach } from '../../shared/requestBudget';
import { ROUTES } from '../../shared/routes';
import { isToolExecution } from '../../shared/tool';
import { downloadFile, MAX_DOWNLOAD_BYTES } from '../../shared/httpClient';
import {
	apiRequest,
	DEFAULT_RETRY_POLICY,
	megabytes,
	UncertainOutcomeError,
} from '../../shared/transport';
import { retryMemory, retriesOnFail } from '../../shared/retryMemory';
import type { Remembered } from '../../shared/retryMemory';
import { formatSeconds, ownValue, showValue } from '../../shared/values';
import { parameterBuilderHint } from '../../shared/builderHints';

const displayOptions = { show: { operation: ['generatePdfReport'] } };

const DEFAULT_BENCHMARK = 'S&P 500';
/** Benchmark option that shows the Benchmark Index Name field. */
const OTHER_BENCHMARK = 'other';

const properties: INodeProperties[] = [
	{
		displayName: 'Report Name',
		name: 'reportName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Balanced Fund Q3 2025',
		description: 'Name shown in the report, for example the portfolio or client name',
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
	},
	{
		displayName: 'Report Type',
		name: 'reportType',
		builderHint: parameterBuilderHint(
			"ESG Overview: the ESG and SFDR picture of the holdings. MiFID II: a client's sustainability preferences report, under the chosen methodology.",
		),
		type: 'options',
		options: REPORT_TYPES.map(({ name, value }) => ({ name, value })),
		default: 'esg-overview',
		description:
			'ESG Overview: the ESG and SFDR picture of the holdings. MiFID II: the sustainability preferences report, under the methodology picked below.',
	},
	{
		displayName: 'Snapshot Date',
		name: 'snapshotDate',
		type: 'dateTime',
		default: '',
		description:
			'Date of the holdings; the report uses the end of its quarter. Leave empty for the last completed quarter end. Dates in a future year are refused.',
		hint: 'Any date in the quarter to report on; leave empty for the last completed quarter',
	},
	{
		displayName: 'Benchmark',
		name: 'benchmarkIndex',
		type: 'options',
		options: [
			...[...BENCHMARK_INDICES]
				.sort((a, b) => a.localeCompare(b))
				.map((index) => ({ name: index, value: index })),
			{ name: 'Other Index (Type Its Name)', value: OTHER_BENCHMARK },
		],
		default: DEFAULT_BENCHMARK,
		description:
			'Index the portfolio is compared with. Benchmark Fund ISIN, when filled in, takes priority. An expression may give any index name; the API decides whether it knows it.',
	},
	{
		displayName: 'Benchmark Index Name',
		name: 'benchmarkIndexName',
		type: 'string',
		default: '',
		// Not `required`: n8n shows this field whenever Benchmark is an expression, and would then stop the run.
		placeholder: 'e.g. MSCI World',
		description:
			'Full name of an index the vendor offers that is not in the list, exactly as the vendor writes it',
		hint: 'The API answers with an error naming the index if it does not know it',
		displayOptions: { show: { benchmarkIndex: [OTHER_BENCHMARK] } },
	},
	{
		displayName: 'Benchmark Fund ISIN',
		name: 'benchmarkFundIsin',
		type: 'string',
		default: '',
		placeholder: 'IE00B5BMR087',
		description:
			'ISIN of an ETF or mutual fund to compare with instead of the Benchmark index. Leave empty to use the index.',
		hint: 'Optional: an ETF or mutual fund to compare with. When filled in, it replaces the index above.',
	},
	{
		...methodologyProperty(
			false,
			"Sustainable-investment methodology of the MiFID II report: pick one your API key can use, or type its ID. Empty uses the API's default.",
		),
		displayOptions: { show: { reportType: ['mifid2'] } },
	},
	...holdingsProperties(ROUTES.reports),
	groupByProperty('reports'),
	{
		displayName: 'Download PDF',
		name: 'downloadPdf',
		type: 'boolean',
		default: true,
		description:
			'Whether to download the PDF at once and output it as a file (the link expires). When off, only the link is returned.',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the PDF in',
		description:
			'For example, give this name to the Attachments option of a Send Email or Gmail node',
		displayOptions: { show: { downloadPdf: [true] } },
	},
	...holdingsOptions(ROUTES.reports),
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

/** Display names of the text parameters, for messages. */
const LABELS: Record<string, string> = {
	reportName: 'Report Name',
	reportId: 'Report ID',
	reportType: 'Type',
	benchmarkFundIsin: 'Benchmark Fund ISIN',
	benchmarkIndex: 'Benchmark',
	benchmarkIndexName: 'Benchmark Index Name',
	binaryPropertyName: 'Put Output File in Field',
};

interface ReportRequest {
	body: IDataObject;
	reportId: string;
	reportType: string;
	quarterEnd: string;
	/** How a Date, DateTime or text with an offset was read in the workflow's time zone, when not as it shows. */
	dateNote?: string;
	binaryProperty?: string;
}

interface ReportInput {
	request: ReportRequest;
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	notes: string[];
}

interface ReportAnswer {
	document: { location_url: string; request_id?: unknown };
	metadata?: {
		snapshot_at?: unknown;
		type?: unknown;
		default_benchmark?: unknown;
		identifier?: unknown;
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// Every group is checked before the first request: a report is only asked for when all input is sound.
	const groups = (prepareGroups<ItemGroup, ReportInput>).call(
		this,
		portfolioGroups.call(this, items),
		(group) => prepareReport.call(this, items, group),
	);

	// Settings > Retry On Fail runs all of execute() again: reports already generated in this execution are not.
	const memory = (retryMemory<ReportAnswer>).call(this);
	if (retriesOnFail.call(this)) noteRetryOnFail.call(this);
	const remembered = (prepared: PreparedGroup<ItemGroup, ReportInput>) =>
		prepared.input ? memory?.get(reportTask(prepared.input.request)) : undefined;

	// One POST per report; the PDF downloads are not API requests.
	const reports = groups.filter((group) => !group.error).length;
	const toSend = groups.filter((group) => !group.error && !remembered(group)).length;
	planOneRequestEach.call(
		this,
		toSend,
		'report',
		'Group By a field with fewer distinct values (one report per group)',
	);
	/** Reports the API generated (and charged), also when their download failed afterwards. */
	const generated: string[] = [];
	const again = memory
		? `Settings > Retry On Fail does not generate ${reports === 1 ? 'it' : 'them'} again within this execution, but running the workflow again does.`
		: `running again generates ${reports === 1 ? 'it' : 'them'} anew.`;
	/** Reports sent without a clear answer (no answer, a broken one, a 504): they may have been generated. */
	const uncertain: string[] = [];
	const describeGenerated = () => {
		const named = (names: string[]) => (names.length ? ` (${listNames(names)})` : '');
		// An uncertain report is counted as such, never among the reports not generated.
		const counts = uncertain.length
			? `Of ${reports} reports, before the run stopped: ${generated.length} generated${named(generated)}, ${uncertain.length} outcome unknown (may have been generated: ${listNames(uncertain)}), ${reports - generated.length - uncertain.length} not generated`
			: `${generated.length} of ${reports} report${reports === 1 ? ' was' : 's were'} generated before the run stopped${named(generated)}`;
		return `${counts}; nothing is output when the node stops with an error, and ${again} To keep the PDFs already generated when a report fails, set Settings > On Error to "Continue".`;
	};
	let finished = 0;

	const output = await (runGroups<PreparedGroup<ItemGroup, ReportInput>>).call(
		this,
		items,
		groups,
		async (prepared) => {
			if (prepared.error) throw prepared.error;
			const { group } = prepared;
			const { request } = prepared.input!;
			const itemIndex = group.itemIndices[0];
			const task = reportTask(request);
			const kept = memory?.get(task);
			const shownGroup = describeGroupValues(group.values, 40);
			const shownName = `"${request.body.name as string}"${shownGroup ? ` (${shownGroup})` : ''}`;
			if (kept?.state === 'done') {
				generated.push(shownName);
				finished++;
				return kept.items;
			}
			if (kept?.state === 'uncertain') {
				uncertain.push(shownName);
				throw uncertainAgain(this, kept, itemIndex);
			}
			let answer: ReportAnswer;
			if (kept?.state === 'answered') {
				answer = kept.answer;
			} else {
				try {
					answer = (await apiRequest.call(this, ROUTES.reports, {
						body: request.body,
						itemIndex,
					})) as ReportAnswer;
				} catch (error) {
					if (isUncertain(error)) uncertain.push(shownName);
					if (memory && isUncertain(error)) {
						const { message, description, httpCode } = error as NodeApiError;
						memory.set(task, {
							state: 'uncertain',
							message,
							description: description ?? undefined,
							httpCode: httpCode ?? undefined,
						});
					}
					throw asNodeError(this.getNode(), error);
				}
				memory?.set(task, { state: 'answered', answer });
			}
			generated.push(shownName);
			const result = await reportItems.call(this, prepared, answer);
			memory?.set(task, { state: 'done', items: result });
			finished++;
			return result;
		},
		describeGenerated,
	);
	if (finished === groups.length) memory?.forget();
	return output;
}

/** A report request's identity within one execution: the same body (and output field) is the same report. */
function reportTask(request: ReportRequest): string {
	return JSON.stringify([request.body, request.binaryProperty ?? null]);
}

/** Whether the request went out and no one knows whether the report was generated (no answer, or a 504). */
function isUncertain(error: unknown): boolean {
	return (
		error instanceof UncertainOutcomeError || String((error as NodeApiError)?.httpCode) === '504'
	);
}

/** The uncertain outcome of an earlier try of this execution, as its error again: the request is not sent again. */
function uncertainAgain(
	context: IExecuteFunctions,
	kept: Extract<Remembered<ReportAnswer>, { state: 'uncertain' }>,
	itemIndex: number,
): NodeApiError {
	const message = kept.message;
	return new NodeApiError(context.getNode(), { message } as JsonObject, {
		message,
		description: [
			kept.description,
			'Settings > Retry On Fail did not send this report again: an earlier try of this execution sent it and got no clear answer, so it may have been generated. Check before running the workflow again.',
		]
			.filter(Boolean)
			.join('\n'),
		httpCode: kept.httpCode,
		itemIndex,
	});
}

/** The execution hint when Retry On Fail is on: what a retry does (and does not do) with reports. */
function noteRetryOnFail(this: IExecuteFunctions): void {
	addRunNote(
		this,
		'Retry On Fail is on: a retry does not generate again the reports this execution already generated (their output is kept) and does not send again a report whose outcome was unknown (it fails again with the same error), so no report is generated or charged twice.',
		'warning',
		{
			short:
				'Retry On Fail is on: a report this execution generated is never generated or charged again.',
		},
	);
}

/** Beside the link when the node runs as an AI Agent tool (the API gives the link no expiry time). */
export const REPORT_LINK_NOTE =
	"No file is attached: give the user location_url to download the PDF. The link expires soon after it is made (download it at once); a new link needs a new report, which counts against the quota. Quote request_id to the vendor's support.";

/** The report's output item, with the PDF downloaded from the answer's link when Download PDF is on. */
async function reportItems(
	this: IExecuteFunctions,
	prepared: PreparedGroup<ItemGroup, ReportInput>,
	answer: ReportAnswer,
): Promise<INodeExecutionData[]> {
	const { group } = prepared;
	const { request, holdings, removed, notes } = prepared.input!;
	const itemIndex = group.itemIndices[0];
	const requestId = findRequestId(answer) ?? null;
	// The route's contract guarantees a download link (answers.ts).
	const locationUrl = answer.document.location_url;
	const metadata = answer.metadata ?? {};
	const quarterEnd =
		typeof metadata.snapshot_at === 'string' ? metadata.snapshot_at : request.quarterEnd;
	const type = typeof metadata.type === 'string' ? metadata.type : request.reportType;

	const json: IDataObject = {
		...(group.values as IDataObject),
		name: request.body.name as string,
		report_id: request.reportId,
		type,
		snapshot_at: quarterEnd,
		snapshot_date: request.body.snapshot_at as string,
		...(request.dateNote ? { snapshot_date_note: request.dateNote } : {}),
		default_benchmark: (metadata.default_benchmark ?? null) as string | null,
		identifier: (metadata.identifier ?? null) as string | null,
		request_id: requestId,
		location_url: locationUrl,
		benchmark_index: (request.body.benchmark_index ?? null) as string | null,
		benchmark_etf_mutual_fund: (request.body.benchmark_etf_mutual_fund ?? null) as string | null,
		...(request.body.methodology_id !== undefined
			? { methodology_id: request.body.methodology_id as number }
			: {}),
		holdings_count: holdings.length,
		...removedSummary(removed, notes),
	};

	if (!request.binaryProperty) {
		json.downloaded = false;
		// An AI agent gets no file (tool mode never downloads): what it needs to pass the link on.
		if (isToolExecution(this)) json.link_note = REPORT_LINK_NOTE;
		return [{ json, pairedItem: pairedTo(group.itemIndices) }];
	}
	const pdf = await downloadReport.call(this, locationUrl, requestId, itemIndex);
	const fileName = reportFileName(request.reportId, type, quarterEnd);
	const binaryData = await this.helpers.prepareBinaryData(pdf, fileName, 'application/pdf');
	json.downloaded = true;
	json.file_name = fileName;
	json.file_size = pdf.length;
	return [
		{
			json,
			binary: { [request.binaryProperty]: binaryData },
			pairedItem: pairedTo(group.itemIndices),
		},
	];
}

/** Reads and checks a group's parameters and holdings (parameters with expressions at the group's first item). */
function prepareReport(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	group: ItemGroup,
): ReportInput {
	const node = this.getNode();
	const first = group.itemIndices[0];
	const text = (name: string, fallback = '') =>
		readTextParameter.call(this, name, first, LABELS[name] ?? name, { fallback });

	const name = text('reportName');
	if (!name)
		throw inputError(
			node,
			first,
			'Report Name is empty',
			'Give the name to show in the report, for example the portfolio name.',
		);
	const reportId = text('reportId');
	if (!reportId) {
		throw inputError(
			node,
			first,
			'Report ID is empty',
			'The API requires a label for each report, for example the portfolio identifier.',
		);
	}
	if (reportId.length > MAX_CLIENT_ID_LENGTH) {
		throw inputError(
			node,
			first,
			`Report ID is ${reportId.length} characters long ("${showValue(reportId, 40)}"); at most ${MAX_CLIENT_ID_LENGTH} are accepted`,
			'Use a short label such as the portfolio ID (it is also used in the file name), or check what is mapped to Report ID.',
		);
	}
	const reportType = text('reportType', 'esg-overview');
	if (!REPORT_TYPES.some(({ value }) => value === reportType)) {
		throw inputError(
			node,
			first,
			`Type "${showValue(reportType)}" is not a report type`,
			`Use one of: ${REPORT_TYPES.map(({ value }) => value).join(', ')}.`,
		);
	}

	const {
		date: snapshotAt,
		quarterEnd,
		note: dateNote,
	} = readSnapshotDateParameter.call(this, first, {
		emptyDefault: (timeZone) => lastCompletedQuarterEnd(new Date(), timeZone),
		invalidFix:
			'Pick a date up to today, or leave the field empty for the last completed quarter end.',
	});

	const body: IDataObject = {
		name,
		identifier: reportId,
		type: reportType,
		snapshot_at: snapshotAt,
	};
	const fundIsin = normalizeIsin(text('benchmarkFundIsin'));
	if (fundIsin) {
		if (!isValidIsin(fundIsin)) {
			throw inputError(
				node,
				first,
				`Benchmark Fund ISIN is not valid: ${describeInvalidIsin(fundIsin)}`,
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
			throw inputError(
				node,
				first,
				'Put Output File in Field is empty',
				'Give the name of the binary field for the PDF, for example data.',
			);
		}
	}

	const { holdings, removed, notes } = readHoldingsParameters.call(
		this,
		ROUTES.reports,
		items,
		group.itemIndices,
	);
	if (holdings.length === 0) {
		throw inputError(
			node,
			first,
			`no holding to put in the report${removed.length ? ` (${removed.length} row(s) removed as cash or without ISIN)` : ''}`,
			'A report needs at least one holding with an ISIN, a name, a currency, a weight and a market value.',
		);
	}
	body.holdings = holdingsBody(holdings);
	return {
		request: {
			body,
			reportId,
			reportType,
			quarterEnd,
			...(dateNote ? { dateNote } : {}),
			binaryProperty,
		},
		holdings,
		removed,
		notes,
	};
}

/**
 * Fetches the PDF from `document.location_url` through the shared client (no key, public https only, no redirect,
 * size cap, retries of dropped connections and 5xx) and words any failure: the report exists and was paid for.
 */
async function downloadReport(
	this: IExecuteFunctions,
	url: string,
	requestId: string | null,
	itemIndex: number,
): Promise<Buffer> {
	const node = this.getNode();
	const link = `Report link: ${url.length > 2000 ? `${url.slice(0, 2000)}…` : url}`;
	const support = requestId
		? `Request ID (quote it to support): ${requestId}`
		: 'The API gave no request ID.';
	const paid =
		'The report was generated and counts against the monthly quota. With the node set to continue on error (Settings > On Error), the output item keeps this link in error_details.';
	const fail = (message: string, detail: string, httpCode?: number) =>
		new NodeApiError(
			node,
			{ message, ...(requestId ? { request_id: requestId } : {}) } as JsonObject,
			{
				message,
				description: [detail, paid, link, support].join('\n'),
				httpCode: httpCode === undefined ? undefined : String(httpCode),
				itemIndex,
			},
		);
	const tries = (attempts: number) => (attempts > 1 ? ` Tried ${attempts} times.` : '');

	const result = await downloadFile.call(
		this,
		url,
		'application/pdf',
		DEFAULT_RETRY_POLICY.requestTimeoutMs,
		itemIndex,
	);
	if (result.ok) {
		if (result.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
			throw fail(
				'The report was created, but its download link did not return a PDF',
				`Got ${result.body.length} bytes of ${result.contentType || 'unknown type'}. Run the node again to generate the report anew.`,
			);
		}
		return result.body;
	}
	switch (result.reason) {
		case 'refused':
			throw fail(
				`The report was created, but its download link ${result.problem}, so it was not fetched`,
				"Report links are fetched only from https:// addresses on the public internet (the storage service's pre-signed link), never from this computer or a private network (with Allow Private Network Address on in the credential, only from the Base URL's own host). Tell the vendor which link the API gave.",
			);
		case 'redirect':
			throw fail(
				`The report was created, but its download link answered with a redirect (${result.status}) to ${result.target}. Nothing was fetched there: a report link must answer with the PDF itself.`,
				'Run the node again to generate the report anew; if it happens again, tell the vendor.',
				result.status,
			);
		case 'too-large':
			throw fail(
				`The report was created, but its download is larger than ${megabytes(MAX_DOWNLOAD_BYTES)} (${result.declared ? `announced as ${megabytes(result.bytes)}` : 'the download was stopped there'}), far more than a report, so it was not kept`,
				'Tell the vendor which link the API gave.',
			);
		case 'network':
			// The code goes in the details: NodeApiError swaps a message naming ECONNRESET & co. for a generic one.
			throw fail(
				`The report was created, but the PDF download kept failing (connection lost) after ${result.attempts} tries`,
				`Connection error: ${result.code}. The link may expire soon: run the node again to generate the report anew.`,
			);
		case 'timeout':
			throw fail(
				`The report was created, but the PDF download did not finish within ${formatSeconds(result.timeoutMs)}: the storage service sent it too slowly, so it was stopped and not kept`,
				'It was not tried again (the link may expire soon). Run the node again to generate the report anew; if it happens again, tell the vendor.',
			);
		case 'failed':
			throw fail(
				`The report was created, but downloading the PDF failed${result.code ? ` (${result.code})` : ''}`,
				'Run the node again to generate the report anew.',
			);
		case 'status': {
			const said = result.storageError ? `: ${result.storageError}` : '';
			if (result.status === 403 || result.status === 404 || result.status === 410) {
				throw fail(
					`The report was created, but its download link has expired or is no longer valid (${result.status}${said})`,
					'Report links are valid for a short time only. Run the node again to generate the report and download it at once.',
					result.status,
				);
			}
			throw fail(
				`The report was created, but the PDF download failed (${result.status}${said})`,
				`Run the node again to generate the report anew.${tries(result.attempts)}`,
				result.status,
			);
		}
	}
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
	const stem = [clean(reportId).slice(0, 100) || 'report', clean(type), clean(quarterEnd)]
		.filter(Boolean)
		.join('_');
	return `${stem}.pdf`;
}

/**
 * The index name to send: a listed one, one typed under Other Index, or any name an expression gives (vendors add
 * indices; the API refuses names it does not know, naming them). A name earlier versions listed is sent as renamed.
 */
function readBenchmarkIndex(this: IExecuteFunctions, itemIndex: number): string {
	const node = this.getNode();
	const chosen = readTextParameter.call(this, 'benchmarkIndex', itemIndex, LABELS.benchmarkIndex, {
		fallback: DEFAULT_BENCHMARK,
	});
	let index = chosen || DEFAULT_BENCHMARK;
	let label = LABELS.benchmarkIndex;
	if (chosen === OTHER_BENCHMARK) {
		label = LABELS.benchmarkIndexName;
		index = readTextParameter.call(this, 'benchmarkIndexName', itemIndex, label);
		if (!index) {
			throw inputError(
				node,
				itemIndex,
				'Benchmark Index Name is empty',
				`Type the index name exactly as the vendor writes it, or pick an index from the Benchmark list (${BENCHMARK_INDICES.join(', ')}).`,
			);
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

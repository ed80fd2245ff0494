import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
} from 'n8n-workflow';

import { parameterBuilderHint } from '../../shared/ui/builderHints';
import { BENCHMARK_INDICES, REPORT_TYPES } from '../../shared/base/constants';
import {
	groupByProperty,
	holdingsOptions,
	holdingsProperties,
	methodologyProperty,
} from '../../shared/ui/descriptions';
import { asNodeError } from '../../shared/api/errors';
import { isCarriedOut } from '../../shared/api/answers';
import { prepareGroups, runGroups } from '../../shared/run/execution';
import type { PreparedGroup } from '../../shared/run/execution';
import { describeGroupValues, portfolioGroups } from '../../shared/input/grouping';
import type { ItemGroup } from '../../shared/input/grouping';
import { planOneRequestEach } from '../../shared/run/requestPlan';
import { rememberedFailure, retriesOnFail, retryMemory } from '../../shared/base/retryMemory';
import type { RetryMemory } from '../../shared/base/retryMemory';
import { ROUTES } from '../../shared/api/routes';
import { apiRequest } from '../../shared/api/transport';
import { reportItems } from './reportItems';
import {
	isUncertain,
	noteRetryOnFail,
	ReportTally,
	reportTask,
	uncertainAgain,
} from './reportOutcome';
import type { ReportAnswer } from './reportOutcome';
import { DEFAULT_BENCHMARK, OTHER_BENCHMARK, prepareReport } from './reportRequest';
import type { ReportInput, ReportRequest } from './reportRequest';

const displayOptions = { show: { operation: ['generatePdfReport'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Report Name',
		name: 'reportName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Balanced Fund Q3 2025',
		description: 'Name shown in the report, for example the portfolio or client name',
	},
	{
		displayName: 'Report ID',
		name: 'reportId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. balanced-fund',
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
			'Date of the holdings; the report uses the end of its quarter. Leave empty for the last completed quarter end. Dates in a future year are refused. A date and time (a JS Date, a DateTime, a text with Z or an offset) that falls in two quarters depending on the time zone is used only when it is exactly midnight in one of them, else refused: map a YYYY-MM-DD text to be sure.',
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
		placeholder: 'e.g. IE00B5BMR087',
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

type PreparedReport = PreparedGroup<ItemGroup, ReportInput>;

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
	const remembered = (prepared: PreparedReport) =>
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
	const tally = new ReportTally(reports, memory !== undefined);
	let finished = 0;

	const output = await (runGroups<PreparedReport>).call(
		this,
		items,
		groups,
		async (prepared) => {
			if (prepared.error) throw prepared.error;
			const result = await generateReport.call(this, prepared, memory, tally);
			finished++;
			return result;
		},
		() => tally.describe(),
	);
	if (finished === groups.length) memory?.forget();
	return output;
}

/**
 * One group's report: what an earlier try of this execution (Retry On Fail) left, else the request, then its output
 * item (with the PDF when Download PDF is on).
 */
async function generateReport(
	this: IExecuteFunctions,
	prepared: PreparedReport,
	memory: RetryMemory<ReportAnswer> | undefined,
	tally: ReportTally,
): Promise<INodeExecutionData[]> {
	const { group } = prepared;
	const { request } = prepared.input!;
	const itemIndex = group.itemIndices[0];
	const task = reportTask(request);
	const kept = memory?.get(task);
	const shownGroup = describeGroupValues(group.values, 40);
	const shownName = `"${request.body.name as string}"${shownGroup ? ` (${shownGroup})` : ''}`;
	if (kept?.state === 'done') {
		tally.generated.push(shownName);
		return kept.items;
	}
	const unreadable = `${shownName} [its answer unreadable, no link]`;
	if (kept?.state === 'uncertain' || kept?.state === 'carried-out') {
		if (kept.state === 'uncertain') tally.uncertain.push(shownName);
		else tally.generated.push(unreadable);
		throw uncertainAgain(this, kept, itemIndex);
	}
	const answer =
		kept?.state === 'answered'
			? kept.answer
			: await requestReport.call(this, request, itemIndex, memory, (carriedOut) =>
					carriedOut ? tally.generated.push(unreadable) : tally.uncertain.push(shownName),
				);
	tally.generated.push(shownName);
	const result = await reportItems.call(this, prepared, answer);
	memory?.set(task, { state: 'done', items: result });
	return result;
}

/**
 * Sends the report request once. An answer is remembered for Retry On Fail; so is an uncertain outcome and a 2xx
 * whose answer cannot be read (`onNotSendable` is told which), which a retry reports again instead of sending it.
 */
async function requestReport(
	this: IExecuteFunctions,
	request: ReportRequest,
	itemIndex: number,
	memory: RetryMemory<ReportAnswer> | undefined,
	onNotSendable: (carriedOut: boolean) => void,
): Promise<ReportAnswer> {
	const task = reportTask(request);
	let answer: ReportAnswer;
	try {
		answer = (await apiRequest.call(this, ROUTES.reports, {
			body: request.body,
			itemIndex,
		})) as ReportAnswer;
	} catch (error) {
		const carriedOut = isCarriedOut(error);
		if (carriedOut || isUncertain(error)) {
			onNotSendable(carriedOut);
			memory?.set(
				task,
				rememberedFailure(carriedOut ? 'carried-out' : 'uncertain', error as NodeApiError),
			);
		}
		throw asNodeError(this.getNode(), error);
	}
	memory?.set(task, { state: 'answered', answer });
	return answer;
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { findRequestId } from '../../shared/api/errors';
import type { PreparedGroup } from '../../shared/run/execution';
import { pairedTo } from '../../shared/run/execution';
import type { ItemGroup } from '../../shared/input/grouping';
import { removedSummary } from '../../shared/input/holdings';
import { isToolExecution } from '../../shared/run/tool';
import { downloadReport } from './reportDownload';
import type { ReportAnswer } from './reportOutcome';
import type { ReportInput } from './reportRequest';

/** Beside the link when the node runs as an AI Agent tool (the API gives the link no expiry time). */
export const REPORT_LINK_NOTE =
	"No file is attached: give the user location_url to download the PDF. The link expires soon after it is made (download it at once); a new link needs a new report, which counts against the quota. Quote request_id to the vendor's support.";

/** The report's output item, with the PDF downloaded from the answer's link when Download PDF is on. */
export async function reportItems(
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

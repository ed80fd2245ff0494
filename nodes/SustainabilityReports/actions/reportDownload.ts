import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';

import { downloadFile, MAX_DOWNLOAD_BYTES } from '../../shared/api/httpClient';
import type { DownloadResult } from '../../shared/api/httpClient';
import { DEFAULT_RETRY_POLICY, megabytes } from '../../shared/api/transport';
import { formatSeconds } from '../../shared/base/values';

/**
 * Fetches the PDF from `document.location_url` through the shared client (no key, public https only, no redirect,
 * size cap, retries of dropped connections and 5xx) and words any failure: the report exists and was paid for.
 */
export async function downloadReport(
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
	throw fail(...downloadFailure(result));
}

const tries = (attempts: number) => (attempts > 1 ? ` Tried ${attempts} times.` : '');

/** A failed download in plain words: the message, what to do, and the storage service's status if it gave one. */
function downloadFailure(
	result: Exclude<DownloadResult, { ok: true }>,
): [message: string, detail: string, httpCode?: number] {
	switch (result.reason) {
		case 'refused':
			return [
				// The reason stays in the title when it fits; a long one follows the colon in the description.
				`The report was created, but its download link was not fetched: it ${result.problem}`,
				"Report links are fetched only from https:// addresses on the public internet (the storage service's pre-signed link), never from this computer or a private network (with Allow Private Network Address on in the credential, only from the Base URL's own host). Tell the vendor which link the API gave.",
			];
		case 'redirect':
			return [
				`The report was created, but its download link answered with a redirect (${result.status}) to ${result.target}. Nothing was fetched there: a report link must answer with the PDF itself.`,
				'Run the node again to generate the report anew; if it happens again, tell the vendor.',
				result.status,
			];
		case 'too-large':
			return [
				`The report was created, but its download is larger than ${megabytes(MAX_DOWNLOAD_BYTES)} (${result.declared ? `announced as ${megabytes(result.bytes)}` : 'the download was stopped there'}), far more than a report, so it was not kept`,
				'Tell the vendor which link the API gave.',
			];
		case 'network':
			// The code goes in the details: NodeApiError swaps a message naming ECONNRESET & co. for a generic one.
			return [
				`The report was created, but the PDF download kept failing (connection lost) after ${result.attempts} tries`,
				`Connection error: ${result.code}. The link may expire soon: run the node again to generate the report anew.`,
			];
		case 'timeout':
			return [
				`The report was created, but the PDF download did not finish within ${formatSeconds(result.timeoutMs)}: the storage service sent it too slowly, so it was stopped and not kept`,
				'It was not tried again (the link may expire soon). Run the node again to generate the report anew; if it happens again, tell the vendor.',
			];
		case 'failed':
			return [
				`The report was created, but downloading the PDF failed${result.code ? ` (${result.code})` : ''}`,
				'Run the node again to generate the report anew.',
			];
		case 'status': {
			// The storage service's words go below the title: they are long and may hold colons of their own.
			const said = result.storageError
				? `The storage service answered: ${result.storageError.replace(/\.?$/, '.')} `
				: '';
			if (result.status === 403 || result.status === 404 || result.status === 410) {
				return [
					`The report was created, but its download link has expired or is no longer valid (${result.status})`,
					`${said}Report links are valid for a short time only. Run the node again to generate the report and download it at once.`,
					result.status,
				];
			}
			return [
				`The report was created, but the PDF download failed (${result.status})`,
				`${said}Run the node again to generate the report anew.${tries(result.attempts)}`,
				result.status,
			];
		}
	}
}

import type { IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { listNames } from '../../shared/run/execution';
import { addRunNote } from '../../shared/base/hints';
import { failedAgain } from '../../shared/base/retryMemory';
import type { RememberedFailure } from '../../shared/base/retryMemory';
import { UncertainOutcomeError } from '../../shared/api/transport';
import type { ReportRequest } from './reportRequest';

export interface ReportAnswer {
	document: { location_url: string; request_id?: unknown };
	metadata?: {
		snapshot_at?: unknown;
		type?: unknown;
		default_benchmark?: unknown;
		identifier?: unknown;
	};
}

/** A report request's identity within one execution: the same body (and output field) is the same report. */
export function reportTask(request: ReportRequest): string {
	return JSON.stringify([request.body, request.binaryProperty ?? null]);
}

/** Whether the request went out and no one knows whether the report was generated (no answer, or a 504). */
export function isUncertain(error: unknown): boolean {
	return (
		error instanceof UncertainOutcomeError || String((error as NodeApiError)?.httpCode) === '504'
	);
}

/**
 * The outcome of an earlier try of this execution that must not be sent again, as its error again: uncertain (it may
 * have been generated) or carried out (generated, its answer unreadable).
 */
export function uncertainAgain(
	context: IExecuteFunctions,
	kept: RememberedFailure,
	itemIndex: number,
): NodeApiError {
	return failedAgain(
		context,
		kept,
		itemIndex,
		kept.state === 'carried-out'
			? 'Settings > Retry On Fail did not send this report again: an earlier try of this execution sent it and the API answered with success, so it was generated (and charged), but its answer could not be read.'
			: 'Settings > Retry On Fail did not send this report again: an earlier try of this execution sent it and got no clear answer, so it may have been generated. Check before running the workflow again.',
	);
}

/** The execution hint when Retry On Fail is on: what a retry does (and does not do) with reports. */
export function noteRetryOnFail(this: IExecuteFunctions): void {
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

/** What became of the run's reports so far, for the error when the run stops before the end. */
export class ReportTally {
	/**
	 * Reports the API generated (and charged), also when their download failed afterwards or their answer (a 2xx)
	 * could not be read.
	 */
	readonly generated: string[] = [];
	/** Reports sent without a clear answer (no answer, a broken one, a 504): they may have been generated. */
	readonly uncertain: string[] = [];

	/** `reports`: how many the run asks for; `remembers`: Retry On Fail keeps what this execution generated. */
	constructor(
		private readonly reports: number,
		private readonly remembers: boolean,
	) {}

	describe(): string {
		const { reports, generated, uncertain } = this;
		const again = this.remembers
			? `Settings > Retry On Fail does not generate ${reports === 1 ? 'it' : 'them'} again within this execution, but running the workflow again does.`
			: `running again generates ${reports === 1 ? 'it' : 'them'} anew.`;
		const named = (names: string[]) => (names.length ? ` (${listNames(names)})` : '');
		// An uncertain report is counted as such, never among the reports not generated.
		const counts = uncertain.length
			? `Of ${reports} reports, before the run stopped: ${generated.length} generated${named(generated)}, ${uncertain.length} outcome unknown (may have been generated: ${listNames(uncertain)}), ${reports - generated.length - uncertain.length} not generated`
			: `${generated.length} of ${reports} report${reports === 1 ? ' was' : 's were'} generated before the run stopped${named(generated)}`;
		return `${counts}; nothing is output when the node stops with an error, and ${again} To keep the PDFs already generated when a report fails, set Settings > On Error to "Continue".`;
	}
}

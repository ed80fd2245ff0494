import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { SnapshotDate } from '../../shared/input/dates';
import { requestOptions } from '../../shared/ui/descriptions';
import { readSnapshotDateParameter } from '../../shared/input/parameters';
import { ROUTES } from '../../shared/api/routes';
import { noteUnknownOutcome, readOutcome } from '../../shared/api/answers';
import { apiRequestSettled } from '../../shared/run/settle';
import {
	perItem,
	portfolioLocator,
	readPortfolioIdentifier,
	responseIdentifier,
	responseMessage,
} from './common';

const displayOptions = { show: { operation: ['deleteSnapshot'] } };

const properties: INodeProperties[] = [
	portfolioLocator,
	{
		displayName: 'Snapshot Date',
		name: 'snapshotDate',
		type: 'dateTime',
		default: '',
		required: true,
		description:
			'Any date in the quarter whose snapshot to delete (snapshots are stored at quarter ends). Deleting the last listed snapshot deletes the portfolio. A date and time (a JS Date, a DateTime, a text with Z or an offset) that falls in two quarters depending on the time zone is used only when it is exactly midnight in one of them, else refused: map a YYYY-MM-DD text to be sure.',
		hint: 'Any date in the quarter to delete. Deleting the only remaining snapshot deletes the whole portfolio.',
	},
	requestOptions,
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

export type DeleteOutcome = 'snapshot_deleted' | 'portfolio_deleted' | 'not_found' | 'unknown';

/** DELETE per input item: each item may name another portfolio and quarter. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (perItem<{ identifier: string; snapshot: SnapshotDate }>).call(
		this,
		items,
		(itemIndex) => ({
			identifier: readPortfolioIdentifier.call(this, itemIndex),
			snapshot: readSnapshotDateParameter.call(this, itemIndex),
		}),
		async ({ identifier, snapshot }, itemIndex) => {
			const { body, settled } = await (apiRequestSettled<IDataObject>).call(
				this,
				ROUTES.deleteSnapshot,
				{ portfolioId: identifier, quarterEnd: snapshot.quarterEnd },
				{ identifier, body: { snapshot_at: snapshot.date }, itemIndex },
			);
			const message = settled ? settled.message : responseMessage(body);
			const outcome = (
				settled ? settled.outcome : readOutcome(ROUTES.deleteSnapshot, message).outcome
			) as DeleteOutcome;
			if (outcome === 'unknown') {
				noteUnknownOutcome.call(
					this,
					`Item ${itemIndex}`,
					`the deletion of the snapshot of "${identifier}" at ${snapshot.quarterEnd}`,
					message,
				);
			}
			return {
				identifier: responseIdentifier(body, identifier),
				outcome,
				message,
				quarter_end: snapshot.quarterEnd,
				snapshot_date: snapshot.date,
				...(snapshot.note ? { snapshot_date_note: snapshot.note } : {}),
			};
		},
	);
}

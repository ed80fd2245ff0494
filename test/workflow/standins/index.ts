/**
 * Test-only stand-ins for the n8n core nodes the example workflows (and the chain builder's pinned Input, a No
 * Operation node) use, see each file's header for the subset it implements. Keyed by the real node type names.
 * Rows for a node under test come from pinned data (test/helpers/workflows.ts), not from a Code node.
 */
import type { INodeType } from 'n8n-workflow';

import { ConvertToFileStandIn } from './ConvertToFile';
import { DataTableStandIn } from './DataTable';
import { EmailSendStandIn } from './EmailSend';
import { IfStandIn } from './If';
import { ManualTriggerStandIn } from './ManualTrigger';
import { MergeStandIn } from './Merge';
import { NoOpStandIn } from './NoOp';
import { ScheduleTriggerStandIn } from './ScheduleTrigger';
import { SetStandIn } from './Set';
import { SplitOutStandIn } from './SplitOut';

export { takeRecordedEmails } from './EmailSend';
export { dataTableRows, resetDataTables } from './DataTable';
export type { RecordedAttachment, RecordedEmail } from './EmailSend';

export function createStandIns(): Record<string, INodeType> {
	return {
		'n8n-nodes-base.manualTrigger': new ManualTriggerStandIn(),
		'n8n-nodes-base.scheduleTrigger': new ScheduleTriggerStandIn(),
		'n8n-nodes-base.set': new SetStandIn(),
		'n8n-nodes-base.emailSend': new EmailSendStandIn(),
		'n8n-nodes-base.noOp': new NoOpStandIn(),
		'n8n-nodes-base.splitOut': new SplitOutStandIn(),
		'n8n-nodes-base.if': new IfStandIn(),
		'n8n-nodes-base.merge': new MergeStandIn(),
		'n8n-nodes-base.convertToFile': new ConvertToFileStandIn(),
		// Always the stand-in: the real node needs n8n's data table service (test/workflow/standins/DataTable.ts).
		'n8n-nodes-base.dataTable': new DataTableStandIn(),
	};
}

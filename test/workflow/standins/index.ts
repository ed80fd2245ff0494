/**
 * Test-only stand-ins for the n8n core nodes the example workflows use (see each file's header
 * for the subset it implements). Keyed by the real node type names.
 */
import type { INodeType } from 'n8n-workflow';

import { CodeStandIn } from './Code';
import { EmailSendStandIn } from './EmailSend';
import { ManualTriggerStandIn } from './ManualTrigger';
import { MergeStandIn } from './Merge';
import { NoOpStandIn } from './NoOp';
import { ScheduleTriggerStandIn } from './ScheduleTrigger';
import { SetStandIn } from './Set';
import { SplitOutStandIn } from './SplitOut';

export { takeRecordedEmails } from './EmailSend';
export type { RecordedAttachment, RecordedEmail } from './EmailSend';

export function createStandIns(): Record<string, INodeType> {
	return {
		'n8n-nodes-base.manualTrigger': new ManualTriggerStandIn(),
		'n8n-nodes-base.scheduleTrigger': new ScheduleTriggerStandIn(),
		'n8n-nodes-base.set': new SetStandIn(),
		'n8n-nodes-base.code': new CodeStandIn(),
		'n8n-nodes-base.emailSend': new EmailSendStandIn(),
		'n8n-nodes-base.merge': new MergeStandIn(),
		'n8n-nodes-base.noOp': new NoOpStandIn(),
		'n8n-nodes-base.splitOut': new SplitOutStandIn(),
	};
}

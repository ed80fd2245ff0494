/* eslint-disable @n8n/community-nodes/require-node-api-error, @n8n/community-nodes/node-usable-as-tool
	-- stand-in for n8n's Send Email node, rethrows its errors */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.emailSend` ("Send Email" v2 / v2.1,
 * operation 'send'). The workflow test harness (test/workflow/runner.ts) ALWAYS uses this stand-in:
 * it NEVER sends anything and never reads the `smtp` credential the workflow may reference.
 *
 * Parameters are the real node's (packages/nodes-base/nodes/EmailSend/v2/send.operation.ts):
 * fromEmail, toEmail, subject, emailFormat ('text' | 'html' | 'both'; default 'html' in v2.1,
 * 'text' in v2), text, html, and options { appendAttribution, attachments, ccEmail, bccEmail,
 * allowUnauthorizedCerts, replyTo }. `options.attachments` is, as in n8n, a comma separated list
 * of binary property names of the input item; each must exist (n8n's `assertBinaryData`) and
 * is read with `getBinaryDataBuffer`.
 *
 * Each email it would send is recorded (see `takeRecordedEmails`; the runner returns them as
 * `result.emails`) and the node outputs, per input item,
 * `{ to, subject, attachments: [{ fileName, mimeType, size }] }` with pairedItem `{ item: i }`
 * (the real node outputs nodemailer's send info instead).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

export interface RecordedAttachment {
	/** binary property name (the real node uses it as the attachment's cid) */
	property: string;
	fileName: string;
	mimeType: string;
	size: number;
	content: Buffer;
}

export interface RecordedEmail {
	node: string;
	itemIndex: number;
	from: string;
	to: string;
	cc?: string;
	bcc?: string;
	replyTo?: string;
	subject: string;
	emailFormat: string;
	text?: string;
	html?: string;
	appendAttribution: boolean;
	attachments: RecordedAttachment[];
}

const recorded = new Map<string, RecordedEmail[]>();

/** Returns and forgets the emails recorded during the execution `executionId`. */
export function takeRecordedEmails(executionId: string): RecordedEmail[] {
	const emails = recorded.get(executionId) ?? [];
	recorded.delete(executionId);
	return emails;
}

interface EmailSendOptions {
	appendAttribution?: boolean;
	attachments?: string;
	ccEmail?: string;
	bccEmail?: string;
	allowUnauthorizedCerts?: boolean;
	replyTo?: string;
}

const sendOnly = { show: { resource: ['email'], operation: ['send'] } };

export class EmailSendStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Send Email',
		name: 'emailSend',
		icon: 'fa:envelope',
		group: ['output'],
		version: [2, 2.1],
		description: 'Sends an email using SMTP protocol (test-only stand-in: records, never sends)',
		defaults: { name: 'Send Email', color: '#00bb88' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'smtp', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'hidden',
				noDataExpression: true,
				default: 'email',
				options: [{ name: 'Email', value: 'email' }],
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'send',
				options: [
					{ name: 'Send', value: 'send' },
					{ name: 'Send and Wait for Response', value: 'sendAndWait' },
				],
			},
			{
				displayName: 'From Email',
				name: 'fromEmail',
				type: 'string',
				default: '',
				required: true,
				displayOptions: sendOnly,
			},
			{
				displayName: 'To Email',
				name: 'toEmail',
				type: 'string',
				default: '',
				required: true,
				displayOptions: sendOnly,
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				displayOptions: sendOnly,
			},
			{
				displayName: 'Email Format',
				name: 'emailFormat',
				type: 'options',
				options: [
					{ name: 'Text', value: 'text' },
					{ name: 'HTML', value: 'html' },
					{ name: 'Both', value: 'both' },
				],
				default: 'html',
				displayOptions: { ...sendOnly, hide: { '@version': [2] } },
			},
			{
				displayName: 'Email Format',
				name: 'emailFormat',
				type: 'options',
				options: [
					{ name: 'Text', value: 'text' },
					{ name: 'HTML', value: 'html' },
					{ name: 'Both', value: 'both' },
				],
				default: 'text',
				displayOptions: { show: { ...sendOnly.show, '@version': [2] } },
			},
			{
				displayName: 'Text',
				name: 'text',
				type: 'string',
				default: '',
				displayOptions: { show: { ...sendOnly.show, emailFormat: ['text', 'both'] } },
			},
			{
				displayName: 'HTML',
				name: 'html',
				type: 'string',
				default: '',
				displayOptions: { show: { ...sendOnly.show, emailFormat: ['html', 'both'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: sendOnly,
				options: [
					{
						displayName: 'Append n8n Attribution',
						name: 'appendAttribution',
						type: 'boolean',
						default: true,
					},
					{ displayName: 'Attachments', name: 'attachments', type: 'string', default: '' },
					{ displayName: 'CC Email', name: 'ccEmail', type: 'string', default: '' },
					{ displayName: 'BCC Email', name: 'bccEmail', type: 'string', default: '' },
					{
						displayName: 'Ignore SSL Issues (Insecure)',
						name: 'allowUnauthorizedCerts',
						type: 'boolean',
						default: false,
					},
					{ displayName: 'Reply To', name: 'replyTo', type: 'string', default: '' },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation !== 'send') {
			throw new NodeOperationError(
				node,
				`The Send Email stand-in of the test harness implements operation "send" only (got "${operation}")`,
			);
		}
		const items = this.getInputData();
		const returnData: INodeExecutionData[] = [];
		const sink = recorded.get(this.getExecutionId()) ?? [];
		recorded.set(this.getExecutionId(), sink);

		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const from = this.getNodeParameter('fromEmail', itemIndex) as string;
				const to = this.getNodeParameter('toEmail', itemIndex) as string;
				const subject = this.getNodeParameter('subject', itemIndex) as string;
				const emailFormat = this.getNodeParameter('emailFormat', itemIndex) as string;
				const options = this.getNodeParameter('options', itemIndex, {}) as EmailSendOptions;

				const email: RecordedEmail = {
					node: node.name,
					itemIndex,
					from,
					to,
					cc: options.ccEmail || undefined,
					bcc: options.bccEmail || undefined,
					replyTo: options.replyTo || undefined,
					subject,
					emailFormat,
					appendAttribution: options.appendAttribution ?? node.typeVersion >= 2.1,
					attachments: [],
				};
				if (emailFormat === 'text' || emailFormat === 'both') {
					email.text = this.getNodeParameter('text', itemIndex, '') as string;
				}
				if (emailFormat === 'html' || emailFormat === 'both') {
					email.html = this.getNodeParameter('html', itemIndex, '') as string;
				}

				if (options.attachments && items[itemIndex].binary) {
					const properties = options.attachments.split(',').map((name) => name.trim());
					for (const property of properties) {
						const binaryData = this.helpers.assertBinaryData(itemIndex, property);
						const content = await this.helpers.getBinaryDataBuffer(itemIndex, property);
						email.attachments.push({
							property,
							fileName: binaryData.fileName || 'unknown',
							mimeType: binaryData.mimeType,
							size: content.length,
							content,
						});
					}
				}

				sink.push(email);
				returnData.push({
					json: {
						to,
						subject,
						attachments: email.attachments.map(({ fileName, mimeType, size }) => ({
							fileName,
							mimeType,
							size,
						})) as IDataObject[],
					},
					pairedItem: { item: itemIndex },
				});
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({
						json: { error: (error as Error).message },
						pairedItem: { item: itemIndex },
					});
					continue;
				}
				if (error instanceof NodeOperationError) throw error;
				throw new NodeOperationError(node, error as Error, { itemIndex });
			}
		}
		return [returnData];
	}
}

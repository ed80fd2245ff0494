/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/icon-validation,
	@n8n/community-nodes/require-node-description-fields -- bench-only node, never shipped */
/**
 * BENCH-ONLY node: "a node without our backoff". Sends the input's `isin` fields to an /instruments/* path in
 * batches of `batchSize`, one plain request per batch through n8n's httpRequestWithAuthentication (our credential),
 * in order, and throws on the first non-2xx answer: what a user gets from an HTTP Request node (or a node that only
 * relies on n8n's node-level Retry On Fail) when the API throttles. Output: one item per batch.
 */
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';

export const PLAIN_REQUEST_TYPE = 'bench.plainRequest';

export class PlainRequest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Plain Request (bench)',
		name: 'plainRequest',
		group: ['transform'],
		version: 1,
		description: 'Bench-only: one request per batch, no retry of its own',
		defaults: { name: 'Plain Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sustainabilityComplianceApi', required: true }],
		properties: [
			{
				displayName: 'Path',
				name: 'path',
				type: 'string',
				default: '/instruments/sustainability-profile',
			},
			{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 10 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const path = this.getNodeParameter('path', 0) as string;
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>(
			'sustainabilityComplianceApi',
		);
		const out: INodeExecutionData[] = [];
		for (let start = 0; start < items.length; start += batchSize) {
			const batch = items.slice(start, start + batchSize);
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'sustainabilityComplianceApi',
				{
					method: 'POST',
					url: `${String(baseUrl).replace(/\/+$/, '')}${path}`,
					body: { holdings: batch.map((item) => ({ isin: item.json.isin })) },
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				},
			)) as { statusCode: number; body: IDataObject };
			if (response.statusCode < 200 || response.statusCode >= 300) {
				throw new NodeApiError(this.getNode(), (response.body ?? {}) as JsonObject, {
					message: `HTTP ${response.statusCode}`,
					httpCode: String(response.statusCode),
				});
			}
			const data = (response.body?.data ?? []) as IDataObject[];
			out.push({
				json: { batch: start / batchSize, count: data.length },
				pairedItem: batch.map((_, index) => ({ item: start + index })),
			});
		}
		return [out];
	}
}

/**
 * The credential's Test button, run the way n8n's CredentialsTester.runRequestTest does it (packages/cli
 * credentials-tester.service.js, 2.20 and 2.41): the declarative `test.request` becomes the routing of a
 * throw-away node property and goes through n8n-core's RoutingNode (so through httpRequestWithAuthentication
 * and n8n's HTTP client); `responseSuccessBody` rules are checked on an answer that did not throw; a thrown
 * error gives its message. test/e2e/credential-test.ts runs the same cases inside a real `n8n start`.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { Workflow, createEmptyRunExecutionData } from 'n8n-workflow';

import { SustainabilityComplianceApi } from '../../credentials/SustainabilityComplianceApi.credentials';
import {
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
	contextAdditionalData,
} from '../workflow/credentials-helper';
import { HarnessNodeTypes } from '../workflow/node-types';

export const credential = new SustainabilityComplianceApi();
const TYPE = credential.name;

/** lodash.get with a dot path, as the CLI applies a responseSuccessBody rule. */
function get(value: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>(
			(at, key) =>
				at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined,
			value,
		);
}

/** What the dialog shows: `{ status, message }`, as CredentialsTester.runRequestTest computes it. */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const testRequest = credential.test;
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'tempCredentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'tempCredentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [TYPE]: { id: 'c1', name: 'Test' } },
	};
	const nodeTypes = new HarnessNodeTypes().add('tempCredentialTest', nodeType);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const credentialsHelper = new HarnessCredentialsHelper(new HarnessCredentialTypes([credential]), {
		[TYPE]: data,
	});
	const additionalData = contextAdditionalData(credentialsHelper, node.parameters);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, {
		id: 'c1',
		name: 'Test',
		type: TYPE,
		data,
	});
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status)
					return { status: 'Error', message: rule.properties.message };
			}
			if (status < 199 || status > 299)
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		if (get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

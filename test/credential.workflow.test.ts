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
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, createEmptyRunExecutionData } from 'n8n-workflow';

import { SustainabilityComplianceApi } from '../credentials/SustainabilityComplianceApi.credentials';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from './workflow/credentials-helper';
import { HarnessNodeTypes } from './workflow/node-types';
import { useSimulator } from './helpers/simulator';

const credential = new SustainabilityComplianceApi();
const TYPE = credential.name;

const sim = useSimulator();

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
async function testCredential(
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
	const additionalData = {
		credentialsHelper,
		currentNodeParameters: node.parameters,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
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

describe('credential test (n8n-core RoutingNode, as the Test button)', () => {
	it('a valid key against the simulator: Connection successful!', async () => {
		expect(await testCredential({ apiKey: 'sim-all-families', baseUrl: sim.url })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
	});

	it.each(['http://localhost:PORT', 'http://127.0.0.1:PORT/'])(
		'http:// to loopback (%s) stays allowed, for a local simulator',
		async (pattern) => {
			const result = await testCredential({
				apiKey: 'sim-all-families',
				baseUrl: pattern.replace('PORT', new URL(sim.url).port),
			});
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		},
	);

	it('an unknown key: the gateway sentence', async () => {
		const result = await testCredential({ apiKey: 'not-a-key', baseUrl: sim.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/does not know this key/);
	});

	// 0.0.0.0 reaches the simulator's 127.0.0.1 listener on Linux, but it is not a loopback name: the key would travel.
	it.each(['http://0.0.0.0:PORT', ' HTTP://0.0.0.0:PORT/ '])(
		'http:// to a host that is not loopback (%j): refused, nothing sent, the message says to use https',
		async (pattern) => {
			const result = await testCredential({
				apiKey: 'sim-all-families',
				baseUrl: pattern.replace('PORT', new URL(sim.url).port),
			});
			expect(sim.requestCount()).toBe(0);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/must start with https:\/\/.*nothing was sent/i);
		},
	);

	it.each(['302', '307'] as const)(
		'a %s answer is not followed: the key never reaches the redirect target',
		async (kind) => {
			sim.setFaults('GET /portfolios', { sequence: [kind] });
			const result = await testCredential({ apiKey: 'sim-all-families', baseUrl: sim.url });
			expect(sim.requestCount({ route: 'GET /portfolios' })).toBe(1);
			expect(sim.downloads()).toEqual([]);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/did not answer like the Sustainability Compliance API/);
		},
	);
});

describe('credential dialog: the notice under Base URL', () => {
	const notice = credential.properties.find((property) => property.name === 'plainHttpNotice')!;
	it.each([
		['http://api.example.com', true],
		['HTTP://api.example.com/', true],
		[' http://10.0.0.1:8080', true],
		['http://localhost.example.com', true],
		['http://0.0.0.0:4010', true],
		['http://localhost:4010', false],
		['http://127.0.0.1:9/', false],
		['http://[::1]:4010', false],
		['https://api.example.com', false],
		['', false],
	])('%j: shown %s', (baseUrl, shown) => {
		expect(NodeHelpers.displayParameter({ baseUrl }, notice, null, null)).toBe(shown);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Proves the workflow test harness (test/workflow/runner.ts) with a test-only node
 * (test/workflow/fixtures/EchoHttp.node.ts) against a local echo server, and checks the
 * behaviour of the n8n core nodes the harness provides — the test-only stand-ins, and the real
 * n8n-nodes-base nodes when an n8n install is found (same expectations for both).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeParameters,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { HarnessCredentialTypes, HarnessCredentialsHelper } from './workflow/credentials-helper';
import { EchoHttp } from './workflow/fixtures/EchoHttp.node';
import {
	HarnessNodeTypes,
	findN8nNodesBase,
	loadCoreNodes,
	projectN8nNodesBase,
} from './workflow/node-types';
import { supportedN8nVersions } from './e2e/lib';
import { PACKAGE_NAME, loadWorkflowFile, runWorkflow } from './workflow/runner';
import type { RunWorkflowOptions, WorkflowInput } from './workflow/runner';

const ECHO = `${PACKAGE_NAME}.echoHttp`;
const CREDENTIAL_REF = {
	sustainabilityComplianceApi: { id: 'cred-from-json', name: 'Whatever the JSON says' },
};

let server: Server;
let baseUrl: string;
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			received.push({ url: req.url ?? '', headers: req.headers });
			const send = (status: number, payload: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(payload));
			};
			if (req.url?.startsWith('/fail')) return send(500, { message: 'boom' });
			if (req.url?.startsWith('/slow'))
				return void setTimeout(() => send(200, { late: true }), 10_000);
			send(200, {
				method: req.method,
				url: req.url,
				headers: req.headers,
				body: body ? JSON.parse(body) : null,
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

// ---------------------------------------------------------------------------------------------
// Small workflow builders (the JSON shape n8n exports)

function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: IDataObject = {},
	extra: Partial<INode> = {},
): INode {
	return {
		id: name.toLowerCase().replace(/\W+/g, '-'),
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters: parameters as INodeParameters,
		...extra,
	};
}

/** connections from [from, to, (input index)] triples */
function connect(...links: Array<[string, string, number?]>): IConnections {
	const connections: IConnections = {};
	for (const [from, to, index = 0] of links) {
		connections[from] ??= { main: [[]] };
		connections[from].main[0]!.push({ node: to, type: 'main', index });
	}
	return connections;
}

const trigger = () => node('Trigger', 'n8n-nodes-base.manualTrigger', 1);
/** A No Operation node whose output the workflow pins (n8n's pinData). */
const input = (name = 'Input') => node(name, 'n8n-nodes-base.noOp', 1);
const pin = (items: IDataObject[], name = 'Input') => ({ [name]: items.map((json) => ({ json })) });
const echo = (parameters: IDataObject = {}, extra: Partial<INode> = {}) =>
	node('Echo', ECHO, 1, parameters, { credentials: CREDENTIAL_REF, ...extra });

/** Trigger -> Echo, the smallest workflow of the harness tests. */
const triggerAndEcho = (echoNode = echo()): WorkflowInput => ({
	nodes: [trigger(), echoNode],
	connections: connect(['Trigger', 'Echo']),
});

function options(extra: RunWorkflowOptions = {}): RunWorkflowOptions {
	return {
		credentials: { sustainabilityComplianceApi: { apiKey: 'key-123', baseUrl } },
		nodeTypes: { [ECHO]: new EchoHttp() },
		...extra,
	};
}

// ---------------------------------------------------------------------------------------------

describe('runWorkflow with a node calling httpRequestWithAuthentication', () => {
	test('the generic credential is applied (x-api-key arrives) and outputs carry pairedItem', async () => {
		const workflow: WorkflowInput = {
			name: 'echo',
			nodes: [trigger(), input(), echo()],
			connections: connect(['Trigger', 'Input'], ['Input', 'Echo']),
			pinData: pin([{ n: 1 }, { n: 2 }]),
		};
		const result = await runWorkflow(workflow, options());

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(result.executionOrder).toEqual(['Trigger', 'Input', 'Echo']);
		expect(received.map((request) => request.headers['x-api-key'])).toEqual(['key-123', 'key-123']);

		const out = result.items('Echo');
		expect(out).toHaveLength(2);
		expect(out.map((item) => (item.json.headers as IDataObject)['x-api-key'])).toEqual([
			'key-123',
			'key-123',
		]);
		expect(out.map((item) => item.json.url)).toEqual(['/echo?item=0', '/echo?item=1']);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.outputs.Echo).toEqual([out]);
		expect(result.runData.Echo).toHaveLength(1);
		expect(result.items('Input').map((item) => item.json)).toEqual([{ n: 1 }, { n: 2 }]);
	});

	test('binary data from prepareBinaryData is readable, and the Send Email stand-in attaches it', async () => {
		const workflow: WorkflowInput = {
			nodes: [
				trigger(),
				echo({ binaryPropertyName: 'report' }),
				node(
					'Mail',
					'n8n-nodes-base.emailSend',
					2.1,
					{
						fromEmail: 'bot@example.com',
						toEmail: 'compliance@example.com',
						subject: '=Report {{ $json.url }}',
						emailFormat: 'text',
						text: 'See attachment',
						options: { attachments: 'report' },
					},
					{ credentials: { smtp: { id: 'smtp', name: 'SMTP' } } },
				),
			],
			connections: connect(['Trigger', 'Echo'], ['Echo', 'Mail']),
		};
		const result = await runWorkflow(workflow, options());
		expect(result.error).toBeUndefined();

		const bytes = await result.binary('Echo', 0, 'report');
		expect(JSON.parse(bytes.toString('utf8'))).toEqual(result.items('Echo')[0].json);
		expect(await result.binary('Echo')).toEqual(bytes); // the item's only binary property
		expect(result.items('Echo')[0].binary?.report).toMatchObject({
			fileName: 'echo-0.json',
			mimeType: 'application/json',
		});

		expect(result.items('Mail').map((item) => item.json)).toEqual([
			{
				to: 'compliance@example.com',
				subject: 'Report /echo?item=0',
				attachments: [
					{ fileName: 'echo-0.json', mimeType: 'application/json', size: bytes.length },
				],
			},
		]);
		expect(result.items('Mail')[0].pairedItem).toEqual({ item: 0 });
		expect(result.emails).toHaveLength(1);
		expect(result.emails[0]).toMatchObject({
			node: 'Mail',
			from: 'bot@example.com',
			to: 'compliance@example.com',
			text: 'See attachment',
			appendAttribution: true,
		});
		expect(result.emails[0].attachments[0].content.equals(bytes)).toBe(true);
		expect(result.standIns).toContain('n8n-nodes-base.emailSend');
	});

	test('a node error surfaces in status and error', async () => {
		const result = await runWorkflow(triggerAndEcho(echo({ path: '/fail' })), options());
		expect(result.status).toBe('error');
		expect(result.error).toBeDefined();
		expect((result.error as { httpCode?: string }).httpCode).toBe('500');
		expect((result.error as { node?: INode }).node?.name).toBe('Echo');
		expect(result.runData.Echo[0].error).toBeDefined();
		expect(result.items('Echo')).toEqual([]);
		expect(received[0].headers['x-api-key']).toBe('key-123');
	});

	test("onError 'continueRegularOutput' turns the error into an output item", async () => {
		const result = await runWorkflow(
			triggerAndEcho(echo({ path: '/fail' }, { onError: 'continueRegularOutput' })),
			options(),
		);
		expect(result.status).toBe('success');
		expect(result.error).toBeUndefined();
		const [item] = result.items('Echo');
		expect(typeof item.json.error).toBe('string');
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('a credential type that is not configured makes the node fail with a clear message', async () => {
		const result = await runWorkflow(triggerAndEcho(), { nodeTypes: { [ECHO]: new EchoHttp() } });
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/sustainabilityComplianceApi" is not configured in the workflow test harness/,
		);
		expect(received).toHaveLength(0);
	});

	test('timeoutMs cancels a hanging execution', async () => {
		const started = Date.now();
		const result = await runWorkflow(
			triggerAndEcho(echo({ path: '/slow' })),
			options({ timeoutMs: 300 }),
		);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.status).toBe('canceled');
		expect(result.timedOut).toBe(true);
		expect(result.error?.message).toMatch(/timed out after 300 ms/);
	});

	test('an AbortSignal cancels the execution', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 200);
		const result = await runWorkflow(
			triggerAndEcho(echo({ path: '/slow' })),
			options({ signal: controller.signal }),
		);
		expect(result.status).toBe('canceled');
		expect(result.timedOut).toBe(false);
	});

	test('loadWorkflowFile reads an n8n export (pinData is honoured like a manual run)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'n8n-sc-wf-'));
		const file = join(dir, 'example.json');
		writeFileSync(
			file,
			JSON.stringify({
				id: 'wf1',
				name: 'Example',
				active: false,
				nodes: [trigger(), input(), echo()],
				connections: connect(['Trigger', 'Input'], ['Input', 'Echo']),
				pinData: { Input: [{ json: { n: 42 } }] },
				settings: { executionOrder: 'v1' },
				meta: { templateCredsSetupCompleted: true },
				tags: [],
			}),
		);
		const workflow = loadWorkflowFile(file);
		const result = await runWorkflow(workflow, options());
		expect(result.error).toBeUndefined();
		expect(result.items('Input').map((item) => item.json)).toEqual([{ n: 42 }]);
		expect(result.items('Echo')).toHaveLength(1);
	});

	test('unknown node types are rejected, unknown parameters are reported', async () => {
		await expect(
			runWorkflow({
				nodes: [trigger(), node('X', 'n8n-nodes-base.httpRequest', 4.2)],
				connections: connect(['Trigger', 'X']),
			}),
		).rejects.toThrow(/Unrecognized node type "n8n-nodes-base.httpRequest"/);

		const result = await runWorkflow(
			{
				nodes: [
					trigger(),
					node('Edit', 'n8n-nodes-base.set', 3.4, { mode: 'manual', assignmnets: {}, options: {} }),
				],
				connections: connect(['Trigger', 'Edit']),
			},
			{ coreNodes: 'standIns' },
		);
		expect(result.warnings.join('\n')).toMatch(/node "Edit" .*assignmnets/);
	});
});

describe('HarnessCredentialsHelper.authenticate (IAuthenticateGeneric, as n8n CLI applies it)', () => {
	test('resolves $credentials expressions in header/qs keys and values, keeps literals', async () => {
		const type: ICredentialType = {
			name: 'otherApi',
			displayName: 'Other',
			properties: [
				{ displayName: 'Token', name: 'token', type: 'string', default: '' },
				{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
			],
			authenticate: {
				type: 'generic',
				properties: {
					headers: { Authorization: '=Bearer {{$credentials.token}}', 'X-Static': 'literal' },
					qs: { '={{"region_" + $credentials.region}}': '={{$credentials.region.toUpperCase()}}' },
				},
			},
		};
		const types = new HarnessCredentialTypes([type]);
		const helper = new HarnessCredentialsHelper(types, { otherApi: { token: 't0k' } });
		const core = loadCoreNodes('standIns');
		const nodeTypes = new HarnessNodeTypes().add(
			'n8n-nodes-base.noOp',
			core.types['n8n-nodes-base.noOp'],
		);
		const noOp = node('N', 'n8n-nodes-base.noOp', 1);
		const workflow = new Workflow({ nodes: [noOp], connections: {}, active: false, nodeTypes });

		const decrypted = await helper.getDecrypted(
			{} as never,
			{ id: '1', name: 'x' },
			'otherApi',
			'manual',
		);
		expect(decrypted).toEqual({ token: 't0k', region: 'eu' }); // defaults filled in
		const options = await helper.authenticate(
			decrypted,
			'otherApi',
			{ url: 'https://x.test/a', qs: { keep: 1 } },
			workflow,
			noOp,
		);
		expect(options.headers).toEqual({ Authorization: 'Bearer t0k', 'X-Static': 'literal' });
		expect(options.qs).toEqual({ keep: 1, region_eu: 'EU' });
	});
});

// ---------------------------------------------------------------------------------------------
// Core nodes: the same expectations for the stand-ins and, when an n8n install is found, the real nodes

const realAvailable = !!findN8nNodesBase();

test('findN8nNodesBase finds nothing in a folder without an n8n install', () => {
	expect(findN8nNodesBase({ N8N_E2E_CACHE: join(tmpdir(), 'no-such-n8n-cache') })).toBeUndefined();
});

test('findN8nNodesBase honours N8N_E2E_CACHE (nodes-base folder, n8n install or cache root), else the devDependency', () => {
	const cache = mkdtempSync(join(tmpdir(), 'n8n-cache-'));
	const install = join(cache, `n8n-${supportedN8nVersions().newest}`);
	const nodesBase = join(install, 'node_modules', 'n8n-nodes-base');
	mkdirSync(nodesBase, { recursive: true });
	writeFileSync(join(nodesBase, 'package.json'), JSON.stringify({ name: 'n8n-nodes-base' }));
	expect(findN8nNodesBase({ N8N_E2E_CACHE: nodesBase })).toBe(nodesBase);
	expect(findN8nNodesBase({ N8N_E2E_CACHE: install })).toBe(nodesBase);
	expect(findN8nNodesBase({ N8N_E2E_CACHE: cache })).toBe(nodesBase);
	expect(findN8nNodesBase({})).toBe(projectN8nNodesBase());
	rmSync(cache, { recursive: true, force: true });
});
const modes: Array<'standIns' | 'auto'> = realAvailable ? ['standIns', 'auto'] : ['standIns'];

describe.each(modes)('core nodes (%s)', (coreNodes) => {
	const run = (workflow: WorkflowInput) => runWorkflow(workflow, options({ coreNodes }));

	test('reports which core nodes are stand-ins', async () => {
		const result = await run({
			nodes: [trigger(), node('Pass', 'n8n-nodes-base.noOp', 1)],
			connections: connect(['Trigger', 'Pass']),
		});
		expect(result.error).toBeUndefined();
		expect(result.items('Pass')).toEqual([{ json: {}, pairedItem: { item: 0 } }]);
		const [used, other] =
			coreNodes === 'standIns'
				? [result.standIns, result.realNodes]
				: [result.realNodes, result.standIns];
		expect(used.sort()).toEqual(['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.noOp']);
		expect(other).toEqual([]);
	});

	test('Schedule Trigger emits one item describing now (manual run)', async () => {
		const result = await run({
			nodes: [
				node('Schedule', 'n8n-nodes-base.scheduleTrigger', 1.2, {
					rule: { interval: [{ field: 'weeks', triggerAtDay: [1], triggerAtHour: 7 }] },
				}),
				node('Pass', 'n8n-nodes-base.noOp', 1),
			],
			connections: connect(['Schedule', 'Pass']),
			settings: { timezone: 'Europe/Paris' },
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items('Schedule');
		expect(Object.keys(item.json).sort()).toEqual(
			[
				'timestamp',
				'Readable date',
				'Readable time',
				'Day of week',
				'Year',
				'Month',
				'Day of month',
				'Hour',
				'Minute',
				'Second',
				'Timezone',
			].sort(),
		);
		expect(item.json.Year).toBe(String(new Date().getFullYear()));
		expect(item.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
		expect(item.json.Timezone).toMatch(/^Europe\/Paris \(UTC\+0[12]:00\)$/);
		expect(result.items('Pass')).toHaveLength(1);
	});

	test('Set 3.4: typed assignments with expressions, dot notation, includeOtherFields', async () => {
		const assignments = {
			assignments: [
				{ id: '1', name: 'total', value: '={{ $json.a * 10 }}', type: 'number' },
				{ id: '2', name: 'label', value: '=Item {{ $json.a }}', type: 'string' },
				{ id: '3', name: 'flag', value: true, type: 'boolean' },
				{ id: '4', name: 'obj', value: '={{ { k: $json.a } }}', type: 'object' },
				{ id: '5', name: 'deep.path', value: '7', type: 'number' },
			],
		};
		const result = await run({
			nodes: [
				trigger(),
				input(),
				node('Only', 'n8n-nodes-base.set', 3.4, { mode: 'manual', assignments, options: {} }),
				node('All', 'n8n-nodes-base.set', 3.4, {
					mode: 'manual',
					assignments,
					includeOtherFields: true,
					options: {},
				}),
			],
			connections: connect(['Trigger', 'Input'], ['Input', 'Only'], ['Input', 'All']),
			pinData: pin([
				{ a: 1, keep: 'x' },
				{ a: 2, keep: 'y' },
			]),
		});
		expect(result.error).toBeUndefined();
		expect(result.items('Only').map((item) => item.json)).toEqual([
			{ total: 10, label: 'Item 1', flag: true, obj: { k: 1 }, deep: { path: 7 } },
			{ total: 20, label: 'Item 2', flag: true, obj: { k: 2 }, deep: { path: 7 } },
		]);
		expect(result.items('All')[1].json).toEqual({
			a: 2,
			keep: 'y',
			total: 20,
			label: 'Item 2',
			flag: true,
			obj: { k: 2 },
			deep: { path: 7 },
		});
		expect(result.items('All').map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('Set 3.4: a value that does not convert fails the node', async () => {
		const result = await run({
			nodes: [
				trigger(),
				node('Edit', 'n8n-nodes-base.set', 3.4, {
					mode: 'manual',
					assignments: { assignments: [{ id: '1', name: 'n', value: 'abc', type: 'number' }] },
					options: {},
				}),
			],
			connections: connect(['Trigger', 'Edit']),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/'n' expects a number but we got 'abc'/);
	});

	test('If 2.2: items whose condition holds go to output 0, the others to output 1', async () => {
		const conditions = {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [
				{
					id: 'c1',
					leftValue: '={{ $json.direction }}',
					rightValue: 'downgrade',
					operator: { type: 'string', operation: 'equals' },
				},
			],
			combinator: 'and',
		};
		const result = await run({
			nodes: [
				trigger(),
				input(),
				node('If', 'n8n-nodes-base.if', 2.2, { conditions, options: {} }),
			],
			connections: connect(['Trigger', 'Input'], ['Input', 'If']),
			pinData: pin([
				{ isin: 'A', direction: 'downgrade' },
				{ isin: 'B', direction: 'upgrade' },
				{ isin: 'C', direction: 'downgrade' },
				{ isin: 'D' },
			]),
		});
		expect(result.error).toBeUndefined();
		expect(result.items('If', 0).map((item) => [item.json.isin, item.pairedItem])).toEqual([
			['A', { item: 0 }],
			['C', { item: 2 }],
		]);
		expect(result.items('If', 1).map((item) => item.json.isin)).toEqual(['B', 'D']);
	});

	test('Merge 3.2 Combine by Position: item i of each input merged, the last input wins a clash', async () => {
		const result = await run({
			nodes: [
				trigger(),
				input('First'),
				input('Second'),
				node('Merge', 'n8n-nodes-base.merge', 3.2, {
					mode: 'combine',
					combineBy: 'combineByPosition',
					options: {},
				}),
			],
			connections: connect(
				['Trigger', 'First'],
				['Trigger', 'Second'],
				['First', 'Merge', 0],
				['Second', 'Merge', 1],
			),
			pinData: {
				...pin([{ a: 1, shared: 'first', nested: { x: 1 } }, { a: 2 }], 'First'),
				...pin([{ b: 10, shared: 'second', nested: { y: 2 } }], 'Second'),
			},
		});
		expect(result.error).toBeUndefined();
		const merged = result.items('Merge');
		expect(merged.map((item) => item.json)).toEqual([
			{ a: 1, b: 10, shared: 'second', nested: { x: 1, y: 2 } },
		]);
		expect(merged[0].pairedItem).toEqual([
			{ item: 0, input: undefined },
			{ item: 0, input: 1 },
			{ item: 0, input: 1 },
		]);
	});

	test('Convert to File 1.1 CSV: one file of all items, flattened, numbers in General format', async () => {
		const result = await run({
			nodes: [
				trigger(),
				input(),
				node('To CSV', 'n8n-nodes-base.convertToFile', 1.1, {
					operation: 'csv',
					binaryPropertyName: 'report',
					options: { fileName: 'statement.csv' },
				}),
			],
			connections: connect(['Trigger', 'Input'], ['Input', 'To CSV']),
			pinData: pin([
				{
					name: 'He said "hi", twice',
					share: 12.3456789012345,
					count: 3,
					tiny: -0.000123456,
					big: 123456789012,
					ok: true,
					none: null,
					nested: { unit: 't', list: [1, 2] },
				},
				{ name: 'second', late: 'x\ny', share: 0.1 + 0.2 },
			]),
		});
		expect(result.error).toBeUndefined();
		const [file] = result.items('To CSV');
		expect(file.json).toEqual({});
		expect(file.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(file.binary?.report).toMatchObject({ fileName: 'statement.csv', mimeType: 'text/csv' });
		const csv = (await result.binary('To CSV', 0, 'report')).toString('utf8');
		expect(csv).toBe(
			'\ufeffname,share,count,tiny,big,ok,none,nested.unit,nested.list.0,nested.list.1,late\n' +
				'"He said ""hi"", twice",12.3456789,3,-0.000123456,1.23457E+11,TRUE,,t,1,2,\n' +
				'second,0.3,,,,,,,,,"x\ny"',
		);
	});
});

test('the stand-ins refuse what they do not implement', async () => {
	const refused = async (parameters: IDataObject, type: string, version: number) => {
		const result = await runWorkflow(
			{
				nodes: [trigger(), input(), node('Under Test', type, version, parameters)],
				connections: connect(['Trigger', 'Input'], ['Input', 'Under Test']),
				pinData: pin([{ a: 1 }]),
			},
			options({ coreNodes: 'standIns' }),
		);
		expect(result.status).toBe('error');
		return result.error?.message ?? '';
	};
	expect(await refused({ mode: 'append' }, 'n8n-nodes-base.merge', 3.2)).toMatch(
		/Merge stand-in .* mode "append"/,
	);
	expect(
		await refused(
			{ mode: 'combine', combineBy: 'combineByPosition', options: { includeUnpaired: true } },
			'n8n-nodes-base.merge',
			3.2,
		),
	).toMatch(/includeUnpaired/);
	expect(
		await refused(
			{ operation: 'xlsx', binaryPropertyName: 'data' },
			'n8n-nodes-base.convertToFile',
			1.1,
		),
	).toMatch(/Convert to File stand-in .* "xlsx"/);
});

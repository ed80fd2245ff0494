/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/require-node-api-error -- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * agent-tools.ts — can an n8n AI Agent use our nodes as tools, in a real n8n?
 *
 *   npm run build && npx ts-node --transpile-only test/e2e/agent-tools.ts [--n8n-version X]
 *
 * Runs on the newest supported n8n only (N8N_NEWEST in scripts/real-n8n/versions) unless --n8n-version is given.
 * (It passes on 2.20.12 too, N8N_OLDEST, run by hand on 2026-11-24: `--n8n-version 2.20.12`.)
 * In a fresh user folder with the built package and N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true: a workflow
 * Manual Trigger → AI Agent (prompt "What is the SFDR classification of US0378331005 and its PAI indicators?")
 * whose chat model is n8n's OpenAI Chat Model with an `openAiApi` credential whose Base URL points at a small
 * OpenAI-compatible stand-in served here on loopback, and whose tools are two Sustainability Instruments tool nodes
 * (Get SFDR Classification, Get PAI Indicators; the ISINs filled by the model through $fromAI). The stand-in
 * answers the first chat call with a call of both tools (arguments {"isins": "US0378331005"}) and the second with
 * a final answer built from the tool results it receives. `n8n execute --rawOutput` runs it; checks:
 *   - the tools array n8n sends the model: both tools, with descriptions and an `isins` string parameter;
 *   - the API simulator received the SFDR and PAI requests for US0378331005;
 *   - the agent's output holds the simulator's values (Article 8, a PAI value).
 * Prints the tool schemas and `[n8n X] N passed, M failed`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSimulator } from '../simulator';
import { instrumentData } from '../simulator/data';
import {
	PROJECT_ROOT,
	versionArguments,
	checkBuiltPackage,
	checkTally,
	importIntoN8n,
	simulatorCredential,
	ensureN8n,
	installPackageInto,
	lastLines,
	parseJsonOutput,
	runN8n,
	supportedN8nVersions,
} from './lib';

export const AGENT_PROMPT =
	'What is the SFDR classification of US0378331005 and its PAI indicators?';
const ISIN = 'US0378331005';
const TOOL_NODE_TYPE = 'n8n-nodes-sustainability-compliance.sustainabilityInstrumentsTool';

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}
interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages?: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
}

/** A tiny OpenAI-compatible model: tool calls first, then an answer from the tool results. */
interface ModelStandIn {
	url: string;
	chats: ChatRequest[];
	other: string[];
	close(): Promise<void>;
}

function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content
			.map((part) =>
				typeof part === 'string' ? part : String((part as { text?: unknown }).text ?? ''),
			)
			.join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** Final answer built from what the tools returned (as the model saw it). */
function answerFrom(messages: ChatMessage[]): string {
	const results = messages.filter((message) => message.role === 'tool');
	const text = results.map((message) => contentText(message.content)).join('\n');
	const classification = /"(?:sfdr_)?classification"\s*:\s*(\d)/.exec(text)?.[1];
	const footprint = /"(?:pai_)?carbon_footprint"\s*:\s*(?:\{\s*"value"\s*:\s*)?([0-9.]+)/.exec(
		text,
	)?.[1];
	const scope1 = /"(?:pai_)?scope_1_emissions"\s*:\s*(?:\{\s*"value"\s*:\s*)?([0-9.]+)/.exec(
		text,
	)?.[1];
	return (
		`${ISIN} is classified under SFDR Article ${classification ?? '?'}. ` +
		`PAI indicators: carbon footprint ${footprint ?? '?'}, scope 1 emissions ${scope1 ?? '?'}. ` +
		`(from ${results.length} tool result(s))`
	);
}

function chatCompletion(body: ChatRequest): Record<string, unknown> {
	const messages = body.messages ?? [];
	const haveResults = messages.some((message) => message.role === 'tool');
	const base = {
		id: `chatcmpl-standin-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model ?? 'gpt-4o-mini',
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
	if (!haveResults) {
		const tools = (body.tools ?? []).map((tool) => tool.function.name);
		return {
			...base,
			choices: [
				{
					index: 0,
					finish_reason: 'tool_calls',
					message: {
						role: 'assistant',
						content: null,
						tool_calls: tools.map((name, index) => ({
							id: `call_${index + 1}`,
							type: 'function',
							function: { name, arguments: JSON.stringify({ isins: ISIN }) },
						})),
					},
				},
			],
		};
	}
	return {
		...base,
		choices: [
			{
				index: 0,
				finish_reason: 'stop',
				message: { role: 'assistant', content: answerFrom(messages) },
			},
		],
	};
}

/** The same answer as server-sent chunks, for a client that asks for `stream: true`. */
function streamChunks(completion: Record<string, unknown>): string[] {
	const choice = (completion.choices as Array<Record<string, unknown>>)[0];
	const message = choice.message as {
		content: string | null;
		tool_calls?: Array<Record<string, unknown>>;
	};
	const head = {
		id: completion.id,
		object: 'chat.completion.chunk',
		created: completion.created,
		model: completion.model,
	};
	const delta: Record<string, unknown> = { role: 'assistant', content: message.content ?? '' };
	if (message.tool_calls)
		delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...call }));
	return [
		JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: null }] }),
		JSON.stringify({
			...head,
			choices: [{ index: 0, delta: {}, finish_reason: choice.finish_reason }],
			usage: completion.usage,
		}),
		'[DONE]',
	];
}

async function startModelStandIn(): Promise<ModelStandIn> {
	const chats: ChatRequest[] = [];
	const other: string[] = [];
	const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const path = (request.url ?? '').split('?')[0];
			const send = (status: number, body: unknown) => {
				response.writeHead(status, { 'content-type': 'application/json' });
				response.end(JSON.stringify(body));
			};
			if (request.method === 'GET' && path.endsWith('/models')) {
				other.push(`${request.method} ${path}`);
				send(200, {
					object: 'list',
					data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'stand-in' }],
				});
				return;
			}
			if (request.method === 'POST' && path.endsWith('/chat/completions')) {
				let body: ChatRequest;
				try {
					body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
				} catch {
					send(400, { error: { message: 'body is not JSON' } });
					return;
				}
				chats.push(body);
				const completion = chatCompletion(body);
				if (body.stream) {
					response.writeHead(200, { 'content-type': 'text/event-stream' });
					for (const chunk of streamChunks(completion)) response.write(`data: ${chunk}\n\n`);
					response.end();
				} else send(200, completion);
				return;
			}
			other.push(`${request.method} ${path}`);
			send(404, { error: { message: `stand-in: no route ${request.method} ${path}` } });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		chats,
		other,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

export const AGENT_EXAMPLE = join(PROJECT_ROOT, 'examples', '08-compliance-assistant.json');

interface WorkflowNode {
	name: string;
	type: string;
	position?: [number, number];
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

/**
 * examples/08-compliance-assistant.json as `n8n execute` can run it: its Chat Trigger replaced by a Manual
 * Trigger (same name, so the connections stay), the agent's prompt defined in the agent, the credentials
 * pointed at the ones imported here.
 */
function workflow(): { nodes: WorkflowNode[]; [key: string]: unknown } {
	const example = JSON.parse(readFileSync(AGENT_EXAMPLE, 'utf8')) as {
		nodes: WorkflowNode[];
		[key: string]: unknown;
	};
	const nodes = example.nodes.map((node): WorkflowNode => {
		const credentials = node.credentials && {
			...(node.credentials.openAiApi ? { openAiApi: { id: 'openAi1', name: 'OpenAI' } } : {}),
			...(node.credentials.sustainabilityComplianceApi
				? { sustainabilityComplianceApi: { id: 'scApi1', name: 'SC API' } }
				: {}),
		};
		if (node.type === '@n8n/n8n-nodes-langchain.chatTrigger')
			return {
				...node,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				parameters: {},
			} as WorkflowNode;
		if (node.type === '@n8n/n8n-nodes-langchain.agent')
			return {
				...node,
				parameters: { ...node.parameters, promptType: 'define', text: AGENT_PROMPT },
			};
		return credentials ? { ...node, credentials } : node;
	});
	return { ...example, id: 'agentTools1', active: false, nodes };
}

/** The tool nodes of the example: what the model must be offered. */
function toolNodes(nodes: WorkflowNode[]): WorkflowNode[] {
	return nodes.filter((node) => node.type === TOOL_NODE_TYPE);
}

/** The AI Agent's `output` text from the execution JSON `n8n execute --rawOutput` printed. */
function agentOutput(stdout: string): string {
	const run = parseJsonOutput(stdout) as {
		data?: {
			resultData?: {
				runData?: Record<
					string,
					Array<{ data?: { main?: Array<Array<{ json?: { output?: unknown } }>> } }>
				>;
				error?: { message?: string };
			};
		};
	};
	const runs = run.data?.resultData?.runData?.['AI Agent'] ?? [];
	const output = runs[runs.length - 1]?.data?.main?.[0]?.[0]?.json?.output;
	if (typeof output !== 'string')
		throw new Error(
			`no AI Agent output (error: ${run.data?.resultData?.error?.message ?? 'none'})`,
		);
	return output;
}

async function leg(version: string): Promise<{ passed: number; failed: number }> {
	const { tally, check, fail } = checkTally();
	await ensureN8n(version);
	const sim = await startSimulator();
	const model = await startModelStandIn();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-agent-tools-'));
	try {
		installPackageInto(userFolder, PROJECT_ROOT, checkBuiltPackage(PROJECT_ROOT));
		const imported = workflow();
		const TOOLS = toolNodes(imported.nodes);
		assert.ok(TOOLS.length >= 2, `${AGENT_EXAMPLE}: ${TOOLS.length} tool nodes`);
		const env = {
			N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_RUNNERS_ENABLED: 'false',
			// n8n execute prints the execution JSON through its logger
			N8N_LOG_LEVEL: 'info',
		};
		await importIntoN8n(version, userFolder, {
			credentials: [
				simulatorCredential(sim.url),
				{
					id: 'openAi1',
					name: 'OpenAI',
					type: 'openAiApi',
					data: { apiKey: 'sk-stand-in', url: model.url, header: false },
				},
			],
			workflows: [imported],
			env,
		});
		const run = await runN8n(
			version,
			['execute', '--id=agentTools1', '--rawOutput'],
			userFolder,
			240_000,
			env,
		);
		if (process.env.AGENT_TOOLS_DEBUG) console.log(run.stdout, run.stderr);
		const failure = () =>
			`n8n execute exited ${run.code}; model calls ${model.chats.length}; other model requests ${model.other.join(', ') || 'none'}\n${lastLines(run.stdout + run.stderr, 25)}`;

		await check('n8n sends the model our tools with readable schemas', () => {
			assert.ok(model.chats.length > 0, `the model was never called\n${failure()}`);
			const tools = model.chats[0].tools ?? [];
			console.log('     tools as n8n sent them to the model:');
			for (const tool of tools)
				console.log(`       ${JSON.stringify(tool.function, null, 1).split('\n').join(' ')}`);
			assert.equal(tools.length, TOOLS.length, `${tools.length} tools`);
			for (const expected of TOOLS) {
				const tool = tools.find(
					(candidate) => candidate.function.name === expected.name.replace(/\s+/g, '_'),
				);
				assert.ok(
					tool,
					`no tool named after "${expected.name}": ${tools.map((t) => t.function.name).join(', ')}`,
				);
				assert.equal(tool.function.description, expected.parameters?.toolDescription);
				const parameters = tool.function.parameters as {
					properties?: Record<string, { type?: string; description?: string }>;
					required?: string[];
				};
				const isins = parameters.properties?.isins;
				assert.deepEqual(parameters.required, ['isins'], `${tool.function.name}: required`);
				assert.ok(
					isins,
					`${tool.function.name}: no isins parameter: ${JSON.stringify(parameters)}`,
				);
				assert.equal(isins.type, 'string');
				assert.equal(isins.description, 'ISINs to look up, comma-separated');
			}
			return tools.map((tool) => tool.function.name).join(', ');
		});

		await check('the tools reached the API simulator for US0378331005', () => {
			const sfdr = sim.requests({ route: 'POST /instruments/sustainability-profile' });
			const pai = sim.requests({ route: 'POST /instruments/sustainability-data' });
			const routes = sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
			assert.ok(
				sfdr.length >= 1,
				`no SFDR request (simulator saw: ${routes.join('; ') || 'nothing'})\n${failure()}`,
			);
			assert.ok(
				pai.length >= 1,
				`no PAI request (simulator saw: ${routes.join('; ') || 'nothing'})`,
			);
			for (const request of [...sfdr, ...pai]) {
				assert.equal(request.status, 200, `${request.path} answered ${request.status}`);
				assert.ok(
					JSON.stringify(request.body).includes(ISIN),
					`${request.path}: ${JSON.stringify(request.body)}`,
				);
			}
			return routes.join('; ');
		});

		await check(
			'the model got the tool results and the agent answered with the simulator values',
			() => {
				assert.equal(run.code, 0, failure());
				assert.ok(model.chats.length >= 2, `the model was called ${model.chats.length} time(s)`);
				for (const message of model.chats[1].messages ?? [])
					if (message.role === 'tool')
						console.log(
							`     tool result the model got: ${contentText(message.content).slice(0, 400)}`,
						);
				const data = instrumentData(ISIN);
				let answer: string;
				try {
					answer = agentOutput(run.stdout);
				} catch (error) {
					throw new Error(`${(error as Error).message}\n${failure()}`);
				}
				assert.ok(
					answer.includes(`Article ${data.sfdr}`),
					`classification ${data.sfdr} not in: ${answer}`,
				);
				const pai = data.pai.carbon_footprint;
				assert.ok(
					pai !== null && answer.includes(String(pai)),
					`carbon footprint ${pai} not in: ${answer}`,
				);
				return `answer: ${answer}`;
			},
		);
	} catch (error) {
		fail('set-up', error);
	} finally {
		await model.close();
		await sim.close();
		if (process.env.AGENT_TOOLS_KEEP) console.log(`kept ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[n8n ${version}] agent tools: ${tally.passed} passed, ${tally.failed} failed`);
	return tally;
}

async function main(): Promise<number> {
	const versions = versionArguments(process.argv.slice(2));
	if (versions.length === 0) versions.push(supportedN8nVersions().newest);
	let failed = 0;
	for (const version of versions) failed += (await leg(version)).failed;
	return failed === 0 ? 0 : 1;
}

if (require.main === module)
	main().then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/require-node-api-error -- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * agent-tools.ts — can an n8n AI Agent use our nodes as tools, in a real n8n, even when the model calls them badly?
 *
 *   npm run build && npx ts-node --transpile-only test/e2e/agent-tools.ts [--n8n-version X]
 *
 * Both supported n8n versions by default (scripts/real-n8n/versions, oldest first), or the ones given. Per version, in
 * a fresh user folder with the built package and N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true: examples/08 (Manual
 * Trigger instead of its Chat Trigger) with the AI Agent at typeVersion 2.2 (the example's) and at the newest
 * typeVersion that n8n's installed @n8n/n8n-nodes-langchain has (read from its Agent.node.js; 3.1 on both 2.20.12 and
 * 2.41.1). Its chat model is n8n's OpenAI Chat Model with an `openAiApi` credential whose Base URL points at a small
 * OpenAI-compatible stand-in served here on loopback; its tools are two Sustainability Instruments tool nodes (Get
 * SFDR Classification, Get PAI Indicators; the ISINs filled by the model through $fromAI). The prompt names a
 * scenario, and the stand-in scripts the model's tool calls for it:
 *   - `standard`: a call of both tools with {"isins": "US0378331005"}; checks: the tools array n8n sends the model
 *     (names, descriptions, one required string parameter `isins`), the simulator's SFDR and PAI requests, the agent's
 *     answer holding the simulator's values (Article 8, the carbon footprint);
 *   - `screen`: the example's Screen Against Paris-Aligned Exclusions tool called with three ISINs; checks: the tool
 *     result says breach for the one with thermal coal and not_checked (never pass) for the others, whose categories
 *     the simulator's answer lacks;
 *   - `report`: the example plus a Generate PDF Report tool node (holdings through $fromAI, Download PDF on, which
 *     tool mode overrides); the model calls it with two holdings. Checks: the tool result the model gets holds the
 *     simulator's link (location_url), the request id and the note that the link expires, no file; one report, no
 *     download; the stand-in's final answer relays the link;
 *   - messy calls of Get SFDR Classification, what a real model does now and then: `json-array` (the ISINs as a JSON
 *     array string `["US0378331005", "DE0007236101"]`), `mistyped` (DE0007236102, a wrong check digit, between two
 *     valid ISINs), `empty` (""), `huge` (20,000 valid ISINs). Checks: the tool result the model gets back in the next
 *     chat request is non-empty and useful — the answers per ISIN, the per-ISIN problem, a note that the list is empty,
 *     a summary bounded to TOOL_RESULT_BOUND characters that says how many ISINs there were — and the agent's final
 *     answer arrives (the execution is not ended by the tool).
 * `n8n execute --rawOutput` runs each workflow; each is killed with its process group after 3 min, and a deadline per
 * version (AGENT_E2E_DEADLINE_MS, default 12 min) stops everything. Prints the tool schemas, each tool result's size
 * and start, and `[n8n X] agent tools: N passed, M failed`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { dirname, join } from 'path';

import { TOOL_DESCRIPTIONS } from '../../nodes/shared/ui/toolDescriptions';
import { startSimulator } from '../simulator';
import { instrumentData } from '../simulator/data';
import { makeIsins } from '../helpers/isins';
import {
	PROJECT_ROOT,
	checkBuiltPackage,
	checkTally,
	importIntoN8n,
	killAllNow,
	stopTracked,
	runLegsAsMain,
	simulatorCredential,
	ensureN8n,
	type N8nInstall,
	installPackageInto,
	lastLines,
	parseJsonOutput,
	runCommand,
	SCRIPTS_DIR,
	type CommandResult,
} from './lib';

export const AGENT_PROMPT =
	'What is the SFDR classification of US0378331005 and its PAI indicators?';
const ISIN = 'US0378331005';
const TOOL_NODE_TYPE = 'n8n-nodes-sustainability-compliance.sustainabilityInstrumentsTool';
const SFDR_TOOL = 'Get_SFDR_Classification';
const REPORT_TOOL = 'Generate_PDF_Report';
const SCREEN_TOOL = 'Screen_Against_Paris-Aligned_Exclusions';
/** Screened in the `screen` scenario: Apple, Volvo (thermal coal in the simulator), Microsoft. */
const SCREEN_ISINS = ['US0378331005', 'SE0000115446', 'US5949181045'];
const REPORT_HOLDINGS = ['US0378331005', 'DE0007236101'].map((isin, index) => ({
	isin,
	name: `Holding ${index + 1}`,
	instrument_type: 'stock',
	currency: 'USD',
	weight: 50,
	market_value: 1000,
}));
/** The report tool node the `report` scenario adds to example 08 (the model fills the holdings through $fromAI). */
const REPORT_TOOL_NODE: WorkflowNode = {
	name: 'Generate PDF Report',
	type: 'n8n-nodes-sustainability-compliance.sustainabilityReportsTool',
	typeVersion: 2,
	position: [800, 240],
	parameters: {
		operation: 'generatePdfReport',
		reportName: 'Agent Portfolio',
		reportId: 'agent-portfolio',
		holdingsSource: 'json',
		holdingsJson: "={{ $fromAI('holdings', 'the holdings as a JSON array', 'string') }}",
		// Tool mode never downloads: the model gets the link instead.
		downloadPdf: true,
	},
	credentials: { sustainabilityComplianceApi: { id: 'scApi1', name: 'SC API' } },
};
/** The link the model got from Generate PDF Report (the tool result's text is JSON, maybe escaped once more). */
function reportLink(text: string): string | undefined {
	return /location_url\\*"\s*:\s*\\*"(https?:[^"\\]+)/.exec(text)?.[1];
}

/** The most a tool result may hold for the model (characters): about 12,000 tokens, a fair share of a context window. */
export const TOOL_RESULT_BOUND = 50_000;
const RUN_TIMEOUT_MS = 180_000;
const DEADLINE_MS = Number(process.env.AGENT_E2E_DEADLINE_MS ?? 12 * 60_000);
/** AGENT_E2E_ONLY=huge,empty runs those scenarios only; AGENT_E2E_DUMP=<dir> writes each run's stdout and stderr there. */
const ONLY = (process.env.AGENT_E2E_ONLY ?? '').split(',').filter(Boolean);
const DUMP = process.env.AGENT_E2E_DUMP;

/** The 20,000 ISINs of the `huge` scenario: valid, so nothing but their number is wrong. */
const HUGE_ISINS = makeIsins(20_000, 1, 'XS');

/**
 * What the model does per scenario: the tool calls of its first answer (tool name => arguments; `*` = every tool
 * offered). The scenario is named in the prompt (`[scenario: x]`), so the stand-in knows which run it is in.
 */
export const SCENARIOS: Record<
	string,
	{ prompt: string; calls: Record<string, Record<string, string>> }
> = {
	standard: { prompt: AGENT_PROMPT, calls: { '*': { isins: ISIN } } },
	'json-array': {
		prompt: '[scenario: json-array] What are the SFDR classifications of Apple and Siemens?',
		calls: { [SFDR_TOOL]: { isins: '["US0378331005", "DE0007236101"]' } },
	},
	mistyped: {
		prompt: '[scenario: mistyped] SFDR classes of US0378331005, DE0007236102 and NL0010273215?',
		calls: { [SFDR_TOOL]: { isins: 'US0378331005, DE0007236102, NL0010273215' } },
	},
	empty: {
		prompt: '[scenario: empty] What is the SFDR classification of my holdings?',
		calls: { [SFDR_TOOL]: { isins: '' } },
	},
	huge: {
		prompt: '[scenario: huge] Classify my whole universe of 20,000 instruments under SFDR.',
		calls: { [SFDR_TOOL]: { isins: HUGE_ISINS.join(', ') } },
	},
	// Screen Holdings as a tool (issue 39): "screen these holdings against the Paris-aligned exclusions".
	screen: {
		prompt: `[scenario: screen] Screen these holdings against the Paris-aligned exclusions: ${SCREEN_ISINS.join(', ')}`,
		calls: { [SCREEN_TOOL]: { isins: SCREEN_ISINS.join(', ') } },
	},
	// Generate PDF Report as a tool (issue 26 item 4): no file crosses to the model, the link and its details do.
	report: {
		prompt: '[scenario: report] Make an ESG PDF report of my two holdings and give me the link.',
		calls: { [REPORT_TOOL]: { holdings: JSON.stringify(REPORT_HOLDINGS) } },
	},
};

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

/** The scenario the prompt names (`[scenario: x]`); `standard` without a tag. */
function scenarioOf(messages: ChatMessage[]): string {
	const prompt = messages
		.filter((message) => message.role === 'user' || message.role === 'human')
		.map((message) => contentText(message.content))
		.join('\n');
	return /\[scenario: ([a-z-]+)\]/.exec(prompt)?.[1] ?? 'standard';
}

/** Final answer built from what the tools returned (as the model saw it). */
function answerFrom(messages: ChatMessage[]): string {
	const results = messages.filter((message) => message.role === 'tool');
	const text = results.map((message) => contentText(message.content)).join('\n');
	const scenario = scenarioOf(messages);
	if (scenario === 'report')
		return `Scenario report: your PDF report is ready at ${reportLink(text) ?? '(no link in the tool result)'}`;
	if (scenario !== 'standard')
		return `Scenario ${scenario}: the tool answered ${text.length} characters: ${text.slice(0, 200)}`;
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
		const { calls } = SCENARIOS[scenarioOf(messages)] ?? SCENARIOS.standard;
		const offered = (body.tools ?? []).map((tool) => tool.function.name);
		const planned = calls['*']
			? offered.map((name) => [name, calls['*']] as const)
			: Object.entries(calls).filter(([name]) => offered.includes(name));
		return {
			...base,
			choices: [
				{
					index: 0,
					finish_reason: 'tool_calls',
					message: {
						role: 'assistant',
						content: null,
						tool_calls: planned.map(([name, args], index) => ({
							id: `call_${index + 1}`,
							type: 'function',
							function: { name, arguments: JSON.stringify(args) },
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
	typeVersion?: number;
	position?: [number, number];
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

/**
 * examples/08-compliance-assistant.json as `n8n execute` can run it: its Chat Trigger replaced by a Manual Trigger
 * (same name, so the connections stay), the AI Agent at `agentVersion` with the scenario's prompt defined in the
 * agent, the credentials pointed at the ones imported here.
 */
function workflow(
	id: string,
	agentVersion: number,
	prompt: string,
	extraTools: WorkflowNode[] = [],
): { nodes: WorkflowNode[]; [key: string]: unknown } {
	const example = JSON.parse(readFileSync(AGENT_EXAMPLE, 'utf8')) as {
		nodes: WorkflowNode[];
		connections: Record<string, unknown>;
		[key: string]: unknown;
	};
	example.nodes.push(...extraTools);
	for (const tool of extraTools)
		example.connections[tool.name] = {
			ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]],
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
				typeVersion: agentVersion,
				parameters: { ...node.parameters, promptType: 'define', text: prompt },
			};
		return credentials ? { ...node, credentials } : node;
	});
	return { ...example, id, name: `${String(example.name)} (${id})`, active: false, nodes };
}

/** The tool nodes of the example: what the model must be offered. */
function toolNodes(nodes: WorkflowNode[]): WorkflowNode[] {
	return nodes.filter((node) => node.type === TOOL_NODE_TYPE);
}

/** The AI Agent's `output` text from the execution JSON `n8n execute --rawOutput` printed. */
function agentOutput(stdout: string): string {
	let parsed: unknown;
	try {
		parsed = parseJsonOutput(stdout);
	} catch (error) {
		// Safety net (stdout goes to a file, see executeToFile): an execution JSON that does not parse as a whole still
		// has the agent's `output` fields in its text; the last one is the final answer.
		const outputs = [...stdout.matchAll(/"output": ("(?:[^"\\]|\\.)*")/g)];
		if (outputs.length) return JSON.parse(outputs[outputs.length - 1][1]) as string;
		throw new Error(
			`${(error as Error).message} (stdout: ${stdout.length} characters, ending ${JSON.stringify(stdout.slice(-200))})`,
		);
	}
	const run = parsed as {
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

/**
 * The AI Agent typeVersions of this n8n: the keys of `nodeVersions` in its installed
 * @n8n/n8n-nodes-langchain Agent.node.js (hoisted next to n8n, or under n8n's own node_modules).
 */
export function agentVersionsOf(install: N8nInstall): number[] {
	const modules = dirname(dirname(install.n8n)); // <cache>/n8n-X/node_modules/.bin/n8n
	const relative = join(
		'@n8n',
		'n8n-nodes-langchain',
		'dist',
		'nodes',
		'agents',
		'Agent',
		'Agent.node.js',
	);
	const file = [join(modules, relative), join(modules, 'n8n', 'node_modules', relative)].find(
		existsSync,
	);
	if (!file) throw new Error(`no ${relative} under ${modules}`);
	const source = readFileSync(file, 'utf8');
	const block = /const nodeVersions = \{([^}]*)\}/.exec(source)?.[1] ?? '';
	const versions = [...block.matchAll(/^\s*([0-9]+(?:\.[0-9]+)?)\s*:/gm)].map((m) => Number(m[1]));
	if (versions.length === 0) throw new Error(`${file}: no nodeVersions found`);
	return versions.sort((a, b) => a - b);
}

/** A tool result as JSON items when it is JSON (n8n sends the items' JSON text), else undefined. */
function resultItems(text: string): Array<Record<string, unknown>> | undefined {
	let value: unknown = text;
	for (let depth = 0; depth < 3 && typeof value === 'string'; depth++) {
		try {
			value = JSON.parse(value);
		} catch {
			return undefined;
		}
	}
	if (Array.isArray(value)) return value as Array<Record<string, unknown>>;
	if (value && typeof value === 'object') {
		const response = (value as { response?: unknown }).response;
		return Array.isArray(response)
			? (response as Array<Record<string, unknown>>)
			: [value as Record<string, unknown>];
	}
	return undefined;
}

/** Asserts that the result answers `isin` with the simulator's class (as an item, or at least as text). */
function assertAnswered(text: string, isin: string): void {
	const sfdr = instrumentData(isin).sfdr;
	const items = resultItems(text);
	const item = items?.find((candidate) => candidate.isin === isin);
	if (item) {
		assert.equal(item.classification, sfdr, `${isin}: classification in ${JSON.stringify(item)}`);
		return;
	}
	const near = new RegExp(`${isin}[^{}]*"(?:sfdr_)?classification"\\s*:\\s*${sfdr}`);
	assert.ok(near.test(text), `no answer for ${isin} (Article ${sfdr}) in: ${text.slice(0, 600)}`);
}

/** What each messy scenario's tool result must hold (`text` = what the model got back). */
interface ScenarioRun {
	sfdrRequests: unknown[];
	/** POST /reports requests the simulator saw, and requests its download listener saw. */
	reports: number;
	downloads: number;
	downloadUrl: string;
}
const SCENARIO_CHECKS: Record<string, (text: string, run: ScenarioRun) => string> = {
	report: (text, run) => {
		const link = reportLink(text);
		assert.ok(link, `no location_url in the tool result: ${text.slice(0, 600)}`);
		assert.ok(
			link.startsWith(`${run.downloadUrl}/`),
			`the link ${link} is not the simulator's (${run.downloadUrl})`,
		);
		assert.match(
			text,
			/request_id\\*"\s*:\s*\\*"[0-9a-f-]{36}/,
			'no request_id in the tool result',
		);
		assert.match(text, /link expires soon/, 'no note that the link expires');
		assert.doesNotMatch(text, /"binary"|JVBERi0/, 'a file in the tool result');
		assert.equal(run.reports, 1, 'one report generated');
		assert.equal(run.downloads, 0, 'the PDF is not fetched in tool mode');
		return `link ${link}, request id and expiry note in the tool result`;
	},
	screen: (text) => {
		// The simulator answers as the spec: business involvements without five of the Paris-aligned categories, PAI
		// without the UN Global Compact indicator. So a holding with coal at or above 1 breaches (d); the others cannot
		// pass (not_checked), never "pass".
		const verdicts = SCREEN_ISINS.map((isin) => {
			const found = new RegExp(
				`${isin}\\\\*"\\s*,\\s*\\\\*"screen\\\\*"\\s*:\\s*\\\\*"(breach|pass|not_checked)`,
			).exec(text)?.[1];
			const coal = instrumentData(isin).businessInvolvements.thermal_coal?.weight ?? 0;
			const expected = coal > 0 && coal >= 1 ? 'breach' : 'not_checked';
			assert.equal(found, expected, `${isin}: screen in ${text.slice(0, 600)}`);
			return `${isin} ${found}`;
		});
		assert.match(
			text,
			/Art\. 12\(1\)\(d\) Revenues from hard coal and lignite/,
			'the coal rule named',
		);
		assert.match(text, /not known to give it/, 'the categories the API lacks are said');
		return verdicts.join(', ');
	},
	'json-array': (text, { sfdrRequests: requests }) => {
		for (const isin of ['US0378331005', 'DE0007236101']) assertAnswered(text, isin);
		assert.ok(requests.length >= 1, 'no SFDR request reached the simulator');
		return 'both ISINs of the JSON array answered';
	},
	mistyped: (text) => {
		for (const isin of ['US0378331005', 'NL0010273215']) assertAnswered(text, isin);
		const problem = new RegExp(
			`DE0007236102[^]{0,300}?(invalid|check digit)|(invalid|check digit)[^]{0,300}?DE0007236102`,
			'i',
		);
		assert.ok(
			problem.test(text),
			`no per-ISIN problem for DE0007236102 (invalid / check digit) in: ${text.slice(0, 600)}`,
		);
		return 'the two valid ISINs answered, DE0007236102 reported as invalid';
	},
	empty: (text, { sfdrRequests: requests }) => {
		assert.match(
			text,
			/empty|no ISIN|at least one/i,
			`no word about the empty list: ${text.slice(0, 600)}`,
		);
		assert.equal(requests.length, 0, 'nothing is sent to the API for an empty list');
		return 'the empty list is reported, nothing sent';
	},
	huge: (text) => {
		assert.ok(
			text.length <= TOOL_RESULT_BOUND,
			`the tool result is ${text.length} characters, more than ${TOOL_RESULT_BOUND}`,
		);
		assert.match(
			text,
			/20[,. ]?000/,
			`the result does not say how many ISINs there were: ${text.slice(0, 600)}`,
		);
		assert.ok(
			HUGE_ISINS.slice(0, 3).some((isin) => text.includes(isin)),
			`no answer for any of the first ISINs in: ${text.slice(0, 600)}`,
		);
		return `${text.length} characters for 20,000 ISINs`;
	},
};

/**
 * `n8n execute --id=<id> --rawOutput` with its stdout going to a file, read back when it is done: n8n exits with
 * process.exit() right after printing, and a pipe loses what it has not passed on yet (seen with the `huge` scenario's
 * 15 MB execution JSON on n8n 2.20.12: 2.2 MB arrived, exit 0); Node writes to a file synchronously, so nothing is lost.
 */
async function executeToFile(
	version: string,
	id: string,
	userFolder: string,
	env: NodeJS.ProcessEnv,
): Promise<CommandResult> {
	const file = join(userFolder, `execute-${id}.json`);
	const result = await runCommand(
		'bash',
		[
			'-c',
			'out="$1"; shift; exec bash "$@" > "$out"',
			'execute-to-file',
			file,
			join(SCRIPTS_DIR, 'n8n.sh'),
			'execute',
			`--id=${id}`,
			'--rawOutput',
		],
		{
			env: { ...process.env, N8N_E2E_N8N_VERSION: version, N8N_USER_FOLDER: userFolder, ...env },
			timeoutMs: RUN_TIMEOUT_MS,
		},
	);
	const stdout = existsSync(file) ? readFileSync(file, 'utf8') : '';
	rmSync(file, { force: true });
	return { ...result, stdout: stdout + result.stdout };
}

interface RunRecord {
	id: string;
	agentVersion: number;
	scenario: string;
	run: CommandResult;
	/** The chat requests the model got during this run, in order. */
	chats: ChatRequest[];
	other: string[];
	paiRequests: Array<{ path: string; status: number; body: unknown }>;
	sfdrRecords: Array<{ path: string; status: number; body: unknown }>;
	routes: string[];
	downloads: number;
}

async function leg(version: string): Promise<{ passed: number; failed: number }> {
	const { tally, check, fail } = checkTally();
	const sim = await startSimulator();
	const model = await startModelStandIn();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-agent-tools-'));
	const timer = setTimeout(() => {
		console.log(
			`FAIL deadline: n8n ${version} leg still running after ${DEADLINE_MS} ms: stopping it`,
		);
		killAllNow();
	}, DEADLINE_MS);
	try {
		const install = await ensureN8n(version);
		installPackageInto(userFolder, PROJECT_ROOT, checkBuiltPackage(PROJECT_ROOT));
		const available = agentVersionsOf(install);
		const agentVersions = [...new Set([2.2, available[available.length - 1]])];
		console.log(
			`     AI Agent typeVersions in n8n ${version}: ${available.join(', ')}; running ${agentVersions.join(' and ')}`,
		);
		const runs: Array<{ id: string; agentVersion: number; scenario: string }> = [];
		for (const agentVersion of agentVersions)
			for (const scenario of Object.keys(SCENARIOS).filter(
				(name) => !ONLY.length || ONLY.includes(name),
			))
				runs.push({
					id: `agent${String(agentVersion).replace('.', '')}${scenario.replace('-', '')}`,
					agentVersion,
					scenario,
				});
		const workflows = runs.map(({ id, agentVersion, scenario }) =>
			workflow(
				id,
				agentVersion,
				SCENARIOS[scenario].prompt,
				scenario === 'report' ? [REPORT_TOOL_NODE] : [],
			),
		);
		const TOOLS = toolNodes(workflow('tools', 2.2, AGENT_PROMPT).nodes);
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
			workflows,
			env,
		});

		for (const { id, agentVersion, scenario } of runs) {
			sim.reset();
			const firstChat = model.chats.length;
			const firstOther = model.other.length;
			const started = Date.now();
			const run = await executeToFile(version, id, userFolder, env);
			if (process.env.AGENT_TOOLS_DEBUG) console.log(run.stdout, run.stderr);
			if (DUMP) {
				mkdirSync(DUMP, { recursive: true });
				writeFileSync(join(DUMP, `${version}-${id}.stdout`), run.stdout);
				writeFileSync(join(DUMP, `${version}-${id}.stderr`), run.stderr);
			}
			const record: RunRecord = {
				id,
				agentVersion,
				scenario,
				run,
				chats: model.chats.slice(firstChat),
				other: model.other.slice(firstOther),
				sfdrRecords: sim.requests({ route: 'POST /instruments/sustainability-profile' }),
				paiRequests: sim.requests({ route: 'POST /instruments/sustainability-data' }),
				routes: sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
				downloads: sim.downloads().length,
			};
			const label = `agent ${agentVersion}, ${scenario}`;
			console.log(
				`     ${label}: n8n execute exited ${run.code} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
			);
			const failure = () =>
				`n8n execute exited ${run.code}${run.timedOut ? ' (timed out)' : ''}; model calls ${record.chats.length}; other model requests ${record.other.join(', ') || 'none'}\n${lastLines(run.stdout + run.stderr, 25)}`;
			/** What the model got back for its calls, in the chat request after them. */
			const toolResults = () => {
				assert.ok(
					record.chats.length >= 2,
					`the model was called ${record.chats.length} time(s), so it never got the tool results\n${failure()}`,
				);
				const results = (record.chats[1].messages ?? []).filter(
					(message) => message.role === 'tool',
				);
				assert.ok(results.length > 0, `the second chat request holds no tool result\n${failure()}`);
				return results.map((message) => contentText(message.content));
			};
			const answer = () => {
				try {
					return agentOutput(run.stdout);
				} catch (error) {
					throw new Error(`${(error as Error).message}\n${failure()}`);
				}
			};

			if (scenario === 'standard') {
				await check(`${label}: n8n sends the model our tools with readable schemas`, () => {
					assert.ok(record.chats.length > 0, `the model was never called\n${failure()}`);
					const tools = record.chats[0].tools ?? [];
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
						// No hand-written description in example 08: n8n sends the operation's preset.
						assert.equal(
							tool.function.description,
							TOOL_DESCRIPTIONS.sustainabilityInstruments[
								expected.parameters
									?.operation as keyof typeof TOOL_DESCRIPTIONS.sustainabilityInstruments
							],
						);
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
						assert.equal(
							isins.description,
							/\$fromAI\('isins',\s*'([^']*)'/.exec(String(expected.parameters?.isinList))?.[1],
						);
					}
					return tools.map((tool) => tool.function.name).join(', ');
				});

				await check(`${label}: the tools reached the API simulator for ${ISIN}`, () => {
					assert.ok(
						record.sfdrRecords.length >= 1,
						`no SFDR request (simulator saw: ${record.routes.join('; ') || 'nothing'})\n${failure()}`,
					);
					assert.ok(
						record.paiRequests.length >= 1,
						`no PAI request (simulator saw: ${record.routes.join('; ') || 'nothing'})`,
					);
					for (const request of [...record.sfdrRecords, ...record.paiRequests]) {
						assert.equal(request.status, 200, `${request.path} answered ${request.status}`);
						assert.ok(
							JSON.stringify(request.body).includes(ISIN),
							`${request.path}: ${JSON.stringify(request.body)}`,
						);
					}
					return record.routes.join('; ');
				});

				await check(
					`${label}: the model got the tool results and the agent answered with the simulator values`,
					() => {
						assert.equal(run.code, 0, failure());
						for (const text of toolResults())
							console.log(`     tool result the model got: ${text.slice(0, 400)}`);
						const data = instrumentData(ISIN);
						const text = answer();
						assert.ok(
							text.includes(`Article ${data.sfdr}`),
							`classification ${data.sfdr} not in: ${text}`,
						);
						const pai = data.pai.carbon_footprint;
						assert.ok(
							pai !== null && text.includes(String(pai)),
							`carbon footprint ${pai} not in: ${text}`,
						);
						return `answer: ${text}`;
					},
				);
				continue;
			}

			await check(`${label}: the model gets a useful tool result back`, () => {
				const results = toolResults();
				const text = results.join('\n');
				console.log(
					`     tool result the model got (${text.length} characters): ${text.slice(0, 300)}`,
				);
				assert.ok(text.trim().length > 0, 'the tool result is empty');
				return SCENARIO_CHECKS[scenario](text, {
					sfdrRequests: record.sfdrRecords,
					reports: record.routes.filter((route) => route.startsWith('POST /reports ')).length,
					downloads: record.downloads,
					downloadUrl: sim.downloadUrl,
				});
			});
			await check(`${label}: the agent's final answer arrives`, () => {
				assert.equal(run.code, 0, failure());
				const text = answer();
				assert.ok(
					text.startsWith(`Scenario ${scenario}:`),
					`not the stand-in's final answer: ${text.slice(0, 300)}`,
				);
				if (scenario === 'report')
					assert.match(
						text,
						new RegExp(`ready at ${sim.downloadUrl}/`),
						`the model did not relay the link: ${text}`,
					);
				return `answer: ${text.slice(0, 160)}`;
			});
		}
	} catch (error) {
		fail('set-up', error);
	} finally {
		clearTimeout(timer);
		await stopTracked();
		await model.close();
		await sim.close();
		if (process.env.AGENT_TOOLS_KEEP) console.log(`kept ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[n8n ${version}] agent tools: ${tally.passed} passed, ${tally.failed} failed`);
	return tally;
}

if (require.main === module) runLegsAsMain('agent tools', 'agent-tools.ts', leg);

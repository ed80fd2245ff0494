/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * mcp-server.ts — examples/09-mcp-server.json (n8n's MCP Server Trigger with seven of our tools) in a real n8n, called
 * by the official MCP client.
 *
 *   npm run test:n8n:mcp            (= npm run build && ts-node --transpile-only test/e2e/mcp-server.ts)
 *   npx ts-node --transpile-only test/e2e/mcp-server.ts [--n8n-version X]     after a build
 *
 * Both supported n8n versions by default (scripts/real-n8n/versions, oldest first), or the ones given. Per version, in a
 * fresh user folder with the built package (as installed from npm) and N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true:
 *   - the API simulator in this process; one `sustainabilityComplianceApi` credential pointing at it, imported with
 *     the id and name the example refers to ("sc-simulator", "Sustainability Compliance API"), so the example runs
 *     unchanged, the sub-workflow inside its Portfolio Summary tool (a Call n8n Workflow Tool whose Workflow JSON
 *     names the same credential) included;
 *   - `n8n import:workflow` + `n8n publish:workflow` (the example, active), then `n8n start` on 127.0.0.1;
 *   - the MCP SDK's Client connects to the production URL `/mcp/sustainability-compliance` with the Streamable HTTP
 *     transport, or, when that fails, the SSE transport (the trigger's version 2 serves both on that URL); which one
 *     worked is printed;
 *   - checks: the seven tools listed, each with its description from the example and an input schema (a required text
 *     argument `isins`, `holdings` or `input`); Get_SFDR_Classification for two ISINs,
 *     Screen_Against_Paris-Aligned_Exclusions for three ISINs (the simulator in the vendor's answer shape), Portfolio_Summary and
 *     EU_Taxonomy_Portfolio_Alignment for three holdings given as JSON, each answer compared with the simulator's
 *     data (instrumentData / taxonomyKpis) and the requests the simulator received.
 * Bounded: every n8n command is killed with its process group after 2-3 min, each MCP request times out after 90 s,
 * and a deadline per version (MCP_E2E_DEADLINE_MS, default 6 min) stops everything it started. Prints
 * `[n8n X] mcp server: N passed, M failed`; exits 1 on any failure.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/* eslint-disable import-x/no-unresolved -- the SDK's subpaths come from its package.json `exports` wildcard
	("./*": dist/cjs/*), which Node and TypeScript resolve and eslint's resolver does not */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
/* eslint-enable import-x/no-unresolved */

import { startSimulator } from '../simulator';
import { instrumentData, taxonomyKpis } from '../simulator/data';
import {
	PROJECT_ROOT,
	checkBuiltPackage,
	checkTally,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	killAllNow,
	lastLines,
	sleep,
	startN8nServer,
	stopTracked,
	runLegsAsMain,
} from './lib';

export const MCP_EXAMPLE = join(PROJECT_ROOT, 'examples', '09-mcp-server.json');
const WORKFLOW_ID = 'mcpServerExample1';
const CREDENTIAL = { id: 'sc-simulator', name: 'Sustainability Compliance API' };
const REQUEST_TIMEOUT_MS = 90_000;
const DEADLINE_MS = Number(process.env.MCP_E2E_DEADLINE_MS ?? 6 * 60_000);

/** The tools the example exposes: MCP name (n8n's nodeNameToToolName: spaces to underscores) and its argument. */
export const EXPECTED_TOOLS: Record<string, string> = {
	Get_SFDR_Classification: 'isins',
	Get_PAI_Indicators: 'isins',
	Get_ESG_Data: 'isins',
	Get_Business_Involvements: 'isins',
	EU_Taxonomy_Portfolio_Alignment: 'holdings',
	Portfolio_Summary: 'input',
	'Screen_Against_Paris-Aligned_Exclusions': 'isins',
};

const SFDR_ISINS = ['US0378331005', 'CH0038863350'];
/** Screened against the Paris-aligned exclusions: a UN Global Compact violator, a coal miner, one with neither. */
const SCREEN_ISINS = ['US0378331005', 'SE0000115446', 'US5949181045'];

/** The Paris-aligned rules an ISIN breaches in the simulator's data (the vendor's answer shape). */
function expectedPabBreaches(isin: string): string[] {
	const data = instrumentData(isin);
	const coal = data.businessInvolvements.thermal_coal?.weight ?? 0;
	return [
		...(data.vendorIndicators.violations_un_global_compact === true
			? ['Art. 12(1)(c) Violations of the UN Global Compact principles or OECD Guidelines']
			: []),
		...(coal > 0 && coal >= 1 ? ['Art. 12(1)(d) Revenues from hard coal and lignite'] : []),
	];
}
/** A small portfolio, as a client's model would pass it (the API's field names): Articles 8, 6 and 9 in the simulator. */
const HOLDINGS = [
	{
		isin: 'US0378331005',
		name: 'Apple Inc.',
		instrument_type: 'stock',
		currency: 'USD',
		weight: 40,
		market_value: 400000,
	},
	{
		isin: 'US5949181045',
		name: 'Microsoft Corp.',
		instrument_type: 'stock',
		currency: 'USD',
		weight: 35,
		market_value: 350000,
	},
	{
		isin: 'CH0038863350',
		name: 'Nestlé SA',
		instrument_type: 'stock',
		currency: 'CHF',
		weight: 25,
		market_value: 250000,
	},
];

interface WorkflowNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Workflow {
	nodes: WorkflowNode[];
	[key: string]: unknown;
}

interface ListedTool {
	name: string;
	description?: string;
	inputSchema?: {
		type?: string;
		properties?: Record<string, { type?: string }>;
		required?: string[];
	};
}

/** The example as imported: its own id, inactive (publish:workflow activates it). */
function workflow(): Workflow {
	const example = JSON.parse(readFileSync(MCP_EXAMPLE, 'utf8')) as Workflow;
	return { ...example, id: WORKFLOW_ID, active: false };
}

/** What each tool node of the example says it does (toolDescription, or description for Call n8n Workflow Tool). */
function exampleDescriptions(nodes: WorkflowNode[]): Map<string, string> {
	const descriptions = new Map<string, string>();
	for (const node of nodes) {
		const text = node.parameters?.toolDescription ?? node.parameters?.description;
		if (typeof text === 'string') descriptions.set(node.name.replace(/\s+/g, '_'), text);
	}
	return descriptions;
}

/** Every credential reference of the workflow's nodes and of the sub-workflows in Call n8n Workflow Tool nodes. */
function credentialReferences(nodes: WorkflowNode[]): string[] {
	return nodes.flatMap((node) => [
		...(node.credentials?.sustainabilityComplianceApi
			? [node.credentials.sustainabilityComplianceApi.id]
			: []),
		...(typeof node.parameters?.workflowJson === 'string'
			? credentialReferences((JSON.parse(node.parameters.workflowJson) as Workflow).nodes)
			: []),
	]);
}

/** The text of a tool answer, parsed as JSON (n8n sends the tool's JSON text; a JSON string inside is unwrapped). */
function answerJson(result: unknown): unknown {
	const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
	const text = content
		.filter((part) => part.type === 'text')
		.map((part) => part.text ?? '')
		.join('');
	let value: unknown = text;
	for (let depth = 0; depth < 3 && typeof value === 'string'; depth++) {
		try {
			value = JSON.parse(value);
		} catch {
			break;
		}
	}
	return value;
}

function asItems(value: unknown): Array<Record<string, unknown>> {
	if (Array.isArray(value) && value.length === 1) return asItems(value[0]);
	if (Array.isArray(value)) return value as Array<Record<string, unknown>>;
	if (value && typeof value === 'object') {
		const response = (value as { response?: unknown }).response;
		if (Array.isArray(response)) return response as Array<Record<string, unknown>>;
		// A tool's answer to a model: counts and the results (nodes/shared/run/tool.ts).
		const results = (value as { results?: unknown }).results;
		if (Array.isArray(results)) return results as Array<Record<string, unknown>>;
		return [value as Record<string, unknown>];
	}
	throw new Error(`the answer is not JSON items: ${String(value).slice(0, 400)}`);
}

function close(actual: unknown, expected: number, what: string, tolerance = 0.01): void {
	assert.equal(typeof actual, 'number', `${what}: ${JSON.stringify(actual)}`);
	assert.ok(
		Math.abs((actual as number) - expected) <= Math.max(tolerance, Math.abs(expected) * 1e-4),
		`${what}: ${actual as number}, expected ${expected}`,
	);
}

const TRANSPORTS = {
	'Streamable HTTP': (url: URL) => new StreamableHTTPClientTransport(url),
	SSE: (url: URL) => new SSEClientTransport(url),
} as const;
type TransportName = keyof typeof TRANSPORTS;

/** n8n answers 404 until the active workflow's trigger is registered (shortly after start): worth waiting for. */
function notRegisteredYet(error: unknown): boolean {
	return /\b404\b|not registered/i.test((error as Error).message ?? '');
}

/**
 * Connects with the transports in `order`, the first that works: a transport that gets a 404 (the trigger not
 * registered yet) is tried again after 2 s until `deadline`, any other failure moves on to the next transport.
 */
async function connect(
	url: URL,
	deadline: number,
	order: TransportName[] = ['Streamable HTTP', 'SSE'],
): Promise<{ client: Client; transport: TransportName; problems: string[] }> {
	const problems: string[] = [];
	for (const transport of order) {
		for (let attempt = 1; ; attempt++) {
			const client = new Client({
				name: 'n8n-nodes-sustainability-compliance-e2e',
				version: '1.0.0',
			});
			try {
				await client.connect(TRANSPORTS[transport](url), { timeout: 30_000 });
				return { client, transport, problems };
			} catch (error) {
				problems.push(`${transport}, attempt ${attempt}: ${(error as Error).message}`);
				await client.close().catch(() => undefined);
				if (!notRegisteredYet(error) || Date.now() > deadline) break;
				await sleep(2_000);
			}
		}
	}
	throw new Error(`could not connect to ${url.href}:\n${problems.slice(-6).join('\n')}`);
}

async function leg(version: string): Promise<{ passed: number; failed: number }> {
	const { tally, check, fail } = checkTally();
	const sim = await startSimulator();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-mcp-server-'));
	let client: Client | undefined;
	let logFile: string | undefined;
	const timer = setTimeout(() => {
		console.log(
			`FAIL deadline: n8n ${version} leg still running after ${DEADLINE_MS} ms: stopping it`,
		);
		killAllNow();
	}, DEADLINE_MS);
	try {
		await ensureN8n(version);
		installPackageInto(userFolder, PROJECT_ROOT, checkBuiltPackage(PROJECT_ROOT));
		const imported = workflow();
		const env = { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' };

		await check('every credential reference of the example is the one imported', () => {
			const references = credentialReferences(imported.nodes);
			// 6 tool nodes with the credential (4 instrument tools, the screen, EU Taxonomy) + 2 nodes in the Portfolio
			// Summary sub-workflow
			assert.equal(references.length, 8, `references: ${references.join(', ')}`);
			assert.deepEqual([...new Set(references)], [CREDENTIAL.id]);
			return `${references.length} references to "${CREDENTIAL.id}"`;
		});

		await importIntoN8n(version, userFolder, {
			credentials: [
				{
					...CREDENTIAL,
					type: 'sustainabilityComplianceApi',
					data: { apiKey: 'sim-all-families', baseUrl: sim.url },
				},
			],
			workflows: [imported],
			then: [['publish:workflow', `--id=${WORKFLOW_ID}`]],
			env,
		});
		const server = await startN8nServer(version, userFolder, 180_000, env);
		logFile = server.logFile;
		const trigger = imported.nodes.find((node) => node.type.endsWith('.mcpTrigger'));
		const url = new URL(`${server.base}/mcp/${String(trigger?.parameters?.path)}`);
		const connected = await connect(url, Date.now() + 60_000);
		client = connected.client;
		console.log(`     connected to ${url.href} with ${connected.transport}`);
		for (const problem of connected.problems)
			console.log(`     before that: ${problem.slice(0, 300)}`);
		const mcp = client;

		await check(
			'the MCP client lists the seven tools, each with a description and an input schema',
			async () => {
				const { tools } = (await mcp.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS })) as {
					tools: ListedTool[];
				};
				console.log('     tools as the MCP client lists them:');
				for (const tool of tools)
					console.log(
						`       ${tool.name}: ${JSON.stringify(tool.inputSchema)} — ${(tool.description ?? '').slice(0, 100)}`,
					);
				assert.deepEqual(
					tools.map((tool) => tool.name).sort(),
					Object.keys(EXPECTED_TOOLS).sort(),
					'tool names',
				);
				const descriptions = exampleDescriptions(imported.nodes);
				for (const tool of tools) {
					assert.equal(tool.description, descriptions.get(tool.name), `${tool.name}: description`);
					const argument = EXPECTED_TOOLS[tool.name];
					const schema = tool.inputSchema;
					assert.equal(
						schema?.type,
						'object',
						`${tool.name}: input schema ${JSON.stringify(schema)}`,
					);
					assert.equal(
						schema?.properties?.[argument]?.type,
						'string',
						`${tool.name}: a text argument "${argument}": ${JSON.stringify(schema)}`,
					);
					if (argument !== 'input')
						assert.ok(
							schema?.required?.includes(argument),
							`${tool.name}: "${argument}" required: ${JSON.stringify(schema)}`,
						);
				}
				return `${connected.transport}: ${tools.map((tool) => tool.name).join(', ')}`;
			},
		);

		await check('the SSE transport serves the same seven tools', async () => {
			if (connected.transport === 'SSE') return 'already connected with SSE';
			const sse = await connect(url, Date.now() + 30_000, ['SSE']);
			try {
				const { tools } = await sse.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
				assert.deepEqual(
					tools.map((tool) => tool.name).sort(),
					Object.keys(EXPECTED_TOOLS).sort(),
					'tool names over SSE',
				);
				return `${tools.length} tools over SSE as well`;
			} finally {
				await sse.client.close().catch(() => undefined);
			}
		});

		await check(
			`Get_SFDR_Classification for ${SFDR_ISINS.join(' and ')}: the simulator's classes`,
			async () => {
				sim.reset();
				const result = await mcp.callTool(
					{ name: 'Get_SFDR_Classification', arguments: { isins: SFDR_ISINS.join(', ') } },
					undefined,
					{ timeout: REQUEST_TIMEOUT_MS },
				);
				assert.ok(!result.isError, `isError: ${JSON.stringify(result).slice(0, 600)}`);
				const items = asItems(answerJson(result));
				for (const isin of SFDR_ISINS) {
					const item = items.find((candidate) => candidate.isin === isin);
					assert.ok(item, `no item for ${isin}: ${JSON.stringify(items).slice(0, 600)}`);
					const data = instrumentData(isin);
					assert.equal(item.found, true, `${isin}: found`);
					assert.equal(item.classification, data.sfdr, `${isin}: classification`);
					assert.equal(item.article, `Article ${data.sfdr}`, `${isin}: article`);
				}
				const requests = sim.requests({ route: 'POST /instruments/sustainability-profile' });
				assert.equal(requests.length, 1, `${requests.length} SFDR requests`);
				assert.equal(requests[0].status, 200);
				for (const isin of SFDR_ISINS)
					assert.ok(JSON.stringify(requests[0].body).includes(isin), `${isin} not in the request`);
				return SFDR_ISINS.map((isin) => `${isin}: Article ${instrumentData(isin).sfdr}`).join(', ');
			},
		);

		await check(
			'Portfolio_Summary for three holdings as JSON: SFDR shares and weighted PAI',
			async () => {
				sim.reset();
				const result = await mcp.callTool(
					{ name: 'Portfolio_Summary', arguments: { input: JSON.stringify(HOLDINGS) } },
					undefined,
					{ timeout: REQUEST_TIMEOUT_MS },
				);
				assert.ok(!result.isError, `isError: ${JSON.stringify(result).slice(0, 600)}`);
				const items = asItems(answerJson(result));
				assert.equal(items.length, 1, `one summary item: ${JSON.stringify(items).slice(0, 600)}`);
				const summary = items[0];
				const total = HOLDINGS.reduce((sum, holding) => sum + holding.market_value, 0);
				for (const article of [9, 8, 6]) {
					const share =
						(HOLDINGS.filter((holding) => instrumentData(holding.isin).sfdr === article).reduce(
							(sum, holding) => sum + holding.market_value,
							0,
						) /
							total) *
						100;
					close(summary[`article_${article}_percent`], share, `article_${article}_percent`);
				}
				const withValue = HOLDINGS.filter(
					(holding) => instrumentData(holding.isin).pai.carbon_footprint !== null,
				);
				const covered = withValue.reduce((sum, holding) => sum + holding.market_value, 0);
				const average =
					withValue.reduce(
						(sum, holding) =>
							sum + holding.market_value * instrumentData(holding.isin).pai.carbon_footprint!,
						0,
					) / covered;
				close(
					summary.carbon_footprint_weighted_average,
					average,
					'carbon_footprint_weighted_average',
				);
				assert.equal(summary.holdings_count, HOLDINGS.length, 'holdings_count');
				const routes = sim
					.requests()
					.map((request) => request.route)
					.sort();
				assert.deepEqual(
					routes,
					['POST /instruments/sustainability-data', 'POST /instruments/sustainability-profile'],
					'one SFDR and one PAI request',
				);
				return `article 8 ${String(summary.article_8_percent)} %, carbon footprint ${String(summary.carbon_footprint_weighted_average)}`;
			},
		);

		await check(
			`Screen_Against_Paris-Aligned_Exclusions for ${SCREEN_ISINS.join(', ')}: each ISIN's breaches as the simulator's data gives them`,
			async () => {
				sim.reset();
				// The vendor's answer shape: with the UN Global Compact indicator.
				sim.setAnswerShape({ measures: 'vendor' });
				const result = await mcp.callTool(
					{
						name: 'Screen_Against_Paris-Aligned_Exclusions',
						arguments: { isins: SCREEN_ISINS.join(', ') },
					},
					undefined,
					{ timeout: REQUEST_TIMEOUT_MS },
				);
				assert.ok(!result.isError, `isError: ${JSON.stringify(result).slice(0, 600)}`);
				const items = asItems(answerJson(result));
				for (const isin of SCREEN_ISINS) {
					const item = items.find((candidate) => candidate.isin === isin);
					assert.ok(item, `no item for ${isin}: ${JSON.stringify(items).slice(0, 600)}`);
					const expected = expectedPabBreaches(isin);
					assert.deepEqual(
						(item.breaches as Array<{ rule: string }>).map((breach) => breach.rule),
						expected,
						`${isin}: breaches`,
					);
					// The API's answer lacks five of the seven categories: never a pass.
					assert.equal(item.screen, expected.length ? 'breach' : 'not_checked', `${isin}: screen`);
				}
				assert.deepEqual(
					sim
						.requests()
						.map((request) => request.route)
						.sort(),
					['POST /instruments/business-involvements', 'POST /instruments/sustainability-data'],
					'one request per data family',
				);
				return SCREEN_ISINS.map(
					(isin) => `${isin}: ${expectedPabBreaches(isin).length} breach(es)`,
				).join(', ');
			},
		);

		await check(
			"EU_Taxonomy_Portfolio_Alignment for the same holdings: the simulator's KPIs",
			async () => {
				sim.reset();
				const result = await mcp.callTool(
					{
						name: 'EU_Taxonomy_Portfolio_Alignment',
						arguments: { holdings: JSON.stringify(HOLDINGS) },
					},
					undefined,
					{ timeout: REQUEST_TIMEOUT_MS },
				);
				assert.ok(!result.isError, `isError: ${JSON.stringify(result).slice(0, 600)}`);
				const items = asItems(answerJson(result));
				assert.equal(items.length, 1, `one summary item: ${JSON.stringify(items).slice(0, 600)}`);
				const expected = taxonomyKpis(HOLDINGS);
				assert.ok(expected, 'the simulator has taxonomy data for the holdings');
				for (const [kpi, percent] of Object.entries(expected))
					assert.equal(items[0][kpi], percent, `${kpi}: ${JSON.stringify(items[0]).slice(0, 600)}`);
				assert.equal(items[0].holdings_count, HOLDINGS.length, 'holdings_count');
				const requests = sim.requests({ route: 'POST /taxonomy/insights' });
				assert.equal(requests.length, 1, `${requests.length} taxonomy requests`);
				assert.deepEqual(
					(requests[0].body as { holdings: Array<{ isin: string }> }).holdings.map((h) => h.isin),
					HOLDINGS.map((holding) => holding.isin),
				);
				return `${Object.keys(expected).length} KPIs as the simulator computes them`;
			},
		);
	} catch (error) {
		fail('set-up', error);
		if (logFile)
			try {
				console.log(`     n8n log:\n${lastLines(readFileSync(logFile, 'utf8'), 20)}`);
			} catch {
				/* no log */
			}
	} finally {
		clearTimeout(timer);
		await client?.close().catch(() => undefined);
		await stopTracked();
		await sim.close();
		if (process.env.MCP_E2E_KEEP) console.log(`kept ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[n8n ${version}] mcp server: ${tally.passed} passed, ${tally.failed} failed`);
	return tally;
}

if (require.main === module) runLegsAsMain('mcp server', 'mcp-server.ts', leg);

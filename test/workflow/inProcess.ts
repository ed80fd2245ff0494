/**
 * Which example workflows the in-process harness (test/workflow/runner.ts: n8n's engine with this package's nodes,
 * n8n-nodes-base and stand-ins) cannot run, and why. It has no @n8n/n8n-nodes-langchain nodes (AI Agent, chat
 * models, Chat Trigger, MCP Server Trigger) and no model to answer them: such a workflow is run in a real n8n, an AI
 * Agent one by test/e2e/agent-tools.ts (`npm run test:n8n:agent`, with an OpenAI-compatible stand-in for the model),
 * an MCP Server Trigger one by test/e2e/mcp-server.ts (`npm run test:n8n:mcp`, with the official MCP client).
 * n8n-nodes-base nodes without a stand-in (Form Trigger, Extract From File, …) load from an n8n install; without one,
 * a workflow that uses them is skipped too (`missing`: see loadCoreNodes).
 */
import { loadCoreNodes } from './node-types';

export const LANGCHAIN_PREFIX = '@n8n/n8n-nodes-langchain.';

/** Why the in-process harness skips this workflow, or undefined when it runs it. */
export function inProcessSkipReason(
	workflow: {
		nodes?: Array<{ type?: string }>;
	},
	missing: Record<string, string> = loadCoreNodes().missing,
): string | undefined {
	const absent = [
		...new Set((workflow.nodes ?? []).map((node) => node.type ?? '').filter((t) => missing[t])),
	];
	if (absent.length)
		return `needs n8n's ${absent.map((type) => `${type} (${missing[type]})`).join(', ')}`;
	const ai = [
		...new Set(
			(workflow.nodes ?? [])
				.map((node) => node.type ?? '')
				.filter((type) => type.startsWith(LANGCHAIN_PREFIX)),
		),
	];
	if (ai.length === 0) return undefined;
	const where = ai.includes(`${LANGCHAIN_PREFIX}mcpTrigger`)
		? '`npm run test:n8n:mcp` (test/e2e/mcp-server.ts)'
		: '`npm run test:n8n:agent` (test/e2e/agent-tools.ts)';
	return `uses n8n's AI nodes (${ai.map((type) => type.slice(LANGCHAIN_PREFIX.length)).join(', ')}), which the in-process harness does not have: run in a real n8n by ${where}`;
}

/**
 * Our nodes as AI Agent tools inside n8n's engine, the two ways n8n runs them (see nodes/shared/run/tool.ts):
 *
 * - `toolNodeType`: the `…Tool` node type n8n derives from a `usableAsTool` node when a workflow names it
 *   (n8n's NodeTypes.getByNameAndVersion + convertNodeToAiTool, packages/cli/src/node-types.ts and
 *   tool-generation/ai-tools.ts of n8n 2.20.12, the same in 2.41.x): name + `Tool`, no inputs, an `ai_tool` output,
 *   the Tool Description parameters, the node's own `execute`.
 * - `langchainAgentType` (AI Agent up to 2.x): gets its tools with `getInputConnectionData('ai_tool')`, that is
 *   n8n-core's own createNodeAsTool + makeHandleToolInvocation (a SupplyDataContext whose isToolExecution() is
 *   true), and invokes each tool with the arguments given; outputs per call the tool's name, its description as
 *   sent to the model, and the string the model receives (or the error the call threw).
 * - `engineAgentType` (AI Agent 3.x): answers with an engine request; n8n-core runs the tool node as a node of its
 *   own (`rewireOutputLogTo = 'ai_tool'`, an ExecuteContext) and resumes the agent with the tool node's task data.
 *
 * `agentWorkflow` builds Manual Trigger -> Agent <-ai_tool- tool node(s).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { packageNodeTypes } from '../workflow/packageNodes';
import { PACKAGE_NAME } from '../workflow/runner';
import type { WorkflowInput } from '../workflow/runner';
import { CREDENTIAL_REF, MANUAL_TRIGGER } from './workflows';

/** The `…Tool` variant of our node `name` (e.g. 'sustainabilityInstruments'), as n8n makes it. */
export function toolNodeType(name: string): INodeType {
	const base = packageNodeTypes.find(
		(type) => (type as INodeType).description.name === name,
	) as INodeType;
	if (!base) throw new Error(`no package node ${name}`);
	const source = base.description;
	const properties: INodeProperties[] = [...source.properties];
	const description: INodeTypeDescription = {
		...source,
		name: `${source.name}Tool`,
		displayName: `${source.displayName} Tool`,
		inputs: [],
		outputs: ['ai_tool'] as INodeTypeDescription['outputs'],
		properties,
	};
	delete description.usableAsTool;
	const hasOperation = properties.some((prop) => ['resource', 'operation'].includes(prop.name));
	if (!properties.some((prop) => prop.name === 'toolDescription')) {
		const descProp: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: source.description,
			required: true,
			typeOptions: { rows: 2 },
			description: 'Explain to the LLM what this tool does',
		};
		properties.splice(0, 0, descProp);
		if (hasOperation) {
			properties.splice(0, 0, {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Set Automatically', value: 'auto' },
					{ name: 'Set Manually', value: 'manual' },
				],
				default: 'auto',
			});
			descProp.displayOptions = { show: { descriptionType: ['manual'] } };
		}
	}
	return Object.assign(Object.create(base) as INodeType, { description });
}

export interface ToolCall {
	/** The tool node's name (default: the first tool). */
	tool?: string;
	args: IDataObject;
}

const agentDescription = (name: string): INodeTypeDescription =>
	({
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: 'test agent',
		defaults: { name },
		inputs: ['main', { type: 'ai_tool', displayName: 'Tool', required: true }],
		outputs: ['main'],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	}) as INodeTypeDescription;

interface LangchainTool {
	name: string;
	description: string;
	invoke(args: IDataObject): Promise<unknown>;
	metadata?: { sourceNodeName?: string };
}

export const langchainAgentType: INodeType = {
	description: agentDescription('testLangchainAgent'),
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData('ai_tool', 0)) as LangchainTool[];
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as ToolCall[];
		const out: INodeExecutionData[] = [];
		for (const call of calls) {
			const tool = call.tool
				? tools.find((candidate) => candidate.metadata?.sourceNodeName === call.tool)!
				: tools[0];
			const json: IDataObject = { tool: tool.name, description: tool.description };
			try {
				json.result = (await tool.invoke(call.args)) as string;
			} catch (error) {
				json.thrown = (error as Error).message;
			}
			out.push({ json, pairedItem: { item: 0 } });
		}
		return [out];
	},
};

interface EngineResponse {
	actionResponses: Array<{ data: { data?: IDataObject; error?: Error } }>;
}

export const engineAgentType: INodeType = {
	description: agentDescription('testEngineAgent'),
	async execute(this: IExecuteFunctions, response?: EngineResponse) {
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as ToolCall[];
		if (!response || response.actionResponses.length === 0) {
			const tools = this.getParentNodes(this.getNode().name, { connectionType: 'ai_tool' });
			return {
				actions: calls.map((call, index) => ({
					actionType: 'ExecutionNodeAction',
					nodeName: call.tool ?? tools[0].name,
					input: call.args,
					type: 'ai_tool',
					id: `call_${index}`,
					metadata: { itemIndex: 0 },
				})),
				metadata: {},
			};
		}
		return [
			response.actionResponses.map(({ data }) => ({
				json: {
					output: ((data.data?.ai_tool as INodeExecutionData[][] | undefined)?.[0] ?? []).map(
						(item) => item.json,
					),
					...(data.error ? { taskError: data.error.message } : {}),
				},
				pairedItem: { item: 0 },
			})),
		];
	},
} as unknown as INodeType;

/** Node types to pass as runWorkflow's `nodeTypes` for an agent workflow over the given tool nodes. */
export function agentNodeTypes(...names: string[]): Record<string, INodeType> {
	return {
		[`${PACKAGE_NAME}.testLangchainAgent`]: langchainAgentType,
		[`${PACKAGE_NAME}.testEngineAgent`]: engineAgentType,
		...Object.fromEntries(names.map((name) => [`${PACKAGE_NAME}.${name}Tool`, toolNodeType(name)])),
	};
}

export interface ToolSpec {
	/** Our node's description.name, e.g. 'sustainabilityInstruments'. */
	type: string;
	name?: string;
	parameters: IDataObject;
	onError?: INode['onError'];
}

/** Manual Trigger -> Agent (langchain: AI Agent ≤ 2.x; engine: AI Agent 3.x) with the tool nodes on its ai_tool input. */
export function agentWorkflow(
	agent: 'langchain' | 'engine',
	calls: ToolCall[],
	...tools: ToolSpec[]
): WorkflowInput {
	const toolNodes: INode[] = tools.map((tool, index) => ({
		id: `tool${index}`,
		name: tool.name ?? (index === 0 ? 'Tool' : `Tool ${index + 1}`),
		type: `${PACKAGE_NAME}.${tool.type}Tool`,
		typeVersion: 1,
		position: [400, 200 + 200 * index],
		parameters: tool.parameters as INode['parameters'],
		credentials: CREDENTIAL_REF,
		...(tool.onError ? { onError: tool.onError } : {}),
	}));
	const nodes: INode[] = [
		MANUAL_TRIGGER,
		{
			id: 'a',
			name: 'Agent',
			type: `${PACKAGE_NAME}.${agent === 'langchain' ? 'testLangchainAgent' : 'testEngineAgent'}`,
			typeVersion: 1,
			position: [200, 0],
			parameters: { calls: JSON.stringify(calls) },
		},
		...toolNodes,
	];
	const connections: WorkflowInput['connections'] = {
		Trigger: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
	};
	for (const tool of toolNodes)
		connections[tool.name] = { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] };
	return { name: 'agent', nodes, connections, settings: { executionOrder: 'v1' } };
}

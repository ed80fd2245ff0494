/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/node-usable-as-tool
	-- stand-in for n8n's Code node: runs jsCode via new Function, rethrows its errors */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.code` (Code v1/v2, JavaScript only).
 * The workflow test harness (test/workflow/runner.ts) ALWAYS uses this stand-in: the real Code node
 * runs user code in n8n's task runners, which are not available in-process.
 *
 * NOT A SANDBOX: `jsCode` runs in this process via `new Function`, inside an async function, with
 * the same variables the real node offers, taken from n8n-core's workflow data proxy
 * (`this.getWorkflowDataProxy(i)`, as the real node's getSandboxContext does): `$input.all()`,
 * `$input.first()`, `$input.last()`, `$input.item`, `$json`, `$binary`, `$('Node Name').all()` /
 * `.first()` / `.last()` / `.item` (paired-item resolution is n8n-core's own), `$node`, `$now`,
 * `$today`, `$workflow`, `$execution`, `$vars`, `DateTime`…, plus `items` (runOnceForAllItems),
 * `item` (runOnceForEachItem), `$getNodeParameter`, `$getWorkflowStaticData`, `helpers` and
 * `console`.
 *
 * Subset implemented: parameters `mode` ('runOnceForAllItems' | 'runOnceForEachItem'),
 * `language` 'javaScript' and `jsCode` (the real node's names); results are normalised like the
 * real node (plain objects are wrapped in `{ json }`; an item must not mix n8n keys with other
 * keys; runOnceForEachItem sets pairedItem `{ item: i }` and must return one object, or
 * nothing to drop the item); `onError: continueRegularOutput` gives an item `{ error }`.
 * Not implemented: Python, the real node's sandboxing, timeouts and binary-data mode checks.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

const N8N_ITEM_KEYS = new Set(['json', 'binary', 'pairedItem', 'error', 'metadata', 'index']);

type SandboxContext = Record<string, unknown>;

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function getSandboxContext(ctx: IExecuteFunctions, index: number): SandboxContext {
	return {
		$getNodeParameter: ctx.getNodeParameter.bind(ctx),
		$getWorkflowStaticData: ctx.getWorkflowStaticData.bind(ctx),
		helpers: ctx.helpers,
		console,
		...(ctx.getWorkflowDataProxy(index) as unknown as SandboxContext),
	};
}

async function runCode(code: string, context: SandboxContext): Promise<unknown> {
	const names = Object.keys(context).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
	const fn = new Function(...names, `return (async () => {\n${code}\n})();`) as (
		...args: unknown[]
	) => Promise<unknown>;
	return await fn(...names.map((name) => context[name]));
}

function checkItemKeys(ctx: IExecuteFunctions, item: IDataObject, itemIndex: number): void {
	const keys = Object.keys(item);
	const n8nKey = keys.find((key) => N8N_ITEM_KEYS.has(key));
	const other = keys.find((key) => !N8N_ITEM_KEYS.has(key));
	if (n8nKey && other) {
		throw new NodeOperationError(ctx.getNode(), `Unknown top-level item key: ${other}`, {
			description: 'Access the properties of an item under `.json`, e.g. `item.json`',
			itemIndex,
		});
	}
}

function validateItem(ctx: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): void {
	if (!isObject(item.json)) {
		throw new NodeOperationError(ctx.getNode(), "A 'json' property isn't an object", { itemIndex });
	}
	if (item.binary !== undefined && !isObject(item.binary)) {
		throw new NodeOperationError(ctx.getNode(), "A 'binary' property isn't an object", { itemIndex });
	}
}

export class CodeStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Code',
		name: 'code',
		icon: 'fa:code',
		group: ['transform'],
		version: [1, 2],
		description: 'Run custom JavaScript code (test-only stand-in, not sandboxed)',
		defaults: { name: 'Code' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		parameterPane: 'wide',
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Run Once for All Items', value: 'runOnceForAllItems' },
					{ name: 'Run Once for Each Item', value: 'runOnceForEachItem' },
				],
				default: 'runOnceForAllItems',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { '@version': [2] } },
				options: [
					{ name: 'JavaScript', value: 'javaScript' },
					{ name: 'Python (Beta)', value: 'python' },
					{ name: 'Python (Native)', value: 'pythonNative' },
				],
				default: 'javaScript',
			},
			{
				displayName: 'JavaScript',
				name: 'jsCode',
				type: 'string',
				typeOptions: { editor: 'codeNodeEditor', editorLanguage: 'javaScript' },
				default: '',
				noDataExpression: true,
				displayOptions: { show: { '@version': [1] } },
			},
			{
				displayName: 'JavaScript',
				name: 'jsCode',
				type: 'string',
				typeOptions: { editor: 'codeNodeEditor', editorLanguage: 'javaScript' },
				default: '',
				noDataExpression: true,
				displayOptions: { show: { '@version': [2], language: ['javaScript'] } },
			},
			{
				displayName: 'Python',
				name: 'pythonCode',
				type: 'string',
				typeOptions: { editor: 'codeNodeEditor', editorLanguage: 'python' },
				default: '',
				noDataExpression: true,
				displayOptions: { show: { '@version': [2], language: ['python', 'pythonNative'] } },
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		const mode = this.getNodeParameter('mode', 0) as 'runOnceForAllItems' | 'runOnceForEachItem';
		const language = node.typeVersion >= 2 ? (this.getNodeParameter('language', 0) as string) : 'javaScript';
		if (language !== 'javaScript') {
			throw new NodeOperationError(node, `The Code stand-in of the test harness runs JavaScript only (got "${language}")`);
		}
		const code = this.getNodeParameter('jsCode', 0) as string;

		if (mode === 'runOnceForAllItems') {
			try {
				const context = getSandboxContext(this, 0);
				context.items = (context.$input as { all: () => INodeExecutionData[] }).all();
				const result = await runCode(code, context);
				if (typeof result !== 'object' || result === null) {
					throw new NodeOperationError(node, "Code doesn't return items properly", {
						description: 'Please return an array of objects, one for each item you would like to output.',
					});
				}
				if (Array.isArray(result)) {
					result.forEach((item, index) => {
						if (!isObject(item)) {
							throw new NodeOperationError(node, "Code doesn't return items properly", {
								description: 'Please return an array of objects, one for each item you would like to output.',
							});
						}
						if (result.some((entry) => Object.keys(entry as IDataObject).some((key) => N8N_ITEM_KEYS.has(key)))) {
							checkItemKeys(this, item, index);
						}
					});
				}
				const items = this.helpers.normalizeItems(result as INodeExecutionData | INodeExecutionData[]);
				items.forEach((item, index) => validateItem(this, item, index));
				return [items];
			} catch (error) {
				if (this.continueOnFail()) return [[{ json: { error: (error as Error).message } }]];
				if (error instanceof NodeOperationError) throw error;
				throw new NodeOperationError(node, error as Error);
			}
		}

		const inputItems = this.getInputData();
		const returnData: INodeExecutionData[] = [];
		for (let index = 0; index < inputItems.length; index++) {
			try {
				const context = getSandboxContext(this, index);
				context.item = (context.$input as { item: INodeExecutionData }).item;
				const result = await runCode(code, context);
				if (result === undefined || result === null) continue;
				if (typeof result !== 'object' || Array.isArray(result)) {
					throw new NodeOperationError(node, "Code doesn't return a single object", {
						description:
							"Please return an object representing the output item. If you need to output multiple items, use the 'Run Once for All Items' mode instead.",
						itemIndex: index,
					});
				}
				const [item] = this.helpers.normalizeItems([result as INodeExecutionData]);
				validateItem(this, item, index);
				checkItemKeys(this, item as unknown as IDataObject, index);
				returnData.push({ ...item, pairedItem: { item: index } });
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({ json: { error: (error as Error).message }, pairedItem: { item: index } });
					continue;
				}
				if (error instanceof NodeOperationError) throw error;
				throw new NodeOperationError(node, error as Error, { itemIndex: index });
			}
		}
		return [returnData];
	}
}

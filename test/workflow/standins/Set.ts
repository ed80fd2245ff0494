/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.set` ("Edit Fields (Set)").
 * Used by the workflow test harness (test/workflow/runner.ts) when no real n8n-nodes-base install is
 * available. Follows packages/nodes-base/nodes/Set/v2 (SetV2.node.ts, manual.mode.ts, raw.mode.ts,
 * helpers/utils.ts) for typeVersion 3.3 and 3.4; parameter names are the real node's.
 *
 * Subset implemented:
 * - mode 'manual': `assignments.assignments[] { id, name, value, type }` with type string | number |
 *   boolean | array | object, each value converted/validated with n8n-workflow's
 *   `validateFieldType` like the real node (`options.ignoreConversionErrors` honoured);
 * - mode 'raw': `jsonOutput` (a JSON object, `{{ }}` expressions resolved like the real node);
 * - `includeOtherFields` + `include` ('all' | 'selected' | 'except') with `includeFields` /
 *   `excludeFields`; `options.dotNotation` (default true: "a.b" sets nested fields);
 * - binary: v3.4 passes the input binary through only when includeOtherFields is on and
 *   `options.stripBinary` is not true (the option is absent unless added, as in n8n); v3.3 when
 *   `options.includeBinary` is true;
 * - `onError: continueRegularOutput` (an item `{ error }`), pairedItem `{ item: i }`.
 * Not implemented: typeVersion < 3.3 ('fields.values'), duplicateItem.
 */
import type {
	AssignmentCollectionValue,
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeOperationError,
	deepCopy,
	jsonParse,
	validateFieldType,
} from 'n8n-workflow';

type Include = 'all' | 'none' | 'selected' | 'except';

interface SetOptions {
	include?: Include;
	includeBinary?: boolean;
	stripBinary?: boolean;
	ignoreConversionErrors?: boolean;
	dotNotation?: boolean;
}

function splitPath(path: string): string[] {
	return path
		.replace(/\[(\w+)\]/g, '.$1')
		.split('.')
		.filter((segment) => segment !== '');
}

function setPath(target: IDataObject, path: string, value: unknown, dotNotation: boolean): void {
	if (!dotNotation) {
		target[path] = value as IDataObject;
		return;
	}
	const segments = splitPath(path);
	let cursor: Record<string, unknown> = target;
	segments.forEach((segment, index) => {
		if (index === segments.length - 1) {
			cursor[segment] = value;
			return;
		}
		const next = cursor[segment];
		if (typeof next !== 'object' || next === null) {
			cursor[segment] = /^\d+$/.test(segments[index + 1]) ? [] : {};
		}
		cursor = cursor[segment] as Record<string, unknown>;
	});
}

function getPath(source: IDataObject, path: string, dotNotation: boolean): unknown {
	if (!dotNotation) return source[path];
	let cursor: unknown = source;
	for (const segment of splitPath(path)) {
		if (typeof cursor !== 'object' || cursor === null) return undefined;
		cursor = (cursor as Record<string, unknown>)[segment];
	}
	return cursor;
}

function unsetPath(target: IDataObject, path: string, dotNotation: boolean): void {
	if (!dotNotation) {
		delete target[path];
		return;
	}
	const segments = splitPath(path);
	const last = segments.pop();
	let cursor: unknown = target;
	for (const segment of segments) {
		if (typeof cursor !== 'object' || cursor === null) return;
		cursor = (cursor as Record<string, unknown>)[segment];
	}
	if (last !== undefined && typeof cursor === 'object' && cursor !== null) {
		delete (cursor as Record<string, unknown>)[last];
	}
}

/** helpers/utils.ts validateEntry, for typeVersion >= 3.3. */
function validateEntry(
	name: string,
	type: FieldType,
	value: unknown,
	node: INode,
	itemIndex: number,
	ignoreErrors: boolean,
): { name: string; value: unknown } {
	if (value === undefined || value === null) return { name, value: null };
	let input = value;
	if (type === 'string') input = typeof value === 'object' ? JSON.stringify(value) : String(value);
	const result = validateFieldType(name, input, type);
	if (!result.valid) {
		if (ignoreErrors) return { name, value: input ?? null };
		throw new NodeOperationError(node, `${result.errorMessage} [item ${itemIndex}]`, {
			itemIndex,
			description: `To fix the error try to change the type for the field "${name}" or activate the option “Ignore Type Conversion Errors” to apply a less strict type validation`,
		});
	}
	return { name, value: result.newValue ?? null };
}

function composeReturnItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	inputItem: INodeExecutionData,
	newFields: IDataObject,
	options: SetOptions,
	nodeVersion: number,
): INodeExecutionData {
	const dotNotation = options.dotNotation !== false;
	const newItem: INodeExecutionData = { json: {}, pairedItem: { item: itemIndex } };
	const includeBinary =
		(nodeVersion >= 3.4 && !options.stripBinary && options.include !== 'none') ||
		(nodeVersion < 3.4 && !!options.includeBinary);
	if (includeBinary && inputItem.binary !== undefined) {
		newItem.binary = { ...inputItem.binary };
	}

	const fieldList = (parameter: string) =>
		(ctx.getNodeParameter(parameter, itemIndex, '') as string)
			.split(',')
			.map((field) => field.trim())
			.filter((field) => field);

	switch (options.include) {
		case 'all':
			newItem.json = deepCopy(inputItem.json);
			break;
		case 'selected':
			for (const key of fieldList('includeFields')) {
				const keyToSet = dotNotation && key.includes('.') ? (key.split('.').pop() as string) : key;
				setPath(newItem.json, keyToSet, getPath(inputItem.json, key, dotNotation), dotNotation);
			}
			break;
		case 'except': {
			const data = deepCopy(inputItem.json);
			for (const key of fieldList('excludeFields')) unsetPath(data, key, dotNotation);
			newItem.json = data;
			break;
		}
		case 'none':
			break;
		default:
			throw new NodeOperationError(
				ctx.getNode(),
				`The include option "${String(options.include)}" is not known!`,
			);
	}

	for (const key of Object.keys(newFields)) setPath(newItem.json, key, newFields[key], dotNotation);
	return newItem;
}

/** Resolves the `{{ }}` parts of a raw JSON template like the real raw mode's resolveRawData. */
function resolveRawJson(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter('jsonOutput', itemIndex, '{}', { rawExpressions: true }) as
		| string
		| IDataObject;
	if (typeof raw === 'object') return raw;
	let text = raw.startsWith('=') ? raw.replace(/^=+/, '') : raw;
	text = text.replace(/\{\{[\s\S]*?\}\}/g, (resolvable) => {
		const resolved = ctx.evaluateExpression(resolvable, itemIndex);
		return typeof resolved === 'object' && resolved !== null
			? JSON.stringify(resolved)
			: String(resolved);
	});
	let parsed: unknown;
	try {
		parsed = jsonParse(text);
	} catch {
		throw new NodeOperationError(
			ctx.getNode(),
			`The 'JSON Output' in item ${itemIndex} contains invalid JSON`,
			{
				description: text,
			},
		);
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The 'JSON Output' in item ${itemIndex} does not contain a valid JSON object`,
		);
	}
	return parsed as IDataObject;
}

export class SetStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Edit Fields (Set)',
		name: 'set',
		icon: 'fa:pen',
		group: ['input'],
		version: [3, 3.1, 3.2, 3.3, 3.4],
		description: 'Modify, add, or remove item fields (test-only stand-in)',
		subtitle: '={{$parameter["mode"]}}',
		defaults: { name: 'Edit Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Manual Mapping', value: 'manual' },
					{ name: 'JSON', value: 'raw' },
				],
				default: 'manual',
			},
			{
				displayName: 'Duplicate Item',
				name: 'duplicateItem',
				type: 'boolean',
				default: false,
				isNodeSetting: true,
			},
			{
				displayName: 'Duplicate Item Count',
				name: 'duplicateCount',
				type: 'number',
				default: 0,
				isNodeSetting: true,
				displayOptions: { show: { duplicateItem: [true] } },
			},
			{
				displayName: 'JSON',
				name: 'jsonOutput',
				type: 'json',
				default: '{\n  "my_field_1": "value",\n  "my_field_2": 1\n}\n',
				displayOptions: { show: { mode: ['raw'] } },
			},
			{
				displayName: 'Fields to Set',
				name: 'assignments',
				type: 'assignmentCollection',
				default: {},
				displayOptions: { show: { mode: ['manual'] }, hide: { '@version': [3, 3.1, 3.2] } },
			},
			{
				displayName: 'Include Other Input Fields',
				name: 'includeOtherFields',
				type: 'boolean',
				default: false,
				displayOptions: { hide: { '@version': [3, 3.1, 3.2] } },
			},
			{
				displayName: 'Input Fields to Include',
				name: 'include',
				type: 'options',
				default: 'all',
				displayOptions: { hide: { '@version': [3, 3.1, 3.2], '/includeOtherFields': [false] } },
				options: [
					{ name: 'All', value: 'all' },
					{ name: 'Selected', value: 'selected' },
					{ name: 'All Except', value: 'except' },
				],
			},
			{
				displayName: 'Fields to Include',
				name: 'includeFields',
				type: 'string',
				default: '',
				displayOptions: {
					show: { include: ['selected'], '/includeOtherFields': [true] },
					hide: { '@version': [3, 3.1, 3.2] },
				},
			},
			{
				displayName: 'Fields to Exclude',
				name: 'excludeFields',
				type: 'string',
				default: '',
				displayOptions: {
					show: { include: ['except'], '/includeOtherFields': [true] },
					hide: { '@version': [3, 3.1, 3.2] },
				},
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Binary File',
						name: 'includeBinary',
						type: 'boolean',
						default: true,
						displayOptions: { hide: { '@version': [{ _cnd: { gte: 3.4 } }] } },
					},
					{
						displayName: 'Strip Binary Data',
						name: 'stripBinary',
						type: 'boolean',
						default: true,
						displayOptions: {
							show: { '@version': [{ _cnd: { gte: 3.4 } }], '/includeOtherFields': [true] },
						},
					},
					{
						displayName: 'Ignore Type Conversion Errors',
						name: 'ignoreConversionErrors',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '/mode': ['manual'] } },
					},
					{
						displayName: 'Support Dot Notation',
						name: 'dotNotation',
						type: 'boolean',
						default: true,
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		if (node.typeVersion < 3.3) {
			throw new NodeOperationError(
				node,
				`The Set stand-in of the test harness implements typeVersion 3.3 and 3.4 only (got ${node.typeVersion})`,
			);
		}
		const items = this.getInputData();
		const mode = this.getNodeParameter('mode', 0) as 'manual' | 'raw';
		const returnData: INodeExecutionData[] = [];

		for (let i = 0; i < items.length; i++) {
			const includeOtherFields = this.getNodeParameter('includeOtherFields', i, false) as boolean;
			const include = this.getNodeParameter('include', i, 'all') as Include;
			const options = { ...(this.getNodeParameter('options', i, {}) as SetOptions) };
			options.include = includeOtherFields ? include : 'none';
			try {
				let newFields: IDataObject;
				if (mode === 'raw') {
					newFields = resolveRawJson(this, i);
				} else {
					const collection = this.getNodeParameter('assignments', i) as AssignmentCollectionValue;
					newFields = {};
					for (const assignment of collection?.assignments ?? []) {
						const { name, value } = validateEntry(
							assignment.name,
							(assignment.type ?? 'string') as FieldType,
							assignment.value,
							node,
							i,
							options.ignoreConversionErrors ?? false,
						);
						newFields[name] = value as IDataObject;
					}
				}
				returnData.push(composeReturnItem(this, i, items[i], newFields, options, node.typeVersion));
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw new NodeOperationError(node, error as Error, { itemIndex: i });
			}
		}
		return [returnData];
	}
}

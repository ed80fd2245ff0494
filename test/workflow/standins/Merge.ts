/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test stand-in, described as the n8n core node is */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.merge` ("Merge" v3, 3.1, 3.2). Used by the workflow test
 * harness when no real n8n-nodes-base install is available.
 *
 * Subset implemented (packages/nodes-base/nodes/Merge/v3/actions/mode/combineByPosition.ts): mode 'combine' with
 * combineBy 'combineByPosition', 2 inputs, `options` empty or `options.clashHandling.values.resolveClash`
 * 'preferLast' / 'preferInput1' / 'preferInput2' / 'addSuffix' with the default deep merge. As in the real node:
 * item i of each input is merged into one item (a clash goes to the preferred input, by default the last; with
 * 'addSuffix' every field gets `_1` / `_2`), binaries likewise, pairedItem lists the items of every input and the
 * preferred one again; the run stops at the shorter input. Every other mode, combineBy, option or input count is
 * refused, so a test cannot pass on a workflow this stand-in misreads.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPairedItemData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

interface ClashHandling {
	resolveClash?: string;
	mergeMode?: string;
	overrideEmpty?: boolean;
}

const IMPLEMENTED_CLASH = ['preferLast', 'preferInput1', 'preferInput2', 'addSuffix'];

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** lodash `merge` for JSON data: nested objects merged key by key, arrays merged index by index. */
function deepMerge(target: IDataObject, source: IDataObject): IDataObject {
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined) continue;
		const current = target[key];
		if (Array.isArray(value)) {
			const base = Array.isArray(current) ? [...current] : [];
			value.forEach((entry, index) => {
				base[index] =
					isPlainObject(entry) && isPlainObject(base[index])
						? deepMerge({ ...(base[index] as IDataObject) }, entry)
						: isPlainObject(entry)
							? deepMerge({}, entry)
							: entry;
			});
			target[key] = base as IDataObject[];
		} else if (isPlainObject(value)) {
			target[key] = deepMerge(isPlainObject(current) ? { ...current } : {}, value);
		} else {
			target[key] = value;
		}
	}
	return target;
}

function withSuffix(items: INodeExecutionData[], suffix: string): INodeExecutionData[] {
	return items.map((item) => ({
		...item,
		json: Object.fromEntries(Object.entries(item.json).map(([k, v]) => [`${k}_${suffix}`, v])),
	}));
}

export class MergeStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Merge',
		name: 'merge',
		icon: 'fa:code-branch',
		group: ['transform'],
		version: [3, 3.1, 3.2],
		subtitle: '={{$parameter["mode"]}}',
		description:
			'Merges data of multiple streams once data from both is available (test-only stand-in)',
		defaults: { name: 'Merge' },
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		requiredInputs: '={{ $parameter["mode"] === "chooseBranch" ? [0, 1] : 1 }}',
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Append', value: 'append' },
					{ name: 'Combine', value: 'combine' },
					{ name: 'SQL Query', value: 'combineBySql' },
					{ name: 'Choose Branch', value: 'chooseBranch' },
				],
				default: 'append',
			},
			{
				displayName: 'Combine By',
				name: 'combineBy',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Matching Fields', value: 'combineByFields' },
					{ name: 'Position', value: 'combineByPosition' },
					{ name: 'All Possible Combinations', value: 'combineAll' },
				],
				default: 'combineByFields',
				displayOptions: { show: { mode: ['combine'] } },
			},
			{
				displayName: 'Number of Inputs',
				name: 'numberInputs',
				type: 'options',
				noDataExpression: true,
				default: 2,
				options: [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ name: String(n), value: n })),
				displayOptions: { show: { mode: ['combine'], combineBy: ['combineByPosition'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: { show: { mode: ['combine'], combineBy: ['combineByPosition'] } },
				options: [
					{
						displayName: 'Clash Handling',
						name: 'clashHandling',
						type: 'fixedCollection',
						default: { values: { resolveClash: 'addSuffix' } },
						options: [
							{
								displayName: 'Values',
								name: 'values',
								values: [
									{
										displayName: 'When Field Values Clash',
										name: 'resolveClash',
										type: 'string',
										default: '',
									},
									{
										displayName: 'Merging Nested Fields',
										name: 'mergeMode',
										type: 'options',
										default: 'deepMerge',
										options: [
											{ name: 'Deep Merge', value: 'deepMerge' },
											{ name: 'Shallow Merge', value: 'shallowMerge' },
										],
									},
									{
										displayName: 'Minimize Empty Fields',
										name: 'overrideEmpty',
										type: 'boolean',
										default: false,
									},
								],
							},
						],
					},
					{
						displayName: 'Include Any Unpaired Items',
						name: 'includeUnpaired',
						type: 'boolean',
						default: false,
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		const refuse = (what: string) =>
			new NodeOperationError(
				node,
				`The Merge stand-in of the test harness implements Combine by Position of 2 inputs with the default options only (got ${what})`,
			);
		const mode = this.getNodeParameter('mode', 0) as string;
		if (mode !== 'combine') throw refuse(`mode "${mode}"`);
		const combineBy = this.getNodeParameter('combineBy', 0) as string;
		if (combineBy !== 'combineByPosition') throw refuse(`combineBy "${combineBy}"`);
		const numberInputs = this.getNodeParameter('numberInputs', 0, 2) as number;
		if (numberInputs !== 2) throw refuse(`numberInputs ${numberInputs}`);
		if (this.getNodeParameter('options.includeUnpaired', 0, false) as boolean)
			throw refuse('includeUnpaired');
		const clash = this.getNodeParameter('options.clashHandling.values', 0, {}) as ClashHandling;
		if (clash.resolveClash !== undefined && !IMPLEMENTED_CLASH.includes(clash.resolveClash))
			throw refuse(`resolveClash "${clash.resolveClash}"`);
		if ((clash.mergeMode ?? 'deepMerge') !== 'deepMerge' || clash.overrideEmpty)
			throw refuse('mergeMode / overrideEmpty');

		const inputs: INodeExecutionData[][] = [0, 1].map((index) => {
			try {
				return this.getInputData(index) ?? [];
			} catch {
				return [];
			}
		});
		const preferredIndex = clash.resolveClash?.startsWith('preferInput')
			? Number(clash.resolveClash.replace('preferInput', '')) - 1
			: inputs.length - 1;
		const preferred = inputs[preferredIndex];
		if (clash.resolveClash === 'addSuffix') {
			inputs.forEach((input, index) => (inputs[index] = withSuffix(input, String(index + 1))));
		}
		const count = Math.min(...inputs.map((input) => input.length), preferred.length);
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < count; i++) {
			const preferredEntry = preferred[i] ?? { json: {} };
			const entries = inputs.map((input) => input[i] ?? { json: {} });
			const sources = [...entries, preferredEntry];
			const json = sources.reduce<IDataObject>(
				(merged, entry) => deepMerge(merged, entry.json ?? {}),
				{},
			);
			const binary = sources.reduce<IDataObject>(
				(merged, entry) => deepMerge(merged, (entry.binary ?? {}) as unknown as IDataObject),
				{},
			);
			// as the real node: the preferred entry's pairedItem is appended as it is (not flattened)
			const pairedItem = [
				...entries.map((entry) => entry.pairedItem).flat(),
				preferredEntry.pairedItem,
			].filter((item) => item !== undefined) as IPairedItemData[];
			out.push({ json, binary: binary as INodeExecutionData['binary'], pairedItem });
		}
		return [out];
	}
}

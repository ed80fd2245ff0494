/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/node-usable-as-tool
	-- stand-in for n8n's Merge node, runs in Node */
/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.merge` (Merge v3 / 3.1 / 3.2).
 * Used by the workflow test harness (test/workflow/runner.ts) when no real n8n-nodes-base install is
 * available. Follows packages/nodes-base/nodes/Merge/v3 (actions/mode/*.ts, helpers/utils.ts);
 * parameter names are the real node's.
 *
 * Subset implemented:
 * - mode 'append' (`numberInputs`, default 2): items of input 1, then input 2, …;
 * - mode 'combine', combineBy 'combineByPosition' (`numberInputs`; options.includeUnpaired;
 *   options.clashHandling.values { resolveClash: 'preferLast' | 'preferInput<N>' | 'addSuffix',
 *   mergeMode: 'deepMerge' | 'shallowMerge', overrideEmpty });
 * - mode 'combine', combineBy 'combineByFields' with `fieldsToMatchString` (or `advanced` +
 *   `mergeByFields.values[] { field1, field2 }`), `joinMode` (keepMatches, keepNonMatches,
 *   keepEverything, enrichInput1, enrichInput2), `outputDataFrom`, options { clashHandling,
 *   disableDotNotation, fuzzyCompare (simplified: compares as strings), multipleMatches }.
 * Inputs, like the real node's, come from the expression `numberInputs` (2 by default) and
 * `requiredInputs` is the real one. Not implemented: combineAll, combineBySql, chooseBranch.
 */
import { isDeepStrictEqual } from 'node:util';

import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPairedItemData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

interface ClashResolveOptions {
	resolveClash?: string;
	mergeMode?: string;
	overrideEmpty?: boolean;
}

interface MatchFieldsOptions {
	joinMode?: string;
	outputDataFrom?: string;
	disableDotNotation?: boolean;
	fuzzyCompare?: boolean;
	multipleMatches?: string;
}

type PairToMatch = { field1: string; field2: string };
type EntryMatches = { entry: INodeExecutionData; matches: INodeExecutionData[] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function clone<T>(value: T): T {
	if (Array.isArray(value)) return value.map((entry) => clone(entry)) as T;
	if (isPlainObject(value)) {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, clone(entry)])) as T;
	}
	return value;
}

/** lodash.merge semantics: recursive for plain objects and arrays, undefined sources skipped. */
function deepMergeInto(
	target: Record<string, unknown>,
	source: Record<string, unknown>,
	skip?: (value: unknown) => boolean,
): Record<string, unknown> {
	for (const [key, value] of Object.entries(source ?? {})) {
		if (value === undefined) continue;
		if (skip?.(value) && key in target) continue;
		const current = target[key];
		if (isPlainObject(value) && (isPlainObject(current) || Array.isArray(current))) {
			deepMergeInto(current as Record<string, unknown>, value, skip);
		} else if (Array.isArray(value) && Array.isArray(current)) {
			deepMergeInto(current as unknown as Record<string, unknown>, value as unknown as Record<string, unknown>, skip);
		} else {
			target[key] = clone(value);
		}
	}
	return target;
}

function isEmptyValue(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

/** helpers/utils.ts selectMergeMethod */
function selectMergeMethod(options: ClashResolveOptions) {
	const skip = options.overrideEmpty ? isEmptyValue : undefined;
	if (options.mergeMode === 'shallowMerge') {
		return (target: IDataObject, ...sources: IDataObject[]): IDataObject => {
			const result: IDataObject = { ...target };
			for (const source of sources) {
				for (const [key, value] of Object.entries(source ?? {})) {
					if (skip?.(value) && key in result) continue;
					result[key] = value;
				}
			}
			return result;
		};
	}
	return (target: IDataObject, ...sources: IDataObject[]): IDataObject => {
		const result = deepMergeInto({}, target as Record<string, unknown>);
		for (const source of sources) deepMergeInto(result, source as Record<string, unknown>, skip);
		return result as IDataObject;
	};
}

function addSuffixToEntriesKeys(data: INodeExecutionData[], suffix: string): INodeExecutionData[] {
	return data.map((entry) => {
		const json: IDataObject = {};
		for (const key of Object.keys(entry.json)) json[`${key}_${suffix}`] = entry.json[key];
		return { ...entry, json };
	});
}

function pairedItems(pairedItem: INodeExecutionData['pairedItem']): IPairedItemData[] {
	if (pairedItem === undefined) return [];
	if (typeof pairedItem === 'number') return [{ item: pairedItem }];
	return Array.isArray(pairedItem) ? pairedItem : [pairedItem];
}

function getField(json: IDataObject, field: string, disableDotNotation: boolean): unknown {
	if (disableDotNotation) return json[field];
	let cursor: unknown = json;
	for (const segment of field.replace(/\[(\w+)\]/g, '.$1').split('.')) {
		if (typeof cursor !== 'object' || cursor === null) return undefined;
		cursor = (cursor as Record<string, unknown>)[segment];
	}
	return cursor;
}

function compare(fuzzy: boolean) {
	if (!fuzzy) return (a: unknown, b: unknown) => isDeepStrictEqual(a, b);
	return (a: unknown, b: unknown) => {
		if (isDeepStrictEqual(a, b)) return true;
		if (a === null || a === undefined || b === null || b === undefined) return false;
		if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
		return String(a).trim() === String(b).trim();
	};
}

/** helpers/utils.ts findMatches */
function findMatches(
	input1: INodeExecutionData[],
	input2: INodeExecutionData[],
	fieldsToMatch: PairToMatch[],
	options: MatchFieldsOptions,
) {
	const isEqual = compare(!!options.fuzzyCompare);
	const disableDotNotation = !!options.disableDotNotation;
	const multipleMatches = options.multipleMatches || 'all';
	const filtered = {
		matched: [] as EntryMatches[],
		matched2: [] as INodeExecutionData[],
		unmatched1: [] as INodeExecutionData[],
		unmatched2: [] as INodeExecutionData[],
	};
	const matchedInInput2 = new Set<number>();

	for (const entry1 of input1) {
		const lookup: IDataObject = {};
		for (const pair of fieldsToMatch) {
			lookup[pair.field2] = getField(entry1.json, pair.field1, disableDotNotation) as IDataObject;
		}
		if (Object.values(lookup).some((value) => value === undefined)) {
			filtered.unmatched1.push(entry1);
			continue;
		}
		const found: Array<{ entry: INodeExecutionData; index: number }> = [];
		for (let index = 0; index < input2.length; index++) {
			const entry2 = input2[index];
			if (entry2 === undefined) continue;
			const equal = Object.keys(lookup).every((key) =>
				isEqual(lookup[key], getField(entry2.json, key, disableDotNotation)),
			);
			if (!equal) continue;
			found.push({ entry: entry2, index });
			if (multipleMatches !== 'all') break;
		}
		found.forEach((match) => matchedInInput2.add(match.index));
		const matches = found.map((match) => match.entry);
		if (matches.length) {
			if (
				options.outputDataFrom === 'both' ||
				options.joinMode === 'enrichInput1' ||
				options.joinMode === 'enrichInput2'
			) {
				for (const match of matches) filtered.matched.push({ entry: entry1, matches: [match] });
			} else {
				filtered.matched.push({ entry: entry1, matches });
			}
		} else {
			filtered.unmatched1.push(entry1);
		}
	}
	input2.forEach((entry, index) => {
		(matchedInInput2.has(index) ? filtered.matched2 : filtered.unmatched2).push(entry);
	});
	return filtered;
}

/** helpers/utils.ts mergeMatched */
function mergeMatched(matched: EntryMatches[], clash: ClashResolveOptions, joinMode?: string): INodeExecutionData[] {
	const returnData: INodeExecutionData[] = [];
	let resolveClash = clash.resolveClash;
	const mergeIntoSingleObject = selectMergeMethod(clash);

	for (const match of matched) {
		let { entry, matches } = match;
		let json: IDataObject = {};
		let binary: IBinaryKeyData = {};
		let pairedItem: IPairedItemData[] = [];

		if (resolveClash === 'addSuffix') {
			[entry] = addSuffixToEntriesKeys([entry], '1');
			matches = addSuffixToEntriesKeys(matches, '2');
			json = mergeIntoSingleObject({ ...entry.json }, ...matches.map((item) => item.json));
			binary = mergeIntoSingleObject(
				{ ...entry.binary } as IDataObject,
				...matches.map((item) => (item.binary ?? {}) as IDataObject),
			) as IBinaryKeyData;
			pairedItem = [...pairedItems(entry.pairedItem), ...matches.flatMap((item) => pairedItems(item.pairedItem))];
		} else {
			if (resolveClash === undefined || resolveClash === '') {
				resolveClash = joinMode !== 'enrichInput2' ? 'preferLast' : 'preferInput1';
			}
			if (resolveClash === 'preferInput1') {
				const [firstMatch, ...restMatches] = matches;
				json = mergeIntoSingleObject({ ...firstMatch.json }, ...restMatches.map((item) => item.json), entry.json);
				binary = mergeIntoSingleObject(
					{ ...firstMatch.binary } as IDataObject,
					...restMatches.map((item) => (item.binary ?? {}) as IDataObject),
					(entry.binary ?? {}) as IDataObject,
				) as IBinaryKeyData;
				pairedItem = [
					...pairedItems(firstMatch.pairedItem),
					...restMatches.flatMap((item) => pairedItems(item.pairedItem)),
					...pairedItems(entry.pairedItem),
				];
			}
			if (resolveClash === 'preferLast') {
				json = mergeIntoSingleObject({ ...entry.json }, ...matches.map((item) => item.json));
				binary = mergeIntoSingleObject(
					{ ...entry.binary } as IDataObject,
					...matches.map((item) => (item.binary ?? {}) as IDataObject),
				) as IBinaryKeyData;
				pairedItem = [...pairedItems(entry.pairedItem), ...matches.flatMap((item) => pairedItems(item.pairedItem))];
			}
		}
		returnData.push({ json, binary, pairedItem });
	}
	return returnData;
}

const numberInputs: INodeProperties = {
	displayName: 'Number of Inputs',
	name: 'numberInputs',
	type: 'options',
	noDataExpression: true,
	default: 2,
	options: [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ name: String(n), value: n })),
	validateType: 'number',
};

const clashHandling: INodeProperties = {
	displayName: 'Clash Handling',
	name: 'clashHandling',
	type: 'fixedCollection',
	default: { values: { resolveClash: 'preferLast', mergeMode: 'deepMerge', overrideEmpty: false } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{ displayName: 'When Field Values Clash', name: 'resolveClash', type: 'string', default: '' },
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
				{ displayName: 'Minimize Empty Fields', name: 'overrideEmpty', type: 'boolean', default: false },
			],
		},
	],
};

const multipleMatches: INodeProperties = {
	displayName: 'Multiple Matches',
	name: 'multipleMatches',
	type: 'options',
	default: 'all',
	options: [
		{ name: 'Include All Matches', value: 'all' },
		{ name: 'Include First Match Only', value: 'first' },
	],
};

const byFields = { show: { mode: ['combine'], combineBy: ['combineByFields'] } };
const byPosition = { show: { mode: ['combine'], combineBy: ['combineByPosition'] } };

export class MergeStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Merge',
		name: 'merge',
		icon: 'fa:code-branch',
		group: ['transform'],
		version: [3, 3.1, 3.2],
		description: 'Merges data of multiple streams once data from both is available (test-only stand-in)',
		defaults: { name: 'Merge' },
		inputs: `={{ Array.from({ length: Number($parameter["numberInputs"]) || 2 }, (_, i) => ({ type: "main", displayName: "Input " + (i + 1) })) }}`,
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
			{ ...numberInputs, displayOptions: { show: { mode: ['append'] } } },
			{ displayName: 'Fields To Match Have Different Names', name: 'advanced', type: 'boolean', default: false, displayOptions: byFields },
			{
				displayName: 'Fields to Match',
				name: 'fieldsToMatchString',
				type: 'string',
				default: '',
				displayOptions: { show: { ...byFields.show, advanced: [false] } },
			},
			{
				displayName: 'Fields to Match',
				name: 'mergeByFields',
				type: 'fixedCollection',
				default: { values: [{ field1: '', field2: '' }] },
				typeOptions: { multipleValues: true },
				displayOptions: { show: { ...byFields.show, advanced: [true] } },
				options: [
					{
						displayName: 'Values',
						name: 'values',
						values: [
							{ displayName: 'Input 1 Field', name: 'field1', type: 'string', default: '' },
							{ displayName: 'Input 2 Field', name: 'field2', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Output Type',
				name: 'joinMode',
				type: 'options',
				options: [
					{ name: 'Keep Matches', value: 'keepMatches' },
					{ name: 'Keep Non-Matches', value: 'keepNonMatches' },
					{ name: 'Keep Everything', value: 'keepEverything' },
					{ name: 'Enrich Input 1', value: 'enrichInput1' },
					{ name: 'Enrich Input 2', value: 'enrichInput2' },
				],
				default: 'keepMatches',
				displayOptions: byFields,
			},
			{
				displayName: 'Output Data From',
				name: 'outputDataFrom',
				type: 'options',
				options: [
					{ name: 'Both Inputs', value: 'both' },
					{ name: 'Input 1', value: 'input1' },
					{ name: 'Input 2', value: 'input2' },
				],
				default: 'both',
				displayOptions: { show: { ...byFields.show, joinMode: ['keepMatches', 'keepNonMatches'] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: byFields,
				options: [
					clashHandling,
					{ displayName: 'Disable Dot Notation', name: 'disableDotNotation', type: 'boolean', default: false },
					{ displayName: 'Fuzzy Compare', name: 'fuzzyCompare', type: 'boolean', default: false },
					multipleMatches,
				],
			},
			{ ...numberInputs, displayOptions: byPosition },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				displayOptions: byPosition,
				options: [
					{ ...clashHandling, default: { values: { resolveClash: 'addSuffix' } } },
					{ displayName: 'Include Any Unpaired Items', name: 'includeUnpaired', type: 'boolean', default: false },
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const node = this.getNode();
		const count = Number(this.getNodeParameter('numberInputs', 0, 2)) || 2;
		const inputsData: INodeExecutionData[][] = [];
		for (let i = 0; i < count; i++) {
			try {
				inputsData.push(this.getInputData(i) ?? []);
			} catch {
				inputsData.push([]);
			}
		}

		let mode = this.getNodeParameter('mode', 0) as string;
		if (mode === 'combine') mode = this.getNodeParameter('combineBy', 0) as string;

		if (mode === 'append') return [inputsData.flat()];
		if (mode === 'combineByPosition') return [combineByPosition(this, inputsData)];
		if (mode === 'combineByFields') return combineByFields(this, inputsData);
		throw new NodeOperationError(node, `The Merge stand-in of the test harness does not implement mode "${mode}"`);
	}
}

function combineByPosition(ctx: IExecuteFunctions, inputsData: INodeExecutionData[][]): INodeExecutionData[] {
	const returnData: INodeExecutionData[] = [];
	const clash = ctx.getNodeParameter('options.clashHandling.values', 0, {}) as ClashResolveOptions;
	const includeUnpaired = ctx.getNodeParameter('options.includeUnpaired', 0, false) as boolean;

	const preferredInputIndex = clash?.resolveClash?.includes('preferInput')
		? Number(clash.resolveClash.replace('preferInput', '')) - 1
		: inputsData.length - 1;
	const preferred = inputsData[preferredInputIndex] ?? [];

	if (clash.resolveClash === 'addSuffix') {
		inputsData = inputsData.map((input, index) => addSuffixToEntriesKeys(input, String(index + 1)));
	}
	const lengths = inputsData.map((input) => input.length);
	const numEntries = includeUnpaired
		? Math.max(...lengths, preferred.length)
		: Math.min(...lengths, preferred.length);
	const mergeIntoSingleObject = selectMergeMethod(clash);

	for (let i = 0; i < numEntries; i++) {
		const preferredEntry = preferred[i] ?? ({} as INodeExecutionData);
		const restEntries = inputsData.map((input) => input[i] ?? ({} as INodeExecutionData));
		const json = {
			...mergeIntoSingleObject({}, ...restEntries.map((entry) => entry.json ?? {}), preferredEntry.json ?? {}),
		};
		const binary = selectMergeMethod({})(
			{},
			...restEntries.map((entry) => (entry.binary ?? {}) as IDataObject),
			(preferredEntry.binary ?? {}) as IDataObject,
		) as IBinaryKeyData;
		const pairedItem = [
			...restEntries.flatMap((entry) => pairedItems(entry.pairedItem)),
			...pairedItems(preferredEntry.pairedItem),
		];
		returnData.push({ json, binary, pairedItem });
	}
	return returnData;
}

function combineByFields(ctx: IExecuteFunctions, inputsData: INodeExecutionData[][]): INodeExecutionData[][] {
	let returnData: INodeExecutionData[] = [];
	const advanced = ctx.getNodeParameter('advanced', 0) as boolean;
	const matchFields: PairToMatch[] = advanced
		? (ctx.getNodeParameter('mergeByFields.values', 0, []) as PairToMatch[])
		: (ctx.getNodeParameter('fieldsToMatchString', 0, '') as string).split(',').map((f) => {
				const field = f.trim();
				return { field1: field, field2: field };
			});
	if (matchFields.length === 1 && matchFields[0].field1 === '' && matchFields[0].field2 === '') {
		throw new NodeOperationError(ctx.getNode(), 'You need to define at least one pair of fields in "Fields to Match" to match on');
	}
	matchFields.forEach((pair, index) => {
		if (pair.field1 === '' || pair.field2 === '') {
			throw new NodeOperationError(ctx.getNode(), `You need to define both fields in "Fields to Match" for pair ${index + 1}`);
		}
	});

	const joinMode = ctx.getNodeParameter('joinMode', 0) as string;
	const outputDataFrom = ctx.getNodeParameter('outputDataFrom', 0, 'both') as string;
	const options = { ...(ctx.getNodeParameter('options', 0, {}) as MatchFieldsOptions) };
	options.joinMode = joinMode;
	options.outputDataFrom = outputDataFrom;

	const [input1 = [], input2 = []] = inputsData;

	if (input1.length === 0 || input2.length === 0) {
		if (!input1.length && joinMode === 'keepNonMatches' && outputDataFrom === 'input1') return [returnData];
		if (!input2.length && joinMode === 'keepNonMatches' && outputDataFrom === 'input2') return [returnData];
		if (joinMode === 'keepMatches') return [];
		if (joinMode === 'enrichInput1' && input1.length === 0) return [];
		if (joinMode === 'enrichInput2' && input2.length === 0) return [];
		return [[...input1, ...input2]];
	}

	const matches = findMatches(input1, input2, matchFields, options);
	const clash = ctx.getNodeParameter('options.clashHandling.values', 0, {}) as ClashResolveOptions;

	if (joinMode === 'keepMatches' || joinMode === 'keepEverything') {
		let output: INodeExecutionData[] = [];
		if (outputDataFrom === 'input1') output = matches.matched.map((match) => match.entry);
		if (outputDataFrom === 'input2') output = matches.matched2;
		if (outputDataFrom === 'both') output = mergeMatched(matches.matched, clash);
		if (joinMode === 'keepEverything') {
			let { unmatched1, unmatched2 } = matches;
			if (clash.resolveClash === 'addSuffix') {
				unmatched1 = addSuffixToEntriesKeys(unmatched1, '1');
				unmatched2 = addSuffixToEntriesKeys(unmatched2, '2');
			}
			output = [...output, ...unmatched1, ...unmatched2];
		}
		returnData = returnData.concat(output);
	}

	if (joinMode === 'keepNonMatches') {
		if (outputDataFrom === 'input1') return [matches.unmatched1];
		if (outputDataFrom === 'input2') return [matches.unmatched2];
		return [
			[
				...matches.unmatched1.map((entry) => ({ ...entry, json: { ...entry.json, _source: 'input1' } })),
				...matches.unmatched2.map((entry) => ({ ...entry, json: { ...entry.json, _source: 'input2' } })),
			],
		];
	}

	if (joinMode === 'enrichInput1' || joinMode === 'enrichInput2') {
		const merged = mergeMatched(matches.matched, clash, joinMode);
		const unmatched = joinMode === 'enrichInput1' ? matches.unmatched1 : matches.unmatched2;
		const suffix = joinMode === 'enrichInput1' ? '1' : '2';
		returnData = returnData.concat(
			merged,
			clash.resolveClash === 'addSuffix' ? addSuffixToEntriesKeys(unmatched, suffix) : unmatched,
		);
	}
	return [returnData];
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { noteAboutAnswer, readClassification } from '../../shared/api/answers';
import { settleDomains } from '../../shared/api/domains';
import { inputError } from '../../shared/api/errors';
import { ROUTES } from '../../shared/api/routes';
import type { ApiRoute } from '../../shared/api/routes';
import { MAX_INSTRUMENTS_PER_REQUEST } from '../../shared/base/constants';
import { addRunNote } from '../../shared/base/hints';
import { hasOwn, isRecord, showValue } from '../../shared/base/values';
import { numberParameterValue } from '../../shared/input/parameters';
import { uniformRemovedRows } from '../../shared/input/holdings';
import { batchSettings, lookupInstruments } from '../../shared/run/batching';
import { pairedTo } from '../../shared/run/execution';
import { planRequests } from '../../shared/run/requestPlan';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import {
	batchingOptions,
	invalidIsinsProperty,
	maxRequestsOption,
	maxThrottleWaitOption,
} from '../../shared/ui/descriptions';
import {
	outputScreenChanges,
	readScreenChangesSettings,
	screenChangesProperties,
	unsettledRules,
} from './changesScreen';
import { flatCells, hasAnyValue } from './instrumentResults';
import { applyInvalidIsinPolicy, distinctIsins, readIsinEntries } from './lookup';
import type { ItemIsin } from './lookupTypes';
import { prepareSummary, removedRowsText, summaryProperties } from './portfolioSummary';
import type { PreparedSummary } from './portfolioSummary';
import {
	SCREEN_PRESETS,
	familiesNeeded,
	positiveTestParameter,
	presetNotice,
	ruleCondition,
	thresholdParameter,
} from './screenRules';
import type { ScreenFamily, ScreenPresetName, ScreenRule, ScreenRuleType } from './screenRules';
import {
	positiveTest,
	rulesWithoutData,
	screenIsin,
	screenUnsent,
	summarizeScreen,
} from './screening';
import type {
	FamilyAnswers,
	FamilyRecord,
	HoldingScreen,
	RuleNotChecked,
	ScreenAnswers,
	ScreenedHolding,
} from './screening';
import {
	HOLDINGS_JSON_OPTION,
	HOLDINGS_JSON_SOURCE,
	holdingsJsonParameter,
	withHoldingsJson,
} from './holdingsJsonInput';

const PRESET_NAMES = Object.keys(SCREEN_PRESETS) as Array<keyof typeof SCREEN_PRESETS>;

/** Each preset's notice, threshold fields (prefilled with the text's values, editable) and positive test. */
const presetProperties: INodeProperties[] = PRESET_NAMES.flatMap((name) => {
	const preset = SCREEN_PRESETS[name];
	const show = { screenPreset: [name] };
	const properties: INodeProperties[] = [
		{
			displayName: presetNotice(preset),
			name: `${name}Notice`,
			type: 'notice',
			default: '',
			displayOptions: { show },
		},
	];
	for (const rule of preset.rules) {
		if (rule.key === undefined) continue;
		const threshold = rule.threshold ?? 0;
		properties.push({
			displayName: `${rule.point} ${rule.label}: Threshold`,
			name: thresholdParameter(name, rule.key),
			type: 'number',
			typeOptions: { minValue: 0 },
			default: threshold,
			description: `Breach when the API's weight of the business involvement category "${rule.category}" is above 0 and at least this (0 = any involvement). The API does not document what the weight measures; the text's value is prefilled.`,
			displayOptions: { show },
		});
	}
	if (preset.positiveTest) {
		const { minimumPercent, text } = preset.positiveTest;
		properties.push({
			displayName: 'Positive Test: Minimum Share (%)',
			name: positiveTestParameter(name),
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100 },
			default: minimumPercent,
			description: `${text}. Shown on the Portfolio Summary as positive_test.`,
			displayOptions: { show },
		});
	}
	return properties;
});

const rulesProperty: INodeProperties = {
	displayName: 'Rules',
	name: 'rules',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Rule',
	default: {},
	description:
		"Exclusions to check, added to the preset's rules. A rule the API gives no data for is reported as not checked, never as passed.",
	options: [
		{
			name: 'rule',
			displayName: 'Rule',
			values: [
				{
					displayName: 'Article',
					name: 'article',
					type: 'options',
					options: [
						{
							name: 'Article 6',
							value: 6,
						},
						{
							name: 'Article 8',
							value: 8,
						},
						{
							name: 'Article 9',
							value: 9,
						},
					],
					default: 8,
				},
				{
					displayName: 'Category',
					name: 'category',
					type: 'string',
					default: '',
					placeholder: 'e.g. thermal_coal',
					description:
						'Business involvement category as the API names it. Known to be given:	thermal_coal, tobacco_distributor, nuclear_weapons, nuclear_power_generation (the full list is not published).',
				},
				{
					displayName: 'Indicator',
					name: 'indicator',
					type: 'string',
					default: 'violations_un_global_compact',
					placeholder: 'e.g. violations_un_global_compact',
					description:
						'True/false PAI indicator as the API names it, e.g. violations_un_global_compact or fossil_fuel_sector_exposure',
				},
				{
					displayName: 'Label',
					name: 'label',
					type: 'string',
					default: '',
					placeholder: 'e.g. Prospectus 4.2:	thermal coal',
					description: 'Name of the rule in the output. Empty:	the rule as it reads.',
				},
				{
					displayName: 'Minimum',
					name: 'minimum',
					type: 'number',
					default: 0,
				},
				{
					displayName: 'Score',
					name: 'metric',
					type: 'string',
					default: 'total_score',
					placeholder: 'e.g. total_score',
					description:
						'ESG score or metric as the API names it (total_score, environment_score, social_score, governance_score,	...)',
				},
				{
					displayName: 'Threshold',
					name: 'threshold',
					type: 'number',
					default: 0,
					description:
						"Breach when the API's weight is above 0 and at least this (0	=	any involvement). Compared with the weight as the API gives it.",
				},
				{
					displayName: 'Type',
					name: 'type',
					type: 'options',
					options: [
						{
							name: 'Business Involvement at or Above a Threshold',
							value: 'involvement',
							description:
								"Breach when the API's weight of a category is above 0 and at least the threshold",
						},
						{
							name: 'ESG Score at Least',
							value: 'minEsgScore',
							description: 'Breach when an ESG score or metric is below the minimum',
						},
						{
							name: 'SFDR Article at Least',
							value: 'minSfdrArticle',
							description: "Breach when the instrument's SFDR article is below the one chosen",
						},
						{
							name: 'True/False Indicator Must Be False',
							value: 'indicatorFalse',
							description:
								'Breach when a true/false PAI indicator is true (e.g. violations_un_global_compact)',
						},
					],
					default: 'involvement',
				},
			],
		},
	],
};

const screenProperties: INodeProperties[] = [
	{
		displayName: 'Preset',
		name: 'screenPreset',
		builderHint: parameterBuilderHint(
			'Paris-Aligned Benchmark Exclusions for a fund that promises the EU benchmark exclusions (coal, oil, gas, controversial weapons, tobacco, UN Global Compact). None to check only the rules added under Rules (e.g. from a prospectus). The SFDR revision presets are a pre-check against a proposal.',
		),
		type: 'options',
		options: [
			{
				name: 'Climate Transition Benchmark Exclusions',
				value: 'ctb',
				description: 'Delegated Regulation (EU) 2020/1818 (17 July 2020), Art. 12(1)(a)–(c).',
			},
			{
				name: 'None (Rules Below Only)',
				value: 'custom',
				description: 'Only the rules added below',
			},
			{
				name: 'Paris-Aligned Benchmark Exclusions',
				value: 'pab',
				description: 'Delegated Regulation (EU) 2020/1818 (17 July 2020), Art. 12(1)(a)–(g).',
			},
			{
				name: 'SFDR Revision Proposal: ESG Basics (Pre-Check)',
				value: 'sfdrEsgBasics',
				description:
					'Commission proposal of 20 November 2025 (Art. 8): a pre-check, not a classification.',
			},
			{
				name: 'SFDR Revision Proposal: Sustainable (Pre-Check)',
				value: 'sfdrSustainable',
				description:
					'Commission proposal of 20 November 2025 (Art. 9): a pre-check, not a classification.',
			},
			{
				name: 'SFDR Revision Proposal: Transition (Pre-Check)',
				value: 'sfdrTransition',
				description:
					'Commission proposal of 20 November 2025 (Art. 7): a pre-check, not a classification.',
			},
		],
		default: 'pab',
		description:
			'A standard list of exclusions whose rules are checked; its thresholds show below, prefilled with the text and editable. Rules added below are checked too.',
	},
	...presetProperties,
	rulesProperty,
	{
		displayName: 'Holdings From',
		name: 'isinSource',
		builderHint: parameterBuilderHint(
			'Input Items when the previous node outputs one item per holding (e.g. sheet rows; set ISIN Field to the ISIN column). A List of ISINs Typed Here when the ISINs are fixed or come from one expression, e.g. an AI Agent tool whose model passes them. Holdings (JSON) when the holdings come as one JSON list with their market values and Group By fields.',
		),
		type: 'options',
		options: [
			{
				name: 'Input Items',
				value: 'field',
				description: 'Each input item (e.g. a row of a sheet) is one holding with its ISIN',
			},
			{
				name: 'A List of ISINs Typed Here',
				value: 'list',
				description:
					'The ISINs to screen, typed or given by an expression (e.g. an AI Agent tool): one item per ISIN comes out',
			},
			HOLDINGS_JSON_OPTION,
		],
		default: 'field',
		description: 'Where the holdings to screen come from',
	},
	holdingsJsonParameter,
	{
		displayName: 'ISIN Field',
		name: 'isinField',
		type: 'string',
		default: 'isin',
		required: true,
		placeholder: 'isin',
		description:
			'Name of the input field that holds the ISIN of each holding (case and spaces ignored; use a dot for nested fields). Each input item (or each holding of Holdings (JSON)) is one holding.',
		displayOptions: { show: { isinSource: ['field', HOLDINGS_JSON_SOURCE] } },
	},
	{
		displayName: 'ISINs',
		name: 'isinList',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. US0378331005, DE0007164600',
		description:
			'ISINs separated by commas, semicolons, spaces or new lines, or a JSON array such as ["US0378331005", "DE0007164600"]. An ISIN given twice is screened once. An expression may give a list.',
		hint: 'One item per ISIN comes out, with its screen',
		displayOptions: { show: { isinSource: ['list'] } },
	},
	invalidIsinsProperty('Not sent; the holding comes out with screen = not_checked and the reason'),
	{
		displayName: 'Output',
		name: 'outputMode',
		builderHint: parameterBuilderHint(
			'Add to Input Items: every holding with screen (breach, pass, not_checked), breaches and not_checked_rules. One Item per Instrument: one item per ISIN. Portfolio Summary: one item per fund (Group By) with the shares in breach, passing and not checked.',
		),
		type: 'options',
		options: [
			{
				name: 'Add to Input Items',
				value: 'addToItems',
				description: 'Every holding comes out once, in order, with its screen added',
			},
			{
				name: 'One Item per Instrument',
				value: 'perInstrument',
				description: 'One item per distinct ISIN with its screen',
			},
			{
				name: 'Portfolio Summary',
				value: 'portfolioSummary',
				description:
					'One item per portfolio (per Group By value): shares of value in breach, passing and not checked, the breaching holdings',
			},
			{
				name: 'Only Changes Since Last Run',
				value: 'changesSinceLastRun',
				description:
					'One item per new breach, resolved breach and rule newly not checkable since the last saved run, for scheduled alerts',
			},
		],
		default: 'addToItems',
		description: 'What comes out of the node',
		displayOptions: { show: { isinSource: ['field'] } },
	},
	// Holdings (JSON) has no input rows to add the screen to.
	{
		displayName: 'Output',
		name: 'outputMode',
		builderHint: parameterBuilderHint(
			'Portfolio Summary: one item per fund (Group By) with the shares in breach, passing and not checked. One Item per Instrument: one item per ISIN with its screen. Only Changes Since Last Run: for scheduled alerts.',
		),
		type: 'options',
		options: [
			{
				name: 'Portfolio Summary',
				value: 'portfolioSummary',
				description:
					'One item per portfolio (per Group By value): shares of value in breach, passing and not checked, the breaching holdings',
			},
			{
				name: 'One Item per Instrument',
				value: 'perInstrument',
				description: 'One item per distinct ISIN with its screen',
			},
			{
				name: 'Only Changes Since Last Run',
				value: 'changesSinceLastRun',
				description:
					'One item per new breach, resolved breach and rule newly not checkable since the last saved run, for scheduled alerts',
			},
		],
		default: 'portfolioSummary',
		description: 'What comes out of the node, for the holdings of Holdings (JSON)',
		displayOptions: { show: { isinSource: [HOLDINGS_JSON_SOURCE] } },
	},
	...summaryProperties,
	...screenChangesProperties,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to write the lists as text, one cell each, ready for a spreadsheet or an email: breaches as "rule: value (threshold t)", not checked rules as "rule: why", separated by new lines',
		hint: 'Turn on to write the screen straight into a sheet',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...batchingOptions, maxThrottleWaitOption, maxRequestsOption],
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['screenHoldings'] } },
	screenProperties,
);

type ScreenOutputMode = 'addToItems' | 'perInstrument' | 'portfolioSummary' | 'changesSinceLastRun';

const FAMILY_ROUTES: Record<ScreenFamily, ApiRoute> = {
	businessInvolvements: ROUTES.businessInvolvements,
	paiIndicators: ROUTES.paiIndicators,
	sfdrClassification: ROUTES.sfdrClassification,
	esgData: ROUTES.esgData,
};

/** The preset's rules with the thresholds as the form holds them, then the Rules collection's; checked before sending. */
function readRules(this: IExecuteFunctions): { preset: ScreenPresetName; rules: ScreenRule[] } {
	const node = this.getNode();
	const preset = this.getNodeParameter('screenPreset', 0, 'pab') as ScreenPresetName;
	const rules: ScreenRule[] = [];
	if (preset !== 'custom') {
		const chosen = SCREEN_PRESETS[preset];
		if (!chosen)
			throw inputError(
				node,
				0,
				`Preset ${showValue(preset)} is not one of the presets`,
				'Choose a preset of the list.',
			);
		for (const { point, key, label, ...rule } of chosen.rules) {
			const threshold =
				key === undefined
					? rule.threshold
					: numberParameterValue(
							node,
							this.getNodeParameter(thresholdParameter(preset, key), 0, rule.threshold),
							0,
							`${point} ${label}: Threshold`,
							{ min: 0 },
						);
			rules.push({
				...rule,
				threshold: threshold ?? rule.threshold,
				label: `${point} ${label}`,
				source: `${chosen.pointsOf}, ${point}`,
			});
		}
	}
	const given = this.getNodeParameter('rules.rule', 0, []) as IDataObject[];
	(Array.isArray(given) ? given : []).forEach((entry, index) => {
		rules.push(customRule(this, entry, index + 1));
	});
	if (rules.length === 0)
		throw inputError(
			node,
			0,
			'There is no rule to screen against',
			'Choose a preset, or add at least one rule under Rules.',
		);
	const labels = new Set<string>();
	for (const rule of rules) {
		if (labels.has(rule.label))
			throw inputError(
				node,
				0,
				`Two rules are named "${rule.label}"`,
				'Give each rule its own Label: the output names rules by it.',
			);
		labels.add(rule.label);
	}
	return { preset, rules };
}

function customRule(context: IExecuteFunctions, entry: IDataObject, position: number): ScreenRule {
	const node = context.getNode();
	const where = `Rules, rule ${position}`;
	const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
	const fail = (problem: string, fix: string) => inputError(node, 0, `${where}: ${problem}`, fix);
	const type = entry.type as ScreenRuleType;
	const rule: Omit<ScreenRule, 'label'> = { type, source: 'Rules (custom)' };
	if (type === 'involvement') {
		rule.category = text(entry.category);
		if (!rule.category)
			throw fail('Category is empty', 'Type the category as the API names it, e.g. thermal_coal.');
		rule.threshold = numberParameterValue(node, entry.threshold, 0, `${where}: Threshold`, {
			min: 0,
		});
		if (rule.threshold === undefined)
			throw fail(
				'Threshold is empty',
				'Give the weight at or above which a holding breaches the rule, e.g. 5 (0: any involvement).',
			);
	} else if (type === 'indicatorFalse') {
		rule.indicator = text(entry.indicator);
		if (!rule.indicator)
			throw fail(
				'Indicator is empty',
				'Type the true/false indicator as the API names it, e.g. violations_un_global_compact.',
			);
	} else if (type === 'minSfdrArticle') {
		const article = Number(entry.article ?? 8);
		if (![6, 8, 9].includes(article))
			throw fail(
				`Article ${showValue(entry.article)} is not 6, 8 or 9`,
				'Choose Article 6, 8 or 9.',
			);
		rule.article = article;
	} else if (type === 'minEsgScore') {
		rule.metric = text(entry.metric);
		if (!rule.metric)
			throw fail('Score is empty', 'Type the score as the API names it, e.g. total_score.');
		rule.minimum = numberParameterValue(node, entry.minimum, 0, `${where}: Minimum`, {});
		if (rule.minimum === undefined)
			throw fail(
				'Minimum is empty',
				'Give the lowest score a holding may have, e.g. 50: an empty minimum would let every score pass.',
			);
	} else {
		throw fail(`Type ${showValue(entry.type)} is not a rule type`, 'Choose a Type of the list.');
	}
	const label = text(entry.label) || ruleCondition(rule as ScreenRule);
	return { ...rule, label };
}

/** The name a number outside its range belongs to, from its place in the entry (routes.ts domains). */
function outsideName(path: Array<string | number>): string | undefined {
	const name = path[3] === 'business_involvements' ? path[4] : path[3];
	return typeof name === 'string' ? name : undefined;
}

/** One family's entry read for screening: found or not, involvements, measures (`{value}` unwrapped). */
function familyRecord(family: ScreenFamily, route: ApiRoute, answered: IDataObject): FamilyRecord {
	const { value: entry, outside } = settleDomains(route.answer.domains, answered, ['data', 0]);
	const outsideNames = new Map<string, number>();
	for (const { path, value } of outside) {
		const name = outsideName(path);
		if (name !== undefined && !outsideNames.has(name)) outsideNames.set(name, value);
	}
	const record: FamilyRecord = { found: false, measures: {}, outside: outsideNames };
	if (family === 'sfdrClassification') {
		const profile = isRecord(entry.sustainability_profile) ? entry.sustainability_profile : {};
		const classification = readClassification(profile.classification);
		record.measures.classification = classification;
		record.found = classification !== null || outsideNames.has('classification');
		return record;
	}
	const data = isRecord(entry.sustainability_data) ? entry.sustainability_data : {};
	record.found = hasAnyValue(entry.sustainability_data) || outsideNames.size > 0;
	for (const [name, value] of Object.entries(data)) {
		if (family === 'businessInvolvements' && name === 'business_involvements') {
			record.involvements = isRecord(value) ? { ...value } : {};
			continue;
		}
		record.measures[name] = isRecord(value) && hasOwn(value, 'value') ? value.value : value;
	}
	if (family === 'businessInvolvements') record.involvements ??= {};
	return record;
}

const isinOfEntry = (family: ScreenFamily) => (entry: IDataObject) => {
	const isin =
		family === 'sfdrClassification'
			? entry.isin
			: isRecord(entry.metadata)
				? entry.metadata.isin
				: undefined;
	return typeof isin === 'string' ? isin : undefined;
};

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const chosenSource = this.getNodeParameter('isinSource', 0, 'field');
	// Holdings (JSON): each input item's list is read as rows, each row as an input item would be.
	if (chosenSource === HOLDINGS_JSON_SOURCE) {
		const outputMode = this.getNodeParameter(
			'outputMode',
			0,
			'portfolioSummary',
		) as ScreenOutputMode;
		return await withHoldingsJson.call(this, items, async (rows) =>
			screenItems.call(
				this,
				rows,
				'field',
				outputMode === 'addToItems' ? 'perInstrument' : outputMode,
			),
		);
	}
	const source = chosenSource === 'list' ? 'list' : 'field';
	// A typed list has no input rows to add to, weight or group: one item per ISIN.
	const outputMode =
		source === 'list'
			? 'perInstrument'
			: (this.getNodeParameter('outputMode', 0, 'addToItems') as ScreenOutputMode);
	return await screenItems.call(this, items, source, outputMode);
}

async function screenItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	source: 'list' | 'field',
	outputMode: ScreenOutputMode,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const { preset, rules } = readRules.call(this);
	const presetData = preset === 'custom' ? undefined : SCREEN_PRESETS[preset];
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const invalidPolicy = this.getNodeParameter('invalidIsins', 0, 'fail') as string;
	const batchSize = numberParameterValue(node, options.batchSize, 0, 'Options > Batch Size', {
		min: 1,
		max: MAX_INSTRUMENTS_PER_REQUEST,
		integer: true,
	});
	const concurrency = numberParameterValue(node, options.concurrency, 0, 'Options > Concurrency', {
		min: 1,
		max: 8,
		integer: true,
	});
	const minimumPercent =
		presetData?.positiveTest && outputMode === 'portfolioSummary'
			? (numberParameterValue(
					node,
					this.getNodeParameter(
						positiveTestParameter(preset),
						0,
						presetData.positiveTest.minimumPercent,
					),
					0,
					'Positive Test: Minimum Share (%)',
					{ min: 0, max: 100 },
				) ?? presetData.positiveTest.minimumPercent)
			: undefined;

	// Each holding's ISIN, checked before any request is spent.
	const { perItem, listPositions } = readIsinEntries.call(this, items, source);
	applyInvalidIsinPolicy.call(this, perItem, listPositions, source, invalidPolicy);
	const summary =
		outputMode === 'portfolioSummary'
			? prepareSummary.call(this, items, perItem, { route: { label: 'holdings screen' } })
			: undefined;
	const changes =
		outputMode === 'changesSinceLastRun' ? readScreenChangesSettings.call(this) : undefined;
	const isins = distinctIsins.call(this, items, perItem, source, 'holdings screen', false);

	// Each family the rules need, asked once per batch of distinct ISINs; the positive test needs SFDR articles.
	const families = familiesNeeded(rules);
	if (minimumPercent !== undefined && !families.includes('sfdrClassification'))
		families.push('sfdrClassification');
	const perBatch = batchSettings({ batchSize }).batchSize;
	const batches = Math.ceil(isins.size / perBatch);
	planRequests.call(this, {
		requests: families.length * batches,
		breakdown: `${families.length} data famil${families.length === 1 ? 'y' : 'ies'} (${families.map((family) => FAMILY_ROUTES[family].label).join(', ')}) × ${batches} batch${batches === 1 ? '' : 'es'} of up to ${perBatch.toLocaleString('en-US')} distinct ISINs`,
		fewerRequests: `raise Options > Batch Size (up to ${MAX_INSTRUMENTS_PER_REQUEST.toLocaleString('en-US')} ISINs per request) or screen with fewer kinds of rules`,
	});

	const answers: ScreenAnswers = {};
	for (const family of families) {
		const route = FAMILY_ROUTES[family];
		const { byIsin, failed, notInAnswer, tally } = await (lookupInstruments<
			IDataObject,
			FamilyRecord
		>).call(this, route, isins, isinOfEntry(family), {
			batchSize,
			concurrency,
			toValue: (entry) => familyRecord(family, route, entry),
		});
		const answers_: FamilyAnswers = { label: route.label, records: byIsin, failed, notInAnswer };
		answers[family] = answers_;
		const note = tally.describe(route);
		if (note) noteAboutAnswer.call(this, note);
	}

	const screens = new Map<string, HoldingScreen>();
	for (const isin of isins) screens.set(isin, screenIsin(isin, rules, answers));
	const withoutData = rulesWithoutData(rules, screens.values(), answers);
	if (withoutData.length)
		addRunNote(
			this,
			`${withoutData.length} rule${withoutData.length === 1 ? '' : 's'} could not be checked for any holding (never a pass): ${withoutData.map((entry) => `${entry.rule}: ${entry.why}`).join('; ')}`,
			'warning',
			{
				short: `${withoutData.length} rule${withoutData.length === 1 ? '' : 's'} had no data from the API for any holding: see rules_without_data`,
			},
		);

	const screenOf = (entry: ItemIsin): HoldingScreen =>
		entry.isin !== undefined
			? screens.get(entry.isin)!
			: screenUnsent(rules, `not sent: ${entry.problem ?? 'no ISIN'}`);
	// What every Output mode builds from (Only Changes Since Last Run for screens reads it too).
	const outcome: ScreenOutcome = {
		items,
		perItem,
		preset,
		rules,
		screens,
		screenOf,
		rulesWithoutData: withoutData,
		answers,
	};

	const simplify = this.getNodeParameter('simplify', 0, false) as boolean;
	if (summary) return portfolioItems(summary, outcome, minimumPercent, simplify);
	if (changes)
		return outputScreenChanges.call(
			this,
			items,
			{
				rules: rules.map((rule) => rule.label),
				perItem,
				screenOf,
				unsettledOf: (isin) => unsettledRules(isin, rules, answers),
			},
			changes,
		);
	if (outputMode === 'perInstrument') {
		const out = perInstrumentItems(perItem, screenOf, simplify);
		// The ISINs of a typed list all come from the first input item.
		return source === 'list' ? out.map((item) => ({ ...item, pairedItem: { item: 0 } })) : out;
	}
	return items.map((item, index) => {
		const entry = perItem[index];
		return {
			json: { ...item.json, ...screenFields(entry, screenOf(entry), simplify) },
			pairedItem: { item: index },
		};
	});
}

/** Simplify: a list of rules as one text cell, a line each. */
const breachesText = (breaches: HoldingScreen['breaches']) =>
	breaches
		.map(
			(breach) =>
				`${breach.rule}: ${showValue(breach.value)} (threshold ${showValue(breach.threshold)})`,
		)
		.join('\n');
const notCheckedText = (rules: RuleNotChecked[]) =>
	rules.map((entry) => `${entry.rule}: ${entry.why}`).join('\n');

/** A screen's run: the rules, each ISIN's screen, and what the answers held, for the Output modes. */
export interface ScreenOutcome {
	items: INodeExecutionData[];
	/** One entry per input item: its ISIN sent, or why it was not sent. */
	perItem: ItemIsin[];
	preset: ScreenPresetName;
	rules: ScreenRule[];
	/** The screen of each distinct ISIN sent. */
	screens: Map<string, HoldingScreen>;
	/** The screen of an input item's entry (every rule not checked when its ISIN was not sent). */
	screenOf: (entry: ItemIsin) => HoldingScreen;
	/** Rules no holding of the run could be checked against. */
	rulesWithoutData: RuleNotChecked[];
	answers: ScreenAnswers;
}

function screenFields(entry: ItemIsin, screen: HoldingScreen, simplify: boolean): IDataObject {
	return {
		isin: entry.isin ?? entry.normalised ?? entry.given ?? null,
		screen: screen.screen,
		breaches: simplify
			? breachesText(screen.breaches)
			: (screen.breaches as unknown as IDataObject[]),
		not_checked_rules: simplify
			? notCheckedText(screen.not_checked_rules)
			: (screen.not_checked_rules as unknown as IDataObject[]),
	};
}

/** One item per distinct ISIN (paired with every holding of it), then one per holding whose ISIN was not sent. */
function perInstrumentItems(
	perItem: ItemIsin[],
	screenOf: (entry: ItemIsin) => HoldingScreen,
	simplify: boolean,
): INodeExecutionData[] {
	const byIsin = new Map<string, number[]>();
	const out: INodeExecutionData[] = [];
	const unsent: INodeExecutionData[] = [];
	perItem.forEach((entry, index) => {
		if (entry.isin === undefined) {
			unsent.push({
				json: screenFields(entry, screenOf(entry), simplify),
				pairedItem: { item: index },
			});
			return;
		}
		const indices = byIsin.get(entry.isin);
		if (indices) indices.push(index);
		else byIsin.set(entry.isin, [index]);
	});
	for (const [isin, indices] of byIsin)
		out.push({
			json: screenFields(perItem[indices[0]], screenOf({ isin }), simplify),
			pairedItem: pairedTo(indices),
		});
	return [...out, ...unsent];
}

function portfolioItems(
	prepared: PreparedSummary,
	{ perItem, screenOf, answers, rulesWithoutData: withoutData, preset }: ScreenOutcome,
	minimumPercent: number | undefined,
	simplify: boolean,
): INodeExecutionData[] {
	const presetData = preset === 'custom' ? undefined : SCREEN_PRESETS[preset];
	const articleOf = (isin: string) => {
		const value = answers.sfdrClassification?.records.get(isin)?.measures.classification;
		return typeof value === 'number' ? value : undefined;
	};
	return prepared.groups.map((group) => {
		const holdings: ScreenedHolding[] = group.rows.map((row) => ({
			weight: row.weight,
			isin: row.isin,
			name: row.name,
			screen: screenOf(perItem[row.item]),
			article: articleOf(row.isin),
		}));
		for (const { row, weight } of group.unsent)
			holdings.push({
				weight,
				isin: row.isin,
				name: row.name,
				screen: screenOf(perItem[row.item]),
			});
		const json: IDataObject = {
			...(group.values as IDataObject),
			...summarizeScreen(holdings, prepared.basis),
			rules_without_data: withoutData as unknown as IDataObject[],
			preset,
			preset_source: presetData?.source ?? null,
		};
		if (presetData?.notScreened.length) json.not_screened = presetData.notScreened;
		if (presetData?.positiveTest && minimumPercent !== undefined) {
			json.positive_test = positiveTest(
				holdings,
				presetData.positiveTest.minArticle,
				minimumPercent,
				presetData.positiveTest.text,
			);
			json.pre_check_note = `A pre-check against the Commission's SFDR revision proposal of 20 November 2025, not a classification: the proposal may still change (Council general approach of June 2026; trilogues under way). Source: ${presetData.source}.`;
		}
		json.not_checked_rows = uniformRemovedRows(
			group.unsent.map(({ row }) => row),
		) as unknown as IDataObject[];
		json.removed_count = group.removed.length;
		json.removed_rows = uniformRemovedRows(group.removed) as unknown as IDataObject[];
		if (prepared.notes.length) json.input_notes = prepared.notes;
		if (simplify) {
			json.breaching_holdings = (json.breaching_holdings as IDataObject[])
				.map(
					({ isin, name, rules }) =>
						`${[isin, name].filter(Boolean).join(' ')}: ${(rules as string[]).join(', ')}`,
				)
				.join('\n');
			json.rules_without_data = notCheckedText(withoutData);
			json.not_checked_rows = removedRowsText(group.unsent.map(({ row }) => row));
			json.removed_rows = removedRowsText(group.removed);
		}
		return {
			json: simplify ? flatCells(json) : json,
			pairedItem: pairedTo(group.itemIndices),
		};
	});
}

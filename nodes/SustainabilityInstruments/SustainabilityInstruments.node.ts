import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import * as getBusinessInvolvements from './actions/getBusinessInvolvements.operation';
import * as getEsgData from './actions/getEsgData.operation';
import * as getPaiIndicators from './actions/getPaiIndicators.operation';
import * as getSfdrClassification from './actions/getSfdrClassification.operation';
import * as screenHoldings from './actions/screenHoldings.operation';
import { operations, router } from './actions/router';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

/** The lookups, in both versions. */
const LOOKUP_OPERATIONS: INodePropertyOptions[] = [
	{
		name: 'Get Business Involvements',
		value: 'getBusinessInvolvements',
		description: 'ESG scores and involvement in activities such as thermal coal or tobacco',
		action: 'Get business involvements',
		builderHint: parameterBuilderHint(
			'Involvement of each instrument in activities such as thermal coal, tobacco or nuclear weapons, with its ESG scores. Needs ISINs.',
		),
	},
	{
		name: 'Get ESG Data',
		value: 'getEsgData',
		description: 'ESG scores and environmental, social and governance metrics',
		action: 'Get ESG data',
		builderHint: parameterBuilderHint(
			'ESG scores and environmental, social and governance metrics of each instrument. Needs ISINs.',
		),
	},
	{
		name: 'Get PAI Indicators',
		value: 'getPaiIndicators',
		description:
			'Mandatory SFDR principal adverse impact indicators (emissions, carbon footprint, ...)',
		action: 'Get PAI indicators',
		builderHint: parameterBuilderHint(
			'SFDR principal adverse impact indicators (emissions, carbon footprint, ...) of each instrument, e.g. for a PAI statement. Needs ISINs.',
		),
	},
	{
		name: 'Get SFDR Classification',
		value: 'getSfdrClassification',
		description: 'SFDR article (6, 8 or 9) of each instrument',
		action: 'Get SFDR classification',
		builderHint: parameterBuilderHint(
			'SFDR article (6, 8 or 9) of each instrument, e.g. to screen a fund list or alert on downgrades. Needs ISINs.',
		),
	},
];

const SCREEN_HOLDINGS_OPERATION: INodePropertyOptions = {
	name: 'Screen Holdings',
	value: 'screenHoldings',
	description:
		'Check holdings against exclusions (Paris-aligned Benchmark, SFDR revision presets or your own rules)',
	action: 'Screen holdings against exclusions',
	builderHint: parameterBuilderHint(
		'Screen holdings (one item per holding with an ISIN) against exclusion rules: business involvement thresholds, UN Global Compact violations, SFDR article, ESG score. Presets: Paris-aligned and Climate Transition Benchmark, SFDR revision proposal categories.',
	),
};

function operationProperty(options: INodePropertyOptions[]): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options,
		default: 'getSfdrClassification',
	};
}

export class SustainabilityInstruments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sustainability Instruments',
		name: 'sustainabilityInstruments',
		icon: {
			light: 'file:sustainabilityInstruments.svg',
			dark: 'file:sustainabilityInstruments.dark.svg',
		},
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"getBusinessInvolvements":"Get Business Involvements","getEsgData":"Get ESG Data","getPaiIndicators":"Get PAI Indicators","getSfdrClassification":"Get SFDR Classification","screenHoldings":"Screen Holdings"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description:
			'Look up SFDR classification, PAI indicators, business involvements and ESG data of instruments by ISIN',
		defaults: { name: 'Sustainability Instruments' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'Look up sustainability data of financial instruments by ISIN: SFDR article (6, 8 or 9), PAI indicators, business involvements or ESG scores. Input: items that each hold an ISIN (e.g. sheet rows), or a typed list of ISINs. Can also summarise a portfolio or output only the results that changed since the last run (alerts).',
		),
		inputs: [NodeConnectionTypes.Main],
		// A second output, To Remember, when Only Changes Since Last Run remembers in rows the user keeps (a Data Table).
		outputs: `={{ $parameter.outputMode === "changesSinceLastRun" && $parameter.rememberIn === "rows" ? [{ "type": "${NodeConnectionTypes.Main}", "displayName": "Changes" }, { "type": "${NodeConnectionTypes.Main}", "displayName": "To Remember" }] : ["${NodeConnectionTypes.Main}"] }}`,
		credentials: [
			{
				name: 'sustainabilityComplianceApi',
				required: true,
				testedBy: 'testSustainabilityComplianceApi',
			},
		],
		properties: [
			// Version 1 keeps its list as saved workflows know it; Screen Holdings is version 2's.
			{ ...operationProperty(LOOKUP_OPERATIONS), displayOptions: { show: { '@version': [1] } } },
			{
				...operationProperty([...LOOKUP_OPERATIONS, SCREEN_HOLDINGS_OPERATION]),
				displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
			},
			...toolDescriptionProperties('sustainabilityInstruments'),
			...getSfdrClassification.description,
			...getPaiIndicators.description,
			...getBusinessInvolvements.description,
			...getEsgData.description,
			...screenHoldings.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		try {
			return await router.call(this);
		} catch (error) {
			if (this.continueOnFail()) return errorItemsForRun.call(this, error, operations);
			throw asNodeError(this.getNode(), error);
		}
	}
}

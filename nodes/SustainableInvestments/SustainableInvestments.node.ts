import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { getMethodologies, searchMethodologies, holdingColumnsMethod } from '../shared/run/methods';
import { HOLDING_COLUMNS_METHOD } from '../shared/input/holdingColumns';
import { ROUTES } from '../shared/api/routes';
import * as classifyHoldings from './actions/classifyHoldings.operation';
import * as getMethodologiesOperation from './actions/getMethodologies.operation';
import { operations, router } from './actions/router';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

export class SustainableInvestments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sustainable Investments',
		name: 'sustainableInvestments',
		icon: {
			light: 'file:sustainableInvestments.svg',
			dark: 'file:sustainableInvestments.dark.svg',
		},
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"classifyHoldings":"Classify Holdings","getMethodologies":"Get Methodologies"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description:
			'Classify holdings as sustainable, moderate, not sustainable or uncovered under a sustainable-investment methodology',
		defaults: { name: 'Sustainable Investments' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'Classify each holding of a portfolio as sustainable, moderate, not sustainable or uncovered under a sustainable-investment methodology (SFDR Article 2(17), MiFID II preferences). Input: one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings.',
		),
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'sustainabilityComplianceApi',
				required: true,
				testedBy: 'testSustainabilityComplianceApi',
			},
		],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Classify Holdings',
						value: 'classifyHoldings',
						description:
							'Classify each holding as sustainable, moderate, not sustainable or uncovered under a methodology',
						action: 'Classify holdings',
						builderHint: parameterBuilderHint(
							'Classify each holding under a methodology. Needs one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings, and a methodology (from the list or its ID).',
						),
					},
					{
						name: 'Get Methodologies',
						value: 'getMethodologies',
						description: 'List the methodologies your organization can use',
						action: 'Get methodologies',
						builderHint: parameterBuilderHint(
							'List the sustainable-investment methodologies the API key can use, with their IDs. Needs no input.',
						),
					},
				],
				default: 'classifyHoldings',
			},
			...toolDescriptionProperties('sustainableInvestments'),
			...classifyHoldings.description,
			...getMethodologiesOperation.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
		resourceMapping: {
			[HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.sustainableInvestments),
		},
		loadOptions: { getMethodologies },
		listSearch: { searchMethodologies },
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

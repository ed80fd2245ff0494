import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { HOLDING_COLUMNS_METHOD } from '../shared/input/holdingColumns';
import { holdingColumnsMethod } from '../shared/run/methods';
import { ROUTES } from '../shared/api/routes';
import * as getPortfolioTemperature from './actions/getPortfolioTemperature.operation';
import { operations, router } from './actions/router';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

export class TemperatureScore implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Temperature Score',
		name: 'temperatureScore',
		icon: { light: 'file:temperatureScore.svg', dark: 'file:temperatureScore.dark.svg' },
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"getPortfolioTemperature":"Get Portfolio Temperature"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description:
			'Get the temperature score (implied warming, °C) of a portfolio and of each of its holdings',
		defaults: { name: 'Temperature Score' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'Implied temperature rise (degrees Celsius) of a portfolio and of each of its holdings, for climate and Paris-alignment reporting. Input: one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings.',
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
						name: 'Get Portfolio Temperature',
						value: 'getPortfolioTemperature',
						description:
							'Temperature score, target and base year of each holding, and the portfolio temperature',
						action: 'Get portfolio temperature',
						builderHint: parameterBuilderHint(
							'Temperature score of each holding and the market-value-weighted portfolio temperature. Needs one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings.',
						),
					},
				],
				default: 'getPortfolioTemperature',
			},
			...toolDescriptionProperties('temperatureScore'),
			...getPortfolioTemperature.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
		resourceMapping: { [HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.temperature) },
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

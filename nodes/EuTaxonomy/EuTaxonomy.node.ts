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
import * as getPortfolioAlignment from './actions/getPortfolioAlignment.operation';
import { operations, router } from './actions/router';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

export class EuTaxonomy implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'EU Taxonomy',
		name: 'euTaxonomy',
		icon: { light: 'file:euTaxonomy.svg', dark: 'file:euTaxonomy.dark.svg' },
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"getPortfolioAlignment":"Get Portfolio Alignment"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description:
			'EU Taxonomy eligibility and alignment (turnover, CapEx, OpEx) of a portfolio of holdings',
		defaults: { name: 'EU Taxonomy' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'EU Taxonomy eligibility and alignment of a portfolio by turnover, CapEx and OpEx. Input: one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings. One result per portfolio (per Group By value).',
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
						name: 'Get Portfolio Alignment',
						value: 'getPortfolioAlignment',
						description:
							'Taxonomy-eligible and -aligned shares of the portfolio by turnover, CapEx and OpEx',
						action: 'Get portfolio alignment',
						builderHint: parameterBuilderHint(
							'Taxonomy-eligible and -aligned shares of a portfolio by turnover, CapEx and OpEx. Needs one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings.',
						),
					},
				],
				default: 'getPortfolioAlignment',
			},
			...toolDescriptionProperties('euTaxonomy'),
			...getPortfolioAlignment.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
		resourceMapping: { [HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.taxonomy) },
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

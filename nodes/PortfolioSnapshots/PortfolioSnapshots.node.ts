import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { searchPortfolios, holdingColumnsMethod } from '../shared/run/methods';
import { HOLDING_COLUMNS_METHOD } from '../shared/input/holdingColumns';
import { ROUTES } from '../shared/api/routes';
import * as createOrUpdateSnapshot from './actions/createOrUpdateSnapshot.operation';
import * as deleteSnapshot from './actions/deleteSnapshot.operation';
import * as getMany from './actions/getMany.operation';
import { operations, router } from './actions/router';
import * as update from './actions/update.operation';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

export class PortfolioSnapshots implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Portfolio Snapshots',
		name: 'portfolioSnapshots',
		icon: { light: 'file:portfolioSnapshots.svg', dark: 'file:portfolioSnapshots.dark.svg' },
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"createOrUpdateSnapshot":"Create or Update Snapshot","deleteSnapshot":"Delete Snapshot","getMany":"Get Many","update":"Update"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description: 'Store portfolios as quarterly snapshots, list, rename and delete them',
		defaults: { name: 'Portfolio Snapshots' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'Store the holdings of a portfolio as a quarter-end snapshot in the Sustainability Compliance API, and list, rename or delete stored portfolios. Input for a snapshot: one item per holding (ISIN, name, instrument type, currency, weight, market value) and a Portfolio ID that stays the same every quarter.',
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
						name: 'Create or Update Snapshot',
						value: 'createOrUpdateSnapshot',
						description:
							'Store the holdings of a portfolio at a quarter end, creating the portfolio if new',
						action: 'Create or update a portfolio snapshot',
						builderHint: parameterBuilderHint(
							'Store the holdings of one portfolio at a quarter end, creating the portfolio if new. Needs one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings, a Portfolio ID, a name and a snapshot date.',
						),
					},
					{
						name: 'Delete Snapshot',
						value: 'deleteSnapshot',
						description:
							'Delete the snapshot of one quarter (the portfolio goes with its last snapshot)',
						action: 'Delete a portfolio snapshot',
						builderHint: parameterBuilderHint(
							'Delete the snapshot of one quarter of a stored portfolio. Needs the portfolio (from the list) and a date in that quarter.',
						),
					},
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List the stored portfolios of the organization with their snapshot dates',
						action: 'Get many portfolios',
						builderHint: parameterBuilderHint(
							'List the stored portfolios with their snapshot dates. Needs no input.',
						),
					},
					{
						name: 'Update',
						value: 'update',
						description: 'Rename a portfolio or change its currency',
						action: 'Update a portfolio',
						builderHint: parameterBuilderHint(
							'Rename a stored portfolio or change its currency. Needs the portfolio (from the list).',
						),
					},
				],
				default: 'createOrUpdateSnapshot',
			},
			...toolDescriptionProperties('portfolioSnapshots'),
			...createOrUpdateSnapshot.description,
			...getMany.description,
			...update.description,
			...deleteSnapshot.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
		resourceMapping: { [HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.createSnapshot) },
		listSearch: { searchPortfolios },
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

import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { searchPortfolios, holdingColumnsMethod } from '../shared/methods';
import { HOLDING_COLUMNS_METHOD } from '../shared/holdingColumns';
import { ROUTES } from '../shared/routes';
import * as createOrUpdateSnapshot from './actions/createOrUpdateSnapshot.operation';
import * as deleteSnapshot from './actions/deleteSnapshot.operation';
import * as getMany from './actions/getMany.operation';
import { router } from './actions/router';
import * as update from './actions/update.operation';
import { toolDescriptionProperties } from '../shared/toolDescriptions';
import { asNodeError } from '../shared/errors';
import { errorItemsForRun } from '../shared/execution';

export class PortfolioSnapshots implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Portfolio Snapshots',
		name: 'portfolioSnapshots',
		icon: { light: 'file:portfolioSnapshots.svg', dark: 'file:portfolioSnapshots.dark.svg' },
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Store portfolios as quarterly snapshots, list, rename and delete them',
		defaults: { name: 'Portfolio Snapshots' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sustainabilityComplianceApi', required: true }],
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
					},
					{
						name: 'Delete Snapshot',
						value: 'deleteSnapshot',
						description:
							'Delete the snapshot of one quarter (the portfolio goes with its last snapshot)',
						action: 'Delete a portfolio snapshot',
					},
					{
						name: 'Get Many',
						value: 'getMany',
						description: 'List the stored portfolios of the organization with their snapshot dates',
						action: 'Get many portfolios',
					},
					{
						name: 'Update',
						value: 'update',
						description: 'Rename a portfolio or change its currency',
						action: 'Update a portfolio',
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
		resourceMapping: { [HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.createSnapshot) },
		listSearch: { searchPortfolios },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		try {
			return await router.call(this);
		} catch (error) {
			if (this.continueOnFail()) return errorItemsForRun.call(this, error);
			throw asNodeError(this.getNode(), error);
		}
	}
}

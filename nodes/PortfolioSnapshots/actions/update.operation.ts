import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { CURRENCY_OPTIONS, readIsoCurrency } from '../../shared/input/currencies';
import { requestOptions } from '../../shared/ui/descriptions';
import { textParameterValue } from '../../shared/input/parameters';
import { inputError } from '../../shared/api/errors';
import { ROUTES } from '../../shared/api/routes';
import { apiRequest } from '../../shared/api/transport';
import {
	perItem,
	portfolioLocator,
	readPortfolioIdentifier,
	responseIdentifier,
	responseMessage,
} from './common';

const displayOptions = { show: { operation: ['update'] } };

const properties: INodeProperties[] = [
	portfolioLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; the others stay as they are',
		options: [
			{
				displayName: 'Currency',
				name: 'currency',
				type: 'options',
				options: CURRENCY_OPTIONS,
				default: 'USD',
				description:
					'New ISO 4217 currency of the portfolio. A code outside ISO 4217 (e.g. from an expression) is refused before anything is sent, because the API would ignore it without saying so.',
				hint: 'Pick from the list: a code outside ISO 4217 is refused before anything is sent',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Global Equity Fund',
				description: 'New name of the portfolio',
			},
		],
	},
	requestOptions,
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

interface PreparedUpdate {
	identifier: string;
	changes: { name?: string; currency?: string };
}

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedUpdate {
	const node = this.getNode();
	const identifier = readPortfolioIdentifier.call(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes: PreparedUpdate['changes'] = {};
	if (fields.name !== undefined) {
		const name = textParameterValue(node, fields.name, itemIndex, 'Update Fields > Name');
		if (!name) {
			throw inputError(
				node,
				itemIndex,
				'Update Fields > Name is empty',
				'Give the new name, or remove the Name field to keep the current one.',
			);
		}
		changes.name = name;
	}
	if (fields.currency !== undefined) {
		changes.currency = readIsoCurrency(
			node,
			textParameterValue(node, fields.currency, itemIndex, 'Update Fields > Currency'),
			itemIndex,
			{
				label: 'Update Fields > Currency',
				fix: 'The API would ignore it and keep the current currency. Use a code such as USD, EUR or SEK.',
			},
		);
	}
	if (Object.keys(changes).length === 0) {
		throw inputError(
			node,
			itemIndex,
			'nothing to update',
			'Add Name and/or Currency under Update Fields.',
		);
	}
	return { identifier, changes };
}

/** PUT per input item: each item may name another portfolio. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (perItem<PreparedUpdate>).call(
		this,
		items,
		(itemIndex) => prepare.call(this, itemIndex),
		async ({ identifier, changes }, itemIndex) => {
			const body = await (apiRequest<IDataObject>).call(this, ROUTES.updatePortfolio, {
				identifier,
				body: { ...changes },
				itemIndex,
			});
			return {
				identifier: responseIdentifier(body, identifier),
				message: responseMessage(body),
				...changes,
			};
		},
	);
}

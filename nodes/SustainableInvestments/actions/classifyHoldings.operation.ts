import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';

import { groupByProperty, holdingsProperties, portfolioGroups, readHoldingsParameters } from '../../shared/descriptions';
import type { HoldingsInput } from '../../shared/descriptions';
import { inputError } from '../../shared/errors';
import { forEachGroup, prepareGroups } from '../../shared/execution';
import type { PreparedGroup } from '../../shared/execution';
import type { ItemGroup } from '../../shared/holdings';
import { methodologyIdForRequest } from '../../shared/methodologies';
import { ROUTES } from '../../shared/routes';
import { apiRequest } from '../../shared/transport';
import { showValue } from '../../shared/values';
import { ClassificationMatcher, LABELS, classificationColumns } from './classification';

const displayOptions = { show: { operation: ['classifyHoldings'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Methodology',
		name: 'methodology',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'Methodology to classify the holdings under: pick one your API key can use, or type its ID',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a methodology...',
				typeOptions: { searchListMethod: 'searchMethodologies', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1',
				hint: 'The numeric ID of the methodology, as listed by the Get Methodologies operation',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A methodology ID is a whole number, for example 1' },
					},
				],
			},
		],
		displayOptions,
	},
	...holdingsProperties('sustainableInvestments', displayOptions),
	groupByProperty(displayOptions, 'portfolios'),
];

interface GroupInput extends HoldingsInput {
	methodologyId: number | string;
}

/** The methodology of the group's first item, checked before any request. */
function readMethodology(this: IExecuteFunctions, itemIndex: number): number | string {
	const locator = this.getNodeParameter('methodology', itemIndex, { mode: 'list', value: '' }) as
		| INodeParameterResourceLocator
		| string
		| number;
	const raw = typeof locator === 'object' && locator !== null ? locator.value : locator;
	const id = methodologyIdForRequest(typeof raw === 'string' ? raw.trim() : raw);
	if (id === undefined) {
		throw inputError(this.getNode(), itemIndex, 'no methodology is chosen', 'Pick a methodology from the list, or switch Methodology to "By ID" and type its ID.');
	}
	// Spec 4.9: methodology_id is a number, whichever mode gave it; anything else is a schema error at the API.
	if (typeof id !== 'number') {
		throw inputError(
			this.getNode(),
			itemIndex,
			`methodology ID "${showValue(id)}" is not a number`,
			'The API takes the numeric ID of a methodology, for example 1. Run Get Methodologies to see the IDs your key can use.',
		);
	}
	return id;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const fromJson = this.getNodeParameter('holdingsSource', 0, 'items') === 'json';
	const groups = (prepareGroups<ItemGroup, GroupInput>).call(this, portfolioGroups.call(this, items), (group): GroupInput => {
		const first = group.itemIndices[0] ?? 0;
		const methodologyId = readMethodology.call(this, first);
		return { methodologyId, ...readHoldingsParameters.call(this, 'sustainableInvestments', items, group.itemIndices) };
	});

	const output = await (forEachGroup<PreparedGroup<ItemGroup, GroupInput>>).call(this, items, groups, async (prepared) => {
		if (prepared.error) throw prepared.error;
		const { methodologyId, holdings, removed } = prepared.input!;
		const first = prepared.itemIndices[0] ?? 0;
		const out: Array<{ item: number; json: IDataObject }> = [];

		if (holdings.length > 0) {
			const body = await apiRequest.call(this, ROUTES.sustainableInvestments, {
				body: { methodology_id: methodologyId, holdings: holdings.map(({ holding }) => holding) as unknown as IDataObject[] },
				itemIndex: first,
			});
			const matcher = new ClassificationMatcher((body as IDataObject | undefined)?.data);
			for (const { itemIndex, holding } of holdings) {
				const isin = holding.isin as string;
				const original = fromJson ? ({ ...holding } as IDataObject) : items[itemIndex].json;
				out.push({
					item: itemIndex,
					json: {
						...original,
						...classificationColumns(isin, matcher.next(isin)),
						methodology_id: methodologyId,
						removed: false,
						removed_reason: null,
					},
				});
			}
		}

		for (const row of removed) {
			const original = fromJson ? ({ name: row.name, isin: row.isin } as IDataObject) : items[row.item].json;
			out.push({
				item: row.item,
				json: {
					...original,
					isin: row.isin,
					classification: null,
					label: LABELS.notClassified,
					description: null,
					methodology_id: methodologyId,
					removed: true,
					removed_reason: row.reason,
				},
			});
		}

		return out.map(({ item, json }) => ({
			json,
			pairedItem: { item },
			...(!fromJson && items[item].binary ? { binary: items[item].binary } : {}),
		}));
	});
	// One item per input item, in input order also across groups and error items (the sort is stable; with the
	// JSON source every row belongs to the first item and keeps the array's order, classified rows first).
	const itemOf = (entry: INodeExecutionData) => (entry.pairedItem as { item: number }).item;
	return output.sort((a, b) => itemOf(a) - itemOf(b));
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { numberParameterValue, textParameterValue } from '../../shared/input/parameters';
import { parsePortfolioListing } from '../../shared/run/methods';
import { ROUTES } from '../../shared/api/routes';
import { noteOutside, outsideNote, settleDomains } from '../../shared/api/domains';
import { apiRequest } from '../../shared/api/transport';

const displayOptions = { show: { operation: ['getMany'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Name Contains',
				name: 'nameContains',
				type: 'string',
				default: '',
				placeholder: 'e.g. equity',
				description: 'Only portfolios whose name contains this text (case ignored)',
			},
		],
	},
];

export const runsOnce = true;

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

/** One request for the whole run: every portfolio of the organization, also those made in the vendor's app. */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', 0, false) as boolean;
	const limit = returnAll
		? Infinity
		: (numberParameterValue(this.getNode(), this.getNodeParameter('limit', 0, 50), 0, 'Limit', {
				min: 1,
				integer: true,
			}) ?? 50);
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const needle = textParameterValue(
		this.getNode(),
		options.nameContains,
		0,
		'Options > Name Contains',
	).toLowerCase();

	const answered = await apiRequest.call(this, ROUTES.listPortfolios, { itemIndex: 0 });
	// `members` outside its range (a count) is set to null and named on every item.
	const settled = settleDomains(ROUTES.listPortfolios.answer.domains, answered);
	const domainNote = settled.outside.length
		? outsideNote(settled.outside, 'It is set to null here.')
		: undefined;
	if (domainNote) noteOutside.call(this, settled.outside, domainNote, 'domain_note');
	const { members, funds } = parsePortfolioListing(settled.value);
	return funds
		.filter((fund) => !needle || fund.name.toLowerCase().includes(needle))
		.slice(0, limit)
		.map((fund) => ({
			json: {
				identifier: fund.identifier,
				name: fund.name,
				snapshots: fund.snapshots,
				snapshot_count: fund.snapshots.length,
				latest_snapshot: fund.snapshots.length ? fund.snapshots[fund.snapshots.length - 1] : null,
				members,
				...(domainNote ? { domain_note: domainNote } : {}),
			},
			pairedItem: { item: 0 },
		}));
}

import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import { HOLDING_FIELDS, HOLDING_KEYS } from '../input/holdingFields';
import type { HoldingKey } from '../api/holdingKey';
import { parseMethodologies } from '../api/methodologies';
import { ROUTES } from '../api/routes';
import type { HoldingsRoute } from '../api/routes';
import { apiRequest } from '../api/transport';

export interface PortfolioListing {
	identifier: string;
	name: string;
	snapshots: string[];
}

/** GET /portfolios as its contract guarantees it (answers.ts): `data.funds`, each with an identifier. */
export function parsePortfolioListing(body: unknown): {
	members: number | null;
	funds: PortfolioListing[];
} {
	const data = (body as { data: IDataObject }).data;
	return {
		members: typeof data.members === 'number' ? data.members : null,
		funds: (data.funds as IDataObject[]).map((fund) => ({
			identifier: fund.identifier as string,
			// Name and snapshots may be null.
			name: typeof fund.name === 'string' ? fund.name : '',
			snapshots: Array.isArray(fund.snapshots) ? (fund.snapshots as string[]) : [],
		})),
	};
}

export async function getMethodologies(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const body = await apiRequest.call(this, ROUTES.methodologies);
	return parseMethodologies(body, this.getNode()).map((methodology) => ({
		name: methodology.name,
		value: methodology.id,
		description: methodology.description,
	}));
}

/** listSearch counterpart of getMethodologies, for a resourceLocator's "From List" mode: filters on name and id. */
export async function searchMethodologies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const options = await getMethodologies.call(this);
	const needle = filter?.trim().toLowerCase();
	const results = options
		.filter(
			(option) =>
				!needle ||
				option.name.toLowerCase().includes(needle) ||
				String(option.value).toLowerCase() === needle,
		)
		.map((option) => ({ name: option.name, value: option.value, description: option.description }));
	return { results };
}

export async function searchPortfolios(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { funds } = parsePortfolioListing(await apiRequest.call(this, ROUTES.listPortfolios));
	const needle = filter?.trim().toLowerCase();
	const results = funds
		.filter(
			(fund) =>
				!needle ||
				fund.name.toLowerCase().includes(needle) ||
				fund.identifier.toLowerCase().includes(needle),
		)
		.sort((a, b) => a.name.localeCompare(b.name))
		.map((fund) => ({
			name: `${fund.name || '(no name)'} — ${fund.snapshots.length} snapshot${fund.snapshots.length === 1 ? '' : 's'}`,
			value: fund.identifier,
		}));
	return { results };
}

/** How the column mapper types each holding field: the input it offers under "Map Each Column Manually". */
const HOLDING_FIELD_TYPES: Record<HoldingKey, ResourceMapperField['type']> = {
	isin: 'string',
	name: 'string',
	instrument_type: 'options',
	currency: 'string',
	weight: 'number',
	market_value: 'number',
};

const INSTRUMENT_TYPE_OPTIONS: INodePropertyOptions[] = INSTRUMENT_TYPES.map((value) => ({
	name:
		value === 'etf'
			? 'ETF'
			: value.replace(
					/(^|-)([a-z])/g,
					(_, dash: string, letter: string) => `${dash ? ' ' : ''}${letter.toUpperCase()}`,
				),
	value,
}));

/** The six holding fields of the column mapper, required exactly where the route's holdings rule requires them. */
export function holdingMapperFields(route: HoldingsRoute): ResourceMapperField[] {
	return HOLDING_KEYS.map((field) => ({
		id: field,
		displayName: HOLDING_FIELDS[field].title,
		required: route.holdings.required.includes(field),
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: HOLDING_FIELD_TYPES[field],
		...(field === 'instrument_type' ? { options: INSTRUMENT_TYPE_OPTIONS } : {}),
	}));
}

/** The resourceMapping method of a holdings node (`getHoldingColumns`): the holding fields of its route. */
export function holdingColumnsMethod(route: HoldingsRoute) {
	return async function getHoldingColumns(
		this: ILoadOptionsFunctions,
	): Promise<ResourceMapperFields> {
		return { fields: holdingMapperFields(route) };
	};
}

import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { parseMethodologies } from './methodologies';
import { ROUTES } from './routes';
import { apiRequest } from './transport';

export interface PortfolioListing {
	identifier: string;
	name: string;
	snapshots: string[];
}

export function parsePortfolioListing(body: unknown): {
	members: number | null;
	funds: PortfolioListing[];
} {
	const data = ((body as IDataObject | undefined)?.data ?? {}) as IDataObject;
	const funds = Array.isArray(data.funds) ? (data.funds as IDataObject[]) : [];
	return {
		members: typeof data.members === 'number' ? data.members : null,
		funds: funds.map((fund) => ({
			identifier: String(fund.identifier ?? ''),
			name: String(fund.name ?? ''),
			snapshots: Array.isArray(fund.snapshots) ? (fund.snapshots as string[]).map(String) : [],
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

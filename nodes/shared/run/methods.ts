import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { INSTRUMENT_TYPES } from '../base/constants';
import { FieldResolver, HOLDING_FIELDS, HOLDING_KEYS } from '../input/holdingFields';
import { HOLDING_COLUMNS_SEEN } from '../input/holdingColumns';
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

/**
 * The expression Map Each Column Manually starts from for a column: a plain reference to it, which the node reads
 * from each item itself (holdingColumns.ts `plainFieldReference`), as the editor writes a column dragged in.
 */
export function columnExpression(header: string): string {
	return /^[A-Za-z_$][\w$]*$/.test(header)
		? `={{ $json.${header} }}`
		: `={{ $json[${JSON.stringify(header)}] }}`;
}

/**
 * The columns Map Automatically finds among `headers` (the input's first item's keys, as the editor resolved them):
 * by field, the expression of its column.
 */
export function foundColumnExpressions(headers: unknown): Partial<Record<HoldingKey, string>> {
	if (!Array.isArray(headers)) return {};
	const keys = headers.filter((header): header is string => typeof header === 'string');
	const found = new FieldResolver().resolve(Object.fromEntries(keys.map((key) => [key, null])));
	return Object.fromEntries(
		Object.entries(found).map(([field, header]) => [field, columnExpression(header)]),
	) as Partial<Record<HoldingKey, string>>;
}

/**
 * The six holding fields of the column mapper, required exactly where the route's holdings rule requires them and
 * cannot derive them when missing (routes.ts `derivedWhenMissing`). A
 * field whose column Map Automatically finds in `headers` has that column as its `defaultValue`: n8n's mapper fills
 * Map Each Column Manually from it when it has no values yet (2.20 and 2.41 alike).
 */
export function holdingMapperFields(
	route: HoldingsRoute,
	headers?: unknown,
): ResourceMapperField[] {
	const found = foundColumnExpressions(headers);
	return HOLDING_KEYS.map((field) => ({
		id: field,
		displayName: HOLDING_FIELDS[field].title,
		required:
			route.holdings.required.includes(field) &&
			route.holdings.derivedWhenMissing?.[field] === undefined,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: HOLDING_FIELD_TYPES[field],
		...(field === 'instrument_type' ? { options: INSTRUMENT_TYPE_OPTIONS } : {}),
		...(found[field] !== undefined ? { defaultValue: found[field] } : {}),
	}));
}

/**
 * The resourceMapping method of a holdings node (`getHoldingColumns`): the holding fields of its route, each
 * pre-filled with the column Map Automatically finds. The input's headers come from the hidden parameter
 * HOLDING_COLUMNS_SEEN, an expression the editor resolves against the node's input before it asks for the fields
 * (null while the input has no data: the fields then start empty, and are filled when the mapper loads again).
 */
export function holdingColumnsMethod(route: HoldingsRoute) {
	return async function getHoldingColumns(
		this: ILoadOptionsFunctions,
	): Promise<ResourceMapperFields> {
		let headers: unknown;
		try {
			headers = this.getCurrentNodeParameter(HOLDING_COLUMNS_SEEN);
		} catch {
			headers = undefined;
		}
		return { fields: holdingMapperFields(route, headers) };
	};
}

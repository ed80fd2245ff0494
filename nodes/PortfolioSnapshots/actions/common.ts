import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { MAX_IDENTIFIER_LENGTH } from '../../shared/base/constants';
import { inputError } from '../../shared/api/errors';
import { listNames, prepareGroups, runGroups } from '../../shared/run/execution';
import { planOneRequestEach } from '../../shared/run/requestPlan';
import { hasLoneSurrogate, showValue } from '../../shared/base/values';

/** The start of an identifier as POST and GET /portfolios return it: svc-portfolio:<organization>_<Portfolio ID>. */
const IDENTIFIER_PREFIX = 'svc-portfolio:';

/** The portfolio to update or delete from: picked from GET /portfolios, or typed as returned by the API. */
export const portfolioLocator: INodeProperties = {
	displayName: 'Portfolio',
	name: 'portfolio',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The stored portfolio. Each input item may name another one (use an expression in By Identifier mode).',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a portfolio...',
			typeOptions: { searchListMethod: 'searchPortfolios', searchable: true },
		},
		{
			displayName: 'By Identifier',
			name: 'id',
			type: 'string',
			placeholder: 'svc-portfolio:<organization>_<portfolio ID>',
			hint: 'The identifier exactly as the API returned it, in the form svc-portfolio:&lt;organization&gt;_&lt;Portfolio ID&gt;, e.g. the "identifier" output of Create or Update Snapshot or Get Many',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^\\s*${IDENTIFIER_PREFIX}.+`,
						errorMessage: `Not an identifier the API returned: it starts with "${IDENTIFIER_PREFIX}"`,
					},
				},
			],
		},
	],
};

/** The identifier to put in the path, checked before any request; encoding is the transport's job. */
export function readPortfolioIdentifier(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('portfolio', itemIndex, '', { extractValue: true }) as unknown;
	const identifier = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (!identifier) {
		throw inputError(
			this.getNode(),
			itemIndex,
			'Portfolio is empty',
			'Pick a portfolio from the list, or give its identifier (svc-portfolio:<organization>_<portfolio ID>).',
		);
	}
	if (identifier.length > MAX_IDENTIFIER_LENGTH) {
		throw inputError(
			this.getNode(),
			itemIndex,
			`Portfolio is ${identifier.length} characters long ("${showValue(identifier, 40)}"); identifiers the API returns are far shorter (at most ${MAX_IDENTIFIER_LENGTH.toLocaleString('en-US')} accepted here)`,
			'Such an address would be refused by the API gateway. Pick the portfolio from the list, or map the "identifier" field of Create or Update Snapshot or Get Many.',
		);
	}
	if (hasLoneSurrogate(identifier)) {
		throw inputError(
			this.getNode(),
			itemIndex,
			`Portfolio "${showValue(identifier, 60)}" contains a broken character (half of a two-part character such as an emoji)`,
			'Such a text cannot be put in the address of the request. Pick the portfolio from the list, or correct the identifier.',
		);
	}
	if (!identifier.startsWith(IDENTIFIER_PREFIX)) {
		throw inputError(
			this.getNode(),
			itemIndex,
			`Portfolio "${showValue(identifier, 60)}" is not a portfolio identifier as the API returns it`,
			`The API needs the full identifier, which starts with "${IDENTIFIER_PREFIX}", e.g. ${IDENTIFIER_PREFIX}<organization>_${showValue(identifier, 30)}. Pick the portfolio from the list, or map the "identifier" field of Create or Update Snapshot or Get Many.`,
		);
	}
	return identifier;
}

/** The API's own message of a success answer (`metadata.message`). */
export function responseMessage(body: unknown): string | null {
	const record = (body ?? {}) as { metadata?: { message?: unknown }; message?: unknown };
	const message = record.metadata?.message ?? record.message;
	return typeof message === 'string' ? message : null;
}

export function responseIdentifier(body: unknown, fallback: string | null): string | null {
	const identifier = (body as IDataObject | undefined)?.identifier;
	return typeof identifier === 'string' && identifier ? identifier : fallback;
}

/**
 * Runs a per-item operation in two passes: every item is checked locally first (so bad input stops the run
 * before anything is changed), then the requests go out one by one through the executor (runGroups), within Max
 * Requests per Run. With continueOnFail a bad item, or one the API refuses, becomes an error item while the others
 * go on; a used-up quota stops the rest (error items saying they were not sent).
 */
export async function perItem<T>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => T,
	run: (prepared: T, itemIndex: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[]> {
	const prepared = (prepareGroups<{ itemIndices: number[] }, T>).call(
		this,
		items.map((_, itemIndex) => ({ itemIndices: [itemIndex] })),
		(entry) => prepare(entry.itemIndices[0]),
	);
	const toSend = prepared.filter((entry) => !entry.error).length;
	planOneRequestEach.call(
		this,
		toSend,
		'item',
		'send fewer items per run (for example through a Loop Over Items node)',
	);
	return await (runGroups<(typeof prepared)[number]>).call(
		this,
		items,
		prepared,
		async (entry) => {
			if (entry.error) throw entry.error;
			const itemIndex = entry.itemIndices[0];
			return [{ json: await run(entry.input as T, itemIndex), pairedItem: { item: itemIndex } }];
		},
		(done, failed) =>
			`Item ${failed.itemIndices[0]} failed; ${done.length} of ${toSend} items were sent and answered before the run stopped${done.length ? ` (${listNames(done.map((task) => `item ${task.itemIndices[0]}`))})` : ''}.`,
	);
}

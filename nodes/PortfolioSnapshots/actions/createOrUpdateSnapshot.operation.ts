import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
} from 'n8n-workflow';

import { MAX_CLIENT_ID_LENGTH } from '../../shared/base/constants';
import { CURRENCY_OPTIONS, readIsoCurrency } from '../../shared/input/currencies';
import { groupByProperty, holdingsProperties, holdingsOptions } from '../../shared/ui/descriptions';
import { holdingsBody, noHoldingLeftError, removedSummary } from '../../shared/input/holdings';
import type { RemovedRow, SourcedHolding } from '../../shared/input/holdings';
import { describeGroupValues, portfolioGroups } from '../../shared/input/grouping';
import type { ItemGroup } from '../../shared/input/grouping';
import {
	readHoldingsParameters,
	readSnapshotDateParameter,
	readTextParameter,
} from '../../shared/input/parameters';
import { asNodeError, inputError } from '../../shared/api/errors';
import { listNames, oneErrorForGroups, pairedTo, runGroups } from '../../shared/run/execution';
import { planOneRequestEach } from '../../shared/run/requestPlan';
import { ROUTES } from '../../shared/api/routes';
import { isCarriedOut, noteUnknownOutcome, readOutcome } from '../../shared/api/answers';
import { failedAgain, rememberedFailure, retryMemory } from '../../shared/base/retryMemory';
import { apiRequestSettled, mayHaveBeenCarriedOut } from '../../shared/run/settle';
import type { SettledOutcome } from '../../shared/run/settle';
import { showValue } from '../../shared/base/values';
import { responseIdentifier, responseMessage } from './common';

const OPERATION = 'createOrUpdateSnapshot';
const displayOptions = { show: { operation: [OPERATION] } };

/** The API puts the Portfolio ID in the identifier it returns: only these characters keep it usable in a URL path. */
const PORTFOLIO_ID = /^[A-Za-z0-9_-]+$/;

const properties: INodeProperties[] = [
	{
		displayName: 'Portfolio ID',
		name: 'portfolioId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. global-equity or {{ $json.portfolio_id }}',
		description:
			'Your own identifier of the portfolio: letters, digits, "-" and "_" only. Sending the same ID again adds or replaces a snapshot of the same portfolio. Required: portfolios stored without one cannot be updated or deleted. Update and Delete Snapshot find the portfolio by it in their portfolio list.',
		hint: 'Use the same ID every quarter to build up the history of one portfolio',
	},
	{
		displayName: 'Portfolio Name',
		name: 'portfolioName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Global Equity Fund',
		description:
			"Shown in the vendor's application. Only used when the portfolio is first created; rename it later with the Update operation.",
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: CURRENCY_OPTIONS,
		default: 'USD',
		description:
			'ISO 4217 currency of the portfolio. Only set when the portfolio is first created; later snapshots keep the currency it has.',
		hint: 'Used when the portfolio is first created; change it later with the Update operation',
	},
	{
		displayName: 'Snapshot Date',
		name: 'snapshotDate',
		type: 'dateTime',
		default: '',
		required: true,
		description:
			'Date of the holdings; map a date column with an expression to store a history. The API stores the snapshot at the end of its quarter (one snapshot per quarter: a second one in the same quarter replaces the first). Dates in a future year are refused. The quarter end used is shown in the output. A date and time (a JS Date, a DateTime, a text with Z or an offset) that falls in two quarters depending on the time zone is used only when it is exactly midnight in one of them, else refused: map a YYYY-MM-DD text to be sure.',
		hint: 'Any date in the quarter: stored at the quarter end. For holdings as of today, use {{ $today }}.',
	},
	...holdingsProperties(ROUTES.createSnapshot),
	groupByProperty('portfolios or snapshot dates (e.g. portfolio_id, date for a whole history)'),
	...holdingsOptions(ROUTES.createSnapshot),
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

interface PreparedGroup {
	group: ItemGroup;
	/** How the group is named in messages. */
	where: string;
	portfolioId: string;
	name: string;
	currency: string;
	date: string;
	quarterEnd: string;
	/** How a Date, DateTime or text with an offset was read (its time zones, the quarter), when not as it shows. */
	dateNote?: string;
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	notes: string[];
}

type Checked =
	| { ok: true; prepared: PreparedGroup }
	| { ok: false; group: ItemGroup; error: Error };
type CheckedGroup = Checked & { itemIndices: number[] };

/**
 * The name the portfolio has after the request. The API keeps the name a portfolio was created with on an update,
 * so the name sent is only the portfolio's name when the API says so (a name in its answer) or when it created the
 * portfolio; otherwise `name` is the one known from this run, or null, and `name_note` says the sent one was not applied.
 */
function portfolioName(
	body: IDataObject,
	outcome: string | null,
	sent: string,
	known: string | undefined,
): IDataObject {
	const answered = typeof body.name === 'string' && body.name ? body.name : undefined;
	const name = answered ?? (outcome === 'created' ? sent : known);
	const result: IDataObject = { name: name ?? null, name_in_request: sent };
	if (name === sent) return result;
	result.name_note =
		outcome === 'updated'
			? `Not applied: the API keeps the name the portfolio already has${name === undefined ? '' : ` ("${name}")`}. Rename it with the Update operation.`
			: 'The API did not say whether it created or updated the portfolio, so its name is not known. Get Many lists it.';
	return result;
}

/** Every check the API would make on one group's request, made locally so nothing is sent for a bad group. */
function prepareGroup(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	group: ItemGroup,
): PreparedGroup {
	const node = this.getNode();
	const itemIndex = group.itemIndices[0];
	const shown = describeGroupValues(group.values, 40);
	// The group by its values (an error's title drops a bare "Item N": n8n names the item, the group's first).
	const where = shown ? `Group ${shown}` : `Item ${itemIndex}`;
	const fail = (message: string, fix: string) =>
		inputError(node, itemIndex, message, fix, { where });

	const portfolioId = readTextParameter.call(this, 'portfolioId', itemIndex, 'Portfolio ID', {
		where,
	});
	if (!portfolioId) {
		throw fail(
			'Portfolio ID is empty',
			'Give the portfolio an identifier (letters, digits, "-" and "_"), e.g. {{ $json.portfolio_id }}: portfolios stored without one cannot be updated or deleted.',
		);
	}
	if (portfolioId.length > MAX_CLIENT_ID_LENGTH) {
		throw fail(
			`Portfolio ID is ${portfolioId.length} characters long ("${showValue(portfolioId, 40)}"); at most ${MAX_CLIENT_ID_LENGTH} are accepted`,
			"The API returns the ID inside the portfolio's identifier, which Update and Delete put in the address of the request: a long one would be refused there. Use a short ID such as global-equity, or check what is mapped to Portfolio ID.",
		);
	}
	if (!PORTFOLIO_ID.test(portfolioId)) {
		throw fail(
			`Portfolio ID "${showValue(portfolioId, 60)}" may only contain letters, digits, "-" and "_"`,
			`Other characters make the identifier the API returns unusable in the address of Update and Delete. For example use "${showValue(portfolioId.replace(/[^A-Za-z0-9_-]+/g, '-'), 60)}".`,
		);
	}

	const name = readTextParameter.call(this, 'portfolioName', itemIndex, 'Portfolio Name', {
		where,
	});
	if (!name)
		throw fail(
			'Portfolio Name is empty',
			'Give the portfolio a name, e.g. {{ $json.portfolio_name }}.',
		);

	const snapshot = readSnapshotDateParameter.call(this, itemIndex, { where });

	const currency = readIsoCurrency(
		node,
		readTextParameter.call(this, 'currency', itemIndex, 'Currency', { where }) || 'USD',
		itemIndex,
		{
			label: 'Currency',
			where,
			fix: 'Use a code such as USD, EUR or SEK: the API would create the portfolio in EUR instead.',
		},
	);

	const { holdings, removed, notes } = readHoldingsParameters.call(
		this,
		ROUTES.createSnapshot,
		items,
		group.itemIndices,
	);
	if (holdings.length === 0)
		throw noHoldingLeftError(node, itemIndex, ROUTES.createSnapshot, removed, { where });
	return {
		group,
		where,
		portfolioId,
		name,
		currency,
		date: snapshot.date,
		quarterEnd: snapshot.quarterEnd,
		...(snapshot.note ? { dateNote: snapshot.note } : {}),
		holdings,
		removed,
		notes,
	};
}

/**
 * Two groups with the same Portfolio ID and the same quarter end would both be stored in the same snapshot,
 * the second silently replacing the first: both are refused, naming each other.
 */
function refuseSameQuarter(this: IExecuteFunctions, checked: Checked[]): void {
	const byKey = new Map<string, PreparedGroup[]>();
	for (const entry of checked) {
		if (!entry.ok) continue;
		const key = `${entry.prepared.portfolioId}\u0000${entry.prepared.quarterEnd}`;
		byKey.set(key, [...(byKey.get(key) ?? []), entry.prepared]);
	}
	for (const clash of byKey.values()) {
		if (clash.length < 2) continue;
		const [first] = clash;
		const dates = [...new Set(clash.map((p) => p.date))].join(', ');
		const message = `${clash.map((p) => p.where).join(' and ')} would all store portfolio "${first.portfolioId}" at the same quarter end ${first.quarterEnd} (snapshot dates ${dates}); each would silently replace the one before`;
		const fix =
			'A portfolio holds one snapshot per quarter. Put all holdings of a quarter in one group (one date per portfolio and quarter), or correct the Snapshot Date or Portfolio ID of the groups named.';
		for (const prepared of clash) {
			const error = inputError(this.getNode(), prepared.group.itemIndices[0], message, fix, {
				where: '',
			});
			if (!this.continueOnFail()) throw error;
			const index = checked.findIndex((entry) => entry.ok && entry.prepared === prepared);
			checked[index] = { ok: false, group: prepared.group, error };
		}
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const groups = portfolioGroups.call(this, items);

	// Every group is checked before the first request, so a bad group cannot leave half a history stored.
	const checked: Checked[] = groups.map((group) => {
		try {
			return { ok: true, prepared: prepareGroup.call(this, items, group) };
		} catch (error) {
			return { ok: false, group, error: asNodeError(this.getNode(), error) };
		}
	});
	const failed = checked.flatMap((entry) => (entry.ok ? [] : [entry]));
	// The problems of every group in one error, before any request.
	if (failed.length && !this.continueOnFail()) throw oneErrorForGroups(this.getNode(), failed);
	refuseSameQuarter.call(this, checked);

	// Names the portfolios have, as far as this run knows them without asking: the name a group created one with.
	const knownNames = new Map<string, string>();
	// Settings > Retry On Fail runs all of execute() again: a snapshot the API stored in this execution is not sent again.
	const memory = (retryMemory<never>).call(this);
	const bodyOf = (prepared: PreparedGroup): IDataObject => ({
		identifier: prepared.portfolioId,
		name: prepared.name,
		currency: prepared.currency,
		snapshot_at: prepared.date,
		holdings: holdingsBody(prepared.holdings),
	});
	const tasks = new Map<PreparedGroup, string>();
	for (const entry of checked)
		if (entry.ok) tasks.set(entry.prepared, JSON.stringify(bodyOf(entry.prepared)));
	const toStore = tasks.size;
	planOneRequestEach.call(this, [...tasks.values()].filter((task) => !memory?.get(task)).length);
	const runs: CheckedGroup[] = checked.map((entry) => ({
		...entry,
		itemIndices: (entry.ok ? entry.prepared.group : entry.group).itemIndices,
	}));
	/** Groups the API answered 2xx (stored) with an answer that cannot be read. */
	const storedUnread = new Set<PreparedGroup>();
	/**
	 * Groups whose request failed but may have been carried out (no answer; or an earlier send got none, the list
	 * showed the snapshot and the send again failed), in this try or an earlier one of Retry On Fail.
	 */
	const maybeStored = new Set<PreparedGroup>();
	const describeStored = (done: CheckedGroup[], failed: CheckedGroup) => {
		const named = (entry: PreparedGroup) => `${entry.portfolioId} at ${entry.quarterEnd}`;
		const stored = runs.flatMap((entry) =>
			entry.ok && (done.includes(entry) || storedUnread.has(entry.prepared))
				? [
						`${named(entry.prepared)}${storedUnread.has(entry.prepared) ? ' [its answer unreadable]' : ''}`,
					]
				: [],
		);
		const unknown = runs.flatMap((entry) =>
			entry.ok &&
			maybeStored.has(entry.prepared) &&
			!done.includes(entry) &&
			!storedUnread.has(entry.prepared)
				? [named(entry.prepared)]
				: [],
		);
		// A snapshot that may have been stored is counted as outcome unknown, never among those not stored.
		const failedWords = !failed.ok
			? ''
			: storedUnread.has(failed.prepared)
				? ''
				: maybeStored.has(failed.prepared)
					? `${failed.prepared.where}: outcome unknown (may have been stored). `
					: `${failed.prepared.where}: not stored. `;
		const inList = (names: string[]) => (names.length ? ` (${listNames(names)})` : '');
		const counts = unknown.length
			? `Of ${toStore} snapshots, before the run stopped: ${stored.length} stored${inList(stored)}, ${unknown.length} outcome unknown (may have been stored: ${listNames(unknown)}), ${toStore - stored.length - unknown.length} not stored`
			: `${stored.length} of ${toStore} snapshot${toStore === 1 ? ' was' : 's were'} stored before the run stopped${inList(stored)}`;
		return `${failedWords}${counts}; running again is safe, as each snapshot replaces the one of its quarter.`;
	};
	const output = await (runGroups<CheckedGroup>).call(
		this,
		items,
		runs,
		async (entry) => {
			if (!entry.ok) throw entry.error;
			const { prepared } = entry;
			const itemIndex = prepared.group.itemIndices[0];
			const task = tasks.get(prepared)!;
			const kept = memory?.get(task);
			if (kept?.state === 'done') return kept.items;
			// Sent again (storing the same holdings again is safe), but a failure now does not undo what an earlier try
			// may have stored.
			if (kept?.state === 'uncertain') maybeStored.add(prepared);
			if (kept?.state === 'carried-out') {
				storedUnread.add(prepared);
				throw failedAgain(
					this,
					kept,
					itemIndex,
					'Settings > Retry On Fail did not send this snapshot again: an earlier try of this execution sent it and the API answered with success (stored), but its answer could not be read.',
				);
			}
			let answer: { body: IDataObject; settled?: SettledOutcome };
			try {
				answer = await (apiRequestSettled<IDataObject>).call(
					this,
					ROUTES.createSnapshot,
					prepared,
					{ body: bodyOf(prepared), itemIndex },
				);
			} catch (error) {
				if (isCarriedOut(error)) {
					storedUnread.add(prepared);
					memory?.set(task, rememberedFailure('carried-out', error as NodeApiError));
				} else if (mayHaveBeenCarriedOut(error)) {
					maybeStored.add(prepared);
					memory?.set(task, rememberedFailure('uncertain', error as NodeApiError));
				}
				throw asNodeError(this.getNode(), error);
			}
			const { body, settled } = answer;
			const message = settled ? settled.message : responseMessage(body);
			const read = settled ? undefined : readOutcome(ROUTES.createSnapshot, message);
			const parsed = read?.match ?? null;
			const outcome = settled ? settled.outcome : read!.outcome;
			if (outcome === 'unknown') {
				noteUnknownOutcome.call(
					this,
					prepared.where,
					`the snapshot of portfolio "${prepared.portfolioId}" at ${prepared.quarterEnd}`,
					message,
				);
			}
			if (outcome === 'created') knownNames.set(prepared.portfolioId, prepared.name);
			const result: INodeExecutionData[] = [
				{
					json: {
						identifier: responseIdentifier(body, null),
						message,
						outcome,
						quarter_end: parsed ? parsed[2] : prepared.quarterEnd,
						snapshot_date: prepared.date,
						...(prepared.dateNote ? { snapshot_date_note: prepared.dateNote } : {}),
						holdings_count: prepared.holdings.length,
						portfolio_id: prepared.portfolioId,
						...portfolioName(body, outcome, prepared.name, knownNames.get(prepared.portfolioId)),
						...removedSummary(prepared.removed, prepared.notes),
					},
					pairedItem: pairedTo(prepared.group.itemIndices),
				},
			];
			memory?.set(task, { state: 'done', items: result });
			return result;
		},
		describeStored,
	);
	if (runs.every((entry) => entry.ok && memory?.get(tasks.get(entry.prepared)!)?.state === 'done'))
		memory?.forget();
	return output;
}

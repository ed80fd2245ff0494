import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { MONTHLY_QUOTA } from '../../shared/base/constants';
import { groupByProperty, holdingsProperties, holdingsOptions } from '../../shared/ui/descriptions';
import { instrumentTypeWhenNoneProperty } from '../../shared/ui/instrumentTypeWhenNone';
import { holdingsBody, noHoldingLeftError, removedSummary } from '../../shared/input/holdings';
import {
	countNotInAnswer,
	countSkippedByApi,
	countStillCalculating,
} from '../../shared/base/hints';
import type { SourcedHolding } from '../../shared/input/holdings';
import { portfolioGroups } from '../../shared/input/grouping';
import type { ItemGroup } from '../../shared/input/grouping';
import { numberParameterValue, readHoldingsParameters } from '../../shared/input/parameters';
import type { HoldingsInput } from '../../shared/input/parameters';
import { pairedTo, prepareGroups, runGroups } from '../../shared/run/execution';
import type { PreparedGroup } from '../../shared/run/execution';
import { planRequests } from '../../shared/run/requestPlan';
import { ROUTES } from '../../shared/api/routes';
import { noteAboutAnswer } from '../../shared/api/answers';
import { apiRequest } from '../../shared/api/transport';
import { noteOutside, outsideNote, settleDomains } from '../../shared/api/domains';
import { countOf, formatSeconds } from '../../shared/base/values';
import { sleepUnlessCancelled } from '../../shared/base/sleep';
import { groupFields, perHoldingItems } from './summary';
import type { Calculation, TemperatureData } from './summary';
import { parameterBuilderHint } from '../../shared/ui/builderHints';

const displayOptions = { show: { operation: ['getPortfolioTemperature'] } };

const DEFAULT_POLL_SECONDS = 15;
const DEFAULT_MAX_WAIT_SECONDS = 180;

const properties: INodeProperties[] = [
	...holdingsProperties(ROUTES.temperature),
	instrumentTypeWhenNoneProperty,
	groupByProperty('portfolios'),
	{
		displayName: 'Output',
		name: 'output',
		builderHint: parameterBuilderHint(
			"Per Holding: one item per holding plus one summary item per portfolio with the portfolio temperature (for a sheet or a report). Raw API Response: the API's answer as one item per portfolio.",
		),
		type: 'options',
		options: [
			{
				name: 'Per Holding',
				value: 'perHolding',
				description:
					'One item per company and fund (temperature score, target, base year, industry), paired to the input items with that ISIN, plus one summary item per group: portfolio temperature = sum(market value × score) ÷ sum(market value) over the holdings with a score',
			},
			{
				name: 'Raw API Response',
				value: 'raw',
				description:
					"The API's data (portfolio and job metadata) as one item per group, with the Group By values under group and the removed rows",
			},
		],
		default: 'perHolding',
		description:
			'What comes out of the node. Per Holding (the usual choice) gives a row per holding for a sheet plus the portfolio temperature.',
	},
	{
		displayName: 'Wait for Calculation',
		name: 'waitForCalculation',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait while the API is still calculating the scores (is_lock) and ask again until they are ready. When off, an answer still being calculated is returned as it came, marked calculating = true.',
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_POLL_SECONDS,
		description: `Seconds between two requests while the API is calculating. Each request counts against the key's monthly quota (${MONTHLY_QUOTA.toLocaleString('en-US')}): a portfolio costs at most 1 + Max Wait ÷ Poll Interval requests.`,
		displayOptions: { show: { waitForCalculation: [true] } },
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWait',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_MAX_WAIT_SECONDS,
		description:
			'How long to keep asking before stopping with an error. The calculation goes on at the API, so a later run may find the scores ready.',
		displayOptions: { show: { waitForCalculation: [true] } },
	},
	...holdingsOptions(ROUTES.temperature),
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

interface WaitSettings {
	wait: boolean;
	intervalMs: number;
	maxWaitMs: number;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const output = this.getNodeParameter('output', 0, 'perHolding') as string;
	const wait = this.getNodeParameter('waitForCalculation', 0, true) as boolean;
	const seconds = (name: string, label: string, fallback: number) =>
		(wait
			? (numberParameterValue(node, this.getNodeParameter(name, 0, fallback), 0, label, {
					min: 1,
				}) ?? fallback)
			: fallback) * 1000;
	const settings: WaitSettings = {
		wait,
		intervalMs: seconds('pollInterval', 'Poll Interval (Seconds)', DEFAULT_POLL_SECONDS),
		maxWaitMs: seconds('maxWait', 'Max Wait (Seconds)', DEFAULT_MAX_WAIT_SECONDS),
	};

	// Every group's holdings are checked before the first request, so bad input costs nothing.
	const groups = (prepareGroups<ItemGroup, HoldingsInput>).call(
		this,
		portfolioGroups.call(this, items),
		(group) => {
			const input = readHoldingsParameters.call(this, ROUTES.temperature, items, group.itemIndices);
			const { holdings, removed } = input;
			if (holdings.length === 0)
				throw noHoldingLeftError(node, group.itemIndices[0], ROUTES.temperature, removed);
			return input;
		},
	);

	// Worst case per group: a poll every Poll Interval until Max Wait (see calculate).
	const perGroup = settings.wait ? 1 + Math.floor(settings.maxWaitMs / settings.intervalMs) : 1;
	const toSend = groups.filter((group) => !group.error).length;
	planRequests.call(this, {
		requests: toSend * perGroup,
		breakdown: `${countOf(toSend, 'group')} × ${perGroup === 1 ? '1 request' : `up to ${perGroup} requests (one poll every Poll Interval while the API calculates, up to Max Wait)`}`,
		fewerRequests: `Group By a field with fewer distinct values (one calculation per group)${perGroup > 1 ? ', or raise Poll Interval or lower Max Wait' : ''}`,
		isMaximum: perGroup > 1,
	});

	return await (runGroups<PreparedGroup<ItemGroup, HoldingsInput>>).call(
		this,
		items,
		groups,
		async (prepared) => {
			if (prepared.error) throw prepared.error;
			const { group } = prepared;
			const { holdings, removed, notes } = prepared.input!;
			const answered = await calculate.call(this, holdings, settings, group.itemIndices[0]);
			if (answered.locked) countStillCalculating(this);
			// Numbers outside their domain (a score outside 1 to 6 °C, a negative market value) are set to null.
			const settled = settleDomains(ROUTES.temperature.answer.domains, answered.data, ['data']);
			const calculation = { ...answered, data: settled.value, outside: settled.outside };
			const domainNote = settled.outside.length
				? outsideNote(
						settled.outside,
						'Each is set to null and left out of the portfolio temperature and its totals.',
					)
				: undefined;
			if (domainNote) noteOutside.call(this, settled.outside, domainNote, 'domain_note', 2);
			if (output === 'raw') {
				return [
					{
						json: {
							...(Object.keys(group.values).length ? { group: groupFields(group) } : {}),
							...(calculation.data as IDataObject),
							...(calculation.locked ? { calculating: true } : {}),
							...(domainNote ? { domain_note: domainNote } : {}),
							...removedSummary(removed, notes),
						},
						pairedItem: pairedTo(group.itemIndices),
					},
				];
			}
			const rows = perHoldingItems(group, holdings, removed, calculation, notes);
			const { skipped_count: skipped, not_checked_count: notChecked } = rows[rows.length - 1].json;
			// While the API calculates it lists nothing yet: that is said by the calculating note.
			if (typeof skipped === 'number' && typeof notChecked === 'number' && !calculation.locked) {
				countSkippedByApi(this, skipped - notChecked, 'skipped_rows');
				countNotInAnswer(this, notChecked, 'holding', 'skipped_rows');
			}
			const answerNote = rows[rows.length - 1]?.json.answer_note;
			if (typeof answerNote === 'string')
				noteAboutAnswer.call(
					this,
					answerNote,
					"Part of the API's answer was not used: see answer_note in the output.",
				);
			return rows;
		},
		(done) =>
			`${done.length} of ${toSend} portfolio${toSend === 1 ? '' : 's'} got their temperature scores before the run stopped; nothing is output when the node stops with an error.`,
	);
}

/** Asks the API, and while it answers is_lock = true waits Poll Interval and asks again, up to Max Wait. */
async function calculate(
	this: IExecuteFunctions,
	holdings: SourcedHolding[],
	settings: WaitSettings,
	itemIndex: number,
): Promise<Calculation> {
	const signal = this.getExecutionCancelSignal();
	const body = { holdings: holdingsBody(holdings) };
	const started = Date.now();
	for (let requests = 1; ; requests++) {
		const answer = await (apiRequest<{ data: TemperatureData }>).call(this, ROUTES.temperature, {
			body,
			itemIndex,
		});
		// The route's contract: `data.portfolio` and `data.job_metadata.is_lock`, the vendor's unwrapped answer
		// brought to that form (answers.ts).
		const { data } = answer;
		const locked = data.job_metadata.is_lock;
		const waitedMs = Date.now() - started;
		if (!locked || !settings.wait) return { data, locked, requests, waitedMs };
		if (waitedMs + settings.intervalMs > settings.maxWaitMs) {
			throw new NodeOperationError(
				this.getNode(),
				`The API was still calculating the temperature scores after ${formatSeconds(waitedMs)} (${requests} request${requests === 1 ? '' : 's'}); Max Wait is ${formatSeconds(settings.maxWaitMs)}`,
				{
					itemIndex,
					description:
						'The calculation goes on at the API. Run again later, or raise Max Wait (Seconds). Each poll is one request against the monthly quota; turn off Wait for Calculation to get the answer as it is, marked calculating = true.',
				},
			);
		}
		this.logger.debug(
			'Sustainability Compliance API: temperature score still calculating, asking again',
			{
				request: requests,
				waitMs: settings.intervalMs,
			},
		);
		await sleepUnlessCancelled(settings.intervalMs, signal);
	}
}

import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';

import { groupByProperty, holdingsProperties, holdingsOptions } from '../../shared/ui/descriptions';
import { holdingsBody, noHoldingLeftError, removedSummary } from '../../shared/input/holdings';
import { describeGroupValues, portfolioGroups } from '../../shared/input/grouping';
import type { ItemGroup } from '../../shared/input/grouping';
import { readHoldingsParameters } from '../../shared/input/parameters';
import type { HoldingsInput } from '../../shared/input/parameters';
import { apiAnswerOf, asNodeError } from '../../shared/api/errors';
import { pairedTo, prepareGroups, runGroups } from '../../shared/run/execution';
import type { PreparedGroup } from '../../shared/run/execution';
import { planOneRequestEach } from '../../shared/run/requestPlan';
import { ROUTES } from '../../shared/api/routes';
import { apiRequest } from '../../shared/api/transport';
import { noteAboutAnswer } from '../../shared/api/answers';
import { noteOutside, outsideNote, settleDomains } from '../../shared/api/domains';
import type { OutsideValue } from '../../shared/api/domains';
import { parseTaxonomyKpi } from './kpis';
import type { TaxonomyKpi } from './kpis';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import { instrumentTypeWhenNoneProperty } from '../../shared/ui/instrumentTypeWhenNone';

const displayOptions = { show: { operation: ['getPortfolioAlignment'] } };

const properties: INodeProperties[] = [
	...holdingsProperties(ROUTES.taxonomy),
	instrumentTypeWhenNoneProperty,
	groupByProperty('portfolios'),
	{
		displayName: 'Output',
		name: 'output',
		builderHint: parameterBuilderHint(
			'Summary: one item per portfolio with every KPI as a field (for an email or a report). Table: one item per KPI (for a chart or a sheet).',
		),
		type: 'options',
		options: [
			{
				name: 'Summary',
				value: 'summary',
				description:
					'One item per portfolio with every KPI as a field, e.g. taxonomy_alignment_turnover_%',
			},
			{
				name: 'Table',
				value: 'table',
				description:
					'One item per KPI with measure, scope, excluding_sovereign_bonds and percent: ready for a chart or a sheet',
			},
		],
		default: 'summary',
		description:
			'What comes out of the node: one item per portfolio with every KPI as a field (the usual choice for a report), or one item per KPI for a chart or a sheet',
	},
	...holdingsOptions(ROUTES.taxonomy),
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

/** " (field = value, ...)" after a message about a group; '' without Group By. */
function groupSuffix(values: Record<string, unknown>): string {
	const shown = describeGroupValues(values);
	return shown ? ` (${shown})` : '';
}

function isNoDataFound(error: unknown): boolean {
	const answer = apiAnswerOf(error);
	return answer?.statusCode === 400 && answer.said?.includes(ROUTES.taxonomy.noDataAnswer) === true;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const output = this.getNodeParameter('output', 0, 'summary') as 'summary' | 'table';
	const groups = (prepareGroups<ItemGroup, HoldingsInput>).call(
		this,
		portfolioGroups.call(this, items),
		(group) => readGroupHoldings.call(this, items, group),
	);

	const toSend = groups.filter((group) => !group.error).length;
	planOneRequestEach.call(this, toSend);

	return await (runGroups<PreparedGroup<ItemGroup, HoldingsInput>>).call(
		this,
		items,
		groups,
		async (prepared) => {
			if (prepared.error) throw prepared.error;
			const { holdings, removed, notes } = prepared.input!;
			const { values } = prepared.group;
			const first = prepared.itemIndices[0] ?? 0;
			const pairedItem = pairedTo(prepared.itemIndices);
			const counts = {
				holdings_count: holdings.length,
				...removedSummary(removed, notes),
				...(removed.length > 0 ? { total_note: totalNote(holdings.length, removed.length) } : {}),
			} as IDataObject;

			let kpis: IDataObject;
			try {
				// The route's contract: `data` is an object of KPI numbers (answers.ts).
				const body = await (apiRequest<{ data: IDataObject }>).call(this, ROUTES.taxonomy, {
					body: { holdings: holdingsBody(holdings) },
					itemIndex: first,
				});
				kpis = body.data;
			} catch (error) {
				if (!isNoDataFound(error)) throw asNodeError(this.getNode(), error);
				const json = noDataFound.call(this, values, holdings.length, first, counts);
				if (output === 'table') delete json.removed_rows;
				return [{ json, pairedItem }];
			}
			if (Object.keys(kpis).length === 0) {
				noteAboutAnswer.call(
					this,
					NO_KPI_REASON,
					'The API answered no EU Taxonomy KPI: see reason.',
				);
				const json: IDataObject = { ...values, found: false, reason: NO_KPI_REASON, ...counts };
				if (output === 'table') {
					delete json.removed_rows;
					return [{ json: { ...kpiRow(undefined, null, values, counts), ...json }, pairedItem }];
				}
				return [{ json, pairedItem }];
			}
			// A KPI outside 0 to 100 is no figure of this portfolio: set to null, named, and said to be untrusted.
			const settled = settleDomains(ROUTES.taxonomy.answer.domains, kpis, ['data']);
			kpis = settled.value;
			const domainNote = settled.outside.length
				? outsideNote(settled.outside, UNTRUSTED_KPI, 1)
				: undefined;
			if (domainNote) noteOutside.call(this, settled.outside, domainNote, 'domain_note', 1);
			if (output === 'table')
				return kpiRows(kpis, values, counts, settled.outside).map((json) => ({
					json,
					pairedItem,
				}));
			return [
				{
					json: {
						...values,
						found: true,
						...kpis,
						...counts,
						...(domainNote
							? { out_of_range_count: settled.outside.length, domain_note: domainNote }
							: {}),
					},
					pairedItem,
				},
			];
		},
		(done) =>
			`${done.length} of ${toSend} portfolio${toSend === 1 ? '' : 's'} got their alignment before the run stopped; nothing is output when the node stops with an error.`,
	);
}

/** Which total the API's percentages are of, and what it leaves out (a row given with a market value is part of the portfolio). */
function totalNote(sent: number, removed: number): string {
	return `The API's percentages are of the ${sent} holding${sent === 1 ? '' : 's'} sent (holdings_count): they leave out the ${removed} row${removed === 1 ? '' : 's'} in removed_rows, market value included.`;
}

/** A group's holdings, read before any request; a group with none left to send is refused. */
function readGroupHoldings(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	group: ItemGroup,
): HoldingsInput {
	const input = readHoldingsParameters.call(this, ROUTES.taxonomy, items, group.itemIndices);
	if (input.holdings.length === 0)
		throw noHoldingLeftError(this.getNode(), group.itemIndices[0], ROUTES.taxonomy, input.removed, {
			group: groupSuffix(group.values),
		});
	return input;
}

/**
 * The API's "no data" answer for a portfolio: an error naming the portfolio, or under Continue (using error output)
 * the group's item that says so.
 */
function noDataFound(
	this: IExecuteFunctions,
	values: Record<string, unknown>,
	holdings: number,
	itemIndex: number,
	counts: IDataObject,
): IDataObject {
	const message = `No EU Taxonomy data for this portfolio${groupSuffix(values)}: none of its ${holdings} holding${
		holdings === 1 ? ' has' : 's has'
	} taxonomy data or a market value`;
	const explanation = `The API answered "${ROUTES.taxonomy.noDataAnswer}": it found neither EU Taxonomy data for these ISINs nor market values to weight them with. Check that the holdings are companies or funds with taxonomy data and that their market values are filled in and not all 0.`;
	if (!this.continueOnFail()) {
		throw new NodeApiError(
			this.getNode(),
			{ message: ROUTES.taxonomy.noDataAnswer } as JsonObject,
			{
				message,
				description: explanation,
				httpCode: '400',
				itemIndex,
			},
		);
	}
	return {
		...values,
		found: false,
		reason: `no data from the API ("${ROUTES.taxonomy.noDataAnswer}")`,
		message,
		error_details: explanation,
		...counts,
	};
}

/** Why a portfolio answered with `data: {}` has no figure: not the API's documented "no data" answer. */
const NO_KPI_REASON =
	'The API answered success with no KPI at all (data is an empty object). That is not its documented answer when it has no data (400 "No data found for the given parameters"), so this portfolio was not checked: run again, and if it persists tell the vendor.';

/** What is said of a KPI outside 0 to 100. */
const UNTRUSTED_KPI =
	'Each is set to null here: a percentage outside 0 to 100 cannot be trusted, nor can it be read as any figure of this portfolio.';

function kpiRow(
	kpi: TaxonomyKpi | undefined,
	percent: unknown,
	values: Record<string, unknown>,
	counts: IDataObject,
): IDataObject {
	return {
		...values,
		measure: kpi?.measure ?? null,
		scope: kpi?.scope ?? null,
		excluding_sovereign_bonds: kpi?.excluding_sovereign_bonds ?? null,
		percent: (percent ?? null) as IDataObject[string],
		kpi: kpi?.kpi ?? null,
		holdings_count: counts.holdings_count,
		removed_count: counts.removed_count,
	};
}

/**
 * Output "One Row per KPI": a row per KPI the API answered; a KPI outside its range has percent null and a note
 * naming what came.
 */
function kpiRows(
	kpis: IDataObject,
	values: Record<string, unknown>,
	counts: IDataObject,
	outside: OutsideValue[],
): IDataObject[] {
	return Object.entries(kpis).map(([key, percent]) => {
		const row = kpiRow(parseTaxonomyKpi(key), percent, values, counts);
		const out = outside.filter((value) => value.path[1] === key);
		if (out.length) row.domain_note = outsideNote(out, UNTRUSTED_KPI, 1);
		return row;
	});
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	groupByProperty,
	holdingsProperties,
	methodologyProperty,
	holdingsOptions,
} from '../../shared/ui/descriptions';
import { holdingsBody } from '../../shared/input/holdings';
import { portfolioGroups } from '../../shared/input/grouping';
import type { ItemGroup } from '../../shared/input/grouping';
import { readHoldingsParameters, readMethodologyId } from '../../shared/input/parameters';
import type { HoldingsInput } from '../../shared/input/parameters';
import { inputError } from '../../shared/api/errors';
import { prepareGroups, runGroups } from '../../shared/run/execution';
import type { PreparedGroup } from '../../shared/run/execution';
import { planOneRequestEach } from '../../shared/run/requestPlan';
import { ROUTES } from '../../shared/api/routes';
import { noteAboutAnswer, notInAnswerReason } from '../../shared/api/answers';
import { countNotInAnswer } from '../../shared/base/hints';
import { apiRequest } from '../../shared/api/transport';
import { noteOutside, outsideNote, settleDomains } from '../../shared/api/domains';
import type { OutsideValue } from '../../shared/api/domains';
import { instrumentTypeWhenNoneProperty } from '../../shared/ui/instrumentTypeWhenNone';
import { ClassificationMatcher, LABELS, classificationColumns } from './classification';
import type { ClassificationEntry } from './classification';

const displayOptions = { show: { operation: ['classifyHoldings'] } };

const properties: INodeProperties[] = [
	methodologyProperty(
		true,
		'Methodology to classify the holdings under: pick one your API key can use, or type its ID',
	),
	...holdingsProperties(ROUTES.sustainableInvestments),
	instrumentTypeWhenNoneProperty,
	groupByProperty('portfolios'),
	...holdingsOptions(ROUTES.sustainableInvestments),
];

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, properties);

interface GroupInput extends HoldingsInput {
	methodologyId: number | string;
}

/** The methodology of the group's first item, checked before any request. */
function readMethodology(this: IExecuteFunctions, itemIndex: number): number {
	const id = readMethodologyId.call(this, itemIndex);
	if (id === undefined) {
		throw inputError(
			this.getNode(),
			itemIndex,
			'no methodology is chosen',
			'Pick a methodology from the list, or switch Methodology to "By ID" and type its ID.',
		);
	}
	return id;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const fromJson = this.getNodeParameter('holdingsSource', 0, 'items') === 'json';
	const groups = (prepareGroups<ItemGroup, GroupInput>).call(
		this,
		portfolioGroups.call(this, items),
		(group): GroupInput => {
			const first = group.itemIndices[0] ?? 0;
			const methodologyId = readMethodology.call(this, first);
			return {
				methodologyId,
				...readHoldingsParameters.call(
					this,
					ROUTES.sustainableInvestments,
					items,
					group.itemIndices,
				),
			};
		},
	);

	const toSend = groups.filter((group) => !group.error && group.input!.holdings.length > 0).length;
	planOneRequestEach.call(this, toSend);

	const output = await (runGroups<PreparedGroup<ItemGroup, GroupInput>>).call(
		this,
		items,
		groups,
		async (prepared) => {
			if (prepared.error) throw prepared.error;
			const { methodologyId, removed, notes } = prepared.input!;
			const common = {
				methodology_id: methodologyId,
				inputNotes: (notes.length > 0 ? { input_notes: notes } : {}) as IDataObject,
			};
			const out = [
				...(await classifiedRows.call(this, items, prepared, fromJson, common)),
				...removed.map((row) => ({
					item: row.item,
					json: {
						...(fromJson ? { name: row.name, isin: row.isin } : items[row.item].json),
						isin: row.isin,
						classification: null,
						label: LABELS.notClassified,
						description: null,
						methodology_id: methodologyId,
						removed: true,
						removed_reason: row.reason,
						...common.inputNotes,
					},
				})),
			];
			return out.map(({ item, json }) => ({
				json,
				pairedItem: { item },
				...(!fromJson && items[item].binary ? { binary: items[item].binary } : {}),
			}));
		},
		(done) =>
			`${done.length} of ${groups.length} group${groups.length === 1 ? ' was' : 's were'} classified before the run stopped; nothing is output when the node stops with an error.`,
	);
	// One item per input item, in input order also across groups and error items (the sort is stable; with the
	// JSON source every row belongs to the first item and keeps the array's order, classified rows first).
	const itemOf = (entry: INodeExecutionData) => (entry.pairedItem as { item: number }).item;
	return output.sort((a, b) => itemOf(a) - itemOf(b));
}

const OUT_OF_RANGE_DONE = 'Each is set to null here.';

/** The group's holdings classified by the API (one request), each matched to its answer by ISIN. */
async function classifiedRows(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	prepared: PreparedGroup<ItemGroup, GroupInput>,
	fromJson: boolean,
	{
		methodology_id,
		inputNotes,
	}: { methodology_id: GroupInput['methodologyId']; inputNotes: IDataObject },
): Promise<Array<{ item: number; json: IDataObject }>> {
	const { holdings } = prepared.input!;
	if (holdings.length === 0) return [];
	const body = await (apiRequest<{ data: ClassificationEntry[] }>).call(
		this,
		ROUTES.sustainableInvestments,
		{
			body: { methodology_id, holdings: holdingsBody(holdings) },
			itemIndex: prepared.itemIndices[0] ?? 0,
		},
	);
	// A weight outside 0 to 100 is set to null on its row and named there.
	const settled = settleDomains(ROUTES.sustainableInvestments.answer.domains, body.data, ['data']);
	const outsideOf = new Map<ClassificationEntry, OutsideValue[]>();
	for (const value of settled.outside) {
		const entry = settled.value[value.path[1] as number];
		outsideOf.set(entry, [...(outsideOf.get(entry) ?? []), value]);
	}
	if (settled.outside.length)
		noteOutside.call(
			this,
			settled.outside,
			outsideNote(settled.outside, OUT_OF_RANGE_DONE, 2),
			'domain_note',
			2,
		);
	const matcher = new ClassificationMatcher(settled.value);
	const answerNote = matcher
		.tallyUnasked(holdings.map(({ holding }) => holding.isin as string))
		.describe(ROUTES.sustainableInvestments);
	if (answerNote)
		noteAboutAnswer.call(
			this,
			answerNote,
			"Part of the API's answer was not used: see answer_note in the output.",
		);
	let notInAnswer = 0;
	const rows = holdings.map(({ itemIndex, holding }) => {
		const isin = holding.isin as string;
		const entry = matcher.next(isin);
		const outside = entry ? outsideOf.get(entry) : undefined;
		// Left out of a readable answer: not checked, never "Uncovered" (the API's word for no data).
		if (!entry) notInAnswer++;
		const note = entry
			? answerNote
			: [
					notInAnswerReason(
						'holding',
						'the API classifies every holding sent, as Uncovered when it has no data',
					),
					answerNote,
				]
					.filter(Boolean)
					.join(' ');
		return {
			item: itemIndex,
			json: {
				...(fromJson ? ({ ...holding } as IDataObject) : items[itemIndex].json),
				...classificationColumns(isin, entry),
				...(outside ? { domain_note: outsideNote(outside, OUT_OF_RANGE_DONE, 2) } : {}),
				...(entry ? {} : { label: LABELS.notChecked }),
				methodology_id,
				removed: false,
				removed_reason: null,
				...inputNotes,
				...(note ? { answer_note: note } : {}),
			},
		};
	});
	countNotInAnswer(this, notInAnswer, 'holding', 'answer_note');
	return rows;
}

import { updateDisplayOptions } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { numberParameterValue } from '../../shared/input/parameters';
import { ROUTES } from '../../shared/api/routes';
import { isinOfDataEntry } from './dataEntry';
import type { InstrumentDataEntry } from './dataEntry';
import { hasAnyValue, withOwnColumns } from './instrumentResults';
import { executeInstrumentOperation, instrumentOptions, instrumentProperties } from './lookup';

const minimumThreshold: INodeProperties = {
	displayName: 'Minimum Threshold',
	name: 'minimumThreshold',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Only involvements at or above this level are reported (sent to the API as minimum_threshold). The vendor does not document its scale, so keep 0 unless the vendor gave you a value.',
	hint: 'Leave at 0 to get every involvement',
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { operation: ['getBusinessInvolvements'] } },
	[...instrumentProperties, minimumThreshold, ...instrumentOptions],
);

/** Scores as they are; involvements flattened to `<category>_weight` and `<category>_count` when simplifying. */
function toResult(entry: InstrumentDataEntry, simplify: boolean): IDataObject {
	const { business_involvements: involvements, ...scores } = (entry.sustainability_data ??
		{}) as IDataObject;
	// The node's columns win; a score named like one of them comes under indicator_<name>.
	const result = withOwnColumns(
		{
			isin: entry.metadata?.isin ?? null,
			found: hasAnyValue(entry.sustainability_data),
			is_fund: entry.metadata?.is_fund ?? null,
		},
		scores,
	);
	if (!simplify) {
		result.business_involvements = (involvements ?? {}) as IDataObject;
		return result;
	}
	for (const [category, value] of Object.entries((involvements ?? {}) as IDataObject)) {
		const { weight = null, count = null } = (value ?? {}) as {
			weight?: number | null;
			count?: number | null;
		};
		result[`${category}_weight`] = weight;
		result[`${category}_count`] = count;
	}
	return result;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await (executeInstrumentOperation<InstrumentDataEntry>).call(this, items, {
		route: ROUTES.businessInvolvements,
		resultKey: 'business_involvements',
		emptyIsAllowed: false,
		summaryKind: 'businessInvolvements',
		isinOf: isinOfDataEntry,
		toResult,
		extraBody(this: IExecuteFunctions) {
			const raw = this.getNodeParameter('minimumThreshold', 0, 0) as unknown;
			const threshold =
				numberParameterValue(this.getNode(), raw, 0, 'Minimum Threshold', { min: 0 }) ?? 0;
			return threshold > 0 ? { minimum_threshold: threshold } : {};
		},
	});
}

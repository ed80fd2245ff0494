export type TaxonomyMeasure = 'turnover' | 'capex' | 'opex' | 'total';
export type TaxonomyScope =
	| 'aligned'
	| 'eligible'
	| 'enabling'
	| 'transitional'
	| 'fossil gas'
	| 'nuclear'
	| 'no gas and nuclear';

export interface TaxonomyKpi {
	/** The key as the API gives it, e.g. `taxonomy_alignment_turnover_%`. */
	kpi: string;
	/** null for a key this version does not know. */
	measure: TaxonomyMeasure | null;
	scope: TaxonomyScope | null;
	excluding_sovereign_bonds: boolean;
}

const ALIGNMENT_SCOPES: Record<string, TaxonomyScope> = {
	enabling: 'enabling',
	transitional: 'transitional',
	fossil_gas: 'fossil gas',
	nuclear: 'nuclear',
	no_gas_and_nuclear: 'no gas and nuclear',
};

/**
 * `taxonomy_eligible[_<measure>][_excluding_sovereign_bonds]_%` and
 * `taxonomy_alignment[_<scope>][_<measure>][_excluding_sovereign_bonds]_%`, as the API names them; no measure = total.
 */
const KPI_KEY =
	/^taxonomy_(?:(eligible)|alignment(?:_(enabling|transitional|fossil_gas|nuclear|no_gas_and_nuclear))?)(?:_(turnover|capex|opex))?(_excluding_sovereign_bonds)?_%$/;

/** Reads an EU Taxonomy KPI key; keys the API may add later come back with measure and scope null. */
export function parseTaxonomyKpi(key: string): TaxonomyKpi {
	const match = KPI_KEY.exec(key);
	if (!match) {
		return {
			kpi: key,
			measure: null,
			scope: null,
			excluding_sovereign_bonds: key.includes('excluding_sovereign_bonds'),
		};
	}
	const [, eligible, subScope, measure, excluding] = match;
	return {
		kpi: key,
		measure: (measure as TaxonomyMeasure | undefined) ?? 'total',
		scope: eligible ? 'eligible' : subScope ? ALIGNMENT_SCOPES[subScope] : 'aligned',
		excluding_sovereign_bonds: excluding !== undefined,
	};
}

import { instrumentData } from '../simulator';

/** A holding row of examples/14 (the Split Out node's items). */
export type ScreenRow = Record<string, unknown> & { Fund: string; ISIN: string; Name: string };

interface ExampleRule {
	label: string;
	read: (isin: string, version: 1 | 2) => number | boolean | null;
	breach: (value: number | boolean) => boolean;
	limit: number | boolean;
}

/**
 * The rules of examples/14, worked out independently of the node from the simulator's data (answer shape
 * `measures: 'vendor'`, business involvements as the spec: the Climate Transition Benchmark's two categories are not
 * in the answer, so never checked). `custom` are the labels of the example's two own rules (coal, SFDR article).
 */
function exampleRules(custom: [string, string]): ExampleRule[] {
	return [
		{
			label: 'Art. 12(1)(a) Controversial weapons',
			read: () => null,
			breach: () => true,
			limit: 0,
		},
		{
			label: 'Art. 12(1)(b) Cultivation and production of tobacco',
			read: () => null,
			breach: () => true,
			limit: 0,
		},
		{
			label: 'Art. 12(1)(c) Violations of the UN Global Compact principles or OECD Guidelines',
			read: (isin, v) => instrumentData(isin, v).vendorIndicators.violations_un_global_compact,
			breach: (value) => value === true,
			limit: false,
		},
		{
			label: custom[0],
			read: (isin, v) => instrumentData(isin, v).businessInvolvements.thermal_coal?.weight ?? null,
			breach: (value) => (value as number) > 0 && (value as number) >= 5,
			limit: 5,
		},
		{
			label: custom[1],
			read: (isin, v) => instrumentData(isin, v).sfdr,
			breach: (value) => (value as number) < 8,
			limit: 8,
		},
	];
}

/**
 * The lines examples/14 emails on day 2 (data version 2) after day 1 (version 1): one per fund, holding and rule
 * breached on day 2 and not on day 1, in the order of the rows and the rules.
 */
export function expectedNewBreachLines(rows: ScreenRow[], custom: [string, string]): string[] {
	const rules = exampleRules(custom);
	const breaches = (isin: string, version: 1 | 2, rule: ExampleRule) => {
		const value = rule.read(isin, version);
		return value !== null && rule.breach(value);
	};
	return rows.flatMap((row) =>
		rules
			.filter((rule) => breaches(row.ISIN, 2, rule) && !breaches(row.ISIN, 1, rule))
			.map(
				(rule) =>
					`- ${row.Fund}: ${row.ISIN} ${row.Name}: ${rule.label}: found ${String(rule.read(row.ISIN, 2))} (limit ${String(rule.limit)})`,
			),
	);
}

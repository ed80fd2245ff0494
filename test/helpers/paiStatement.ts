import { PAI_INDICATORS, instrumentData } from '../simulator';
import { generalNumber } from '../workflow/standins/ConvertToFile';

/** A number as the sample sheet writes it: "1,234,567.89", "12.5%". */
export const sheetNumber = (text: string) => Number(text.replace(/[,%]/g, ''));

/**
 * The cells of example 07's CSV worked out independently of the node, from the simulator's per-ISIN data and the
 * sample holdings (`ISIN`, `Market Value` as the sheet writes it), written as Convert to File writes numbers.
 */
export function expectedPaiStatementCells(
	rows: Array<Record<string, string>>,
): Record<string, string> {
	const weighted = rows
		.filter((row) => row.ISIN)
		.map((row) => ({ isin: row.ISIN, value: sheetNumber(row['Market Value']) }));
	const total = weighted.reduce((sum, h) => sum + h.value, 0);
	const percentOf = (part: number) => generalNumber(Math.round((part / total) * 100 * 100) / 100);
	const cells: Record<string, string> = {
		holdings_count: String(weighted.length),
		removed_count: String(rows.length - weighted.length),
	};
	// SFDR: share of market value per article.
	for (const article of [9, 8, 6] as const) {
		const part = weighted
			.filter((h) => instrumentData(h.isin).sfdr === article)
			.reduce((sum, h) => sum + h.value, 0);
		cells[`article_${article}_percent`] = percentOf(part);
	}
	// PAI: Σ value × indicator / Σ value over the holdings that have the indicator.
	for (const indicator of Object.keys(PAI_INDICATORS) as (keyof typeof PAI_INDICATORS)[]) {
		const withValue = weighted.filter((h) => instrumentData(h.isin).pai[indicator] !== null);
		const covered = withValue.reduce((sum, h) => sum + h.value, 0);
		const average =
			withValue.reduce((sum, h) => sum + h.value * instrumentData(h.isin).pai[indicator]!, 0) /
			covered;
		cells[`${indicator}_weighted_average`] = generalNumber(Math.round(average * 10_000) / 10_000);
		cells[`${indicator}_unit`] = PAI_INDICATORS[indicator];
		cells[`${indicator}_coverage_percent`] = percentOf(covered);
	}
	return cells;
}

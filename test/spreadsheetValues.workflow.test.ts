import type { IDataObject } from 'n8n-workflow';

import { ROUTES } from '../nodes/shared/api/routes';
import { makeIsin } from './simulator';
import { useSimulator } from './helpers/simulator';
import { manualHoldingColumns, snapshotSpec } from './helpers/workflows';
import { LAST_YEAR, runNode } from './helpers/lookupRuns';

/**
 * Rows as n8n's Extract From File gives them from a workbook (XLSX): date cells as Excel serials (numbers), number
 * cells as numbers, percent cells as fractions of 1; headers as the sheet has them (a byte-order mark, stray spaces).
 */
const sim = useSimulator();
const serialOf = (date: string) =>
	(Date.parse(`${date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;

function sheetRows(date: string): IDataObject[] {
	const serial = serialOf(date);
	return [
		{ isin: makeIsin('US', 1), name: 'Apple Inc.', currency: 'USD', weight: 0.6, mv: 600 },
		{ isin: makeIsin('DE', 2), name: 'SAP SE', currency: 'EUR', weight: 0.35, mv: 350 },
		{ isin: '', name: 'Cash EUR', currency: 'EUR', weight: 0.05, mv: 50, type: 'Cash' },
	].map((row) => ({
		'\ufeffPortfolio ID': 'fund-x',
		' Portfolio Name ': 'Fund X',
		'Date ': serial,
		'ISIN ': row.isin,
		Name: row.name,
		' Type': row.type ?? 'Stock',
		Currency: row.currency,
		'Weight %': row.weight,
		'Market Value ': row.mv,
	}));
}

describe('holdings from a spreadsheet (values as Extract From File gives them)', () => {
	it('Excel serial dates, fraction weights and headers with a BOM or spaces: stored without a conversion step', async () => {
		const items = [...sheetRows(`${LAST_YEAR}-03-31`), ...sheetRows(`${LAST_YEAR}-08-01`)];
		const { result, out } = await runNode(
			sim.url,
			items,
			snapshotSpec({
				portfolioId: '={{ $json["\ufeffPortfolio ID"] }}',
				portfolioName: '={{ $json[" Portfolio Name "] }}',
				snapshotDate: '={{ $json["Date "] }}',
				groupBy: 'Portfolio ID, Date',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(out.map((item) => item.json)).toMatchObject([
			{
				portfolio_id: 'fund-x',
				snapshot_date: `${LAST_YEAR}-03-31`,
				quarter_end: `${LAST_YEAR}-03-31`,
				snapshot_date_note: `Snapshot Date ${serialOf(`${LAST_YEAR}-03-31`)} read as the Excel date ${LAST_YEAR}-03-31`,
			},
			{ snapshot_date: `${LAST_YEAR}-08-01`, quarter_end: `${LAST_YEAR}-09-30` },
		]);
		const bodies = sim.requests({ route: 'POST /portfolios' }).map((r) => r.body as IDataObject);
		expect(bodies.map((body) => body.snapshot_at)).toEqual([
			`${LAST_YEAR}-03-31`,
			`${LAST_YEAR}-08-01`,
		]);
		expect(bodies[0].holdings).toEqual([
			expect.objectContaining({ isin: makeIsin('US', 1), weight: 60, market_value: 600 }),
			expect.objectContaining({ isin: makeIsin('DE', 2), weight: 35, market_value: 350 }),
			expect.objectContaining({ isin: null, instrument_type: 'cash', weight: 5 }),
		]);
	});

	it('Map Each Column Manually: a dragged column whose header has a BOM or spaces is read', async () => {
		const { result } = await runNode(sim.url, sheetRows(`${LAST_YEAR}-03-31`), {
			...snapshotSpec({
				portfolioId: 'fund-y',
				portfolioName: 'Fund Y',
				snapshotDate: '={{ $json["Date "] }}',
				groupBy: '',
				holdingColumns: manualHoldingColumns(ROUTES.createSnapshot, {
					isin: '={{ $json.ISIN }}',
					name: '={{ $json.Name }}',
					instrument_type: '={{ $json.Type }}',
					currency: '={{ $json.Currency }}',
					weight: '={{ $json["Weight %"] }}',
					market_value: '={{ $json["Market Value"] }}',
				}),
			}),
			typeVersion: 2,
		});
		expect(result.error).toBeUndefined();
		const [body] = sim.requests({ route: 'POST /portfolios' }).map((r) => r.body as IDataObject);
		expect(body.holdings).toEqual([
			expect.objectContaining({ isin: makeIsin('US', 1), weight: 60, market_value: 600 }),
			expect.objectContaining({ isin: makeIsin('DE', 2), weight: 35, market_value: 350 }),
			expect.objectContaining({ isin: null, instrument_type: 'cash', weight: 5 }),
		]);
	});
});

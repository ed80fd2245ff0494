import type { IDataObject } from 'n8n-workflow';

import { ROUTES } from '../nodes/shared/api/routes';
import { makeIsin } from './simulator';
import { useSimulator } from './helpers/simulator';
import { manualHoldingColumns, snapshotSpec } from './helpers/workflows';
import { HOLDINGS_NODES, LAST_YEAR, descriptionOf, runNode, fullText } from './helpers/lookupRuns';
import type { HoldingsNode } from './helpers/lookupRuns';

/**
 * Rows as n8n's Extract From File gives them from a workbook (XLSX): date cells as Excel serials (numbers), number
 * cells as numbers, percent cells as fractions of 1; headers as the sheet has them (a byte-order mark, stray spaces).
 */
const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });
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

/** Two holdings of one portfolio as a sheet gives them, with the market values and currencies given. */
function holdingRows(
	marketValues: Array<string | number>,
	currencies: string[] = ['USD', 'EUR'],
): IDataObject[] {
	return marketValues.map((marketValue, index) => ({
		ISIN: ['US0378331005', 'NL0010273215', 'CH0038863350'][index],
		Name: `Holding ${index}`,
		Type: 'Stock',
		Currency: currencies[index % currencies.length],
		'Weight %': index === 0 ? 60 : 40 / (marketValues.length - 1),
		'Market Value': marketValue,
	}));
}

async function runHoldings(node: HoldingsNode, rows: IDataObject[]) {
	const { result } = await runNode(sim.url, rows, {
		type: node.type,
		parameters: { ...node.parameters },
	});
	const sent = sim
		.requests({ route: node.route })
		.map((request) => (request.body as { holdings: IDataObject[] }).holdings);
	return { result, sent };
}

const everyHoldingsNode = HOLDINGS_NODES.map((node) => [node.label, node] as const);

describe('holding currencies: ISO 4217, checked before any request (issue 35, case 7)', () => {
	it.each(everyHoldingsNode)(
		'%s: "EUE" (a typo of EUR) is refused naming the item, the field and the nearest code; nothing is sent',
		async (_label, node) => {
			const { result } = await runHoldings(node, holdingRows([600, 400], ['USD', 'EUE']));
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toContain('Currency "EUE" is not an ISO 4217 currency code');
			expect(descriptionOf(result.error)).toMatch(/^Did you mean EUR\? Correct the currency/);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it('a known code that is not ISO 4217 gets its ISO code and what to mind: GBX is pence', async () => {
		const { result } = await runHoldings(
			HOLDINGS_NODES[1],
			holdingRows([600, 400], ['GBX', 'EUR']),
		);
		expect(fullText(result.error)).toContain('Currency "GBX" is not an ISO 4217');
		expect(descriptionOf(result.error)).toContain('Use GBP: GBX is pence');
		expect(sim.requestCount()).toBe(0);
	});

	it("the portfolio's Currency parameter set by an expression to EUE suggests EUR too", async () => {
		const { result } = await runNode(
			sim.url,
			holdingRows([600, 400]).map((row) => ({
				...row,
				portfolio_id: 'fund-z',
				portfolio_name: 'Fund Z',
				date: `${LAST_YEAR}-03-31`,
			})),
			snapshotSpec({ currency: '={{ "EUE" }}' }),
		);
		expect(fullText(result.error)).toContain('Currency "EUE" is not an ISO 4217 currency code');
		expect(descriptionOf(result.error)).toMatch(/^Did you mean EUR\? Use a code such as/);
		expect(sim.requestCount()).toBe(0);
	});

	it('every code of ISO 4217 list one is sent, in any case: a gold position in xau', async () => {
		const { result, sent } = await runHoldings(
			HOLDINGS_NODES[1],
			holdingRows([600, 400], ['xau', 'EUR']),
		);
		expect(result.error).toBeUndefined();
		expect(sent.flat().map((holding) => holding.currency)).toEqual(['XAU', 'EUR']);
	});
});

describe('numbers in scientific notation and lakh groups (issue 35, case 7)', () => {
	it.each(everyHoldingsNode)(
		'%s: 1.23E+05 does not settle the column, so 2.500 (2,500 in a German sheet) is refused, not sent as 2.5',
		async (_label, node) => {
			const { result, sent } = await runHoldings(node, holdingRows(['1.23E+05', '2.500']));
			expect(result.status).toBe('error');
			expect(fullText(result.error)).toContain(
				'Market value "2.500" reads two ways: 2500 (written 1.234,56) or 2.5 (written 1,234.56), and no other value of the column tells which',
			);
			expect(descriptionOf(result.error)).toContain('Set Number Format (under Options)');
			expect(sent).toEqual([]);
		},
	);

	it.each(everyHoldingsNode)(
		'%s: German 1,23E+05 and Indian 12,34,567.00 are read as written',
		async (_label, node) => {
			const german = await runHoldings(node, holdingRows(['1,23E+05', '2.500', '1.234,50']));
			expect(german.result.error).toBeUndefined();
			expect(german.sent.flat().map((holding) => holding.market_value)).toEqual([
				123000, 2500, 1234.5,
			]);
			sim.reset();
			const indian = await runHoldings(node, holdingRows(['12,34,567.00', '2,500.75']));
			expect(indian.result.error).toBeUndefined();
			expect(indian.sent.flat().map((holding) => holding.market_value)).toEqual([1234567, 2500.75]);
		},
	);

	it('a value no format writes is refused saying what was seen, before any request', async () => {
		const { result } = await runHoldings(HOLDINGS_NODES[1], holdingRows(['12,34,56', '100']));
		expect(fullText(result.error)).toContain(
			'Market value "12,34,56" is not a number: its digits are not in groups of three',
		);
		expect(descriptionOf(result.error)).toMatch(/Give the market value as a number/);
		const mixed = await runHoldings(HOLDINGS_NODES[1], holdingRows(['1.234,5E+03', '100']));
		expect(fullText(mixed.result.error)).toContain(
			'is not a number: the part before the E ("1.234,5") is not one number',
		);
		expect(sim.requestCount()).toBe(0);
	});
});

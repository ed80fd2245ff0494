/**
 * What the forms say before the run (issue 36 item 2): the fields a run cannot do without carry n8n's own `required`
 * (the editor marks them and refuses to start without them), no required field's grey example text reads like a
 * value, and the notice above the holdings says what the route reads, what every row needs and what may be missing.
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { EuTaxonomy } from '../nodes/EuTaxonomy/EuTaxonomy.node';
import { PortfolioSnapshots } from '../nodes/PortfolioSnapshots/PortfolioSnapshots.node';
import { SustainabilityInstruments } from '../nodes/SustainabilityInstruments/SustainabilityInstruments.node';
import { SustainabilityReports } from '../nodes/SustainabilityReports/SustainabilityReports.node';
import { SustainableInvestments } from '../nodes/SustainableInvestments/SustainableInvestments.node';
import { TemperatureScore } from '../nodes/TemperatureScore/TemperatureScore.node';
import { ROUTES } from '../nodes/shared/api/routes';
import type { HoldingsRoute } from '../nodes/shared/api/routes';
import { HOLDING_FIELDS } from '../nodes/shared/input/holdingFields';
import { instrumentTypeWhenNoneProperty } from '../nodes/shared/ui/instrumentTypeWhenNone';

const NODES: Record<string, INodeType> = {
	sustainabilityInstruments: new SustainabilityInstruments(),
	sustainableInvestments: new SustainableInvestments(),
	euTaxonomy: new EuTaxonomy(),
	temperatureScore: new TemperatureScore(),
	sustainabilityReports: new SustainabilityReports(),
	portfolioSnapshots: new PortfolioSnapshots(),
};

/** The properties of `node` shown for `operation` (those without an operation condition count for every one). */
function propertiesOf(node: string, operation: string): INodeProperties[] {
	return NODES[node].description.properties.filter((property) => {
		const operations = property.displayOptions?.show?.operation;
		return !operations || operations.includes(operation);
	});
}

/**
 * Per operation, the parameters a run cannot do without (an empty one stops the run before any request): written
 * out here from the operations' readers, so that a field losing its mark shows as a failure.
 */
const CANNOT_RUN_WITHOUT: Array<[string, string, string[]]> = [
	['sustainabilityInstruments', 'getSfdrClassification', ['isinList', 'isinField']],
	['sustainabilityInstruments', 'getPaiIndicators', ['isinList', 'isinField']],
	['sustainabilityInstruments', 'getBusinessInvolvements', ['isinList', 'isinField']],
	['sustainabilityInstruments', 'getEsgData', ['isinList', 'isinField']],
	['sustainableInvestments', 'classifyHoldings', ['methodology', 'holdingColumns']],
	['euTaxonomy', 'getPortfolioAlignment', ['holdingColumns']],
	['temperatureScore', 'getPortfolioTemperature', ['holdingColumns']],
	[
		'sustainabilityReports',
		'generatePdfReport',
		['reportName', 'reportId', 'holdingColumns', 'binaryPropertyName'],
	],
	[
		'portfolioSnapshots',
		'createOrUpdateSnapshot',
		['portfolioId', 'portfolioName', 'snapshotDate', 'holdingColumns'],
	],
	['portfolioSnapshots', 'update', ['portfolio']],
	['portfolioSnapshots', 'deleteSnapshot', ['portfolio', 'snapshotDate']],
];

describe("required fields carry n8n's own mark", () => {
	it.each(CANNOT_RUN_WITHOUT)('%s > %s: %j are required', (node, operation, names) => {
		const properties = propertiesOf(node, operation);
		for (const name of names) {
			const marked = properties.filter((property) => property.name === name);
			expect([name, marked.length > 0]).toEqual([name, true]);
			expect([name, marked.every((property) => property.required === true)]).toEqual([name, true]);
		}
	});

	it('no required field shows grey example text that reads like a value: each placeholder starts with "e.g."', () => {
		const unmarked: string[] = [];
		for (const [node, type] of Object.entries(NODES))
			for (const property of type.description.properties)
				if (
					property.required &&
					property.type === 'string' &&
					property.placeholder &&
					property.placeholder !== property.default &&
					!property.placeholder.startsWith('e.g.')
				)
					unmarked.push(`${node}.${property.name}: ${JSON.stringify(property.placeholder)}`);
		expect(unmarked).toEqual([]);
	});
});

const HOLDINGS_OPERATIONS: Array<[string, string, HoldingsRoute]> = [
	['sustainableInvestments', 'classifyHoldings', ROUTES.sustainableInvestments],
	['euTaxonomy', 'getPortfolioAlignment', ROUTES.taxonomy],
	['temperatureScore', 'getPortfolioTemperature', ROUTES.temperature],
	['sustainabilityReports', 'generatePdfReport', ROUTES.reports],
	['portfolioSnapshots', 'createOrUpdateSnapshot', ROUTES.createSnapshot],
];

describe('the notice above the holdings says what the route needs, before the run', () => {
	it.each(HOLDINGS_OPERATIONS)('%s > %s', (node, operation, route) => {
		const notices = propertiesOf(node, operation).filter(
			(property) => property.type === 'notice' && /holding/i.test(property.name),
		);
		// One per version and source: version 1, version 2 with Holdings (JSON), version 2 with the column mapper.
		expect(notices.map((notice) => notice.name).sort()).toEqual([
			'holdingColumnsNotice',
			'holdingsJsonNotice',
			'holdingsNotice',
		]);
		const derived = route.holdings.derivedWhenMissing ?? {};
		const needed = route.holdings.required
			.filter((field) => derived[field] === undefined)
			.map((field) => HOLDING_FIELDS[field].title);
		for (const notice of notices) {
			const text = notice.displayName;
			expect(text).toContain('every row needs');
			const needs = text.slice(text.indexOf('every row needs')).split('.')[0];
			for (const title of needed) expect([title, needs.includes(title)]).toEqual([title, true]);
			for (const [field, how] of Object.entries(derived)) {
				expect(text).toContain(
					`${HOLDING_FIELDS[field as keyof typeof HOLDING_FIELDS].title} may be missing: ${how}`,
				);
				expect(needs).not.toContain(HOLDING_FIELDS[field as keyof typeof HOLDING_FIELDS].title);
			}
		}
		const mapper = notices.find((notice) => notice.name === 'holdingColumnsNotice')!;
		expect(mapper.displayName).toContain('starts from the columns found');
		expect(mapper.displayName).toContain("n8n's note below");
	});

	it('Generate PDF Report: weights may be derived from market values, EU Taxonomy: the instrument type names the field that gives it', () => {
		expect(ROUTES.reports.holdings.derivedWhenMissing?.weight).toMatch(/Market Value/);
		expect(ROUTES.taxonomy.holdings.derivedWhenMissing?.instrument_type).toContain(
			instrumentTypeWhenNoneProperty.displayName,
		);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { join } from 'path';

import type { IDataObject, ILoadOptionsFunctions, INodeType } from 'n8n-workflow';

import { EuTaxonomy } from '../nodes/EuTaxonomy/EuTaxonomy.node';
import { PortfolioSnapshots } from '../nodes/PortfolioSnapshots/PortfolioSnapshots.node';
import { SustainabilityReports } from '../nodes/SustainabilityReports/SustainabilityReports.node';
import { SustainableInvestments } from '../nodes/SustainableInvestments/SustainableInvestments.node';
import { TemperatureScore } from '../nodes/TemperatureScore/TemperatureScore.node';
import { INSTRUMENT_TYPES } from '../nodes/shared/base/constants';
import fc from 'fast-check';

import {
	HOLDING_COLUMNS_METHOD,
	HOLDING_COLUMNS_SEEN,
	plainFieldReference,
} from '../nodes/shared/input/holdingColumns';
import { FieldResolver, HOLDING_FIELDS, HOLDING_KEYS } from '../nodes/shared/input/holdingFields';
import type { HoldingKey } from '../nodes/shared/api/holdingKey';
import { holdingMapperFields } from '../nodes/shared/run/methods';
import SAMPLE from '../examples/holdings.sample.json';
import { useSimulator } from './helpers/simulator';
import { bracketed, credentialsFor, manualHoldingColumns } from './helpers/workflows';
import { HOLDINGS_NODES, descriptionOf, runNode } from './helpers/lookupRuns';
import type { HoldingsNode } from './helpers/lookupRuns';
import { loadWorkflowFile, runWorkflow } from './workflow/runner';
import type { RouteKey } from './simulator';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

/** Each holdings node with its node type (for its resourceMapping method). */
const HOLDINGS_NODE_TYPES: Record<string, INodeType> = {
	sustainableInvestments: new SustainableInvestments(),
	euTaxonomy: new EuTaxonomy(),
	temperatureScore: new TemperatureScore(),
	sustainabilityReports: new SustainabilityReports(),
	portfolioSnapshots: new PortfolioSnapshots(),
};

const byLabel = (label: string) => HOLDINGS_NODES.find((node) => node.label === label)!;

async function run(
	rows: IDataObject[],
	node: HoldingsNode,
	typeVersion: number,
	parameters: IDataObject = {},
) {
	const { result } = await runNode(sim.url, rows, {
		type: node.type,
		typeVersion,
		parameters: { ...node.parameters, ...parameters },
	});
	// What differs between two runs of the same request: the report's identifiers and link, the time waited.
	const out = result.items('Node').map(({ json }) => {
		const rest = { ...json };
		for (const key of ['identifier', 'location_url', 'request_id', 'waited_seconds'])
			delete rest[key];
		return rest;
	});
	return { ...result, out };
}

const bodies = (route: RouteKey) => sim.requests({ route }).map((request) => request.body);

describe('Holding Columns (version 2): Map Automatically', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s: the sample holdings give the same request and output as version 1',
		async (_label, node) => {
			const v1 = await run(SAMPLE, node, 1);
			expect(v1.error).toBeUndefined();
			const v1Bodies = bodies(node.route);
			expect(v1Bodies.length).toBeGreaterThan(0);
			sim.reset();
			const v2 = await run(SAMPLE, node, 2);
			expect(v2.error).toBeUndefined();
			expect(bodies(node.route)).toEqual(v1Bodies);
			expect(v2.out).toEqual(v1.out);
		},
	);

	it('a column no usual header matches is reported with the way to map it', async () => {
		const node = byLabel('EU Taxonomy');
		const { error } = await run(
			[{ ISIN: 'US0378331005', Name: 'Apple', Type: 'Stock', 'Position (EUR)': 100 }],
			node,
			2,
		);
		expect(error?.message).toContain('The market value is missing (looked for a column');
		expect(descriptionOf(error)).toContain(
			'set Mapping Column Mode to "Map Each Column Manually" and map Market Value',
		);
		expect(bodies(node.route)).toHaveLength(0);
	});
});

/** Columns no usual header matches: only a manual mapping finds them. */
const RENAMED_ROWS: IDataObject[] = [
	{
		'Security ISIN Code': 'US0378331005',
		'Holding Title': 'Apple Inc.',
		Kind: 'Stock',
		Ccy: 'usd',
		'Share (%)': '12.5%',
		'Market Value (EUR)': '1,234.50',
		mv: 1.2345,
	},
	{
		'Security ISIN Code': 'IE00B4L5Y983',
		'Holding Title': 'iShares Core MSCI World',
		Kind: 'Mutual Fund',
		Ccy: 'EUR',
		'Share (%)': 87.5,
		'Market Value (EUR)': 8640,
		mv: 8.64,
	},
];

const DRAGGED = {
	isin: '={{ $json["Security ISIN Code"] }}',
	name: "={{ $json['Holding Title'] }}",
	instrument_type: '={{ $json.Kind }}',
	currency: '={{ $json.Ccy }}',
	weight: '={{ $json["Share (%)"] }}',
	market_value: '={{ $json["Market Value (EUR)"] }}',
};

const EXPECTED_HOLDINGS = [
	{
		isin: 'US0378331005',
		name: 'Apple Inc.',
		instrument_type: 'stock',
		currency: 'USD',
		weight: 12.5,
		market_value: 1234.5,
	},
	{
		isin: 'IE00B4L5Y983',
		name: 'iShares Core MSCI World',
		instrument_type: 'mutual-fund',
		currency: 'EUR',
		weight: 87.5,
		market_value: 8640,
	},
];

describe('Holding Columns (version 2): Map Each Column Manually', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s: dragged columns with other names send the holdings, "12.5%%" and "Mutual Fund" included',
		async (_label, node) => {
			await run(RENAMED_ROWS, node, 2);
			const automatic = bodies(node.route) as Array<{ holdings: IDataObject[] }>;
			expect(automatic.map((body) => body.holdings)).not.toContainEqual(EXPECTED_HOLDINGS);
			sim.reset();

			const { error } = await run(RENAMED_ROWS, node, 2, {
				holdingColumns: manualHoldingColumns(node.holdingsRoute, DRAGGED),
			});
			expect(error).toBeUndefined();
			const [body] = bodies(node.route) as Array<{ holdings: IDataObject[] }>;
			expect(body.holdings).toEqual(EXPECTED_HOLDINGS);
		},
	);

	it('a computed expression is evaluated for each item', async () => {
		const node = byLabel('Sustainability Reports');
		const { error } = await run(RENAMED_ROWS, node, 2, {
			holdingColumns: manualHoldingColumns(node.holdingsRoute, {
				...DRAGGED,
				market_value: '={{ $json.mv * 1000 }}',
				currency: 'EUR',
			}),
		});
		expect(error).toBeUndefined();
		const [body] = bodies(node.route) as Array<{ holdings: IDataObject[] }>;
		expect(body.holdings.map((holding) => holding.market_value)).toEqual([1234.5, 8640]);
		expect(body.holdings.map((holding) => holding.currency)).toEqual(['EUR', 'EUR']);
	});

	it('plain column references (read from the item) and evaluated expressions give the same requests and output', async () => {
		for (const node of HOLDINGS_NODES) {
			sim.reset();
			const direct = await run(RENAMED_ROWS, node, 2, {
				holdingColumns: manualHoldingColumns(node.holdingsRoute, DRAGGED),
			});
			const directBodies = bodies(node.route);
			sim.reset();
			// The same columns behind brackets: no longer a plain reference, so n8n evaluates each one.
			const evaluated = await run(RENAMED_ROWS, node, 2, {
				holdingColumns: manualHoldingColumns(node.holdingsRoute, bracketed(DRAGGED)),
			});
			expect(evaluated.error).toBeUndefined();
			expect(directBodies.length).toBeGreaterThan(0);
			expect(bodies(node.route)).toEqual(directBodies);
			expect(evaluated.out).toEqual(direct.out);
		}
	});

	it('a required field mapped to an empty column stops before any request, naming the item and the field', async () => {
		const node = byLabel('EU Taxonomy');
		const rows = [RENAMED_ROWS[0], { ...RENAMED_ROWS[1], 'Market Value (EUR)': '' }];
		const { error } = await run(rows, node, 2, {
			holdingColumns: manualHoldingColumns(node.holdingsRoute, DRAGGED),
		});
		expect(error?.message).toBe(
			'The market value is missing (Market Value is mapped to {{ $json["Market Value (EUR)"] }}, which is empty for this item)',
		);
		expect(descriptionOf(error)).toBe(
			'Fill in the market value where it is empty. Nothing was sent.',
		);
		expect(sim.requests()).toHaveLength(0);
	});

	it('a required field left unmapped is refused by n8n before the node runs', async () => {
		const node = byLabel('Sustainable Investments');
		const withoutName: IDataObject = { ...DRAGGED };
		delete withoutName.name;
		await expect(
			run(RENAMED_ROWS, node, 2, {
				holdingColumns: manualHoldingColumns(node.holdingsRoute, withoutName),
			}),
		).rejects.toThrow('Holding field "name" is required');
		expect(sim.requests()).toHaveLength(0);
	});

	it('a weight that is not a number is refused with the message of today, naming the item', async () => {
		const node = byLabel('Sustainability Reports');
		const rows = [RENAMED_ROWS[0], { ...RENAMED_ROWS[1], 'Share (%)': 'n/a' }];
		const { error } = await run(rows, node, 2, {
			holdingColumns: manualHoldingColumns(node.holdingsRoute, DRAGGED),
		});
		expect(error?.message).toBe('Weight "n/a" is not a number');
		expect(sim.requests()).toHaveLength(0);
	});
});

describe('Holding Columns (version 2): Options', () => {
	it('Invalid ISINs and Cash and Rows Without ISIN are read under Options', async () => {
		const node = byLabel('EU Taxonomy');
		const rows = [
			{ ISIN: 'US0378331005', Name: 'Apple', Type: 'Stock', 'Market Value': 100 },
			{ ISIN: 'US0378331006', Name: 'Typo', Type: 'Stock', 'Market Value': 5 },
			{ ISIN: '', Name: 'Private loan', Type: 'other', 'Market Value': 5 },
		];
		const refused = await run(rows, node, 2, {
			options: { cashRows: 'error', invalidIsins: 'skip' },
		});
		expect(refused.error?.message).toBe('This row has no ISIN and cannot be sent to this route');
		expect(descriptionOf(refused.error)).toBe(
			'Remove cash and rows without an ISIN from the input, or set Options > Cash and Rows Without ISIN to Skip and Report. Nothing was sent.',
		);
		sim.reset();
		const { error, out } = await run(rows, node, 2, { options: { invalidIsins: 'skip' } });
		expect(error).toBeUndefined();
		expect(out[0].removed_rows).toEqual([
			expect.objectContaining({ item: 1, reason: expect.stringContaining('invalid ISIN') }),
			expect.objectContaining({ item: 2, reason: 'no ISIN' }),
		]);
	});
});

describe('Holding Columns (version 2): Max Wait When Throttled under Options', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s: 0 fails at once on a 503, where version 1 (no such option, 120 s) tries again',
		async (_label, node) => {
			sim.setFaults(node.route, { sequence: ['503'] });
			const atOnce = await run(SAMPLE, node, 2, {
				options: { maxThrottleWait: 0 },
			});
			expect(atOnce.error).toBeDefined();
			expect(sim.requestCount({ route: node.route })).toBe(1);

			sim.reset();
			sim.setFaults(node.route, { sequence: ['503'] });
			const retried = await run(SAMPLE, node, 1);
			expect(retried.error).toBeUndefined();
			expect(sim.requestCount({ route: node.route })).toBe(2);
		},
	);
});

describe('Holding Columns: the resourceMapping method', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s: six typed fields, required where its route requires them and cannot derive them',
		async (_label, node) => {
			const method =
				HOLDINGS_NODE_TYPES[node.type].methods?.resourceMapping?.[HOLDING_COLUMNS_METHOD];
			expect(method).toBeDefined();
			const { fields } = await method!.call({} as ILoadOptionsFunctions);
			expect(fields.map((field) => [field.id, field.type, field.required])).toEqual(
				(
					[
						['isin', 'string'],
						['name', 'string'],
						['instrument_type', 'options'],
						['currency', 'string'],
						['weight', 'number'],
						['market_value', 'number'],
					] as const
				).map(([id, type]) => [
					id,
					type,
					(node.holdingsRoute.holdings.required as string[]).includes(id) &&
						!(id in (node.holdingsRoute.holdings.derivedWhenMissing ?? {})),
				]),
			);
			expect(fields.every((field) => field.display && !field.defaultMatch)).toBe(true);
			expect(fields[2].options?.map((option) => option.value)).toEqual([...INSTRUMENT_TYPES]);
			expect(fields[2].options?.find((option) => option.value === 'mutual-fund')?.name).toBe(
				'Mutual Fund',
			);
		},
	);

	it('takes what the editor writes for a dragged column as a plain reference, and nothing else', () => {
		expect(plainFieldReference('={{ $json.ISIN }}')).toBe('ISIN');
		expect(plainFieldReference('={{ $json["Market Value (EUR)"] }}')).toBe('Market Value (EUR)');
		expect(plainFieldReference("={{$json['Weight %']}}")).toBe('Weight %');
		for (const other of [
			'{{ $json.ISIN }}',
			'={{ $json.mv * 1000 }}',
			'={{ $json.a.b }}',
			'={{ $json["a"].b }}',
			'={{ $("Sheet").item.json.ISIN }}',
			'={{ $json.ISIN }} ',
			'=ISIN {{ $json.ISIN }}',
			'={{ $json["a\\"b"] }}',
			12,
		]) {
			expect([other, plainFieldReference(other)]).toEqual([other, undefined]);
		}
	});
});

/** The mapper's fields as the editor asks for them, the input's first item resolved into Holding Columns Seen. */
async function mapperFields(node: HoldingsNode, headers: unknown) {
	const method = HOLDINGS_NODE_TYPES[node.type].methods?.resourceMapping?.[HOLDING_COLUMNS_METHOD];
	const context = {
		getCurrentNodeParameter: (name: string) =>
			name === HOLDING_COLUMNS_SEEN ? headers : undefined,
	} as unknown as ILoadOptionsFunctions;
	return (await method!.call(context)).fields;
}

describe('Map Each Column Manually starts from what Map Automatically found (issue 36 item 3)', () => {
	it.each(HOLDINGS_NODES.map((node) => [node.label, node] as const))(
		'%s: the fields come pre-filled with the columns found, and that mapping sends what Map Automatically sends',
		async (_label, node) => {
			const fields = await mapperFields(node, Object.keys(SAMPLE[0]));
			expect(Object.fromEntries(fields.map((field) => [field.id, field.defaultValue]))).toEqual({
				isin: '={{ $json.ISIN }}',
				name: '={{ $json.Name }}',
				instrument_type: '={{ $json.Type }}',
				currency: '={{ $json.Currency }}',
				weight: '={{ $json["Weight %"] }}',
				market_value: '={{ $json["Market Value"] }}',
			});
			const auto = await run(SAMPLE, node, 2);
			expect(auto.error).toBeUndefined();
			const autoBodies = bodies(node.route);
			sim.reset();
			// What the editor saves once the mapper has filled Map Each Column Manually from the defaults.
			const prefilled = Object.fromEntries(fields.map((field) => [field.id, field.defaultValue]));
			const manual = await run(SAMPLE, node, 2, {
				holdingColumns: manualHoldingColumns(node.holdingsRoute, prefilled),
			});
			expect(manual.error).toBeUndefined();
			expect(bodies(node.route)).toEqual(autoBodies);
			expect(manual.out).toEqual(auto.out);
		},
	);

	it('without the input (nothing run yet, or not resolved by the editor) the fields start empty, as n8n fills them', async () => {
		for (const headers of [undefined, null, '={{ Object.keys($json) }}', [], [12, {}]]) {
			const fields = await mapperFields(HOLDINGS_NODES[0], headers);
			expect(fields.filter((field) => field.defaultValue !== undefined)).toEqual([]);
		}
	});

	it('property: any spelling of the usual headers gives each field its column, as a reference the node reads from the item', () => {
		// As a sheet may write a usual header: any case, a separator inside it, spaces around it.
		const spelled = (alias: string) =>
			fc
				.tuple(
					fc.constantFrom('', ' ', '_', '-'),
					fc.nat({ max: alias.length }),
					fc.boolean(),
					fc.constantFrom('', ' '),
				)
				.map(([joiner, at, upper, pad]) => {
					const word = `${alias.slice(0, at)}${joiner}${alias.slice(at)}`;
					return `${pad}${upper ? word.toUpperCase() : word}${pad}`;
				});
		fc.assert(
			fc.property(
				fc.record(
					Object.fromEntries(
						HOLDING_KEYS.map((field) => [
							field,
							fc.option(fc.constantFrom(...HOLDING_FIELDS[field].headers).chain(spelled), {
								nil: undefined,
							}),
						]),
					) as Record<HoldingKey, fc.Arbitrary<string | undefined>>,
				),
				fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
				fc.constantFrom(...HOLDINGS_NODES),
				(chosen, others, node) => {
					const headers = [...Object.values(chosen).filter((h): h is string => !!h), ...others];
					const found = new FieldResolver().resolve(
						Object.fromEntries(headers.map((header) => [header, 1])),
					);
					const expressions = Object.fromEntries(
						holdingMapperFields(node.holdingsRoute, headers)
							.filter((field) => field.defaultValue !== undefined)
							.map((field) => [field.id, field.defaultValue as string]),
					);
					expect(Object.keys(expressions).sort()).toEqual(Object.keys(found).sort());
					for (const [field, header] of Object.entries(found)) {
						const expression = expressions[field as HoldingKey]!;
						// A header with a double quote or backslash is still read, by n8n evaluating it per item.
						if (!/["\\]/.test(header)) expect(plainFieldReference(expression)).toBe(header);
						else expect(expression).toBe(`={{ $json[${JSON.stringify(header)}] }}`);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('saved workflows: version 1 keeps running, version 2 sends the same', () => {
	const examples = join(__dirname, '..', 'examples');
	const fixtures = join(__dirname, 'e2e', 'fixtures');
	const runFile = (path: string) =>
		runWorkflow(loadWorkflowFile(path), { credentials: credentialsFor(sim.url) });
	const holdingsRequests = () =>
		sim
			.requests()
			.filter((request) => HOLDINGS_NODES.some((node) => node.route === request.route))
			.map((request) => [request.route, request.body]);

	it.each([
		'02-snapshot-history.json',
		'03-quarterly-report-email.json',
		'04-taxonomy-and-sustainable-investments.json',
		'05-temperature-score.json',
	])(
		'%s: the example (version 2), its version 1 as saved before and its Map Each Column Manually fixture send the same holdings',
		async (example) => {
			const sent: unknown[] = [];
			for (const path of [
				join(examples, example),
				join(fixtures, `holdings-v1-${example.slice(3)}`),
				join(fixtures, `holdings-v2-${example.slice(3)}`),
			]) {
				sim.reset();
				const result = await runFile(path);
				expect([path, result.error]).toEqual([path, undefined]);
				sent.push(holdingsRequests());
			}
			expect((sent[0] as unknown[]).length).toBeGreaterThan(0);
			expect(sent[1]).toEqual(sent[0]);
			expect(sent[2]).toEqual(sent[0]);
		},
	);
});

describe('Holdings (JSON) in version 2', () => {
	it('a missing field names the JSON entries, not a Holding Fields setting version 2 does not show', async () => {
		const node = byLabel('EU Taxonomy');
		const { error } = await run([{}], node, 2, {
			holdingsSource: 'json',
			holdingsJson: JSON.stringify([
				{ isin: 'US0378331005', name: 'Apple', instrument_type: 'stock' },
			]),
		});
		expect(error?.message).toMatch(/the market value is missing \(looked for a field named /);
		expect(descriptionOf(error)).toBe(
			'Fill in the market value for this row, or check the "market_value" field of each entry of Holdings (JSON). Nothing was sent.',
		);
		expect(sim.requests()).toHaveLength(0);
	});
});

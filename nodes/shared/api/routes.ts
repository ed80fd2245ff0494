import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	COUNT,
	NOT_NEGATIVE,
	PERCENT,
	allOf,
	anyValue,
	bool,
	listOf,
	nonEmptyText,
	numeric,
	numericText,
	object,
	oneOf,
	orNull,
	text,
} from './answerShapes';
import type { AnswerContract, AnswerShape, DomainRule, NumberDomain } from './answerShapes';
import type { HoldingKey } from './holdingKey';

/** What the node does on 504: instruments lookups split the batch; the rest can only ask for fewer holdings. */
export type TimeoutPolicy = 'split-batch' | 'fewer-holdings' | 'retry-later';

/**
 * What to do when a request may have reached the API but no readable answer came (connection dropped after sending,
 * client timeout, an answer cut short, not HTTP or not decompressible, a proxy's 502 page). A request that never
 * reached it (refused connection, unknown host, failed secure connection) is sent again on every route.
 * - `send-again`: reads, and routes that only compute an answer (or set the same values again): nothing changes
 *   if the API gets it twice.
 * - `check-snapshot-stored`: POST /portfolios. GET /portfolios shows whether a snapshot is stored at that quarter end
 *   (settle.ts); the request is then sent again, which stores the same holdings again.
 * - `check-snapshot-deleted`: DELETE /portfolios/{identifier}. GET /portfolios shows whether the snapshot or
 *   portfolio is gone; only if it is still there is the DELETE sent again.
 * - `report-uncertain`: nothing can tell what happened; the request is not sent again and the error says so.
 */
export type UncertainOutcomePolicy =
	| 'send-again'
	| 'check-snapshot-stored'
	| 'check-snapshot-deleted'
	| 'report-uncertain';

/**
 * What a route that takes holdings needs of each one; readHoldings checks it all before a request is spent.
 */
export interface HoldingsRule {
	/** Fields every holding sent must carry. */
	required: HoldingKey[];
	/** A row without an ISIN cannot be sent: it is taken out (or refused, per Cash and Rows Without ISIN). */
	needsIsin: boolean;
	/** Cash rows are taken out (or refused) even when they carry an ISIN: the API says cash rows must be removed. */
	refusesCash: boolean;
	/** An instrument type the API does not know is sent as given: the route skips such holdings itself (unless the ISIN is a fund). */
	sendsUnknownTypes: boolean;
	/** A market value of 0 is refused: a stored snapshot needs a non-zero market value for every holding. */
	needsNonZeroMarketValue: boolean;
	/**
	 * Weights the route needs are worked out from market values when no row gives one (market value ÷ total × 100,
	 * as the API does on the temperature route), with a note; a mix of given and missing weights is refused.
	 */
	weightsFromMarketValues?: boolean;
	/** What the route does with a field, said where its column is chosen (Holding Fields; version 2: the notice above Holding Columns). */
	fieldHints?: Partial<Record<HoldingKey, string>>;
	/**
	 * A required field the node can do without, and how it then gets it, said in the notice above the holdings (e.g.
	 * weights worked out from market values): never a silent guess.
	 */
	derivedWhenMissing?: Partial<Record<HoldingKey, string>>;
}

export interface ApiRoute {
	method: IHttpRequestMethods;
	/** Path, with `{identifier}` where a portfolio identifier goes. */
	path: string;
	/** Short name for messages and logs, e.g. "SFDR classification". */
	label: string;
	onTimeout: TimeoutPolicy;
	onUncertainOutcome: UncertainOutcomePolicy;
	/** For `report-uncertain`: what the request may have done, how to check it and what a run again costs. */
	uncertainAdvice?: string;
	/** For `report-uncertain`: what the request may have done, in the message itself ("the report may have been generated"). */
	uncertainOutcome?: string;
	/** The message when the gateway does not know the route (403 "Missing Authentication Token"), if not the usual one. */
	notServedMessage?: string;
	/**
	 * Retries of a 503 (or a proxy's page taken like one), when fewer than the transport's default: a request that
	 * costs more than a lookup (a report) is not asked for ten times.
	 */
	maxUnavailableRetries?: number;
	/**
	 * A request the API carries out (and charges for) as soon as it answers 2xx, whatever its body: what that did, in
	 * words ("the report was generated"). A 2xx is then never sent again in the execution, also when its body cannot
	 * be read, nor a 2xx page taken for a proxy's (answers.ts, transport.ts, Retry On Fail: retryMemory.ts).
	 */
	chargedOutcome?: string;
	/** The message on 504, if not the one of the route's `onTimeout`. */
	timeoutMessage?: string;
	/** The API's words (400) when it has nothing for the request: not an error of the input, a finding. */
	noDataAnswer?: string;
	/** For routes that take holdings: what each holding needs. */
	holdings?: HoldingsRule;
	/** What a success answer must hold (answers.ts reads every one against it). */
	answer: AnswerContract;
}

/** A route that takes holdings. */
export type HoldingsRoute = ApiRoute & { holdings: HoldingsRule };

type RouteFacts = Partial<Omit<ApiRoute, 'method' | 'path' | 'label' | 'onTimeout' | 'answer'>>;

function route<F extends RouteFacts>(
	method: IHttpRequestMethods,
	path: string,
	label: string,
	onTimeout: TimeoutPolicy,
	answer: AnswerContract,
	facts: F = {} as F,
): ApiRoute & F {
	return { method, path, label, onTimeout, onUncertainOutcome: 'send-again', answer, ...facts };
}

// ---------------------------------------------------------------------------------------------------------------
// Answer contracts. Objects may carry members not named here (the API adds fields); what is named must fit. The
// documented variants (vendor-docs-notes.md) are part of them: indicator values that are numbers, true/false or
// null with the unit left out, integers and decimals alike, the temperature answer with and without `data`.
// ---------------------------------------------------------------------------------------------------------------

const NUMBER_OR_NULL = orNull(numeric, 'a number or null');
const TEXT_OR_NULL = orNull(text, 'a text or null');
/** An indicator's or metric's value: a number, true/false or null. */
const MEASURE_VALUE = oneOf('a number, true/false or null', numeric, bool, { kind: 'null' });
/** `{value, unit}`; the unit may be left out. */
const MEASURE = orNull(
	object({ value: MEASURE_VALUE }, { unit: TEXT_OR_NULL }),
	'an object {value, unit} or null',
);
/** An SFDR classification: a number, or a whole number as text ("8"), read as a number (answers.readClassification). */
const CLASSIFICATION = oneOf('a number, a number as text, or null', numeric, numericText, {
	kind: 'null',
});
/** `sustainability_profile` of the SFDR and sustainable investments entries. */
const PROFILE = orNull(
	object({}, { classification: CLASSIFICATION, description: TEXT_OR_NULL }),
	'an object {classification, description} or null',
);
/** `metadata` of the instruments data entries: the ISIN is read (and counted when missing) by the entry check. */
const DATA_ENTRY_METADATA = object({}, { is_fund: orNull(bool, 'true/false or null') });

// ---------------------------------------------------------------------------------------------------------------
// Number domains (answerShapes.ts): what each route's numbers may be. Every number must also be finite and within
// MAX_MAGNITUDE. A number outside is set to null, named in the output and the run's hint, never summed (domains.ts).
// ---------------------------------------------------------------------------------------------------------------

/**
 * A temperature score in °C. The route uses short-term targets across scopes 1, 2 and 3 (the CDP-WWF / SBTi
 * temperature rating method, whose default score for a company without targets is 3.2 °C): a score below 1 °C is
 * below the warming already reached, and none of that method comes near 6 °C.
 */
const TEMPERATURE_SCORE: NumberDomain = { min: 1, max: 6, words: 'a temperature score, 1 to 6 °C' };
const YEAR: NumberDomain = { min: 1900, max: 2100, integer: true, words: 'a year, 1900 to 2100' };
/** The ESG total score: 0 to 300 (a public client of the same API, vendor-docs-notes.md). */
const ESG_TOTAL_SCORE: NumberDomain = { min: 0, max: 300, words: 'a score, 0 to 300' };
const SFDR_ARTICLE: NumberDomain = { oneOf: [6, 8, 9], words: 'an SFDR article: 6, 8 or 9' };

/** Names of emissions, footprints and intensities: never below 0. */
const EMISSIONS_NAME = /emission|footprint|intensity|co2|ghg/i;
/** Names of percentages and shares. */
const PERCENT_NAME = /percent|_%$|^share_|_share$/i;
/** Scores of the ESG and business-involvements routes (total_score has its own scale, above). */
const SCORE_NAME = /_score$/;

/** Rules of the instruments data routes, for the member named by `measure` under an entry's `sustainability_data`. */
function measureDomains(...measure: Array<string | RegExp>): DomainRule[] {
	const at = (name: string | RegExp) => ['data', '*', 'sustainability_data', name, ...measure];
	return [
		{ at: at('total_score'), domain: ESG_TOTAL_SCORE },
		{ at: at(EMISSIONS_NAME), domain: NOT_NEGATIVE },
		{ at: at(PERCENT_NAME), domain: PERCENT },
		{ at: at(SCORE_NAME), domain: NOT_NEGATIVE },
	];
}

function instrumentsContract(
	entry: AnswerShape,
	isin: string[],
	domains: DomainRule[],
): AnswerContract {
	return {
		shape: object({ data: listOf(entry) }),
		expected: '`data`, a list of instrument entries, each with its ISIN',
		entries: [{ at: ['data'], isin, words: 'instrument entries' }],
		domains,
	};
}

const MEASURES_CONTRACT = instrumentsContract(
	object(
		{ sustainability_data: orNull(object({}, {}, MEASURE), 'an object or null') },
		{
			metadata: DATA_ENTRY_METADATA,
		},
	),
	['metadata', 'isin'],
	measureDomains('value'),
);

const INVOLVEMENT = orNull(
	object({}, { weight: NUMBER_OR_NULL, count: NUMBER_OR_NULL }),
	'an object {weight, count} or null',
);
const BUSINESS_INVOLVEMENTS_CONTRACT = instrumentsContract(
	object(
		{
			sustainability_data: orNull(
				object(
					{},
					{ business_involvements: orNull(object({}, {}, INVOLVEMENT), 'an object or null') },
					oneOf('a number, true/false or null', numeric, bool, { kind: 'null' }),
				),
				'an object or null',
			),
		},
		{ metadata: DATA_ENTRY_METADATA },
	),
	['metadata', 'isin'],
	[
		...measureDomains(),
		{
			at: ['data', '*', 'sustainability_data', 'business_involvements', '*', 'weight'],
			domain: PERCENT,
		},
		{
			at: ['data', '*', 'sustainability_data', 'business_involvements', '*', 'count'],
			domain: COUNT,
		},
	],
);

/** A snapshot route's success message, under `metadata.message` (or, as some routes put it, at the top). */
const MESSAGE = oneOf(
	'a message under metadata.message',
	object({ metadata: object({ message: text }) }),
	object({ message: text }),
);

const SNAPSHOT_MESSAGE_CONTRACT: AnswerContract = {
	shape: allOf(object({}, { identifier: text }), MESSAGE),
	expected: 'the outcome as a message under `metadata.message`',
};

const TEMPERATURE_HOLDING = {
	temperature_score: NUMBER_OR_NULL,
	market_value: NUMBER_OR_NULL,
	aum: NUMBER_OR_NULL,
	target: NUMBER_OR_NULL,
	base_year: NUMBER_OR_NULL,
};
const TEMPERATURE_LISTS = /^(companies|funds)$/;
const TEMPERATURE_DOMAINS: DomainRule[] = [
	{
		at: ['data', 'portfolio', TEMPERATURE_LISTS, '*', 'temperature_score'],
		domain: TEMPERATURE_SCORE,
	},
	{ at: ['data', 'portfolio', TEMPERATURE_LISTS, '*', 'market_value'], domain: NOT_NEGATIVE },
	/** `aum` is the stored weight, 0 to 100 like every weight (spec 2.1). */
	{ at: ['data', 'portfolio', TEMPERATURE_LISTS, '*', 'aum'], domain: PERCENT },
	{ at: ['data', 'portfolio', TEMPERATURE_LISTS, '*', 'base_year'], domain: YEAR },
];
const TEMPERATURE_PORTFOLIO_MEMBERS = {
	companies: listOf(object({}, { ...TEMPERATURE_HOLDING, industry: TEXT_OR_NULL })),
	funds: listOf(object({}, TEMPERATURE_HOLDING)),
};
/** `portfolio` lists companies, funds or both; `job_metadata.is_lock` says whether it is still calculating. */
const TEMPERATURE_RESULT = object({
	portfolio: oneOf(
		'an object listing companies and funds',
		object(
			{ companies: TEMPERATURE_PORTFOLIO_MEMBERS.companies },
			{ funds: TEMPERATURE_PORTFOLIO_MEMBERS.funds, industries: listOf() },
		),
		object(
			{ funds: TEMPERATURE_PORTFOLIO_MEMBERS.funds },
			{ companies: TEMPERATURE_PORTFOLIO_MEMBERS.companies, industries: listOf() },
		),
	),
	job_metadata: object({ is_lock: bool }),
});

/** The holdings rule of the routes that compute from ISINs: every holding needs an ISIN, a name, a type and a market value. */
const ISIN_HOLDINGS: HoldingsRule = {
	required: ['isin', 'name', 'instrument_type', 'market_value'],
	needsIsin: true,
	refusesCash: false,
	sendsUnknownTypes: false,
	needsNonZeroMarketValue: false,
};

/** The routes whose nodes have Instrument Type When the Sheet Has None (nodes/shared/ui/instrumentTypeWhenNone.ts). */
const TYPE_WHEN_NONE = {
	instrument_type:
		'when no row gives one, every holding is sent as the type set in Instrument Type When the Sheet Has None (default Stock), and the output says so',
};

export const ROUTES = {
	sfdrClassification: route(
		'POST',
		'/instruments/sustainability-profile',
		'SFDR classification',
		'split-batch',
		instrumentsContract(
			object({ sustainability_profile: PROFILE }, { isin: anyValue }),
			['isin'],
			[{ at: ['data', '*', 'sustainability_profile', 'classification'], domain: SFDR_ARTICLE }],
		),
	),
	paiIndicators: route(
		'POST',
		'/instruments/sustainability-data',
		'PAI indicators',
		'split-batch',
		MEASURES_CONTRACT,
	),
	businessInvolvements: route(
		'POST',
		'/instruments/business-involvements',
		'business involvements',
		'split-batch',
		BUSINESS_INVOLVEMENTS_CONTRACT,
	),
	esgData: route('POST', '/instruments/esg-data', 'ESG data', 'split-batch', MEASURES_CONTRACT),
	sustainableInvestments: route(
		'POST',
		'/sustainable-investments/insights',
		'sustainable investments classification',
		'fewer-holdings',
		{
			shape: object({
				data: listOf(object({ sustainability_profile: PROFILE }, { isin: anyValue })),
			}),
			expected: '`data`, a list of the holdings sent, each with its ISIN and classification',
			entries: [{ at: ['data'], isin: ['isin'], words: 'holdings' }],
			domains: [{ at: ['data', '*', 'weight'], domain: PERCENT }],
		},
		{
			holdings: { ...ISIN_HOLDINGS, refusesCash: true, derivedWhenMissing: TYPE_WHEN_NONE },
		},
	),
	methodologies: route(
		'GET',
		'/sustainable-investments/methodologies',
		'list of methodologies',
		'retry-later',
		{
			shape: anyValue,
			expected:
				'a list of methodologies (records with an id and a name) or an object keyed by methodology id',
			reader: 'methodologies',
		},
	),
	taxonomy: route(
		'POST',
		'/taxonomy/insights',
		'EU Taxonomy alignment',
		'fewer-holdings',
		{
			shape: object({ data: object({}, {}, NUMBER_OR_NULL) }),
			expected: '`data`, an object of KPI percentages (numbers)',
			domains: [{ at: ['data', '*'], domain: PERCENT }],
		},
		{
			holdings: {
				...ISIN_HOLDINGS,
				refusesCash: true,
				derivedWhenMissing: TYPE_WHEN_NONE,
			},
			noDataAnswer: 'No data found for the given parameters',
		},
	),
	temperature: route(
		'POST',
		'/temperature-score/insights',
		'temperature score',
		'fewer-holdings',
		{
			shape: object({ data: TEMPERATURE_RESULT }),
			expected:
				'`portfolio` (its companies and funds) and `job_metadata.is_lock`, under `data` or at the top',
			variants: [
				{
					shape: TEMPERATURE_RESULT,
					wrapIn: 'data',
					words: 'portfolio and job_metadata at the top, without data (the vendor reference)',
				},
			],
			entries: [
				{ at: ['data', 'portfolio', 'companies'], isin: ['isin'], words: 'companies' },
				{ at: ['data', 'portfolio', 'funds'], isin: ['public_isin'], words: 'funds' },
			],
			domains: TEMPERATURE_DOMAINS,
		},
		{
			holdings: {
				...ISIN_HOLDINGS,
				sendsUnknownTypes: true,
				derivedWhenMissing: TYPE_WHEN_NONE,
				fieldHints: {
					currency:
						'Optional here: when a holding has no currency, none is sent and the API assumes EUR.',
					weight:
						'Optional here: if any holding has no weight or a weight of 0, the API works out all weights from market values.',
				},
			},
			notServedMessage:
				'The temperature score route is not available on this API address yet. The vendor has not opened it on production; ask them for an address that serves it.',
		},
	),
	reports: route(
		'POST',
		'/reports',
		'PDF report',
		'fewer-holdings',
		{
			shape: object(
				{ document: object({ location_url: nonEmptyText }, { request_id: TEXT_OR_NULL }) },
				{ metadata: object() },
			),
			expected: '`document.location_url`, the address of the PDF',
		},
		{
			holdings: {
				...ISIN_HOLDINGS,
				required: ['isin', 'name', 'currency', 'weight', 'market_value'],
				weightsFromMarketValues: true,
				derivedWhenMissing: {
					weight:
						'when the column is missing or empty in every row, the weights are worked out from Market Value, and the output says so',
				},
			},
			timeoutMessage:
				'The report took longer than the API allows (29 seconds). It may still have been generated, but it cannot be retrieved. Run again with fewer holdings.',
			onUncertainOutcome: 'report-uncertain',
			uncertainOutcome: 'the report may have been generated',
			chargedOutcome: 'the report was generated (and charged)',
			// At most 3 tries: a 503 means the report was not generated, but every try counts against the quota.
			maxUnavailableRetries: 2,
			uncertainAdvice:
				'The report may have been generated, and then it counts against the monthly quota like any request, but its download link never arrived and cannot be asked for again. It was not requested a second time. Running again generates a new report and costs one more request per report.',
		},
	),
	createSnapshot: route(
		'POST',
		'/portfolios',
		'portfolio snapshot',
		'fewer-holdings',
		{
			shape: allOf(object({ identifier: nonEmptyText }), MESSAGE),
			expected:
				"the stored portfolio's `identifier` and the outcome as a message under `metadata.message`",
			outcomes: {
				known: [
					{ pattern: /^Fund (created) successfully at (\d{4}-\d{2}-\d{2})/i, outcome: 'created' },
					{ pattern: /^Fund (updated) successfully at (\d{4}-\d{2}-\d{2})/i, outcome: 'updated' },
				],
			},
		},
		{
			holdings: {
				required: ['name', 'currency', 'market_value'],
				needsIsin: false,
				refusesCash: false,
				sendsUnknownTypes: false,
				needsNonZeroMarketValue: true,
			},
			onUncertainOutcome: 'check-snapshot-stored',
			chargedOutcome: 'the snapshot was stored',
		},
	),
	listPortfolios: route('GET', '/portfolios', 'list of portfolios', 'retry-later', {
		shape: object({
			data: object(
				{
					funds: listOf(
						object(
							{ identifier: nonEmptyText },
							{ name: TEXT_OR_NULL, snapshots: orNull(listOf(text), 'a list of dates or null') },
						),
					),
				},
				{ members: NUMBER_OR_NULL },
			),
		}),
		expected: '`data.funds`, a list of portfolios each with its identifier',
		domains: [{ at: ['data', 'members'], domain: COUNT }],
	}),
	updatePortfolio: route(
		'PUT',
		'/portfolios/{identifier}',
		'portfolio update',
		'retry-later',
		SNAPSHOT_MESSAGE_CONTRACT,
	),
	deleteSnapshot: route(
		'DELETE',
		'/portfolios/{identifier}',
		'snapshot deletion',
		'retry-later',
		{
			...SNAPSHOT_MESSAGE_CONTRACT,
			outcomes: {
				known: [
					{ pattern: /^Fund snapshot deleted successfully\.?$/i, outcome: 'snapshot_deleted' },
					{
						pattern: /^Fund deleted successfully( with all snapshots)?\.?$/i,
						outcome: 'portfolio_deleted',
					},
					{ pattern: /^Fund snapshot not found\.?$/i, outcome: 'not_found' },
				],
			},
		},
		{ onUncertainOutcome: 'check-snapshot-deleted' },
	),
} as const;

/** Whether a route takes some rows out (cash, no ISIN), so that the user chooses between removing and refusing them. */
export function removesRows(rule: HoldingsRule): boolean {
	return rule.needsIsin || rule.refusesCash;
}

/**
 * How a row of the PAI statement is computed from the PAI indicators route (POST /instruments/sustainability-data):
 * - `intensity`: the API gives a per-company figure xᵢ; Σ (current value of investment ᵢ / current value of all
 *   investments) × xᵢ.
 * - `share`: the API gives true/false; Σ current value of investments where true / current value of all investments,
 *   in %.
 * - `notFed`: the Regulation's formula needs data the API does not give (`missing` says what): no figure.
 */
export type PaiStatementFormula = 'intensity' | 'share' | 'notFed';

/** One metric row of Annex I Table 1 (Delegated Regulation (EU) 2022/1288), with the API indicators that feed it. */
export interface PaiStatementRow {
	pai: number;
	adverseSustainabilityIndicator: string;
	metric: string;
	/** The Annex's unit; the API's own unit is used when every holding gives the same one. */
	unit: string | null;
	formula: PaiStatementFormula;
	/** The API's indicator names read for this row (the spec's and the vendor's names). */
	apiIndicators: readonly string[];
	/** For `notFed`: what the formula needs that the API does not give. */
	missing?: string;
}

const EVIC_MISSING =
	"each investee company's enterprise value including cash (EVIC), which the API does not give; the Regulation divides each company's emissions by it (current value of investment / EVIC × emissions)";
const NOT_GIVEN = (data: string) => `${data}, which this API does not give`;

/**
 * Annex I, Table 1, in the Annex's order and wording, per metric row (PAI 1 has four). An API indicator name not
 * listed here comes out as an extra row marked unmapped, never dropped.
 */
export const PAI_STATEMENT_ROWS: readonly PaiStatementRow[] = [
	{
		pai: 1,
		adverseSustainabilityIndicator: 'GHG emissions',
		metric: 'Scope 1 GHG emissions',
		unit: 'tCO2e',
		formula: 'notFed',
		apiIndicators: ['scope_1_emissions'],
		missing: EVIC_MISSING,
	},
	{
		pai: 1,
		adverseSustainabilityIndicator: 'GHG emissions',
		metric: 'Scope 2 GHG emissions',
		unit: 'tCO2e',
		formula: 'notFed',
		apiIndicators: ['scope_2_emissions'],
		missing: EVIC_MISSING,
	},
	{
		pai: 1,
		adverseSustainabilityIndicator: 'GHG emissions',
		metric: 'Scope 3 GHG emissions',
		unit: 'tCO2e',
		formula: 'notFed',
		apiIndicators: [],
		missing: `each company's scope 3 emissions and ${EVIC_MISSING}`,
	},
	{
		pai: 1,
		adverseSustainabilityIndicator: 'GHG emissions',
		metric: 'Total GHG emissions',
		unit: 'tCO2e',
		formula: 'notFed',
		apiIndicators: [],
		missing: `each company's scope 3 emissions and ${EVIC_MISSING}`,
	},
	{
		pai: 2,
		adverseSustainabilityIndicator: 'Carbon footprint',
		metric: 'Carbon footprint',
		unit: 'tCO2e/EUR million invested',
		formula: 'intensity',
		apiIndicators: ['carbon_footprint'],
	},
	{
		pai: 3,
		adverseSustainabilityIndicator: 'GHG intensity of investee companies',
		metric: 'GHG intensity of investee companies',
		unit: 'tCO2e/EUR million revenue',
		formula: 'intensity',
		apiIndicators: ['ghg_intensity_investee_companies'],
	},
	{
		pai: 4,
		adverseSustainabilityIndicator: 'Exposure to companies active in the fossil fuel sector',
		metric: 'Share of investments in companies active in the fossil fuel sector',
		unit: '%',
		formula: 'share',
		apiIndicators: ['fossil_fuel_sector_exposure'],
	},
	{
		pai: 5,
		adverseSustainabilityIndicator: 'Share of non-renewable energy consumption and production',
		metric:
			'Share of non-renewable energy consumption and non-renewable energy production of investee companies from non-renewable energy sources compared to renewable energy sources, expressed as a percentage of total energy sources',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each company's energy consumption and production by source"),
	},
	{
		pai: 6,
		adverseSustainabilityIndicator: 'Energy consumption intensity per high impact climate sector',
		metric:
			'Energy consumption in GWh per million EUR of revenue of investee companies, per high impact climate sector',
		unit: 'GWh/EUR million revenue',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN(
			"each company's energy consumption, revenue and NACE high impact climate sector",
		),
	},
	{
		pai: 7,
		adverseSustainabilityIndicator: 'Activities negatively affecting biodiversity-sensitive areas',
		metric:
			'Share of investments in investee companies with sites/operations located in or near to biodiversity-sensitive areas where activities of those investee companies negatively affect those areas',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN('a flag per company for sites in or near biodiversity-sensitive areas'),
	},
	{
		pai: 8,
		adverseSustainabilityIndicator: 'Emissions to water',
		metric:
			'Tonnes of emissions to water generated by investee companies per million EUR invested, expressed as a weighted average',
		unit: 't/EUR million invested',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each company's emissions to water"),
	},
	{
		pai: 9,
		adverseSustainabilityIndicator: 'Hazardous waste and radioactive waste ratio',
		metric:
			'Tonnes of hazardous waste and radioactive waste generated by investee companies per million EUR invested, expressed as a weighted average',
		unit: 't/EUR million invested',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each company's hazardous and radioactive waste"),
	},
	{
		pai: 10,
		adverseSustainabilityIndicator:
			'Violations of UN Global Compact principles and Organisation for Economic Cooperation and Development (OECD) Guidelines for Multinational Enterprises',
		metric:
			'Share of investments in investee companies that have been involved in violations of the UNGC principles or OECD Guidelines for Multinational Enterprises',
		unit: '%',
		formula: 'share',
		apiIndicators: ['violations_un_global_compact'],
	},
	{
		pai: 11,
		adverseSustainabilityIndicator:
			'Lack of processes and compliance mechanisms to monitor compliance with UN Global Compact principles and OECD Guidelines for Multinational Enterprises',
		metric:
			'Share of investments in investee companies without policies to monitor compliance with the UNGC principles or OECD Guidelines for Multinational Enterprises or grievance/complaints handling mechanisms to address violations of the UNGC principles or OECD Guidelines for Multinational Enterprises',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN(
			"a flag per company for policies to monitor UNGC/OECD compliance (the vendor's un_global_compact_signatory, on the ESG route, is signatory status, not this)",
		),
	},
	{
		pai: 12,
		adverseSustainabilityIndicator: 'Unadjusted gender pay gap',
		metric: 'Average unadjusted gender pay gap of investee companies',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each company's unadjusted gender pay gap"),
	},
	{
		pai: 13,
		adverseSustainabilityIndicator: 'Board gender diversity',
		metric:
			'Average ratio of female to male board members in investee companies, expressed as a percentage of all board members',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each company's board composition"),
	},
	{
		pai: 14,
		adverseSustainabilityIndicator:
			'Exposure to controversial weapons (anti-personnel mines, cluster munitions, chemical weapons and biological weapons)',
		metric:
			'Share of investments in investee companies involved in the manufacture or selling of controversial weapons',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN(
			'a controversial weapons flag per company on this route (business involvements name no such category)',
		),
	},
	{
		pai: 15,
		adverseSustainabilityIndicator: 'GHG intensity',
		metric: 'GHG intensity of investee countries',
		unit: 'tCO2e/EUR million GDP',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN("each investee country's GHG emissions and GDP (sovereign data)"),
	},
	{
		pai: 16,
		adverseSustainabilityIndicator: 'Investee countries subject to social violations',
		metric:
			'Number of investee countries subject to social violations (absolute number and relative number divided by all investee countries), as referred to in international treaties and conventions, United Nations principles and, where applicable, national law',
		unit: null,
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN('a social violations flag per investee country (sovereign data)'),
	},
	{
		pai: 17,
		adverseSustainabilityIndicator: 'Exposure to fossil fuels through real estate assets',
		metric:
			'Share of investments in real estate assets involved in the extraction, storage, transport or manufacture of fossil fuels',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN('real estate asset data'),
	},
	{
		pai: 18,
		adverseSustainabilityIndicator: 'Exposure to energy-inefficient real estate assets',
		metric: 'Share of investments in energy-inefficient real estate assets',
		unit: '%',
		formula: 'notFed',
		apiIndicators: [],
		missing: NOT_GIVEN('real estate asset data'),
	},
];

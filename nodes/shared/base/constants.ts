export const CREDENTIAL_NAME = 'sustainabilityComplianceApi';

/** Instruments per request on the /instruments/* routes: the API refuses more with 403. */
export const MAX_INSTRUMENTS_PER_REQUEST = 10_000;
/** The gateway refuses larger request bodies with 413. 10 MB in decimal units (as every size the nodes print). */
export const MAX_BODY_BYTES = 10_000_000;
/**
 * Largest API answer read. The largest answer to 10,000 instruments in the simulator is 3.5 MB (business
 * involvements; test/answerLimits.workflow.test.ts measures every route and keeps this cap at least ten times it):
 * an answer far beyond that is no answer to our requests but a fault, and reading it would only fill memory.
 */
export const MAX_ANSWER_BYTES = 50_000_000;
/**
 * Longest text copied from an answer into an output item; longer ones are cut with a marker. Every documented text
 * (names, descriptions, messages, links) is far shorter.
 */
export const MAX_OUTPUT_TEXT_LENGTH = 10_000;
/**
 * Identifiers go into the address (PUT/DELETE /portfolios/{identifier}) or are handed back for it (POST /portfolios,
 * POST /reports). The API sets no length; gateways refuse long request lines (431, 414), and no real identifier
 * comes near these caps: a client Portfolio ID or Report ID of 200 characters, and a full returned identifier
 * (svc-portfolio:<organization>_<Portfolio ID>) of 1,000, which stays under 4 KB even when URL-encoded.
 */
export const MAX_CLIENT_ID_LENGTH = 200;
export const MAX_IDENTIFIER_LENGTH = 1000;

/** Requests per key and calendar month; beyond it the API answers 429 "Limit Exceeded". */
export const MONTHLY_QUOTA = 10_000;
/** Default of Max Requests per Run: about 5 % of the monthly quota, so one click cannot spend the month. */
export const DEFAULT_MAX_REQUESTS = MONTHLY_QUOTA / 20;

export const INSTRUMENT_TYPES = [
	'stock',
	'bond',
	'etf',
	'mutual-fund',
	'cash',
	'option',
	'future',
	'forward-contract',
	'lending',
	'other',
	'warrant',
	'sovereign-bond',
] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];

/**
 * The benchmark indices the API offers for reports. The vendor's documentation names the SEK credit index only as
 * `<index_provider> SEK IG Credit Index`; the service publishes it as Solactive's. Vendors add indices: any other name can be typed (Other Index) and the API decides.
 */
export const BENCHMARK_INDICES = [
	'S&P 500',
	'Nasdaq 100',
	'DOW 30',
	'FTSE 100',
	'OMX 30',
	'OMX Stockholm',
	'OMXC 30',
	'DAX',
	'CAC 40',
	'SMI',
	'AEX',
	'IBEX 35',
	'PSI 20',
	'BEL 20',
	'ATX 20',
	'EURO STOXX 50',
	'Solactive SEK IG Credit Index',
] as const;

/** Names earlier versions offered, still found in saved workflows: sent as the name the API publishes. */
export const RENAMED_BENCHMARK_INDICES: Readonly<
	Record<string, (typeof BENCHMARK_INDICES)[number]>
> = {
	'Nordic Credit Partners SEK IG Credit Index': 'Solactive SEK IG Credit Index',
};

/** Longest benchmark index name sent: index names are short; this catches a whole cell or document mapped by mistake. */
export const MAX_BENCHMARK_NAME_LENGTH = 200;

export const REPORT_TYPES = [
	{ name: 'ESG Overview', value: 'esg-overview' },
	{ name: 'MiFID II', value: 'mifid2' },
] as const;

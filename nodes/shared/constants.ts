export const CREDENTIAL_NAME = 'sustainabilityComplianceApi';

/** Spec 8: per request on /instruments/* routes; more gives 403. */
export const MAX_INSTRUMENTS_PER_REQUEST = 10_000;
/** Spec 8: bodies above this get 413 from the gateway. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Spec 8: monthly requests per key. */
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

/** Spec 4.13; the SEK credit index's provider is not named by the spec, so it is matched by suffix. */
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
	'Nordic Credit Partners SEK IG Credit Index',
] as const;

export const REPORT_TYPES = [
	{ name: 'ESG Overview', value: 'esg-overview' },
	{ name: 'MiFID II', value: 'mifid2' },
] as const;

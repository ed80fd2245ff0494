/**
 * Sustainability Compliance API simulator: public entry point.
 */
export { startSimulator } from './server';
export type {
	AnswerShape,
	BurstLimit,
	DownloadFaultKind,
	DownloadRecord,
	FaultKind,
	FaultSpec,
	LatencyModel,
	LatencyTable,
	MethodologiesShape,
	PortfolioState,
	RecordedRequest,
	RequestFilter,
	RouteKey,
	Simulator,
	SimulatorOptions,
	SnapshotState,
} from './types';
export {
	BENCHMARK_INDEX_NAMES,
	BENCHMARK_INDICES,
	BUSINESS_INVOLVEMENT_CATEGORIES,
	DEFAULT_BENCHMARK_INDEX,
	ESG_METRICS,
	EXTENDED_INVOLVEMENT_CATEGORIES,
	FUND_SHARE,
	INDUSTRIES,
	METHODOLOGIES,
	NOT_SUSTAINABLE_CODE,
	PAI_INDICATORS,
	SFDR_DESCRIPTIONS,
	SUSTAINABLE_DESCRIPTIONS,
	TAXONOMY_KPIS,
	UNKNOWN_PREFIX,
	UNKNOWN_SHARE,
	VENDOR_ESG_BOOLEANS,
	VENDOR_PAI_BOOLEANS,
	findIsins,
	instrumentData,
	taxonomyKpis,
} from './data';
export type {
	InstrumentData,
	Involvement,
	Methodology,
	TaxonomyHolding,
	TaxonomyValues,
	TemperatureData,
} from './data';
export { isinCheckDigit, makeIsin } from './isin';
export { KEY_PROFILES, ORGANIZATION_MEMBERS, SIM_KEYS } from './keys';
export type { Family, KeyProfile, SimKey } from './keys';
export { ALL_ROUTES } from './routes';
export {
	DEFAULT_DOWNLOAD_TRICKLE_MS,
	DOWNLOAD_FAULT_KINDS,
	OVERSIZED_BYTES,
	REDIRECT_PATH,
	SECRET_PAGE_TEXT,
} from './downloads';
export {
	ANSWER_SHAPE_VALUES,
	LONG_TEXT_LENGTH,
	PROXY_PAGE_SECRETS,
	SUCCESS_STATUS,
	UNASKED_ISIN,
	parseAnswerShape,
	successStatus,
} from './answers';
export type { AnswerContext } from './answers';
export { OVERSIZED_ANSWER_BYTES } from './http';
export {
	ANSWER_CHANGE_KINDS,
	DEFAULT_TRICKLE_MS,
	FAULT_KINDS,
	STREAMED_KINDS,
	PROXY_PAGE_FAULT_KINDS,
	UNREADABLE_FAULT_KINDS,
	WIRE_FAULT_KINDS,
} from './faults';

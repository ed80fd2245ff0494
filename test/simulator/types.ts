import type { DataVersion } from './data';

/**
 * Public types of the Sustainability Compliance API simulator.
 * Other test suites and the end-to-end harness code against these exactly.
 */

export type RouteKey =
	| 'POST /portfolios'
	| 'GET /portfolios'
	| 'PUT /portfolios/{identifier}'
	| 'DELETE /portfolios/{identifier}'
	| 'POST /instruments/sustainability-profile'
	| 'POST /instruments/sustainability-data'
	| 'POST /instruments/business-involvements'
	| 'POST /instruments/esg-data'
	| 'POST /sustainable-investments/insights'
	| 'GET /sustainable-investments/methodologies'
	| 'POST /taxonomy/insights'
	| 'POST /temperature-score/insights'
	| 'POST /reports';

export type FaultKind =
	| '429-message'
	| '429-status'
	| '429-limit'
	| '503'
	| '500'
	| '504'
	| '302'
	| '307'
	| 'drop'
	| 'processed-drop'
	| 'slow'
	| 'echo-key'
	| 'echo-key-success'
	| 'unreadable-empty'
	| 'unreadable-data-text'
	| 'unreadable-data-number'
	| 'unreadable-list'
	| 'html-page'
	| 'proxy-502-html'
	| 'proxy-503-html'
	| 'proxy-504-html'
	| 'firewall-403-html'
	| 'not-found-404-html'
	| 'cut-body'
	| 'garbage'
	| 'bad-chunk'
	| 'corrupt-gzip'
	| 'header-overflow'
	| 'answer-extra-isin'
	| 'answer-duplicate-isin'
	| 'answer-entry-without-isin'
	| 'answer-unknown-message'
	| 'answer-long-text'
	| 'trickle'
	| 'oversized-answer'
	| 'oversized-answer-unannounced';

/** Documented variants of the answers (vendor-docs-notes.md); see README "Answer shapes (documented variants)". */
export interface AnswerShape {
	/**
	 * 'top-level' (the vendor's reference): POST /temperature-score/insights answers {portfolio, job_metadata, metadata}
	 * with no data wrapper, industries[].id a string. Default 'wrapped' (the spec: data.portfolio, data.job_metadata).
	 */
	temperature?: 'wrapped' | 'top-level';
	/**
	 * 'vendor' (a public client of the live API): on /instruments/sustainability-data and /instruments/esg-data, values
	 * that are whole numbers are sent as integers, and there are boolean indicators without a unit; some values are
	 * null. Default 'spec'.
	 */
	measures?: 'spec' | 'vendor';
	/**
	 * 'extended': POST /instruments/business-involvements also answers EXTENDED_INVOLVEMENT_CATEGORIES
	 * (controversial_weapons, tobacco_producer, oil_fuels, gaseous_fuels, high_carbon_power_generation), categories the
	 * benchmark exclusions need that the spec does not name. Default 'spec' (the four categories the spec names).
	 */
	involvements?: 'spec' | 'extended';
}

/**
 * Faults of one route, or of '*' (every route whose own spec is absent or spent: sequence used up and no probability).
 */
export interface FaultSpec {
	/** Chance (0..1) that a request gets a fault once `sequence` is used up (or when there is none). */
	probability?: number;
	/** Kinds drawn from (uniformly) when `probability` fires. Default `['503']`. */
	kinds?: FaultKind[];
	/** Consumed one per matching request; `null` = no fault for that request. */
	sequence?: (FaultKind | null)[];
	/** Real wait of the `slow` kind, in ms. Default 2000. */
	slowMs?: number;
	/** Real wait between the bytes of a `trickle` answer, in ms. Default 1000. */
	trickleMs?: number;
	/** Seed of the pseudo-random generator used by `probability`. Default 1. */
	seed?: number;
}

export interface BurstLimit {
	requests: number;
	windowMs: number;
	body?: 'message' | 'status' | 'alternate';
	retryAfterSeconds?: number;
}

export interface LatencyModel {
	baseMs: number;
	perHoldingMs: number;
}

export type LatencyTable = Partial<Record<RouteKey | 'default', LatencyModel>>;

export interface SimulatorOptions {
	/** API listener port; default 0 = a free port. The host is always 127.0.0.1. */
	port?: number;
	/** Second listener serving report PDFs; default 0 = a free port. */
	downloadPort?: number;
	/** Default false: POST /temperature-score/insights is unrouted (403 Missing Authentication Token) like production. */
	temperatureRoute?: boolean;
	/** Requests per key per calendar month; default 10000 (sim-quota-5 always 5). */
	monthlyQuota?: number;
	/** Short-burst limit per key; default off. */
	burstLimit?: BurstLimit | null;
	/** Modelled server time per route; default none (0 ms). */
	latency?: LatencyTable;
	/** Real sleep = modelled ms * timeScale; default 1. */
	timeScale?: number;
	/** How many first requests for a new set of holdings answer is_lock=true; default 1. */
	temperatureLockRequests?: number;
	/** Lifetime of a report download link; default 300000 ms. */
	reportLinkTtlMs?: number;
	/** Clock for future-year checks, the five-year listing cutoff and the calendar-month quota. */
	now?: () => Date;
	/** Print each request line to stderr. */
	log?: boolean;
	/**
	 * Shape of the GET /sustainable-investments/methodologies answer (the spec does not show it); default 'records'.
	 * See README "Methodologies".
	 */
	methodologiesShape?: MethodologiesShape;
	/** Edition of the instrument data the instruments routes answer from (default 1; see LATER_EDITION in data.ts). */
	dataVersion?: DataVersion;
	/** Documented variants of the answers; default: as the spec shows them. */
	answerShape?: AnswerShape;
}

export type MethodologiesShape =
	| 'records'
	| 'id-keyed'
	| 'id-keyed-records'
	| 'bare-array'
	| 'unreadable';

export interface RecordedRequest {
	route: RouteKey | null;
	method: string;
	path: string;
	key: string | null;
	/** 0 while the request is in flight, and for dropped connections. */
	status: number;
	/** Parsed JSON request body; null when absent or not JSON. */
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	fault: FaultKind | null;
	/** Arrival time (epoch ms). */
	at: number;
}

export interface RequestFilter {
	route?: RouteKey;
	key?: string;
}

/**
 * Faults of the download listener: `redirect` (302 to the other spelling of its host, REDIRECT_PATH), `secret-page`
 * (500 HTML page quoting SECRET_PAGE_TEXT), `oversized` (200 PDF of OVERSIZED_BYTES with Content-Length),
 * `oversized-unannounced` (the same, chunked, no Content-Length), `gcs-json-error` (403 Google Cloud Storage JSON),
 * `trickle` (200 with the headers of a small PDF, then one byte every `trickleMs`).
 */
export type DownloadFaultKind =
	| 'redirect'
	| 'secret-page'
	| 'oversized'
	| 'oversized-unannounced'
	| 'gcs-json-error'
	| 'trickle';

export interface DownloadRecord {
	path: string;
	headers: Record<string, string | string[] | undefined>;
	status: number;
	/** The download fault applied, or null. */
	fault: DownloadFaultKind | null;
	/** Oversized faults only: body bytes written so far, and whether the whole body was sent. */
	bytes?: number;
	complete?: boolean;
}

export interface SnapshotState {
	/** Quarter-end date, YYYY-MM-DD. */
	date: string;
	/** Whether GET /portfolios lists it (not older than five years before `now`). */
	listed: boolean;
	holdings: unknown[];
}

export interface PortfolioState {
	identifier: string;
	name: string;
	currency: string;
	/** Oldest first. */
	snapshots: SnapshotState[];
}

export interface Simulator {
	/** API base URL, e.g. http://127.0.0.1:43123 (no trailing slash). */
	url: string;
	/** Base URL of the download listener (another origin). */
	downloadUrl: string;
	close(): Promise<void>;
	/** Clears counts, recorded requests, faults, portfolios, temperature locks, quota usage, burst windows, reports and downloads. */
	reset(): void;
	setFaults(route: RouteKey | '*', spec: FaultSpec | null): void;
	setBurstLimit(limit: SimulatorOptions['burstLimit']): void;
	setLatency(latency: SimulatorOptions['latency']): void;
	/** Monthly quota of the keys without a fixed one (not sim-quota-5), until reset(); null restores `monthlyQuota`. */
	setMonthlyQuota(quota: number | null): void;
	/**
	 * Switches the instruments routes (SFDR, PAI, business involvements, ESG) to another edition of the data: in 2
	 * a fixed share of ISINs are downgraded, upgraded, lose or gain data (LATER_EDITION). reset() restores the option.
	 */
	setDataVersion(version: DataVersion): void;
	/** Answers in the documented variants of `shape` until reset() (which restores the option); null: as the spec. */
	setAnswerShape(shape: AnswerShape | null): void;
	/** Every request received on the API listener (including gateway rejections and faults, excluding /__sim/ control calls). */
	requestCount(filter?: RequestFilter): number;
	requests(filter?: RequestFilter): RecordedRequest[];
	/** Requests seen by the download listener. */
	downloads(): DownloadRecord[];
	/** Download faults, consumed one per download request (`null` = no fault); null clears them. */
	setDownloadFaults(
		sequence: (DownloadFaultKind | null)[] | null,
		options?: { trickleMs?: number },
	): void;
	/**
	 * The location_url POST /reports answers with: a template where `{url}` is the usual link, `{path}` the document's
	 * path and `{port}` the download listener's port (e.g. 'http://169.254.169.254{path}'); null = the usual link.
	 */
	setReportLink(template: string | null): void;
	/** Stored portfolios of an organization (org-a, org-b, org-c), including currency and holdings. */
	portfolioState(org: string): PortfolioState[];
}

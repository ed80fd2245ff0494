/**
 * What the simulator answers beyond its own reading of the spec: the documented variants (AnswerShape: the vendor's
 * temperature answer without `data`, true/false indicators without a unit) and the faults that answer 200/201 with
 * something no client can read, or change a success answer (an unasked ISIN, a duplicate, an entry without ISIN, an
 * undocumented message).
 */
import { findIsins, instrumentData, VENDOR_ESG_BOOLEANS, VENDOR_PAI_BOOLEANS } from './data';
import type { ApiResult } from './http';
import { isRecord } from './http';
import type { AnswerShape, FaultKind, RouteKey } from './types';

/** Routes that answer 201 on success (the others 200). */
const CREATED_ROUTES: readonly RouteKey[] = [
	'POST /portfolios',
	'POST /sustainable-investments/insights',
	'POST /taxonomy/insights',
	'POST /temperature-score/insights',
	'POST /reports',
];

export function successStatus(route: RouteKey): number {
	return CREATED_ROUTES.includes(route) ? 201 : 200;
}

/** A known, well-formed ISIN no test sends: what `answer-extra-isin` adds. */
export const UNASKED_ISIN = findIsins((data) => data.known && !data.isFund, 1, 'NO')[0];

const HTML_PAGE = (title: string) =>
	`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>The service is undergoing maintenance. Please try again later.</p></body></html>`;

/** The answer of a fault that answers at once with something no client can read (or a proxy's page). */
export function unreadableResponse(kind: FaultKind, route: RouteKey): ApiResult | undefined {
	const status = successStatus(route);
	switch (kind) {
		case 'unreadable-empty':
			return { status, body: {} };
		case 'unreadable-data-text':
			return { status, body: { data: 'maintenance' } };
		case 'unreadable-data-number':
			return { status, body: { data: 42 } };
		case 'unreadable-list':
			return { status, body: [1, 2, 3] };
		case 'html-page':
			// A maintenance page of a proxy answers 200 whatever the route's own success status.
			return { status: 200, body: null, text: HTML_PAGE('Maintenance') };
		case 'proxy-502-html':
			return { status: 502, body: null, text: HTML_PAGE('502 Bad Gateway') };
		case 'proxy-503-html':
			return { status: 503, body: null, text: HTML_PAGE('503 Service Temporarily Unavailable') };
		default:
			return undefined;
	}
}

type Entry = Record<string, unknown>;

/** The list of entries a route answers with, where the ISIN of an entry is, and how to make one for an ISIN. */
function entriesOf(
	route: RouteKey,
	body: Record<string, unknown>,
): { list: Entry[]; isinPath: string[] } | undefined {
	if (route === 'POST /temperature-score/insights') {
		const data = isRecord(body.data) ? body.data : body;
		const portfolio = isRecord(data.portfolio) ? data.portfolio : undefined;
		return Array.isArray(portfolio?.companies)
			? { list: portfolio.companies as Entry[], isinPath: ['isin'] }
			: undefined;
	}
	if (!Array.isArray(body.data)) return undefined;
	if (
		route === 'POST /instruments/sustainability-profile' ||
		route === 'POST /sustainable-investments/insights'
	)
		return { list: body.data as Entry[], isinPath: ['isin'] };
	if (route.startsWith('POST /instruments/'))
		return { list: body.data as Entry[], isinPath: ['metadata', 'isin'] };
	return undefined;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function withIsin(entry: Entry, path: string[], isin: string | undefined): Entry {
	const out = copy(entry);
	const holder = path.length === 2 ? (out[path[0]] as Entry) : out;
	const key = path[path.length - 1];
	if (isin === undefined) delete holder[key];
	else holder[key] = isin;
	return out;
}

/** Every number in an entry's values moved by one (and an SFDR / sustainable class changed): "different values". */
function altered(entry: Entry): Entry {
	const out = copy(entry);
	const profile = out.sustainability_profile;
	if (isRecord(profile)) profile.classification = profile.classification === 9 ? 6 : 9;
	const bump = (record: Record<string, unknown>) => {
		for (const [key, value] of Object.entries(record)) {
			if (typeof value === 'number') record[key] = value + 1;
			else if (isRecord(value)) bump(value);
		}
	};
	if (isRecord(out.sustainability_data)) bump(out.sustainability_data);
	if (typeof out.temperature_score === 'number') out.temperature_score += 1;
	return out;
}

/** An entry for UNASKED_ISIN in the route's own shape: the first entry with that ISIN (and its data where it shows). */
function unaskedEntry(route: RouteKey, first: Entry, isinPath: string[]): Entry {
	const entry = withIsin(first, isinPath, UNASKED_ISIN);
	const data = instrumentData(UNASKED_ISIN);
	if (
		route === 'POST /instruments/sustainability-profile' &&
		isRecord(entry.sustainability_profile)
	) {
		entry.sustainability_profile.classification = data.sfdr;
		entry.sustainability_profile.description = data.sfdrDescription;
	}
	if (route === 'POST /temperature-score/insights') {
		entry.name = 'Not sent';
		if ('temperature_score' in entry) entry.temperature_score = data.temperature.score ?? 2;
	}
	return entry;
}

/** A pass-through fault's change of a success answer; other answers and routes it does not apply to stay as they are. */
export function alterAnswer(kind: FaultKind, route: RouteKey, answer: ApiResult): ApiResult {
	if (answer.status < 200 || answer.status >= 300 || !isRecord(answer.body)) return answer;
	const body = copy(answer.body);
	if (kind === 'answer-unknown-message') {
		if (!route.includes('/portfolios') || route === 'GET /portfolios') return answer;
		body.metadata = {
			...(isRecord(body.metadata) ? body.metadata : {}),
			message: 'Fund processed successfully',
		};
		return { ...answer, body };
	}
	const found = entriesOf(route, body);
	if (!found || found.list.length === 0) return answer;
	const { list, isinPath } = found;
	const [first] = list;
	if (kind === 'answer-extra-isin') list.push(unaskedEntry(route, first, isinPath));
	else if (kind === 'answer-duplicate-isin') list.splice(1, 0, altered(first));
	else if (kind === 'answer-entry-without-isin') list.push(withIsin(first, isinPath, undefined));
	else return answer;
	return { ...answer, body };
}

/** The documented variants the answer shape asks for. */
export function shapeAnswer(shape: AnswerShape, route: RouteKey, answer: ApiResult): ApiResult {
	if (answer.status < 200 || answer.status >= 300 || !isRecord(answer.body)) return answer;
	if (route === 'POST /temperature-score/insights' && shape.temperature === 'top-level') {
		const { data, ...rest } = answer.body;
		if (!isRecord(data)) return answer;
		const portfolio = copy(data.portfolio) as Record<string, unknown>;
		if (Array.isArray(portfolio?.industries))
			portfolio.industries = (portfolio.industries as Entry[]).map((industry) => ({
				...industry,
				id: String(industry.id),
			}));
		return { ...answer, body: { portfolio, job_metadata: data.job_metadata, ...rest } };
	}
	const booleans =
		route === 'POST /instruments/sustainability-data'
			? VENDOR_PAI_BOOLEANS
			: route === 'POST /instruments/esg-data'
				? VENDOR_ESG_BOOLEANS
				: undefined;
	if (shape.measures !== 'vendor' || !booleans || !Array.isArray(answer.body.data)) return answer;
	const body = copy(answer.body);
	for (const entry of body.data as Entry[]) {
		const measures = entry.sustainability_data as Record<
			string,
			{ value: unknown; unit?: unknown }
		>;
		const isin = (entry.metadata as Entry).isin as string;
		for (const [name, measure] of Object.entries(measures)) {
			if (/^scope_[12]_emissions$/.test(name) && typeof measure.value === 'number')
				measure.value = Math.round(measure.value);
		}
		const indicators = instrumentData(isin).vendorIndicators;
		for (const name of booleans) measures[name] = { value: indicators[name] };
	}
	return { ...answer, body };
}

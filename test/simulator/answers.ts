/**
 * What the simulator answers beyond its own reading of the spec: the documented variants (AnswerShape: the vendor's
 * temperature answer without `data`, true/false indicators without a unit) and the faults that answer 200/201 with
 * something no client can read, or change a success answer (an unasked ISIN, a duplicate, an entry without ISIN, an
 * undocumented message).
 */
import {
	findIsins,
	instrumentData,
	VENDOR_ESG_BOOLEANS,
	VENDOR_PAI_BOOLEANS,
	type DataVersion,
} from './data';
import type { ApiResult } from './http';
import { isRecord } from './http';
import {
	esgEntry,
	involvementsAbove,
	involvementsEntry,
	paiEntry,
	profileEntry,
} from './routes/instruments';
import { successStatus } from './routes/status';
import { insightEntry } from './routes/sustainableInvestments';
import { companyEntry } from './routes/temperature';
import type { AnswerShape, FaultKind, RouteKey } from './types';

export { SUCCESS_STATUS, successStatus } from './routes/status';

/**
 * A known, well-formed ISIN no test sends (a company, with data in both data versions): what `answer-extra-isin`
 * adds. NO0000000013.
 */
export const UNASKED_ISIN = findIsins(
	(data) => data.known && !data.isFund && instrumentData(data.isin, 2).sfdr !== null,
	1,
	'NO',
)[0];

/** The values of each answer shape field; the first is the default. */
export const ANSWER_SHAPE_VALUES = {
	temperature: ['wrapped', 'top-level'],
	measures: ['spec', 'vendor'],
	involvements: ['spec', 'extended'],
} as const satisfies { [F in keyof Required<AnswerShape>]: readonly Required<AnswerShape>[F][] };

/** Why `value` is no AnswerShape (an unknown field or value), or null when it is one. */
export function answerShapeProblem(value: unknown): string | null {
	if (!isRecord(value)) return 'an answer shape is an object';
	for (const [field, given] of Object.entries(value)) {
		const allowed = ANSWER_SHAPE_VALUES[field as keyof AnswerShape] as
			| readonly unknown[]
			| undefined;
		if (!allowed) return `unknown answer shape field: ${field}`;
		if (given !== undefined && !allowed.includes(given))
			return `${field} must be ${allowed.map((v) => `'${String(v)}'`).join(' or ')}, not ${JSON.stringify(given)}`;
	}
	return null;
}

/** `temperature=top-level,measures=vendor` (the CLI's --answer-shape) as an AnswerShape; throws when unreadable. */
export function parseAnswerShape(text: string): AnswerShape {
	const shape: Record<string, string> = {};
	for (const part of text.split(',').filter((item) => item.trim() !== '')) {
		const [field, value, ...extra] = part.split('=').map((item) => item.trim());
		if (!field || value === undefined || extra.length > 0)
			throw new Error(`"${part}" is not field=value`);
		shape[field] = value;
	}
	const problem = answerShapeProblem(shape);
	if (problem) throw new Error(problem);
	return shape as AnswerShape;
}

const HTML_PAGE = (title: string) =>
	`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>The service is undergoing maintenance. Please try again later.</p></body></html>`;

/** What a proxy's own page gives away: its internal host name and the upstream's address. */
export const PROXY_PAGE_SECRETS = ['internal-lb-7.corp.example', '10.2.3.4'];

const PROXY_PAGE = (title: string) =>
	`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.18.0 (${PROXY_PAGE_SECRETS[0]}; upstream ${PROXY_PAGE_SECRETS[1]}:8443)</center>\r\n</body>\r\n</html>\r\n`;

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
			return { status: 502, body: null, text: PROXY_PAGE('502 Bad Gateway') };
		case 'proxy-504-html':
			return { status: 504, body: null, text: PROXY_PAGE('504 Gateway Time-out') };
		case 'firewall-403-html':
			return {
				status: 403,
				body: null,
				text: PROXY_PAGE('403 Forbidden: request blocked by policy'),
			};
		case 'not-found-404-html':
			return { status: 404, body: null, text: PROXY_PAGE('404 Not Found') };
		case 'proxy-503-html':
			return { status: 503, body: null, text: HTML_PAGE('503 Service Temporarily Unavailable') };
		default:
			return undefined;
	}
}

type Entry = Record<string, unknown>;

/** What a change of an answer may need beyond the answer: the answer shape, the data version, the request body. */
export interface AnswerContext {
	shape: AnswerShape;
	dataVersion: DataVersion;
	/** The validated request body (for business involvements' `minimum_threshold`). */
	body: Record<string, unknown>;
}

const DEFAULT_CONTEXT: AnswerContext = { shape: {}, dataVersion: 1, body: {} };

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** +1 on a number; anything else as it is. */
const plusOne = (value: unknown): unknown => (typeof value === 'number' ? value + 1 : value);

/** Another classification: 9, or 6 when it was 9. */
function otherClass(profile: unknown): void {
	if (isRecord(profile)) profile.classification = profile.classification === 9 ? 6 : 9;
}

/** Every `{value}` of `sustainability_data` that is a number, + 1. */
function bumpMeasures(entry: Entry): void {
	const measures = entry.sustainability_data;
	if (!isRecord(measures)) return;
	for (const measure of Object.values(measures))
		if (isRecord(measure)) measure.value = plusOne(measure.value);
}

/** How a route's answer lists its entries, and how the changes of `ANSWER_CHANGE_KINDS` are made in its shape. */
interface EntryFamily {
	/** The list of entries in the answer body (changed in place), or undefined when there is none. */
	list(body: Entry): Entry[] | undefined;
	/** Where the ISIN of an entry is. */
	isinPath: readonly string[];
	/** The entry for UNASKED_ISIN, with its data, in the route's own shape (`first`: the answer's first entry). */
	unasked(first: Entry, context: AnswerContext, body: Entry): Entry;
	/** A copy of `entry` with other values (answer-duplicate-isin). */
	altered(entry: Entry): Entry;
}

const dataList = (body: Entry): Entry[] | undefined =>
	Array.isArray(body.data) ? (body.data as Entry[]) : undefined;

/** The temperature answer's `portfolio` and `job_metadata`, wrapped in `data` (the spec) or not ('top-level'). */
function temperatureParts(body: Entry): { portfolio?: Entry; jobMetadata?: Entry } {
	const data = isRecord(body.data) ? body.data : body;
	return {
		portfolio: isRecord(data.portfolio) ? data.portfolio : undefined,
		jobMetadata: isRecord(data.job_metadata) ? data.job_metadata : undefined,
	};
}

/** PAI and ESG: `{value, unit}` measures by ISIN, the unasked entry in the answer shape asked for. */
function measuresChanges(
	route: RouteKey,
	entryOf: (data: ReturnType<typeof instrumentData>) => Entry,
): EntryFamily {
	return {
		list: dataList,
		isinPath: ['metadata', 'isin'],
		unasked: (_first, context) =>
			shapeMeasures(
				context.shape,
				route,
				entryOf(instrumentData(UNASKED_ISIN, context.dataVersion)),
				context.dataVersion,
			),
		altered: (entry) => {
			const out = copy(entry);
			bumpMeasures(out);
			return out;
		},
	};
}

const ENTRY_FAMILIES: Partial<Record<RouteKey, EntryFamily>> = {
	'POST /instruments/sustainability-profile': {
		list: dataList,
		isinPath: ['isin'],
		unasked: (_first, context) => profileEntry(instrumentData(UNASKED_ISIN, context.dataVersion)),
		altered: (entry) => {
			const out = copy(entry);
			otherClass(out.sustainability_profile);
			return out;
		},
	},
	'POST /instruments/sustainability-data': measuresChanges(
		'POST /instruments/sustainability-data',
		paiEntry,
	),
	'POST /instruments/business-involvements': {
		list: dataList,
		isinPath: ['metadata', 'isin'],
		unasked: (_first, context) =>
			shapeInvolvements(
				context,
				involvementsEntry(
					instrumentData(UNASKED_ISIN, context.dataVersion),
					context.body.minimum_threshold as number | undefined,
				),
			),
		altered: (entry) => {
			const out = copy(entry);
			const scores = out.sustainability_data;
			if (isRecord(scores))
				for (const key of ['total_score', 'environment_score', 'social_score', 'governance_score'])
					scores[key] = plusOne(scores[key]);
			return out;
		},
	},
	'POST /instruments/esg-data': measuresChanges('POST /instruments/esg-data', esgEntry),
	'POST /sustainable-investments/insights': {
		list: dataList,
		isinPath: ['isin'],
		unasked: (first) =>
			insightEntry('Not sent', UNASKED_ISIN, typeof first.weight === 'number' ? first.weight : 0),
		altered: (entry) => {
			const out = copy(entry);
			otherClass(out.sustainability_profile);
			return out;
		},
	},
	'POST /temperature-score/insights': {
		list: (body) => {
			const companies = temperatureParts(body).portfolio?.companies;
			return Array.isArray(companies) ? (companies as Entry[]) : undefined;
		},
		isinPath: ['isin'],
		unasked: (first, _context, body) =>
			companyEntry(
				instrumentData(UNASKED_ISIN),
				{
					name: 'Not sent',
					aum: typeof first.aum === 'number' ? first.aum : null,
					market_value: typeof first.market_value === 'number' ? first.market_value : 0,
					currency: typeof first.currency === 'string' ? first.currency : 'EUR',
				},
				temperatureParts(body).jobMetadata?.is_lock === true,
			),
		altered: (entry) => {
			const out = copy(entry);
			out.temperature_score = plusOne(out.temperature_score);
			return out;
		},
	},
};

/** A copy of `entry` with the ISIN at `path` set to `isin`, or removed when `isin` is undefined. */
function withIsin(entry: Entry, path: readonly string[], isin: string | undefined): Entry {
	const out = copy(entry);
	const holder = path.length === 2 && isRecord(out[path[0]]) ? (out[path[0]] as Entry) : out;
	const key = path[path.length - 1];
	if (isin === undefined) delete holder[key];
	else holder[key] = isin;
	return out;
}

/** Length of the description `answer-long-text` gives: a few MB, as an API gone wrong might send. */
export const LONG_TEXT_LENGTH = 3_000_000;

/** Routes whose success answer `answer-unknown-message` changes (the request still takes effect). */
const PORTFOLIO_WRITES: readonly RouteKey[] = [
	'POST /portfolios',
	'PUT /portfolios/{identifier}',
	'DELETE /portfolios/{identifier}',
];

/**
 * A pass-through fault's change of a success answer (after the answer shape); error answers, routes the kind does not
 * apply to and answers without entries stay as they are.
 */
export function alterAnswer(
	kind: FaultKind,
	route: RouteKey,
	answer: ApiResult,
	context: AnswerContext = DEFAULT_CONTEXT,
): ApiResult {
	if (answer.status < 200 || answer.status >= 300 || !isRecord(answer.body)) return answer;
	const body = copy(answer.body);
	if (kind === 'answer-unknown-message') {
		if (!PORTFOLIO_WRITES.includes(route)) return answer;
		body.metadata = {
			...(isRecord(body.metadata) ? body.metadata : {}),
			message: 'Fund processed successfully',
		};
		return { ...answer, body };
	}
	const family = ENTRY_FAMILIES[route];
	const list = family?.list(body);
	if (!family || !list || list.length === 0) return answer;
	const [first] = list;
	if (kind === 'answer-long-text') {
		// SFDR classification and Sustainable Investments: the first entry's classification description.
		if (!isRecord(first.sustainability_profile)) return answer;
		first.sustainability_profile.description = 'Long text '.repeat(LONG_TEXT_LENGTH / 10);
	} else if (kind === 'answer-extra-isin') list.push(family.unasked(first, context, body));
	else if (kind === 'answer-duplicate-isin') list.splice(1, 0, family.altered(first));
	else if (kind === 'answer-entry-without-isin')
		list.push(withIsin(first, family.isinPath, undefined));
	else return answer;
	return { ...answer, body };
}

/** The true/false indicators `measures: 'vendor'` adds on a route, or undefined when it adds none. */
function vendorBooleans(route: RouteKey): readonly string[] | undefined {
	if (route === 'POST /instruments/sustainability-data') return VENDOR_PAI_BOOLEANS;
	if (route === 'POST /instruments/esg-data') return VENDOR_ESG_BOOLEANS;
	return undefined;
}

/**
 * One entry of sustainability-data or esg-data in the `measures` shape: as it is for 'spec'; for 'vendor', scope 1
 * and 2 emissions rounded to whole numbers and the route's true/false indicators added as `{value}` (no unit).
 */
function shapeMeasures(
	shape: AnswerShape,
	route: RouteKey,
	entry: Entry,
	dataVersion: DataVersion,
): Entry {
	const booleans = vendorBooleans(route);
	if (shape.measures !== 'vendor' || !booleans || !isRecord(entry.sustainability_data))
		return entry;
	const measures = entry.sustainability_data;
	for (const [name, measure] of Object.entries(measures)) {
		if (
			/^scope_[12]_emissions$/.test(name) &&
			isRecord(measure) &&
			typeof measure.value === 'number'
		)
			measure.value = Math.round(measure.value);
	}
	const isin = isRecord(entry.metadata) ? entry.metadata.isin : undefined;
	const indicators =
		typeof isin === 'string' ? instrumentData(isin, dataVersion).vendorIndicators : undefined;
	for (const name of booleans)
		measures[name] = { value: indicators?.[name as keyof typeof indicators] ?? null };
	return entry;
}

/**
 * One entry of business-involvements in the `involvements` shape: as it is for 'spec'; for 'extended', the ISIN's
 * EXTENDED_INVOLVEMENT_CATEGORIES added after the others (`minimum_threshold` applied as to the others).
 */
function shapeInvolvements(context: AnswerContext, entry: Entry): Entry {
	const data = entry.sustainability_data;
	const isin = isRecord(entry.metadata) ? entry.metadata.isin : undefined;
	if (
		context.shape.involvements !== 'extended' ||
		!isRecord(data) ||
		!isRecord(data.business_involvements) ||
		typeof isin !== 'string'
	)
		return entry;
	const threshold = context.body.minimum_threshold as number | undefined;
	Object.assign(
		data.business_involvements,
		involvementsAbove(instrumentData(isin, context.dataVersion).extendedInvolvements, threshold),
	);
	return entry;
}

/**
 * The documented variants the answer shape asks for (error answers stay as they are); `body` is the validated request
 * body (business involvements' `minimum_threshold`).
 */
export function shapeAnswer(
	shape: AnswerShape,
	route: RouteKey,
	answer: ApiResult,
	dataVersion: DataVersion = 1,
	requestBody: Record<string, unknown> = {},
): ApiResult {
	if (answer.status < 200 || answer.status >= 300 || !isRecord(answer.body)) return answer;
	if (route === 'POST /instruments/business-involvements') {
		if (shape.involvements !== 'extended' || !Array.isArray(answer.body.data)) return answer;
		const shaped = copy(answer.body);
		const context: AnswerContext = { shape, dataVersion, body: requestBody };
		for (const entry of shaped.data as unknown[])
			if (isRecord(entry)) shapeInvolvements(context, entry);
		return { ...answer, body: shaped };
	}
	if (route === 'POST /temperature-score/insights' && shape.temperature === 'top-level') {
		const { data, ...rest } = answer.body;
		if (!isRecord(data)) return answer;
		const portfolio = copy(data.portfolio) as Entry;
		if (isRecord(portfolio) && Array.isArray(portfolio.industries))
			portfolio.industries = (portfolio.industries as Entry[]).map((industry) => ({
				...industry,
				id: String(industry.id),
			}));
		return { ...answer, body: { portfolio, job_metadata: data.job_metadata, ...rest } };
	}
	if (shape.measures !== 'vendor' || !vendorBooleans(route) || !Array.isArray(answer.body.data))
		return answer;
	const body = copy(answer.body);
	for (const entry of body.data as unknown[])
		if (isRecord(entry)) shapeMeasures(shape, route, entry, dataVersion);
	return { ...answer, body };
}

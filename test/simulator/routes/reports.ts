/**
 * POST /reports: builds a real PDF, served by the download listener under a random token.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import {
	BENCHMARK_INDEX_NAMES,
	BENCHMARK_INDICES,
	DEFAULT_BENCHMARK_INDEX,
	METHODOLOGIES,
} from '../data';
import { resolveSnapshot } from '../dates';
import { apiError, type ApiResult } from '../http';
import { renderReportPdf } from '../pdf';
import type { Schema } from '../validation';
import { AT_LEAST_ONE_HOLDING, INSTRUMENT_TYPES, holdingsOf } from './common';
import { METHODOLOGY_NOT_FOUND } from './sustainableInvestments';
import { SUCCESS_STATUS } from './status';
import type { RouteContext, RouteDefinition } from './types';

export const REPORT_TYPES = ['esg-overview', 'mifid2'] as const;
/** Methodology of a mifid2 report sent without methodology_id. */
export const DEFAULT_REPORT_METHODOLOGY_ID = 1;

const REPORT_SCHEMA: Schema = {
	type: 'object',
	required: ['name', 'identifier', 'type', 'snapshot_at', 'holdings'],
	properties: {
		name: { type: 'string' },
		identifier: { type: 'string' },
		type: { type: 'string', enum: REPORT_TYPES },
		snapshot_at: { type: 'string' },
		holdings: {
			type: 'array',
			items: {
				type: 'object',
				required: ['isin', 'name', 'currency', 'weight', 'market_value'],
				properties: {
					isin: { type: 'string' },
					name: { type: 'string' },
					instrument_type: { type: 'string', enum: INSTRUMENT_TYPES },
					currency: { type: 'string' },
					weight: { type: 'number' },
					market_value: { type: 'number' },
				},
			},
		},
		benchmark_index: { type: 'string', enum: BENCHMARK_INDEX_NAMES },
		benchmark_etf_mutual_fund: { type: 'string' },
		methodology_id: { type: 'number' },
	},
};

interface ReportHolding {
	isin: string;
	name: string;
	weight: number;
}

function createReport(context: RouteContext): ApiResult {
	const { body } = context;
	const snapshot = resolveSnapshot(body.snapshot_at as string, context.now);
	if (!snapshot.ok) return apiError(400, snapshot.message);
	const holdings = holdingsOf(body) as unknown as ReportHolding[];
	if (holdings.length === 0) return apiError(400, AT_LEAST_ONE_HOLDING);

	const type = body.type as (typeof REPORT_TYPES)[number];
	let methodology: string | null = null;
	if (type === 'mifid2') {
		const methodologyId =
			(body.methodology_id as number | undefined) ?? DEFAULT_REPORT_METHODOLOGY_ID;
		const found = METHODOLOGIES.find((candidate) => candidate.id === methodologyId);
		if (!found) return apiError(400, METHODOLOGY_NOT_FOUND);
		methodology = found.name;
	}

	const etf = body.benchmark_etf_mutual_fund as string | undefined;
	const index = (body.benchmark_index as string | undefined) ?? DEFAULT_BENCHMARK_INDEX;
	const defaultBenchmark = etf ? etf : BENCHMARK_INDICES[index];
	const benchmarkLabel = etf ? `ETF/mutual fund ${etf}` : `${index} (${defaultBenchmark})`;

	const pdf = renderReportPdf({
		name: body.name as string,
		type,
		identifier: body.identifier as string,
		quarterEnd: snapshot.quarterEnd,
		benchmark: benchmarkLabel,
		methodology,
		holdings: holdings.map(({ name, isin, weight }) => ({ name, isin, weight })),
	});
	return {
		status: SUCCESS_STATUS['POST /reports'],
		body: {
			document: {
				location_url: context.services.documents.add(pdf, context.requestHost),
				request_id: randomUUID(),
			},
			metadata: {
				snapshot_at: snapshot.quarterEnd,
				type,
				default_benchmark: defaultBenchmark,
				identifier: `rpt_${randomBytes(8).toString('hex')}`,
			},
		},
	};
}

export const REPORT_ROUTES: RouteDefinition[] = [
	{
		key: 'POST /reports',
		method: 'POST',
		path: '/reports',
		family: null,
		schema: REPORT_SCHEMA,
		handle: createReport,
	},
];

import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import {
	BENCHMARK_INDICES,
	MAX_BENCHMARK_NAME_LENGTH,
	MAX_CLIENT_ID_LENGTH,
	RENAMED_BENCHMARK_INDICES,
	REPORT_TYPES,
} from '../../shared/base/constants';
import { lastCompletedQuarterEnd } from '../../shared/input/dates';
import { inputError } from '../../shared/api/errors';
import type { ItemGroup } from '../../shared/input/grouping';
import { holdingsBody, noHoldingLeftError } from '../../shared/input/holdings';
import type { RemovedRow, SourcedHolding } from '../../shared/input/holdings';
import { describeInvalidIsin, isValidIsin, normalizeIsin } from '../../shared/input/isin';
import {
	readHoldingsParameters,
	readMethodologyId,
	readSnapshotDateParameter,
	readTextParameter,
} from '../../shared/input/parameters';
import { ROUTES } from '../../shared/api/routes';
import { countOf, ownValue, showValue } from '../../shared/base/values';

export const DEFAULT_BENCHMARK = 'S&P 500';
/** Benchmark option that shows the Benchmark Index Name field. */
export const OTHER_BENCHMARK = 'other';

/** Display names of the text parameters, for messages. */
const LABELS: Record<string, string> = {
	reportName: 'Report Name',
	reportId: 'Report ID',
	reportType: 'Type',
	benchmarkFundIsin: 'Benchmark Fund ISIN',
	benchmarkIndex: 'Benchmark',
	benchmarkIndexName: 'Benchmark Index Name',
	binaryPropertyName: 'Put Output File in Field',
};

export interface ReportRequest {
	body: IDataObject;
	reportId: string;
	reportType: string;
	quarterEnd: string;
	/** How a Date, DateTime or text with an offset was read (its time zones, the quarter), when not as it shows. */
	dateNote?: string;
	binaryProperty?: string;
}

export interface ReportInput {
	request: ReportRequest;
	holdings: SourcedHolding[];
	removed: RemovedRow[];
	notes: string[];
}

/** A text parameter of the group's first item, named in messages by its display name. */
type TextReader = (name: string, fallback?: string) => string;

/** Reads and checks a group's parameters and holdings (parameters with expressions at the group's first item). */
export function prepareReport(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	group: ItemGroup,
): ReportInput {
	const node = this.getNode();
	const first = group.itemIndices[0];
	const text: TextReader = (name, fallback = '') =>
		readTextParameter.call(this, name, first, LABELS[name] ?? name, { fallback });

	const { name, reportId, reportType } = readReportLabels.call(this, first, text);
	const {
		date: snapshotAt,
		quarterEnd,
		note: dateNote,
	} = readSnapshotDateParameter.call(this, first, {
		emptyDefault: (timeZone) => lastCompletedQuarterEnd(new Date(), timeZone),
		invalidFix:
			'Pick a date up to today, or leave the field empty for the last completed quarter end.',
	});

	const body: IDataObject = {
		name,
		identifier: reportId,
		type: reportType,
		snapshot_at: snapshotAt,
		...readBenchmark.call(this, first, text),
	};
	if (reportType === 'mifid2') {
		const methodologyId = readMethodologyId.call(this, first);
		if (methodologyId !== undefined) body.methodology_id = methodologyId;
	}
	const binaryProperty = readOutputField.call(this, first, text);

	const { holdings, removed, notes } = readHoldingsParameters.call(
		this,
		ROUTES.reports,
		items,
		group.itemIndices,
		(read) => {
			if (read.holdings.length === 0) return read;
			const weighted = reportWeights(node, read.holdings, first);
			if (!weighted.note) return read;
			// The input's note that the weights do not add up to 100 "and were sent as given" no longer holds.
			const kept = read.notes.filter((note) => !note.startsWith(WEIGHT_TOTAL_NOTE));
			return { ...read, holdings: weighted.holdings, notes: [...kept, weighted.note] };
		},
	);
	if (holdings.length === 0) throw noHoldingLeftError(node, first, ROUTES.reports, removed);
	body.holdings = holdingsBody(holdings);
	return {
		request: {
			body,
			reportId,
			reportType,
			quarterEnd,
			...(dateNote ? { dateNote } : {}),
			binaryProperty,
		},
		holdings,
		removed,
		notes,
	};
}

/** Report Name, Report ID and Type, each checked. */
function readReportLabels(
	this: IExecuteFunctions,
	first: number,
	text: TextReader,
): { name: string; reportId: string; reportType: string } {
	const node = this.getNode();
	const name = text('reportName');
	if (!name)
		throw inputError(
			node,
			first,
			'Report Name is empty',
			'Give the name to show in the report, for example the portfolio name.',
		);
	const reportId = text('reportId');
	if (!reportId) {
		throw inputError(
			node,
			first,
			'Report ID is empty',
			'The API requires a label for each report, for example the portfolio identifier.',
		);
	}
	if (reportId.length > MAX_CLIENT_ID_LENGTH) {
		throw inputError(
			node,
			first,
			`Report ID is ${reportId.length} characters long ("${showValue(reportId, 40)}"); at most ${MAX_CLIENT_ID_LENGTH} are accepted`,
			'Use a short label such as the portfolio ID (it is also used in the file name), or check what is mapped to Report ID.',
		);
	}
	const reportType = text('reportType', 'esg-overview');
	if (!REPORT_TYPES.some(({ value }) => value === reportType)) {
		throw inputError(
			node,
			first,
			`Type "${showValue(reportType)}" is not a report type`,
			`Use one of: ${REPORT_TYPES.map(({ value }) => value).join(', ')}.`,
		);
	}
	return { name, reportId, reportType };
}

/** What the report compares with: the Benchmark Fund ISIN when given, else the Benchmark index. */
function readBenchmark(this: IExecuteFunctions, first: number, text: TextReader): IDataObject {
	const fundIsin = normalizeIsin(text('benchmarkFundIsin'));
	if (!fundIsin) return { benchmark_index: readBenchmarkIndex.call(this, first) };
	if (!isValidIsin(fundIsin)) {
		throw inputError(
			this.getNode(),
			first,
			`Benchmark Fund ISIN is not valid: ${describeInvalidIsin(fundIsin)}`,
			'Correct the ISIN, or leave the field empty to compare with the Benchmark index.',
		);
	}
	return { benchmark_etf_mutual_fund: fundIsin };
}

/** The binary field the PDF goes in, when Download PDF is on. */
function readOutputField(
	this: IExecuteFunctions,
	first: number,
	text: TextReader,
): string | undefined {
	if (!(this.getNodeParameter('downloadPdf', first, true) as boolean)) return undefined;
	const binaryProperty = text('binaryPropertyName', 'data');
	if (!binaryProperty) {
		throw inputError(
			this.getNode(),
			first,
			'Put Output File in Field is empty',
			'Give the name of the binary field for the PDF, for example data.',
		);
	}
	return binaryProperty;
}

/**
 * The index name to send: a listed one, one typed under Other Index, or any name an expression gives (vendors add
 * indices; the API refuses names it does not know, naming them). A name earlier versions listed is sent as renamed.
 */
function readBenchmarkIndex(this: IExecuteFunctions, itemIndex: number): string {
	const node = this.getNode();
	const chosen = readTextParameter.call(this, 'benchmarkIndex', itemIndex, LABELS.benchmarkIndex, {
		fallback: DEFAULT_BENCHMARK,
	});
	let index = chosen || DEFAULT_BENCHMARK;
	let label = LABELS.benchmarkIndex;
	if (chosen === OTHER_BENCHMARK) {
		label = LABELS.benchmarkIndexName;
		index = readTextParameter.call(this, 'benchmarkIndexName', itemIndex, label);
		if (!index) {
			throw inputError(
				node,
				itemIndex,
				'Benchmark Index Name is empty',
				`Type the index name exactly as the vendor writes it, or pick an index from the Benchmark list (${BENCHMARK_INDICES.join(', ')}).`,
			);
		}
	}
	if (index.length > MAX_BENCHMARK_NAME_LENGTH) {
		throw inputError(
			node,
			itemIndex,
			`${label} is ${index.length} characters long ("${showValue(index, 40)}"); an index name has at most ${MAX_BENCHMARK_NAME_LENGTH}`,
			`Check what is mapped to ${label}: it should be an index name such as ${DEFAULT_BENCHMARK}.`,
		);
	}
	return ownValue(RENAMED_BENCHMARK_INDICES, index) ?? index;
}

/** Weights (0 to 100 each, fractions already read as percentages) that add up to more than this are more than the whole portfolio. */
const MAX_WEIGHT_SUM = 100.5;
/** The start of the input's note on weights that do not add up to 100 (holdingNumbers.weightTotalNote): "sent as given" no longer holds. */
const WEIGHT_TOTAL_NOTE = 'The weights of this portfolio add up to';

const roundWeight = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The weights a report is built from. Weights that are all 0, or whose sum is nothing a portfolio's weights can add
 * up to (0, or above 100), never go into a report: they are worked out from the market values
 * (market value ÷ the group's total × 100, as the API does on the temperature route) and the note says so. When the
 * market values cannot give weights either (one below 0, or all 0), the group is refused before any request.
 */
export function reportWeights(
	node: INode,
	holdings: SourcedHolding[],
	itemIndex: number,
): { holdings: SourcedHolding[]; note?: string } {
	const sum = holdings.reduce((acc, { holding }) => acc + (holding.weight ?? 0), 0);
	if (Number.isFinite(sum) && sum > 0 && sum <= MAX_WEIGHT_SUM) return { holdings };
	const allZero = holdings.every(({ holding }) => !holding.weight);
	const what = allZero
		? `every weight is 0`
		: `the weights add up to ${showValue(roundWeight(sum), 24)}`;
	const marketValues = holdings.map(({ holding }) => holding.market_value ?? 0);
	const total = marketValues.reduce((acc, value) => acc + value, 0);
	const negative = holdings.find(({ holding }) => (holding.market_value ?? 0) < 0);
	if (negative || !(total > 0) || !Number.isFinite(total)) {
		throw inputError(
			node,
			negative?.itemIndex ?? itemIndex,
			`The report's weights cannot be used: ${what} (of ${countOf(holdings.length, 'holding')}), and the market values cannot give weights either (${negative ? `Item ${negative.itemIndex} has a market value below 0` : 'they add up to 0'})`,
			'Give each holding its portfolio weight (0 to 100, adding up to about 100), or market values above 0 to work the weights out from. A report built from these weights would show an empty portfolio.',
		);
	}
	const derived = holdings.map((sourced) => ({
		...sourced,
		holding: {
			...sourced.holding,
			weight: roundWeight(((sourced.holding.market_value ?? 0) / total) * 100),
		},
	}));
	return {
		holdings: derived,
		note: `Weights worked out from market values (market value ÷ total × 100): ${what} across ${countOf(holdings.length, 'holding')}, which no portfolio's weights (0 to 100, adding up to about 100) do. The report was not built from the weights as given.`,
	};
}

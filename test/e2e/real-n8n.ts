/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/require-node-api-error -- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * real-n8n.ts — runs workflows, and the credential test, inside a REAL n8n (Node 24) with this package
 * installed, on each n8n version asked for: by default the oldest and the newest supported
 * (N8N_OLDEST / N8N_NEWEST in scripts/real-n8n/versions, today 2.20.12 and 2.41.1), one after the other.
 *
 *   npx ts-node --transpile-only test/e2e/real-n8n.ts [options] [workflow.json | dir/*.json ...]
 *
 * Default workflows: test/e2e/fixtures/*.json and examples/*.json.
 * Options:
 *   --n8n-version X      run on n8n X (repeatable); default: N8N_E2E_N8N_VERSION if set, else both ends
 *   --credential-test / --no-credential-test
 *                        the credential test (credential-test.ts's cases, strict) after the workflows;
 *                        default on, off when workflow files are named
 *   --package-root DIR   built package to install (default: the project root; needs dist/ + package.json)
 *   --keep               keep the temp n8n user folders (paths printed)
 *   --no-simulator       do not start the API simulator (workflows that need it fail)
 *   --dump               write each execution JSON to test-output/n8n-runs/<file>.run.json (for writing checks)
 * Env: N8N_E2E_N8N_VERSION (one version), E2E_EXEC_TIMEOUT_MS (per `n8n execute`, default 180000),
 *      E2E_IMPORT_TIMEOUT_MS (default 120000), E2E_START_TIMEOUT_MS (`n8n start`, default 180000),
 *      N8N_E2E_CACHE (cache folder of ensure-n8n.sh).
 *
 * Steps per version: (a) scripts/real-n8n/ensure-n8n.sh with N8N_E2E_N8N_VERSION (each version has its own
 * cache folder), (b) copy the build into a temp N8N_USER_FOLDER's community-package folder (see lib.ts
 * for why), (c) start the simulator in-process (temperatureRoute: true) and an SMTP sink (smtp-sink.ts),
 * (d) `n8n import:credentials` of a sustainabilityComplianceApi credential pointing at the simulator and
 * an smtp credential pointing at the sink, and `n8n import:workflow` of every workflow (credential ids
 * rewritten, `__SIMULATOR_URL__` replaced, a disabled Manual Trigger added where `n8n execute` needs one:
 * see addManualTrigger), (e) per workflow: reset the simulator, its SETUPS entry (e.g. inject faults),
 * `n8n execute --id <id> --rawOutput`, parse the execution JSON and run its check from CHECKS (a workflow whose
 * SETUPS entry is a list runs once per entry, in a row, keeping what n8n saved between runs: its static data),
 * (e2) examples/10, the upload form: `n8n start` and a multipart POST of each sample file to the form (form-upload.ts),
 * (e3) examples/13's upload form the same way, its email read from the SMTP sink (pai-statement-form.ts),
 * (f) the credential test: `n8n start` in another temp user folder, owner, the REST calls of the
 * credential dialog (credential-test.ts), a probe that n8n calls "Connection successful!" counts as a
 * failure; (g) `[n8n X] N passed, M failed`. Last line: `N passed, M failed` over all versions; exit 1
 * on any failure or when a version passed nothing.
 *
 * n8n 2.20.12 and 2.41.1 behave the same for all of this (read from their dist/: commands/execute.js
 * prints the execution JSON through the logger in both; commands/import/*.js log "Successfully imported
 * N credentials/workflows"; community packages load from <user folder>/.n8n/nodes/node_modules in both).
 * The one difference met: n8n 2.41 evaluates expressions in isolated-vm by default (the "vm" engine), whose
 * prebuild crashed `n8n execute` at exit: ensure-n8n.sh builds it from source (see there).
 */
import assert from 'node:assert/strict';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { basename, dirname, join, resolve } from 'path';

import type {
	RecordedRequest,
	RequestFilter,
	Simulator,
	SimulatorOptions,
} from '../simulator/types';
import { instrumentData, taxonomyKpis } from '../simulator';
import { csvSingleRow } from '../helpers/csv';
import { expectedPaiStatementCells } from '../helpers/paiStatement';
import { expectedNewBreachLines } from '../helpers/exclusionScreen';
import type { ScreenRow } from '../helpers/exclusionScreen';
import { sfdrMoves } from '../helpers/sfdrMoves';
import {
	builtCredentialRules,
	credentialChecksInN8n,
	type CredentialCheckSummary,
} from './credential-test';
import {
	PROJECT_ROOT,
	checkBuiltPackage,
	ensureN8n,
	formatMs,
	installPackageInto,
	lastLines,
	n8nVersionsToRun,
	parseJsonOutput,
	runN8n,
	smtpSinkCredentialData,
	type N8nInstall,
	type PackageInfo,
} from './lib';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';
import { FORM_EXAMPLE, formUploadInN8n } from './form-upload';
import { PAI_STATEMENT_EXAMPLE, paiStatementFormInN8n } from './pai-statement-form';
import { quarterlyHoldings, WORKBOOK_DATE, WORKBOOK_HOLDINGS } from '../../scripts/sample-holdings';
import {
	annexColumns,
	expectedStatements,
	fedRowsOf,
	NODE_ROUNDING,
	rowsOfStatement,
	statementFileName,
} from '../helpers/annualPaiStatement';
import { findN8nNodesBase } from '../workflow/node-types';
import { sheetRows } from '../workflow/sheets';
import { SAMPLE_FILE_ACCESS, withSampleFiles } from '../workflow/fileExamples';

const CREDENTIAL_TYPE = 'sustainabilityComplianceApi';
const CREDENTIAL_ID = 'e2eSimCredential1';
const CREDENTIAL_NAME = 'Sustainability Compliance (simulator)';
const API_KEY = 'sim-all-families';
const SMTP_CREDENTIAL_TYPE = 'smtp';
const SMTP_CREDENTIAL_ID = 'e2eSmtpCredential1';
const SMTP_CREDENTIAL_NAME = 'SMTP (e2e sink)';
/** Credentials the harness imports, by type: nodes using these types are pointed at them. */
const IMPORTED_CREDENTIALS: Record<string, { id: string; name: string }> = {
	[CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME },
	[SMTP_CREDENTIAL_TYPE]: { id: SMTP_CREDENTIAL_ID, name: SMTP_CREDENTIAL_NAME },
};
/** Node types `n8n execute` can start from (n8n's STARTING_NODES + the sub-workflow trigger). */
const CLI_START_TYPES = [
	'n8n-nodes-base.manualTrigger',
	'@n8n/n8n-nodes-langchain.manualChatTrigger',
	'n8n-nodes-base.executeWorkflowTrigger',
];
const INJECTED_TRIGGER = 'E2E Manual Trigger';
const SIMULATOR_PLACEHOLDER = '__SIMULATOR_URL__';
const DEFAULT_WORKFLOWS = ['test/e2e/fixtures/*.json', 'examples/*.json'];
const EXEC_TIMEOUT_MS = Number(process.env.E2E_EXEC_TIMEOUT_MS ?? 180_000);
const IMPORT_TIMEOUT_MS = Number(process.env.E2E_IMPORT_TIMEOUT_MS ?? 120_000);

// ---------------------------------------------------------------------------------------------
// Shapes of what n8n prints (IRun) and of what a check receives.

interface BinaryRef {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
	bytes?: number;
}

interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: {
		main?: ({ json: Record<string, unknown>; binary?: Record<string, BinaryRef> }[] | null)[];
	};
}

interface N8nRun {
	finished?: boolean;
	status?: string;
	mode?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			lastNodeExecuted?: string;
			error?: { message?: string };
		};
	};
}

export interface CheckContext {
	file: string;
	run: N8nRun;
	/** Parameters of a node of the workflow as imported (to compare requests with what the workflow says). */
	parameters(nodeName: string): Record<string, unknown>;
	/** null when run with --no-simulator. */
	sim: Simulator | null;
	/** json of the items a node emitted (last run of the node, given output). Throws if the node did not run. */
	items(nodeName: string, output?: number): Record<string, unknown>[];
	/** binary metadata of the items a node emitted (same selection as items()). */
	binaries(nodeName: string, output?: number): (Record<string, BinaryRef> | undefined)[];
	/** Bytes of a binary: inline base64, or the file n8n's filesystem binary-data mode stored in the user folder. */
	binaryContent(ref: BinaryRef): Buffer;
	/** Requests the simulator received during this run of the workflow (`n8n execute` start to end). */
	requests(filter?: RequestFilter): RecordedRequest[];
	/** Mails the SMTP sink received during this run of the workflow. */
	mails(): ReceivedMail[];
	/**
	 * For a workflow run several times in a row (SETUPS with a list): the contexts of the runs before this one, oldest
	 * first, each with its own execution JSON, requests and mails. [] for a workflow run once.
	 */
	earlierRuns: CheckContext[];
}

/** A check throws on failure; a string it returns is printed under the ok line (what it saw). */
type Check = (ctx: CheckContext) => void | string | Promise<void | string>;
/** Runs after the simulator is reset and before `n8n execute` (e.g. to inject faults). */
type Setup = (sim: Simulator) => void;

/** The throttle the throttle-retry fixture meets: three 429s (both bodies the API sends for its short-burst limit), then normal answers. */
const THROTTLE_BURST = ['429-message', '429-status', '429-message'] as const;

/**
 * Per-workflow setups, keyed by file name (workflows without an entry run once against a plain reset simulator).
 * A list of setups runs the workflow once per entry, in a row, each `n8n execute` after its setup: the same imported
 * workflow, so what n8n saved of it (its static data) carries over from one run to the next, and the simulator is
 * reset only before the first run (a setup may change it, e.g. switch its data version). The check runs after the
 * last run and sees the earlier ones in `ctx.earlierRuns`.
 */
/** Answers broken on the wire (issue 29): each a network failure the node asks again, up to 3 times. */
const BROKEN_ANSWERS = ['cut-body', 'garbage', 'proxy-502-html'] as const;
const BROKEN_BODIES = ['corrupt-gzip', 'header-overflow', 'bad-chunk'] as const;

const SETUPS: Record<string, Setup | Setup[]> = {
	'throttle-retry.json': (sim) =>
		sim.setFaults('POST /instruments/sustainability-profile', { sequence: [...THROTTLE_BURST] }),
	'broken-answer-retry.json': (sim) =>
		sim.setFaults('POST /instruments/sustainability-profile', { sequence: [...BROKEN_ANSWERS] }),
	'broken-body-retry.json': (sim) =>
		sim.setFaults('POST /instruments/sustainability-profile', { sequence: [...BROKEN_BODIES] }),
	// Week 1 remembers the classes; week 2 meets the later edition of the data (some classes went down).
	'06-weekly-sfdr-watch.json': [() => undefined, (sim) => sim.setDataVersion(2)],
	// The true/false indicators of PAI 4 and 10, as the vendor's live API answers them.
	'13-annual-pai-statement.json': (sim) => sim.setAnswerShape({ measures: 'vendor' }),
	// Day 1 remembers every holding's screen (the vendor's answer shape, with the UN Global Compact indicator); day 2
	// meets the later edition of the data.
	'14-daily-exclusion-screen.json': [
		(sim) => sim.setAnswerShape({ measures: 'vendor' }),
		(sim) => sim.setDataVersion(2),
	],
};

/** The holding rows a workflow fed to our nodes: the items its "One Item per Row" (Split Out) node emitted. */
function holdingRows(ctx: CheckContext): Record<string, string>[] {
	const rows = ctx.items('One Item per Row') as Record<string, string>[];
	assert.ok(rows.length > 0, 'the Split Out node emitted the holding rows');
	return rows;
}

/** An SFDR output row against the simulator's data for its ISIN. */
function assertSfdrRow(row: Record<string, unknown>, isin: string, where: string): void {
	const data = instrumentData(isin);
	assert.equal(row.sfdr_isin, isin, `${where}: sfdr_isin`);
	assert.equal(row.sfdr_found, data.known, `${where}: sfdr_found`);
	assert.equal(row.sfdr_classification, data.sfdr, `${where}: sfdr_classification`);
}

/** The node met each broken answer once (SETUPS), asked again each time, and the fourth try was answered. */
function checkBrokenAnswers(ctx: CheckContext, faults: readonly string[]): string {
	const requests = ctx.requests({ route: 'POST /instruments/sustainability-profile' });
	assert.equal(ctx.requests().length, requests.length, 'no request to another route');
	assert.deepEqual(
		requests.map((r) => r.fault),
		[...faults, null],
		'each broken answer asked again once, then one answered',
	);
	const holdings = holdingRows(ctx);
	const rows = ctx.items('SFDR Classification');
	assert.equal(rows.length, holdings.length, 'one output item per holding row');
	rows.forEach((row, index) => assertSfdrRow(row, holdings[index].ISIN, `row ${index}`));
	return `${faults.join(', ')}, then answered: ${requests.length} requests`;
}

/**
 * Per-workflow checks, keyed by file name. A workflow without an entry only has to run without error.
 * Add one entry per examples/*.json file.
 */
const CHECKS: Record<string, Check> = {
	'manual-set.json': (ctx) => {
		const [item] = ctx.items('Set');
		assert.equal(item.greeting, 'hello from a real n8n');
		assert.equal(item.answer, 42);
	},
	'http-credential.json': (ctx) => {
		// The package's credential type was loaded by n8n, decrypted, and its `authenticate` block
		// put the key in the x-api-key header.
		const [item] = ctx.items('List portfolios');
		assert.ok(item.data && typeof item.data === 'object', 'response has data');
		assert.equal((item.data as { members?: unknown }).members, 3, 'org-a has 3 members');
		const requests = ctx.requests({ route: 'GET /portfolios' });
		assert.equal(requests.length, 1, 'exactly one GET /portfolios');
		assert.equal(requests[0].key, API_KEY);
		assert.equal(requests[0].status, 200);
	},
	'throttle-retry.json': (ctx) => {
		// The node met a burst of 429s (SETUPS) and retried until the API answered; the run succeeded.
		const requests = ctx.requests({ route: 'POST /instruments/sustainability-profile' });
		assert.equal(ctx.requests().length, requests.length, 'no request to another route');
		assert.deepEqual(
			requests.map((r) => [r.status, r.fault]),
			[...THROTTLE_BURST.map((fault) => [429, fault]), [200, null]],
			'three throttled tries, then one answered',
		);
		for (const request of requests) {
			assert.equal(request.key, API_KEY);
			assert.deepEqual(request.body, requests[0].body, 'every retry sends the same body');
		}
		const holdings = holdingRows(ctx);
		const rows = ctx.items('SFDR Classification');
		assert.equal(rows.length, holdings.length, 'one output item per holding row');
		rows.forEach((row, index) => assertSfdrRow(row, holdings[index].ISIN, `row ${index}`));
		return `simulator answered ${requests.map((r) => r.status).join(', ')} over ${requests[requests.length - 1].at - requests[0].at} ms`;
	},
	'broken-answer-retry.json': (ctx) => checkBrokenAnswers(ctx, BROKEN_ANSWERS),
	'broken-body-retry.json': (ctx) => checkBrokenAnswers(ctx, BROKEN_BODIES),
	// The examples: the same assertions as test/examples.workflow.test.ts (in-process runner), made on
	// what the real n8n printed and what the simulator / SMTP sink received.
	'01-holdings-sfdr-pai-involvements.json': (ctx) => {
		const holdings = holdingRows(ctx);
		assert.equal(holdings.length, 15, '15 holding rows (examples/holdings.sample.json)');
		const rows = ctx.items('Business Involvements');
		assert.equal(rows.length, holdings.length, 'one output item per holding row');
		rows.forEach((row, index) => {
			const where = `row ${index} (${holdings[index].Name})`;
			assert.equal(row.Name, holdings[index].Name, `${where}: input fields kept, in order`);
			const isin = holdings[index].ISIN;
			if (!isin) {
				assert.equal(row.sfdr_found, false, `${where}: sfdr_found`);
				assert.equal(row.sfdr_reason, 'no ISIN in field "ISIN"', `${where}: sfdr_reason`);
				return;
			}
			assertSfdrRow(row, isin, where);
			const data = instrumentData(isin);
			assert.equal(
				row.pai_scope_1_emissions,
				data.pai.scope_1_emissions,
				`${where}: pai_scope_1_emissions`,
			);
			assert.equal(
				row.business_involvements_total_score,
				data.scores?.total ?? null,
				`${where}: business_involvements_total_score`,
			);
		});
		const requests = ctx.requests();
		assert.deepEqual(
			requests.map((r) => r.route),
			[
				'POST /instruments/sustainability-profile',
				'POST /instruments/sustainability-data',
				'POST /instruments/business-involvements',
			],
			'one batched request per node',
		);
		for (const request of requests) {
			assert.equal(request.key, API_KEY);
			assert.equal(
				request.status,
				200,
				`${request.method} ${request.path} answered ${request.status}`,
			);
		}
	},
	'02-snapshot-history.json': (ctx) => {
		assert.equal(
			ctx.requests({ route: 'POST /portfolios' }).length,
			6,
			'POST /portfolios: one per portfolio and quarter',
		);
		assert.equal(ctx.requests({ route: 'GET /portfolios' }).length, 1, 'GET /portfolios once');
		assert.equal(ctx.requests().length, 7, 'no other requests');
		const stored = ctx.items('Store Snapshots');
		assert.deepEqual(
			stored.map((s) => [s.portfolio_id, s.outcome, s.quarter_end]),
			[
				['growth-eu', 'created', '2025-03-31'],
				['growth-eu', 'updated', '2025-06-30'],
				['growth-eu', 'updated', '2025-09-30'],
				['global-core', 'created', '2025-03-31'],
				['global-core', 'updated', '2025-06-30'],
				['global-core', 'updated', '2025-09-30'],
			],
			'Store Snapshots: [portfolio_id, outcome, quarter_end] per snapshot',
		);
		const listing = ctx.items('List Portfolios');
		assert.deepEqual(
			listing.map((p) => [p.identifier, p.snapshots]),
			[
				['svc-portfolio:org-a_growth-eu', ['2025-03-31', '2025-06-30', '2025-09-30']],
				['svc-portfolio:org-a_global-core', ['2025-03-31', '2025-06-30', '2025-09-30']],
			],
			'List Portfolios: the stored portfolios with their snapshot dates',
		);
		const state = ctx.sim!.portfolioState('org-a');
		assert.deepEqual(
			state.map((p) => [p.identifier, p.snapshots.length]),
			[
				['svc-portfolio:org-a_growth-eu', 3],
				['svc-portfolio:org-a_global-core', 3],
			],
			'the simulator stored 3 snapshots per portfolio',
		);
	},
	'03-quarterly-report-email.json': (ctx) => {
		const holdings = holdingRows(ctx);
		const runNodes = Object.keys(ctx.run.data.resultData.runData);
		assert.ok(
			runNodes.includes('First Day of Each Quarter'),
			'the run started from the Schedule Trigger node',
		);
		assert.ok(
			!runNodes.includes(INJECTED_TRIGGER),
			'the added (disabled) Manual Trigger did not run',
		);
		assert.equal(ctx.requests().length, 1, 'exactly one API request (POST /reports)');
		const [request] = ctx.requests({ route: 'POST /reports' });
		assert.ok(request, 'POST /reports was called');
		const body = request.body as Record<string, unknown>;
		// The node's parameters as the example sets them (a resource locator or a plain ID for Methodology).
		const params = ctx.parameters('Generate MiFID II Report');
		const methodology = params.methodology as { value?: unknown } | number | string;
		const methodologyId = Number(typeof methodology === 'object' ? methodology.value : methodology);
		assert.equal(params.reportType, 'mifid2', 'the example generates a MiFID II report');
		assert.equal(body.type, 'mifid2', 'POST /reports body.type');
		assert.equal(
			body.methodology_id,
			methodologyId,
			`POST /reports body.methodology_id = the node's Methodology (${methodologyId})`,
		);
		assert.equal(
			body.benchmark_index,
			params.benchmarkIndex,
			"POST /reports body.benchmark_index = the node's Benchmark",
		);
		assert.equal(
			(body.holdings as unknown[] | undefined)?.length,
			holdings.length,
			'every holding row is in the report request',
		);

		const downloads = ctx.sim!.downloads();
		assert.equal(downloads.length, 1, 'the PDF was downloaded once');
		assert.equal(
			downloads[0].headers['x-api-key'],
			undefined,
			'the download link is fetched without the API key',
		);
		assert.equal(downloads[0].status, 200, 'download status');

		const [report] = ctx.items('Generate MiFID II Report');
		assert.equal(ctx.items('Generate MiFID II Report').length, 1, 'one report item');
		const [binaries] = ctx.binaries('Generate MiFID II Report');
		const pdf = binaries?.data;
		assert.ok(pdf, 'the report item carries binary property "data"');
		assert.equal(pdf.mimeType, 'application/pdf', 'binary mimeType');
		const fileNamePattern = /^growth-europe_mifid2_\d{4}-\d{2}-\d{2}\.pdf$/;
		assert.match(pdf.fileName ?? '', fileNamePattern, 'binary file name');

		const sent = ctx.items('Email the Report');
		assert.equal(sent.length, 1, 'Send Email emitted one item');
		assert.deepEqual(
			sent[0].accepted,
			['compliance@example.com'],
			'the SMTP server accepted the recipient',
		);

		const mails = ctx.mails();
		assert.equal(mails.length, 1, 'the SMTP sink received one mail');
		const [mail] = mails;
		assert.equal(mail.from, 'reports@example.com', 'mail envelope sender');
		assert.deepEqual(mail.to, ['compliance@example.com'], 'mail envelope recipients');
		assert.equal(
			mail.subject,
			`Sustainability report ${String(report.snapshot_at)}`,
			'mail subject',
		);
		assert.ok(
			mail.text.includes(`Request ID ${String(report.request_id)}.`),
			`mail text: ${JSON.stringify(mail.text.slice(0, 200))}`,
		);
		assert.equal(mail.attachments.length, 1, 'one attachment');
		const [attachment] = mail.attachments;
		assert.equal(attachment.fileName, pdf.fileName, "the attachment has the binary's file name");
		assert.equal(attachment.contentType, 'application/pdf', 'attachment content type');
		assert.equal(
			attachment.content.subarray(0, 5).toString('latin1'),
			'%PDF-',
			'the attachment is a PDF',
		);
		assert.ok(
			attachment.content.subarray(-8).toString('latin1').includes('%%EOF'),
			'the PDF is complete (ends with %%EOF)',
		);
		const stored = ctx.binaryContent(pdf);
		assert.ok(
			stored.equals(attachment.content),
			`the attachment (${attachment.content.length} B) is byte-identical to the node's binary (${stored.length} B)`,
		);
		assert.equal(
			attachment.content.length,
			report.file_size,
			'attachment size = file_size of the report item',
		);
		if (pdf.bytes !== undefined)
			assert.equal(attachment.content.length, pdf.bytes, 'attachment size = binary size');
	},
	'04-taxonomy-and-sustainable-investments.json': (ctx) => {
		const holdings = holdingRows(ctx);
		assert.equal(
			holdings.filter((h) => !h.ISIN).length,
			1,
			'one cash row without ISIN in the input',
		);
		assert.deepEqual(
			ctx
				.requests()
				.map((r) => r.route)
				.sort(),
			['POST /sustainable-investments/insights', 'POST /taxonomy/insights'],
			'one request per node',
		);
		const listed = holdings.filter((h) => h.ISIN);
		const expected = taxonomyKpis(
			listed.map((h) => ({
				isin: h.ISIN,
				instrument_type: h.Type === 'Sovereign Bond' ? 'sovereign-bond' : h.Type.toLowerCase(),
				market_value: Number(h['Market Value'].replace(/[,%]/g, '')),
			})),
		);
		const table = ctx.items('EU Taxonomy KPIs');
		assert.deepEqual(
			Object.fromEntries(table.map((row) => [row.kpi, row.percent])),
			expected,
			'KPI table as the API computes it',
		);
		assert.equal(table[0].removed_count, 1, 'the cash row is reported as removed');
		assert.equal(table[0].holdings_count, listed.length, 'holdings_count');

		const classes = ctx.items('Sustainable Investment Classes');
		assert.equal(classes.length, holdings.length, 'one class row per holding row');
		classes.forEach((row, index) => {
			const where = `class row ${index} (${holdings[index].Name})`;
			if (!holdings[index].ISIN) {
				assert.equal(row.removed, true, `${where}: removed`);
				assert.equal(row.label, 'Not classified', `${where}: label`);
				assert.equal(row.removed_reason, 'cash row', `${where}: removed_reason`);
				return;
			}
			assert.equal(row.isin, holdings[index].ISIN, `${where}: isin`);
			assert.equal(
				row.classification,
				instrumentData(holdings[index].ISIN).sustainableInvestment.classification,
				`${where}: classification`,
			);
		});
		const [insights] = ctx.requests({ route: 'POST /sustainable-investments/insights' });
		const methodology = ctx.parameters('Sustainable Investment Classes').methodology as
			| { value?: unknown }
			| number;
		const methodologyId = Number(typeof methodology === 'object' ? methodology.value : methodology);
		assert.equal(
			(insights.body as { methodology_id?: unknown }).methodology_id,
			methodologyId,
			`methodology_id = the node's Methodology (${methodologyId})`,
		);
	},
	'05-temperature-score.json': (ctx) => {
		const holdings = holdingRows(ctx);
		assert.equal(holdings[14]?.Name, 'Cash EUR', 'input row 14 (0-based) is the cash row');
		const requests = ctx.requests({ route: 'POST /temperature-score/insights' });
		assert.equal(
			ctx.requests().length,
			2,
			'two requests: the first answers is_lock, the second the scores',
		);
		assert.equal(requests.length, 2, 'both are POST /temperature-score/insights');
		assert.ok(
			requests[1].at - requests[0].at >= 1500,
			`waited the poll interval (2 s) between them (${requests[1].at - requests[0].at} ms)`,
		);
		const items = ctx.items('Portfolio Temperature');
		const summary = items.find((i) => i.type === 'portfolio');
		assert.ok(summary, 'a portfolio summary item');
		const scored = items.filter(
			(i) => i.type !== 'portfolio' && typeof i.temperature_score === 'number',
		);
		assert.ok(scored.length > 0, 'holdings with a temperature score');
		const weighted = scored.reduce(
			(sum, i) => sum + (i.market_value as number) * (i.temperature_score as number),
			0,
		);
		const total = scored.reduce((sum, i) => sum + (i.market_value as number), 0);
		const score = summary.portfolio_temperature_score as number;
		assert.ok(
			Math.abs(score - weighted / total) < 0.0005,
			`portfolio score ${score} = value-weighted mean ${weighted / total}`,
		);
		assert.deepEqual(summary.removed_rows, [
			{ item: 14, name: 'Cash EUR', isin: null, reason: 'cash row' },
		]);
		return `2 requests ${requests[1].at - requests[0].at} ms apart (the simulator answers the first is_lock: true); portfolio score ${score}`;
	},
	'06-weekly-sfdr-watch.json': (ctx) => {
		// Two `n8n execute` runs of the same workflow (SETUPS): between them the simulator switched to the later
		// edition of its data. That the second run reports changes at all is the proof that n8n saves a workflow's
		// static data after a CLI run (mode 'cli'), as it does for an active workflow's runs and not for manual ones.
		const [week1] = ctx.earlierRuns;
		assert.ok(week1, 'the workflow ran twice');
		const holdings = holdingRows(ctx);
		const listed = holdings.filter((h) => h.ISIN);
		for (const [name, run] of [
			['run 1', week1],
			['run 2', ctx],
		] as const) {
			assert.deepEqual(
				run.requests().map((r) => r.route),
				['POST /instruments/sustainability-profile'],
				`${name}: one request`,
			);
		}
		assert.equal(week1.mails().length, 0, 'run 1 (nothing remembered yet) sends no email');
		assert.ok(
			!Object.keys(week1.run.data.resultData.runData).includes('Email the Downgrades'),
			'run 1: the email node did not run',
		);
		assert.equal(week1.items('SFDR Changes').filter((i) => i.isin).length, 0, 'run 1: no change');

		const { changed, downgraded } = sfdrMoves(listed);
		assert.ok(downgraded.length > 0, 'the later edition downgrades some holdings');
		assert.deepEqual(
			ctx
				.items('SFDR Changes')
				.filter((i) => i.isin)
				.map((i) => i.isin),
			changed.map((h) => h.isin),
			'run 2: SFDR Changes outputs exactly the ISINs whose class changed',
		);
		const mails = ctx.mails();
		assert.equal(mails.length, 1, 'run 2 sends one email');
		const [mail] = mails;
		assert.deepEqual(mail.to, ['compliance@example.com'], 'mail envelope recipients');
		assert.equal(mail.subject, `SFDR watch: ${downgraded.length} holding(s) downgraded`, 'subject');
		const lines = mail.text.split(/\r?\n/).filter((line) => line.startsWith('- '));
		assert.deepEqual(
			lines,
			downgraded.map((h) => `- ${h.isin} ${h.name}: Article ${h.from} → Article ${h.to}`),
			'the email lists exactly the downgraded holdings',
		);
		return `run 1: no email; run 2: ${changed.length} changed, ${downgraded.length} downgraded and emailed (${downgraded.map((h) => h.isin).join(', ')})`;
	},
	'14-daily-exclusion-screen.json': (ctx) => {
		// Two `n8n execute` runs (SETUPS): the screen's Only Changes remembers in static data as the SFDR watch does.
		const [day1] = ctx.earlierRuns;
		assert.ok(day1, 'the workflow ran twice');
		for (const [name, run] of [
			['run 1', day1],
			['run 2', ctx],
		] as const)
			assert.deepEqual(
				run
					.requests()
					.map((r) => r.route)
					.sort(),
				[
					'POST /instruments/business-involvements',
					'POST /instruments/sustainability-data',
					'POST /instruments/sustainability-profile',
				],
				`${name}: one request per data family`,
			);
		assert.equal(day1.mails().length, 0, 'run 1 (nothing remembered yet) sends no email');
		assert.deepEqual(
			day1.items('Screen Changes').map((i) => i.change),
			['nothing_remembered'],
			'run 1: only the word that nothing was remembered',
		);
		const rows = ctx.items('One Item per Holding') as ScreenRow[];
		const rules = (ctx.parameters('Screen Changes').rules as { rule: Array<{ label: string }> })
			.rule;
		const expected = expectedNewBreachLines(rows, [rules[0].label, rules[1].label]);
		assert.ok(expected.length > 1, 'the later edition brings new breaches');
		const mails = ctx.mails();
		assert.equal(mails.length, 1, 'run 2 sends one email');
		const [mail] = mails;
		assert.deepEqual(mail.to, ['compliance@example.com'], 'mail envelope recipients');
		assert.equal(mail.subject, `Exclusion screen: ${expected.length} new breach(es)`, 'subject');
		assert.deepEqual(
			mail.text.split(/\r?\n/).filter((line) => line.startsWith('- ')),
			expected,
			'the email lists exactly the new breaches',
		);
		return `run 1: no email; run 2: ${expected.length} new breaches emailed`;
	},
	'07-quarterly-pai-statement.json': (ctx) => {
		assert.deepEqual(
			ctx
				.requests()
				.map((r) => r.route)
				.sort(),
			['POST /instruments/sustainability-data', 'POST /instruments/sustainability-profile'],
			'one request per summary node',
		);
		const mails = ctx.mails();
		assert.equal(mails.length, 1, 'the SMTP sink received one mail');
		const [mail] = mails;
		assert.equal(mail.attachments.length, 1, 'one attachment');
		const [attachment] = mail.attachments;
		assert.match(
			attachment.fileName ?? '',
			/^pai-statement_\d{4}-(03-31|06-30|09-30|12-31)\.csv$/,
			'attachment file name',
		);
		assert.match(attachment.contentType ?? '', /^text\/csv/, 'attachment content type');
		const csv = csvSingleRow(attachment.content.toString('utf8'));
		const expected = expectedPaiStatementCells(holdingRows(ctx));
		assert.equal(expected.removed_count, '1', 'the cash row is left out');
		for (const [column, cell] of Object.entries(expected)) assert.equal(csv[column], cell, column);
		assert.ok(
			mail.text.includes(`Article 9 ${csv.article_9_percent} %`),
			`mail text: ${JSON.stringify(mail.text.slice(0, 300))}`,
		);
		return `${attachment.fileName}: ${Object.keys(csv).length} columns; article 9 ${csv.article_9_percent} %, GHG intensity ${csv.ghg_intensity_investee_companies_weighted_average}`;
	},
	'11-quarterly-workbook-snapshots-reports.json': (ctx) => {
		// The workbook on disk (examples/holdings.sample.xlsx), read by Read/Write Files from Disk and Extract From File.
		const rows = ctx.items('Holdings Rows');
		assert.equal(rows.length, WORKBOOK_HOLDINGS.length, 'one item per workbook row');
		assert.deepEqual(
			rows.map((row) => [row.Date, row.Weight, row['Market Value']]),
			WORKBOOK_HOLDINGS.map((h) => [46022, h.weight, h.marketValue]),
			'Extract From File gives the date cell as its Excel serial, the percent cell as a fraction, numbers as numbers',
		);
		const portfolios = ['growth-europe', 'global-core'];
		const bodies = ctx
			.requests({ route: 'POST /portfolios' })
			.map((r) => r.body as Record<string, unknown>);
		assert.deepEqual(
			bodies.map((body) => [body.identifier, body.snapshot_at]),
			portfolios.map((id) => [id, WORKBOOK_DATE]),
			'one snapshot per portfolio at the date of the Excel date cell',
		);
		for (const [p, id] of portfolios.entries())
			assert.deepEqual(
				(bodies[p].holdings as Array<Record<string, unknown>>).map((h) => [
					h.weight,
					h.market_value,
				]),
				WORKBOOK_HOLDINGS.filter((h) => h.portfolioId === id).map((h) => [
					Math.round(h.weight * 10_000) / 100,
					h.marketValue,
				]),
				`${id}: percent cells sent as percentages, number cells as they are`,
			);
		const stored = ctx.items('Store Snapshots');
		assert.deepEqual(
			stored.map((s) => [s.portfolio_id, s.outcome, s.snapshot_date, s.snapshot_date_note]),
			portfolios.map((id) => [
				id,
				'created',
				WORKBOOK_DATE,
				`Snapshot Date 46022 read as the Excel date ${WORKBOOK_DATE}`,
			]),
			'Store Snapshots: the date the Excel serial stands for, said in the output',
		);
		assert.equal(ctx.requests({ route: 'POST /reports' }).length, 2, 'one report per portfolio');
		const mails = ctx.mails();
		assert.equal(mails.length, 2, 'one email per report');
		for (const [p, mail] of mails.entries()) {
			const pdf = mail.attachments.find((a) => a.fileName?.endsWith('.pdf'));
			assert.equal(
				pdf?.fileName,
				`${portfolios[p]}_esg-overview_${WORKBOOK_DATE}.pdf`,
				'the PDF attached',
			);
			assert.equal(pdf?.content.subarray(0, 5).toString(), '%PDF-', 'a PDF');
			// The HTML body (quoted-printable: soft line breaks removed) has a row per stored snapshot.
			const body = mail.raw.replace(/=\r?\n/g, '');
			for (const s of stored)
				assert.ok(
					body.includes(
						`<td>${String(s.name)}</td><td>${WORKBOOK_DATE}</td><td>created</td><td>${String(s.holdings_count)}</td><td>0</td>`,
					),
					`the mail's table has the row of ${String(s.portfolio_id)}`,
				);
		}
		return `${stored.length} snapshots at ${WORKBOOK_DATE} (Excel 46022), ${mails.length} emails with their PDF and the table`;
	},
	'13-annual-pai-statement.json': (ctx) => {
		// The quarterly workbook on disk (examples/holdings.quarterly.sample.xlsx): its Excel date cells as serials.
		const holdings = quarterlyHoldings();
		assert.equal(ctx.items('Holdings Rows').length, holdings.length, 'one item per workbook row');
		assert.deepEqual(
			ctx.requests().map((r) => r.route),
			['POST /instruments/sustainability-data'],
			'one request for every quarter and fund (each ISIN asked once)',
		);
		// Every figure of PAI 2, 3, 4 and 10 per fund and for the entity, against the independent recomputation.
		const rows = ctx.items('PAI Statement');
		const statements = expectedStatements(holdings, NODE_ROUNDING);
		for (const statement of statements)
			assert.deepEqual(
				fedRowsOf(rowsOfStatement(rows, statement)),
				statement.fedRows,
				`${statement.label}: impacts of 2025 and 2024, quarter values and coverage`,
			);
		const mails = ctx.mails();
		assert.equal(mails.length, 1, 'one email');
		const [mail] = mails;
		const workbooks = mail.attachments.filter((a) => a.fileName?.endsWith('.xlsx'));
		assert.deepEqual(
			workbooks.map((a) => a.fileName).sort(),
			statements.map((statement) => statementFileName(statement, 2025)).sort(),
			'one workbook per statement, attached to the one email',
		);
		const nodesBaseDir = findN8nNodesBase();
		assert.ok(nodesBaseDir, 'n8n-nodes-base (the devDependency) reads the workbooks');
		for (const statement of statements) {
			const workbook = workbooks.find((a) => a.fileName === statementFileName(statement, 2025))!;
			const sheet = sheetRows(workbook.content, nodesBaseDir);
			assert.equal(
				sheet.length,
				rowsOfStatement(rows, statement).length,
				`${workbook.fileName}: a row per Annex row`,
			);
			for (const row of sheet)
				assert.deepEqual(
					Object.keys(row),
					annexColumns(2025),
					`${workbook.fileName}: the columns of Annex I, Table 1 on every row`,
				);
		}
		const entity = statements[statements.length - 1].fedRows;
		return `${rows.length} rows, ${workbooks.length} workbooks emailed; entity 2025: ${entity.map((r) => `PAI ${r.pai} ${r.impact_year_n}`).join(', ')}`;
	},
};

/**
 * The holdings fixtures are examples 02 to 05 in the other node versions: `holdings-v1-*` as saved before the column
 * mapper (Holding Fields, version 1), `holdings-v2-*` with Holding Columns = Map Each Column Manually. The
 * example's checks apply to them unchanged.
 */
for (const example of [
	'02-snapshot-history.json',
	'03-quarterly-report-email.json',
	'04-taxonomy-and-sustainable-investments.json',
	'05-temperature-score.json',
]) {
	for (const version of ['v1', 'v2'])
		CHECKS[`holdings-${version}-${example.slice(3)}`] = CHECKS[example];
}

// ---------------------------------------------------------------------------------------------

interface Args {
	packageRoot: string;
	keep: boolean;
	simulator: boolean;
	dump: boolean;
	patterns: string[];
	n8nVersions: string[];
	credentialTest: boolean;
	/** Set when examples/10 (the upload form) is among the workflows: run through `n8n start` (form-upload.ts). */
	formExample?: boolean;
	/** Set when examples/13 is among the workflows: its form too, through `n8n start` (pai-statement-form.ts). */
	paiStatementForm?: boolean;
}

function parseArgs(argv: string[]): Args {
	const args: Args = {
		packageRoot: PROJECT_ROOT,
		keep: false,
		simulator: true,
		dump: false,
		patterns: [],
		n8nVersions: [],
		credentialTest: true,
	};
	let credentialTest: boolean | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep') args.keep = true;
		else if (arg === '--n8n-version') args.n8nVersions.push(argv[++i] ?? '');
		else if (arg.startsWith('--n8n-version='))
			args.n8nVersions.push(arg.slice('--n8n-version='.length));
		else if (arg === '--credential-test') credentialTest = true;
		else if (arg === '--no-credential-test') credentialTest = false;
		else if (arg === '--no-simulator') args.simulator = false;
		else if (arg === '--dump') args.dump = true;
		else if (arg === '--package-root') args.packageRoot = resolve(argv[++i] ?? '');
		else if (arg.startsWith('--package-root='))
			args.packageRoot = resolve(arg.slice('--package-root='.length));
		else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
		else args.patterns.push(arg);
	}
	if (args.n8nVersions.some((v) => !/^\d+\.\d+\.\d+/.test(v)))
		throw new Error('--n8n-version needs a version such as 2.41.1');
	// Named workflow files: just those, unless --credential-test is given too.
	args.credentialTest = credentialTest ?? args.patterns.length === 0;
	if (args.credentialTest && !args.simulator)
		throw new Error('the credential test needs the simulator: add --no-credential-test');
	if (args.patterns.length === 0) args.patterns = DEFAULT_WORKFLOWS;
	return args;
}

/** Expands `file.json` or `dir/*.json` style patterns (a `*` in the file name only). */
function expandPatterns(patterns: string[]): string[] {
	const files: string[] = [];
	for (const pattern of patterns) {
		const absolute = resolve(PROJECT_ROOT, pattern);
		const name = basename(absolute);
		if (!name.includes('*')) {
			if (!existsSync(absolute)) throw new Error(`workflow file not found: ${pattern}`);
			files.push(absolute);
			continue;
		}
		const dir = dirname(absolute);
		if (!existsSync(dir)) continue;
		const regex = new RegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`);
		for (const entry of readdirSync(dir).sort())
			if (regex.test(entry)) files.push(join(dir, entry));
	}
	return [...new Set(files)];
}

/** True for a workflow with n8n's AI nodes (AI Agent, chat model, Chat Trigger, MCP Server Trigger): agent-tools.ts and mcp-server.ts run those. */
function usesAiNodes(file: string): boolean {
	try {
		return readFileSync(file, 'utf8').includes('"@n8n/n8n-nodes-langchain.');
	} catch {
		return false;
	}
}

/** False for JSON that is not a workflow export (e.g. sample data next to the examples): skipped. */
function isWorkflowFile(file: string): boolean {
	try {
		const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<WorkflowJson>;
		return Array.isArray(json.nodes) && typeof json.connections === 'object';
	} catch {
		return true; // let prepareWorkflow report the parse error
	}
}

function escapeRegExp(text: string): string {
	return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion?: number;
	position?: [number, number];
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
}

interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

interface PreparedWorkflow {
	file: string;
	id: string;
	workflow: WorkflowJson;
	needsSimulator: boolean;
	/** Set when the harness added a disabled Manual Trigger so that `n8n execute` accepts the workflow (see addManualTrigger). */
	injectedTriggerFor?: string;
}

/**
 * `n8n execute` refuses a workflow without a Manual Trigger (n8n's findCliWorkflowStart only checks that
 * one EXISTS: manualTrigger, manualChatTrigger or executeWorkflowTrigger). The execution itself then
 * starts from the first enabled trigger node in node order (Workflow.getStartNode), and in `cli` mode a
 * trigger node is not "triggered": it passes one empty item through (WorkflowExecute.runNode).
 * So for a workflow started by another trigger (example 03: Schedule Trigger) the imported copy gets a
 * DISABLED, unconnected Manual Trigger appended after the other nodes: it satisfies the check, is never
 * run, and the workflow runs from its own trigger node unchanged.
 */
function addManualTrigger(workflow: WorkflowJson): string | undefined {
	if (workflow.nodes.some((node) => CLI_START_TYPES.includes(node.type))) return undefined;
	const trigger = workflow.nodes.find(
		(node) => /Trigger$/.test(node.type) && workflow.connections[node.name],
	);
	if (!trigger) return undefined;
	const [x, y] = trigger.position ?? [0, 0];
	workflow.nodes.push({
		id: 'e2e00000-0000-4000-8000-000000000001',
		name: INJECTED_TRIGGER,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [x, y + 200],
		parameters: {},
		disabled: true,
	});
	return trigger.name;
}

function prepareWorkflow(file: string, index: number, simulatorUrl: string): PreparedWorkflow {
	const text = readFileSync(file, 'utf8');
	const needsSimulator =
		text.includes(SIMULATOR_PLACEHOLDER) || text.includes(`"${CREDENTIAL_TYPE}"`);
	// examples/11 reads its workbook from n8n's file folder: here, examples/holdings.sample.xlsx.
	const workflow = withSampleFiles(
		JSON.parse(text.split(SIMULATOR_PLACEHOLDER).join(simulatorUrl)) as WorkflowJson,
	);
	if (!Array.isArray(workflow.nodes) || typeof workflow.connections !== 'object') {
		throw new Error(`${basename(file)} is not a workflow export (nodes/connections missing)`);
	}
	const id = `e2eWorkflow${String(index + 1).padStart(4, '0')}`; // n8n ids: at most 21 chars
	for (const node of workflow.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			if (IMPORTED_CREDENTIALS[type]) node.credentials![type] = { ...IMPORTED_CREDENTIALS[type] };
		}
	}
	const injectedTriggerFor = addManualTrigger(workflow);
	return {
		file,
		id,
		needsSimulator,
		injectedTriggerFor,
		workflow: {
			...workflow,
			id,
			name: workflow.name ?? basename(file),
			active: false,
			isArchived: false,
		},
	};
}

/** n8n 2.x keeps binaries on disk by default (`data` = 'filesystem-v2', `id` = 'filesystem-v2:<path>'). */
function readBinary(userFolder: string, ref: BinaryRef): Buffer {
	const match = /^(filesystem(?:-v2)?):(.+)$/.exec(ref.id ?? '');
	if (!match) return Buffer.from(ref.data ?? '', 'base64');
	// n8n 2.x: <user folder>/.n8n/storage/<path> (1.x used .n8n/binaryData)
	const file = [
		join(userFolder, '.n8n', 'storage', match[2]),
		join(userFolder, '.n8n', 'binaryData', match[2]),
	].find((f) => existsSync(f));
	if (!file) throw new Error(`binary ${ref.id} not found under ${userFolder}/.n8n/storage`);
	return readFileSync(file);
}

function makeContext(
	file: string,
	workflow: WorkflowJson,
	run: N8nRun,
	sim: Simulator | null,
	smtp: SmtpSink,
	userFolder: string,
	window: { from: number; to: number },
	earlierRuns: CheckContext[],
): CheckContext {
	const inWindow = (at: number) => at >= window.from && at <= window.to;
	const lastRun = (nodeName: string) => {
		const runs = run.data.resultData.runData[nodeName];
		if (!runs?.length) {
			const ran = Object.keys(run.data.resultData.runData).join(', ');
			throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran})`);
		}
		return runs[runs.length - 1];
	};
	return {
		file,
		run,
		sim,
		parameters: (nodeName) => {
			const node = workflow.nodes.find((n) => n.name === nodeName);
			if (!node) throw new Error(`the workflow has no node "${nodeName}"`);
			return node.parameters ?? {};
		},
		items: (nodeName, output = 0) =>
			(lastRun(nodeName).data?.main?.[output] ?? []).map((item) => item.json),
		binaries: (nodeName, output = 0) =>
			(lastRun(nodeName).data?.main?.[output] ?? []).map((item) => item.binary),
		requests(filter) {
			if (!sim) throw new Error('the simulator is not running (--no-simulator)');
			return sim.requests(filter).filter((request) => inWindow(request.at));
		},
		mails: () => smtp.mails().filter((mail) => inWindow(mail.at)),
		earlierRuns,
		binaryContent: (ref) => readBinary(userFolder, ref),
	};
}

async function loadSimulator(): Promise<Simulator> {
	const modulePath = join(PROJECT_ROOT, 'test', 'simulator');
	let mod: { startSimulator?: (options: SimulatorOptions) => Simulator | Promise<Simulator> };
	try {
		mod = await import(modulePath);
	} catch (error) {
		throw new Error(`cannot load the simulator from ${modulePath}: ${(error as Error).message}`);
	}
	if (typeof mod.startSimulator !== 'function')
		throw new Error(`${modulePath} exports no startSimulator()`);
	return await mod.startSimulator({ port: 0, temperatureRoute: true });
}

/** One `n8n execute` of an imported workflow: its execution JSON, or why it failed. */
async function executeWorkflow(
	version: string,
	p: PreparedWorkflow,
	userFolder: string,
	dump: boolean,
	runIndex: number,
	runCount: number,
): Promise<{ run: N8nRun; ms: number } | string> {
	// n8n prints the execution JSON through its logger: it needs log level info.
	const result = await runN8n(
		version,
		['execute', `--id=${p.id}`, '--rawOutput'],
		userFolder,
		EXEC_TIMEOUT_MS,
		{
			N8N_LOG_LEVEL: 'info',
			N8N_RESTRICT_FILE_ACCESS_TO: SAMPLE_FILE_ACCESS,
		},
	);
	const output = result.stdout + result.stderr;
	if (result.timedOut) {
		return `n8n execute timed out after ${formatMs(EXEC_TIMEOUT_MS)}:\n${lastLines(output, 10)}`;
	}
	let run: N8nRun;
	try {
		run = parseJsonOutput(result.stdout) as N8nRun;
	} catch {
		return `n8n execute exited ${result.code} without execution JSON:\n${lastLines(output, 15)}`;
	}
	if (dump) {
		const dumpDir = join(PROJECT_ROOT, 'test-output', 'n8n-runs');
		mkdirSync(dumpDir, { recursive: true });
		const suffix = runCount > 1 ? `.${runIndex + 1}` : '';
		writeFileSync(
			join(dumpDir, `${basename(p.file, '.json')}${suffix}.run.json`),
			JSON.stringify(run, null, 2),
		);
	}
	const runError = run.data?.resultData?.error;
	// Seen about once in ten executions on n8n 2.41.1: the whole execution JSON printed with status success, then the
	// process killed by a signal on its way out (n8n's own shutdown, after the execution was saved). The check still
	// judges the output, and a later run of the same workflow proves what was saved.
	const diedAfterSuccess =
		result.code === null &&
		result.signal !== null &&
		!runError &&
		(!run.status || run.status === 'success');
	if (diedAfterSuccess) {
		console.log(
			`     note: n8n exited by ${result.signal} after printing a successful execution; the check decides`,
		);
	} else if (result.code !== 0 || runError || (run.status && run.status !== 'success')) {
		return `execution failed (exit ${result.code ?? `by signal ${result.signal}`}, status ${run.status}): ${runError?.message ?? lastLines(output, 10)}`;
	}
	return { run, ms: result.ms };
}

interface LegResult {
	version: string;
	passed: number;
	failed: number;
	ms: number;
}

/** One n8n version: install check, the workflows through the CLI, then the credential test through `n8n start`. */
async function runLeg(
	version: string,
	args: Args,
	info: PackageInfo,
	files: string[],
): Promise<LegResult> {
	const t0 = Date.now();
	let passed = 0;
	let failed = 0;
	const fail = (what: string, why: string) => {
		failed++;
		console.log(`FAIL ${what}\n     ${why.split('\n').join('\n     ')}`);
	};
	const done = (): LegResult => {
		const ms = Date.now() - t0;
		console.log(`[e2e] n8n ${version}: total ${formatMs(ms)}`);
		console.log(`[n8n ${version}] ${passed} passed, ${failed} failed`);
		return { version, passed, failed, ms };
	};

	// (a) n8n
	console.log(`\n[e2e] ===== n8n ${version} =====`);
	console.log(`[e2e] ensuring n8n ${version} is installed (first run: several minutes)...`);
	let install: N8nInstall;
	try {
		install = await ensureN8n(version);
	} catch (error) {
		fail(`install n8n ${version}`, (error as Error).message);
		return done();
	}
	console.log(`[e2e] node: ${install.node}\n[e2e] n8n:  ${install.n8n}`);

	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
	let sim: Simulator | null = null;
	let smtp: SmtpSink | null = null;
	try {
		const installed = installPackageInto(userFolder, args.packageRoot, info);
		console.log(
			`[e2e] ${info.name}@${info.version} (${info.nodes.length} nodes, ${info.credentials.length} credentials) -> ${installed}`,
		);

		// (c) simulator
		if (args.simulator) {
			sim = await loadSimulator();
			console.log(`[e2e] simulator at ${sim.url}`);
		}
		const simulatorUrl = sim?.url ?? 'http://127.0.0.1:9';
		smtp = await startSmtpSink();
		console.log(`[e2e] SMTP sink at ${smtp.host}:${smtp.port}`);

		// (d) credential + workflows
		const credentialFile = join(userFolder, 'e2e-credentials.json');
		writeFileSync(
			credentialFile,
			JSON.stringify([
				{
					id: CREDENTIAL_ID,
					name: CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey: API_KEY, baseUrl: simulatorUrl },
				},
				{
					id: SMTP_CREDENTIAL_ID,
					name: SMTP_CREDENTIAL_NAME,
					type: SMTP_CREDENTIAL_TYPE,
					data: smtpSinkCredentialData(smtp),
				},
			]),
		);
		const credImport = await runN8n(
			version,
			['import:credentials', `--input=${credentialFile}`],
			userFolder,
			IMPORT_TIMEOUT_MS,
			{
				N8N_LOG_LEVEL: 'info',
			},
		);
		if (
			credImport.code !== 0 ||
			!/Successfully imported 2 credentials/.test(credImport.stdout + credImport.stderr)
		) {
			throw new Error(
				`n8n import:credentials failed (exit ${credImport.code}${credImport.timedOut ? ', timed out' : ''}):\n${lastLines(credImport.stdout + credImport.stderr, 15)}`,
			);
		}
		console.log(
			`[e2e] imported credentials ${CREDENTIAL_ID} (API, simulator) and ${SMTP_CREDENTIAL_ID} (SMTP sink) (${formatMs(credImport.ms)})`,
		);

		const prepared: PreparedWorkflow[] = [];
		for (const [index, file] of files.entries()) {
			try {
				prepared.push(prepareWorkflow(file, index, simulatorUrl));
			} catch (error) {
				fail(basename(file), (error as Error).message);
			}
		}
		if (prepared.length) {
			const workflowFile = join(userFolder, 'e2e-workflows.json');
			writeFileSync(workflowFile, JSON.stringify(prepared.map((p) => p.workflow)));
			const wfImport = await runN8n(
				version,
				['import:workflow', `--input=${workflowFile}`],
				userFolder,
				IMPORT_TIMEOUT_MS,
				{
					N8N_LOG_LEVEL: 'info',
				},
			);
			if (
				wfImport.code !== 0 ||
				!/Successfully imported \d+ workflows?/.test(wfImport.stdout + wfImport.stderr)
			) {
				throw new Error(
					`n8n import:workflow failed (exit ${wfImport.code}${wfImport.timedOut ? ', timed out' : ''}):\n${lastLines(wfImport.stdout + wfImport.stderr, 15)}`,
				);
			}
			console.log(`[e2e] imported ${prepared.length} workflow(s) (${formatMs(wfImport.ms)})`);
		}

		// (e) execute + check
		for (const p of prepared) {
			const label = `${basename(p.file)} [${p.id}]`;
			if (p.needsSimulator && !sim) {
				fail(label, 'needs the simulator, which was not started (--no-simulator)');
				continue;
			}
			sim?.reset();
			smtp.reset();
			const entry = SETUPS[basename(p.file)];
			const setups: (Setup | undefined)[] = Array.isArray(entry) ? entry : [entry];
			if (!sim && setups.some(Boolean)) {
				fail(label, 'its setup needs the simulator, which was not started (--no-simulator)');
				continue;
			}
			if (p.injectedTriggerFor) {
				console.log(
					`     ${basename(p.file)}: runs from its trigger "${p.injectedTriggerFor}"; a disabled "${INJECTED_TRIGGER}" was added for \`n8n execute\``,
				);
			}
			const contexts: CheckContext[] = [];
			let ms = 0;
			for (const [index, setup] of setups.entries()) {
				const runLabel =
					setups.length > 1 ? `${label} run ${index + 1} of ${setups.length}` : label;
				setup?.(sim!);
				const from = Date.now();
				const executed = await executeWorkflow(
					version,
					p,
					userFolder,
					args.dump,
					index,
					setups.length,
				);
				if (typeof executed === 'string') {
					fail(runLabel, executed);
					break;
				}
				ms += executed.ms;
				const window = { from, to: Date.now() };
				contexts.push(
					makeContext(p.file, p.workflow, executed.run, sim, smtp, userFolder, window, [
						...contexts,
					]),
				);
			}
			if (contexts.length < setups.length) continue;
			const check = CHECKS[basename(p.file)] as Check | undefined;
			try {
				const saw = check ? await check(contexts[contexts.length - 1]) : undefined;
				passed++;
				const runs = setups.length > 1 ? `, ${setups.length} runs` : '';
				console.log(
					`ok   ${label} (${formatMs(ms)}${runs})${check ? '' : ' [no specific checks: ran without error]'}${saw ? `\n     ${saw}` : ''}`,
				);
			} catch (error) {
				fail(label, (error as Error).message);
			}
		}

		// (e2) the upload form (examples/10) through `n8n start` and a multipart POST to its production URL
		if (args.formExample && sim) {
			// A plain simulator, as for every CLI workflow: the last one's setup may have switched its data version or
			// answer shape (examples/14 ends on data version 2).
			sim.reset();
			const form = await formUploadInN8n(install, args.packageRoot, info, sim, args.keep);
			passed += form.passed;
			failed += form.failed;
		}
		// (e3) examples/13's upload form, its second entry point (the CLI run above started it from its schedule)
		if (args.paiStatementForm && sim) {
			const form = await paiStatementFormInN8n(install, args.packageRoot, info, sim, args.keep);
			passed += form.passed;
			failed += form.failed;
		}

		// (f) the credential test ("Test" in the credential dialog) through `n8n start` and n8n's REST API
		if (args.credentialTest && sim) {
			const summary = await credentialTestInN8n(version, args.packageRoot, info, sim, args.keep);
			passed += summary.passed;
			failed += summary.failed + summary.gaps;
			if (summary.gaps)
				console.log(
					`[e2e] ${summary.gaps} credential probe(s) gave "Connection successful!" for an error answer: counted as failures`,
				);
		}
	} catch (error) {
		fail(`n8n ${version}`, (error as Error).message);
	} finally {
		if (sim) await sim.close().catch(() => undefined);
		if (smtp) await smtp.close().catch(() => undefined);
		if (args.keep) console.log(`[e2e] kept n8n user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	return done();
}

/** The credential checks (strict: a probe n8n reports as "Connection successful!" counts as a failure); a failure to run them is one failure. */
async function credentialTestInN8n(
	version: string,
	packageRoot: string,
	info: PackageInfo,
	sim: Simulator,
	keep: boolean,
): Promise<CredentialCheckSummary> {
	try {
		return await credentialChecksInN8n(
			version,
			packageRoot,
			info,
			sim,
			await builtCredentialRules(packageRoot),
			keep,
		);
	} catch (error) {
		console.log(`FAIL credential test (n8n ${version})\n     ${(error as Error).message}`);
		return { passed: 0, failed: 1, gaps: 0, results: [] };
	}
}

async function main(): Promise<number> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	const versions = n8nVersionsToRun(args.n8nVersions);
	const info = checkBuiltPackage(args.packageRoot);
	const files = expandPatterns(args.patterns).filter((file) => {
		if (!isWorkflowFile(file)) {
			console.log(`[e2e] skipping ${basename(file)}: not a workflow export`);
			return false;
		}
		if (basename(file) === FORM_EXAMPLE) {
			args.formExample = true;
			console.log(
				`[e2e] ${basename(file)}: a Form Trigger workflow: run through \`n8n start\` with a multipart POST to its form after the CLI workflows`,
			);
			return false;
		}
		if (basename(file) === PAI_STATEMENT_EXAMPLE) {
			args.paiStatementForm = true;
			console.log(
				`[e2e] ${basename(file)}: run from its schedule by \`n8n execute\`, then its form through \`n8n start\` with a multipart POST`,
			);
		}
		if (readFileSync(file, 'utf8').includes('"n8n-nodes-base.dataTable"')) {
			// `n8n execute` has no REST API to create the table with: the queue-mode check creates it and runs the example.
			console.log(
				`[e2e] skipping ${basename(file)}: a Data Table workflow (its table must exist first): run with two workers by test/e2e/queue-mode.ts (npm run test:n8n:queue)`,
			);
			return false;
		}
		if (usesAiNodes(file)) {
			console.log(
				/mcpTrigger/.test(readFileSync(file, 'utf8'))
					? `[e2e] skipping ${basename(file)}: an MCP Server Trigger workflow (needs an MCP client): run by test/e2e/mcp-server.ts (npm run test:n8n:mcp; .ci/run runs it on both n8n versions)`
					: `[e2e] skipping ${basename(file)}: an AI Agent workflow (needs a chat model): run with a model stand-in by test/e2e/agent-tools.ts (npm run test:n8n:agent; .ci/run runs it on both n8n versions)`,
			);
			return false;
		}
		return true;
	});
	if (files.length === 0 && !args.formExample)
		throw new Error(`no workflow files match ${args.patterns.join(' ')}`);
	console.log(
		`[e2e] n8n version(s): ${versions.join(', ')}; ${files.length} workflow(s); credential test ${args.credentialTest ? 'on' : 'off'}`,
	);

	const legs: LegResult[] = [];
	for (const version of versions) legs.push(await runLeg(version, args, info, files));

	const passed = legs.reduce((sum, leg) => sum + leg.passed, 0);
	const failed = legs.reduce((sum, leg) => sum + leg.failed, 0);
	console.log('');
	for (const leg of legs)
		console.log(
			`[e2e] n8n ${leg.version}: ${leg.passed} passed, ${leg.failed} failed (${formatMs(leg.ms)})`,
		);
	console.log(`[e2e] total ${formatMs(Date.now() - t0)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && legs.every((leg) => leg.passed > 0) ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`[e2e] ERROR: ${error.message}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	},
);

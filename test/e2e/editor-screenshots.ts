/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/require-node-api-error -- e2e tooling runs in Node, outside n8n's sandbox, and is not a node */
/**
 * editor-screenshots.ts — opens each node's parameter form in a REAL n8n editor (one version: by default the
 * newest supported, N8N_NEWEST in scripts/real-n8n/versions, today 2.41.1) with this
 * package installed and a real credential pointing at the API simulator, saves a screenshot per form
 * (one per operation) and per dynamic list, and checks that given texts appear in them.
 *
 *   npx ts-node --transpile-only test/e2e/editor-screenshots.ts [options] [shot label or node name ...]
 *
 * Default: every entry of FORMS below. Groups selectable by name: "Newcomer walk" (issue 28), "Upload form" (examples/10's
 * form page in the browser, then the execution of an upload of examples/holdings.sample.xlsx in the editor). Options:
 *   --package-root DIR   built package to install (default: the project root; needs dist/ + package.json)
 *   --out DIR            screenshot folder (default: test-output/screenshots under the project root)
 *   --keep               keep the temp n8n user folder (n8n.log is in it)
 *   --n8n-version X      another installed n8n (default: N8N_E2E_N8N_VERSION, else the newest supported)
 * The selectors below (data-test-id attributes, element-plus dropdowns) pass unchanged on 2.20.12 and 2.41.1.
 * Env: E2E_START_TIMEOUT_MS (n8n boot, default 180000), E2E_UI_TIMEOUT_MS (each UI step, default 30000).
 *
 * How: scripts/real-n8n/ensure-n8n.sh and ensure-playwright.sh (Debian chromium + playwright-core in
 * the cache folder), package copied into a temp N8N_USER_FOLDER's community-package folder (see
 * lib.ts), the API simulator started in-process (one portfolio stored in it through POST /portfolios),
 * `n8n start` on a free loopback port, owner created with POST /rest/owner/setup and logged in with
 * POST /rest/login from the browser context, one `sustainabilityComplianceApi` credential created with
 * POST /rest/credentials (key sim-all-families, Base URL = the simulator: the editor selects it by
 * itself in every new node of ours, as the only credential of its type), then per entry: new workflow →
 * "Add first step" → search the node panel for the node → pick the action → wait for the parameter
 * panel (NDV) → optional steps (open a dynamic list, change a field) → screenshot `<out>/<label>.png`
 * → check the expected strings against the panel's text, its field values and any open dropdown.
 * Prints `N passed, M failed` last; exits 1 on any failure.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { basename, join, resolve } from 'path';

import { WORKBOOK_HOLDINGS } from '../../scripts/sample-holdings';

import { instrumentData } from '../simulator';
import type { Simulator, SimulatorOptions } from '../simulator/types';
import { EXAMPLES_DIR, SAMPLE_WORKBOOK, UPLOAD_FORM } from '../workflow/fileExamples';
import {
	OWNER,
	PROJECT_ROOT,
	SCRIPTS_DIR,
	assertServerVersion,
	checkBuiltPackage,
	ensureN8n,
	formatMs,
	installPackageInto,
	lastLines,
	runCommand,
	setupOwner,
	sleep,
	startN8nServer,
	supportedN8nVersions,
	type N8nServer,
	restSession,
} from './lib';
import { builtCredentialRules, runCredentialChecks } from './credential-test';

const CREDENTIAL_TYPE = 'sustainabilityComplianceApi';
const CREDENTIAL_NAME = 'Sustainability Compliance (simulator)';
const API_KEY = 'sim-all-families';
/** Stored in the simulator before the editor opens, so that the Update operation's portfolio list shows it. */
const STORED_PORTFOLIO = {
	identifier: 'growth-europe-e2e',
	name: 'Growth Europe (e2e)',
	currency: 'EUR',
};
const METHODOLOGY_NAMES = [
	'SFDR Article 2(17) - Standard',
	'SFDR Article 2(17) - Strict (Do No Significant Harm)',
	'MiFID II Sustainability Preferences',
];

interface ShotContext {
	page: Page;
	sim: Simulator;
	/** Every answer the page received from n8n's REST API since it opened (method, path, status, request body). */
	restCalls: PageRestCall[];
	/** The editor's address. */
	base: string;
	/** Gives the one credential another API key (restored after the shot). */
	setApiKey: (apiKey: string) => Promise<void>;
	/**
	 * Saves a workflow through n8n's REST API (our credential put in its nodes); returns its id. Its name gets a
	 * time stamp unless `exactName`.
	 */
	saveWorkflow: (
		workflow: {
			name: string;
			nodes: unknown[];
			connections: unknown;
			/** Output pinned to nodes by name, as the editor's "Pin data". */
			pinData?: Record<string, Array<{ json: unknown }>>;
		},
		exactName?: boolean,
	) => Promise<string>;
	/** n8n's REST API as the logged-in owner (the browser's cookies). */
	request: BrowserContext['request'];
}

/** One answer of n8n's REST API to the page (not lib.ts's RestCall, the scripts' own REST caller). */
interface PageRestCall {
	method: string;
	path: string;
	status: number;
	body: string;
}

interface FormCheck {
	/** Node display name, as shown in the node panel. */
	node: string;
	/** Action to pick in the node panel (its `action` text); default: the first action. */
	action?: string;
	/** Texts that must appear in the parameter panel (labels, field values) or in an opened dropdown. */
	expect: string[];
	/** Texts the parameter panel must not show (a field that moved, an error of the editor). */
	absent?: string[];
	/** Steps after the form is open, before the screenshot (open a list, change a field). */
	then?: (ctx: ShotContext) => Promise<void>;
	/** Checks after the screenshot (e.g. what the simulator received). */
	verify?: (ctx: ShotContext) => void;
	/** Opens the panel another way than adding the node to a new workflow (e.g. a saved workflow, run). */
	open?: (ctx: ShotContext) => Promise<void>;
	/** A group selectable by this name (like a node name), e.g. "Newcomer walk". */
	walk?: string;
	/** The text `expect` is checked against, when not the parameter panel's (e.g. a page outside the editor). */
	shownText?: (ctx: ShotContext) => Promise<string>;
}

/** Texts every form of ours shows: the credential the editor picked by itself. */
const OUR_FORM = ['Credential', CREDENTIAL_NAME, 'Operation'];
/**
 * Version 2 of the holdings nodes (the version the editor adds): the column mapper Holding Columns, in its default
 * mode. n8n's resource mapper shows no label of its own (not "Holding Columns"): its "Mapping Column Mode" label
 * and mode names are n8n's texts.
 */
const HOLDINGS_FORM = [
	'Holdings Source',
	'Map Automatically finds the columns under their usual headers',
	'every row needs',
	'Mapping Column Mode',
	'Map Automatically',
	'Group By',
];
/** Version 1 fields that version 2 replaced (Holding Fields) or moved into Options: not in the form itself. */
const HOLDINGS_V1_FIELDS = ['Holding Fields', 'Invalid ISINs', 'Cash and Rows Without ISIN'];
/** The Options collection of every operation that can send more than one request. */
const REQUEST_OPTIONS = ['Max Requests per Run'];
/**
 * The Options collection of a holdings operation (version 2); Cash and Rows Without ISIN only where the route
 * takes rows out (nodes/shared/api/routes.ts `removesRows`: every holdings route but Create or Update Snapshot).
 */
function holdingsOptions(removesRows: boolean): string[] {
	return [
		...(removesRows ? ['Cash and Rows Without ISIN'] : []),
		'Invalid ISINs',
		...REQUEST_OPTIONS,
		'Max Wait When Throttled (Seconds)',
		'Number Format',
		'Weights Are',
	];
}
/** The six holding fields of the column mapper, as the editor labels them (HOLDING_FIELDS titles). */
const HOLDING_FIELD_TITLES = [
	'ISIN',
	'Name',
	'Instrument Type',
	'Currency',
	'Weight',
	'Market Value',
] as const;
type HoldingFieldTitle = (typeof HOLDING_FIELD_TITLES)[number];
/** The instrument types of the API, as the Instrument Type dropdown names them. */
const INSTRUMENT_TYPE_NAMES = [
	'Stock',
	'Bond',
	'ETF',
	'Mutual Fund',
	'Cash',
	'Option',
	'Future',
	'Forward Contract',
	'Lending',
	'Other',
	'Warrant',
	'Sovereign Bond',
];
/** Required by the ISIN routes (Sustainable Investments, EU Taxonomy, Temperature Score): ISIN_HOLDINGS. */
const ISIN_ROUTE_REQUIRED: HoldingFieldTitle[] = [
	'ISIN',
	'Name',
	'Instrument Type',
	'Market Value',
];
/** n8n's words when the column mapper could not load its fields ("holding fields" is our fieldWords). */
const MAPPER_ERRORS = ["Can't get holding fields", 'No holding fields found'];
/** The Options collection of the four instrument lookups (version 2: Invalid ISINs is beside the ISINs). */
const INSTRUMENT_OPTIONS = [
	'Batch Size',
	'Concurrency',
	'Max Wait When Throttled (Seconds)',
	...REQUEST_OPTIONS,
];

/** A form with its Options collection opened: every option added, so each shows. */
function withOptionsOpened(
	check: FormCheck,
	options: string[],
	placeholder = 'Add Option',
): FormCheck {
	return {
		...check,
		expect: [...check.expect, ...options],
		then: async (ctx) => {
			await check.then?.(ctx);
			await addCollectionOptions(ctx.page, placeholder, options);
		},
	};
}

/**
 * Holding Columns switched to "Map Each Column Manually": the six typed fields, loaded by the editor through the
 * node's getHoldingColumns method, each marked required (no remove button, an issue icon while empty: n8n's column
 * mapper shows no "*") exactly where the route requires it (nodes/shared/api/routes.ts, written out here so that a change
 * there shows as a failure). `openInstrumentTypes` also opens the Instrument Type dropdown.
 */
function manualHoldingColumns(
	node: string,
	action: string,
	required: HoldingFieldTitle[],
	openInstrumentTypes = false,
): FormCheck {
	return {
		node,
		action,
		expect: [
			'Mapping Column Mode',
			'Map Each Column Manually',
			'Values to Send',
			...HOLDING_FIELD_TITLES,
		],
		absent: MAPPER_ERRORS,
		then: async ({ page }) => {
			await chooseMappingMode(page, 'Map Each Column Manually');
			await assertRequiredMarks(page, required);
			if (openInstrumentTypes)
				await openMappedFieldOptions(page, 'instrument_type', INSTRUMENT_TYPE_NAMES);
		},
		verify: ({ restCalls }) => assertHoldingColumnsLoaded(restCalls),
	};
}

/** Issue 28's newcomer: a typed list whose last ISIN has a wrong check digit (Apple's, last digit changed). */
const TYPED_LIST = 'US0378331005, DE0007236101, US0378331006';
const TYPED_ISINS = ['US0378331005', 'DE0007236101', 'US0378331006'];

/**
 * The newcomer's walk in the editor (issue 28): Sustainability Instruments → Get SFDR Classification (the editor adds
 * the Manual Trigger before it) → A List Typed Here with a bad ISIN → Invalid ISINs (beside the ISINs) → Execute step;
 * then what the output table and the notes above it show. Select them alone with the node name "Newcomer walk".
 */
const WALK = 'Newcomer walk';
const NEWCOMER_WALKS: Record<string, FormCheck> = {
	'Newcomer walk - typed list with a bad ISIN - Skip and Report': {
		node: 'Sustainability Instruments',
		walk: WALK,
		action: 'Get SFDR classification',
		expect: [
			...TYPED_ISINS,
			'1 request sent.',
			'1 ISIN not sent (1 invalid ISIN): see reason in the output.',
		],
		then: async ({ page }) => {
			await typeIsinList(page, 'Skip and Report');
			await executeStep(page);
			await showOutputAsTable(page);
			await assertOutputTable(page, {
				firstColumns: ['isin', 'found', 'reason'],
				rows: 3,
				firstRowCells: TYPED_ISINS,
				notes: ['1 request sent.', '1 ISIN not sent (1 invalid ISIN): see reason in the output.'],
				absentNotes: ['Max Requests per Run', 'planned'],
			});
		},
	},
	'Newcomer walk - typed list with a bad ISIN - Stop With an Error': {
		node: 'Sustainability Instruments',
		walk: WALK,
		action: 'Get SFDR classification',
		expect: [
			'3rd ISIN of the list: invalid ISIN: "US0378331006"',
			'Nothing was sent.',
			'Item Index',
		],
		then: async ({ page }) => {
			await typeIsinList(page);
			await executeStep(page);
			const ndv = page.getByTestId('ndv');
			await ndv.getByTestId('node-error-message').first().waitFor({ state: 'visible' });
			// n8n's own count of the item, under Error details > Other info: it must be the message's "Item 0".
			await ndv.getByText('Other info', { exact: true }).first().click();
			await page.waitForTimeout(500);
			const details = await ndv.getByTestId('output-panel').innerText();
			if (!/Item Index\s*:?\s*0\b/.test(details))
				throw new Error(
					`n8n's error details do not say Item Index 0: ${JSON.stringify(details.slice(0, 600))}`,
				);
		},
		verify: ({ sim }) => {
			if (sim.requests().some((request) => request.path.startsWith('/instruments')))
				throw new Error(
					'a request was sent for a list with an invalid ISIN under Stop With an Error',
				);
		},
	},
	'Newcomer walk - wrong API key': {
		node: 'Sustainability Instruments',
		walk: WALK,
		action: 'Get SFDR classification',
		expect: ['The API gateway does not know this API key'],
		absent: ['undefined'],
		then: async (ctx) => {
			await ctx.setApiKey('not-a-key');
			await typeIsinList(ctx.page, 'Skip and Report');
			await executeStep(ctx.page);
			await ctx.page
				.getByTestId('ndv')
				.getByTestId('node-error-message')
				.first()
				.waitFor({ state: 'visible' });
			await ctx.page.waitForTimeout(500);
		},
	},
	'Newcomer walk - example 01 run - hints on SFDR Classification': exampleRun(
		'01-holdings-sfdr-pai-involvements.json',
		'SFDR Classification',
		'Business Involvements',
		// The example's sheet: one row without an ISIN, three ISINs the API has no data for, one request.
		[
			'1 item not sent (1 without ISIN): see sfdr_reason in the output.',
			'No data for 3 of 14 ISINs asked (found = false).',
			'1 request sent.',
		],
	),
	'Newcomer walk - report run - hints on Generate PDF Report': exampleRun(
		'03-quarterly-report-email.json',
		'Generate MiFID II Report',
		'Generate MiFID II Report',
		// The example's weights add up to 94 %: said above the output, cut to n8n's 120 characters.
		['The weights of this portfolio add up to 94 %, not 100 %', '1 request sent.'],
		['Email the Report'],
	),
};

/**
 * Issue 36: what a newcomer sees on the holdings forms before and after the first run, one workflow each: a Manual
 * Trigger pinned to a small sheet (its `Weight %` cells empty, every row with a market value) → the node's form.
 * Select them alone with the name "Newcomer forms". Shots: `<node> - before the first run`, `- after the first run`,
 * `- Map Each Column Manually keeps the columns found`.
 */
const FORMS_WALK = 'Newcomer forms';
/** The sheet of the walk: the usual headers as a spreadsheet writes them, the weights left empty. */
const NEWCOMER_SHEET = [
	{
		ISIN: 'US0378331005',
		Name: 'Apple Inc.',
		Type: 'Stock',
		Currency: 'USD',
		'Weight %': '',
		'Market Value': 600000,
	},
	{
		ISIN: 'DE0007236101',
		Name: 'Siemens AG',
		Type: 'Stock',
		Currency: 'EUR',
		'Weight %': '',
		'Market Value': 400000,
	},
];
/** A sheet with two problems in different rows (and no weights, which the report works out): one error lists both. */
const PROBLEM_SHEET = [
	{ ...NEWCOMER_SHEET[0], Name: '' },
	{ ...NEWCOMER_SHEET[1], Currency: 'EURO' },
];
/** What Map Each Column Manually must start from on that sheet: the columns Map Automatically finds. */
const NEWCOMER_SHEET_MAPPING: Record<string, string> = {
	isin: '{{ $json.ISIN }}',
	name: '{{ $json.Name }}',
	instrument_type: '{{ $json.Type }}',
	currency: '{{ $json.Currency }}',
	weight: '{{ $json["Weight %"] }}',
	market_value: '{{ $json["Market Value"] }}',
};

interface NewcomerForm {
	node: string;
	type: string;
	parameters: Record<string, unknown>;
	/** The required fields left empty in the first shot (each must show n8n's issue mark), filled for the run. */
	required?: Record<string, unknown>;
	/** Run on PROBLEM_SHEET too: the texts of its one error (issue 36 item 1: every problem at once, before any request). */
	problems?: string[];
}

/**
 * n8n's mark on each required field left empty (its issue icon beside the input: n8n shows no "*" on node
 * parameters), found from the field's input up to the parameter's row.
 */
async function assertIssueMarks(page: Page, names: string[]): Promise<void> {
	const unmarked: string[] = [];
	for (const name of names) {
		const input = page.getByTestId('ndv').getByTestId(`parameter-input-${name}`).first();
		await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		const marked = await input.evaluate((element) => {
			let at = element as unknown as {
				parentElement: unknown;
				querySelector(s: string): unknown;
				querySelectorAll(s: string): { length: number };
			} | null;
			for (let depth = 0; at && depth < 6; depth++) {
				if (at.querySelectorAll('[data-test-id^="parameter-input-"]').length > 1) return false;
				if (at.querySelector('[data-test-id="parameter-issues"]')) return true;
				at = at.parentElement as typeof at;
			}
			return false;
		});
		if (!marked) unmarked.push(name);
		// Grey example text must not read like a value (issue 36: "grey example text looks filled in").
		const placeholder = await input
			.locator('input, textarea')
			.first()
			.getAttribute('placeholder')
			.catch(() => null);
		// n8n's own date picker says "Select date and time" when a dateTime field has no placeholder: not a value.
		if (placeholder && !placeholder.startsWith('e.g.') && placeholder !== 'Select date and time')
			unmarked.push(`${name} (placeholder ${JSON.stringify(placeholder)} reads like a value)`);
	}
	if (unmarked.length)
		throw new Error(
			`required fields without n8n's issue mark while empty, or with a placeholder that reads like a value: ${unmarked.join(', ')}`,
		);
}

/** Saves Run (pinned to the sheet) → the node (its required fields `filled` or left empty), and opens its panel. */
function openNewcomerForm(
	form: NewcomerForm,
	filled: boolean,
	sheet: Array<Record<string, unknown>> = NEWCOMER_SHEET,
): (ctx: ShotContext) => Promise<void> {
	return async (ctx) => {
		const id = await ctx.saveWorkflow({
			name: `Newcomer ${form.node}`,
			nodes: [
				{
					id: 'run',
					name: 'Run',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'form',
					name: form.node,
					type: form.type,
					typeVersion: 2,
					position: [300, 0],
					parameters: { ...form.parameters, ...(filled ? form.required : {}) },
					credentials: { [CREDENTIAL_TYPE]: { id: '', name: CREDENTIAL_NAME } },
				},
			],
			connections: { Run: { main: [[{ node: form.node, type: 'main', index: 0 }]] } },
			pinData: { Run: sheet.map((json) => ({ json })) },
		});
		await ctx.page.goto(`${ctx.base}/workflow/${id}`, { timeout: UI_TIMEOUT_MS });
		// On a busy machine the double click may open the panel while Playwright still waits for the page to settle.
		await ctx.page
			.locator(`[data-test-id="canvas-node"][data-node-name=${JSON.stringify(form.node)}]`)
			.dblclick()
			.catch(() => undefined);
		await ctx.page.getByTestId('ndv').waitFor({ state: 'visible' });
		await ctx.page.getByTestId('node-parameters').waitFor({ state: 'visible' });
		await ctx.page.waitForTimeout(1500);
	};
}

/** The mapped values shown under Values to Send, by field id (the expression text of each field). */
async function mappedValues(page: Page): Promise<Record<string, string>> {
	const container = page.getByTestId('ndv').getByTestId('mapping-fields-container');
	const values: Record<string, string> = {};
	for (const field of Object.keys(NEWCOMER_SHEET_MAPPING)) {
		const input = container.getByTestId(`parameter-input-${field}`);
		values[field] = (await input.count())
			? (await input.first().innerText()).trim() ||
				(await input
					.first()
					.locator('input, textarea')
					.first()
					.inputValue()
					.catch(() => ''))
			: '(no field)';
	}
	return values;
}

/** The three shots of one holdings form in the newcomer's walk. */
function newcomerForm(
	label: string,
	form: NewcomerForm,
	before: { expect: string[]; absent?: string[] },
	after: { expect: string[]; absent?: string[] },
): Record<string, FormCheck> {
	const open = openNewcomerForm(form, false);
	return {
		[`${FORMS_WALK} - ${label} - before the first run`]: {
			node: form.node,
			walk: FORMS_WALK,
			open,
			then: async ({ page }) => assertIssueMarks(page, Object.keys(form.required ?? {})),
			...before,
		},
		[`${FORMS_WALK} - ${label} - after the first run`]: {
			node: form.node,
			walk: FORMS_WALK,
			open: openNewcomerForm(form, true),
			then: async ({ page }) => {
				await executeStep(page);
				await page.waitForTimeout(1000);
				const output = await page.getByTestId('ndv').getByTestId('output-panel').innerText();
				console.log(
					`     output after the first run: ${output.split('\n').filter(Boolean).slice(0, 8).join(' | ')}`,
				);
			},
			...after,
		},
		...(form.problems
			? {
					[`${FORMS_WALK} - ${label} - a sheet with several problems: one error lists them all`]: {
						node: form.node,
						walk: FORMS_WALK,
						open: openNewcomerForm(form, true, PROBLEM_SHEET),
						then: async ({ page }) => {
							await executeStep(page);
							await page.waitForTimeout(1000);
						},
						expect: form.problems,
					},
				}
			: {}),
		[`${FORMS_WALK} - ${label} - Map Each Column Manually keeps the columns found`]: {
			node: form.node,
			walk: FORMS_WALK,
			open,
			expect: ['Map Each Column Manually', 'Values to Send'],
			absent: MAPPER_ERRORS,
			then: async ({ page }) => {
				await chooseMappingMode(page, 'Map Each Column Manually');
				const shown = await mappedValues(page);
				const wrong = Object.entries(NEWCOMER_SHEET_MAPPING).filter(
					([field, expression]) => !shown[field]?.includes(expression),
				);
				if (wrong.length)
					throw new Error(
						`Map Each Column Manually does not start from the columns found: ${wrong
							.map(
								([field, expression]) =>
									`${field} shows ${JSON.stringify(shown[field])}, not ${expression}`,
							)
							.join('; ')}`,
					);
			},
		},
	};
}

const PACKAGE = 'n8n-nodes-sustainability-compliance';
/** Each holdings form: what its notice must say before the run (routes.ts: what it reads, needs, may derive). */
const NEWCOMER_FORMS: Record<string, FormCheck> = {
	...newcomerForm(
		'Generate PDF Report',
		{
			node: 'Quarterly Report',
			type: `${PACKAGE}.sustainabilityReports`,
			parameters: { operation: 'generatePdfReport' },
			required: { reportName: 'Balanced Fund Q3 2025', reportId: 'balanced-fund' },
			problems: [
				'2 problems in the input',
				'Item 0: the Name cell is empty',
				'"EURO" is not a three-letter ISO 4217 code',
			],
		},
		{
			expect: [
				'every row needs ISIN, Name, Currency and Market Value',
				'Weight may be missing',
				'worked out from Market Value',
			],
		},
		// The sheet's Weight % cells are all empty: the weights are worked out from the market values, and it says so.
		{
			expect: ['Quarterly Report', 'Weights worked out from market values'],
			absent: ['weight is missing'],
		},
	),
	...newcomerForm(
		'EU Taxonomy',
		{
			node: 'Taxonomy',
			type: `${PACKAGE}.euTaxonomy`,
			parameters: { operation: 'getPortfolioAlignment' },
		},
		{ expect: ['every row needs ISIN, Name and Market Value', 'Instrument Type may be missing'] },
		{ expect: ['Taxonomy'] },
	),
	...newcomerForm(
		'Sustainable Investments',
		{
			node: 'Classify',
			type: `${PACKAGE}.sustainableInvestments`,
			parameters: {
				operation: 'classifyHoldings',
				methodology: { __rl: true, mode: 'id', value: '1' },
			},
		},
		{ expect: ['every row needs ISIN, Name, Instrument Type and Market Value'] },
		{ expect: ['Classify'] },
	),
	...newcomerForm(
		'Temperature Score',
		{
			node: 'Temperature',
			type: `${PACKAGE}.temperatureScore`,
			parameters: { operation: 'getPortfolioTemperature' },
		},
		{
			expect: [
				'every row needs ISIN, Name, Instrument Type and Market Value',
				'Weight is optional here',
			],
		},
		{ expect: ['Temperature'] },
	),
	...newcomerForm(
		'Create or Update Snapshot',
		{
			node: 'Snapshot',
			type: `${PACKAGE}.portfolioSnapshots`,
			parameters: { operation: 'createOrUpdateSnapshot' },
			required: {
				portfolioId: 'growth-europe',
				portfolioName: 'Growth Europe',
				snapshotDate: '2025-09-30',
			},
		},
		{ expect: ['every row needs Name, Currency and Market Value'] },
		{ expect: ['Snapshot'] },
	),
};

/**
 * An example workflow saved and run in the editor (its schedule trigger replaced by a Manual Trigger, `drop` nodes
 * left out), then `node`'s panel opened: the notes above its output after a real run (issue 26 item 3).
 */
function exampleRun(
	file: string,
	node: string,
	lastNode: string,
	notes: string[],
	drop: string[] = [],
): FormCheck {
	return {
		node: 'Sustainability Instruments',
		walk: WALK,
		expect: [node],
		open: async (ctx) => {
			const example = JSON.parse(readFileSync(join(PROJECT_ROOT, 'examples', file), 'utf8')) as {
				name: string;
				nodes: Array<{ name: string; type: string }>;
				connections: Record<string, { main: Array<Array<{ node: string }>> }>;
			};
			const trigger = example.nodes.find((n) => /trigger/i.test(n.type))!;
			const nodes = [
				{
					id: 'manual-trigger',
					name: 'Run',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				...example.nodes.filter((n) => n !== trigger && !drop.includes(n.name)),
			];
			const connections: Record<string, unknown> = {};
			for (const [from, outputs] of Object.entries(example.connections)) {
				if (drop.includes(from)) continue;
				connections[from === trigger.name ? 'Run' : from] = {
					main: outputs.main.map((targets) => targets.filter((t) => !drop.includes(t.node))),
				};
			}
			const id = await ctx.saveWorkflow({ name: example.name, nodes, connections });
			await ctx.page.goto(`${ctx.base}/workflow/${id}`, { timeout: UI_TIMEOUT_MS });
			await ctx.page.getByTestId('execute-workflow-button').first().click();
			const canvasNode = (name: string) =>
				ctx.page.locator(`[data-test-id="canvas-node"][data-node-name=${JSON.stringify(name)}]`);
			await canvasNode(lastNode)
				.locator('[data-test-id="canvas-node-status-success"]')
				.first()
				.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS * 2 });
			await canvasNode(node).dblclick();
			await ctx.page.getByTestId('ndv').waitFor({ state: 'visible' });
			await ctx.page.waitForTimeout(1000);
		},
		then: async ({ page }) => {
			await showOutputAsTable(page);
			await assertOutputTable(page, {
				firstColumns: [],
				notes,
				absentNotes: ['planned', 'Max Requests per Run'],
			});
		},
	};
}

/** Picks A List Typed Here, types the list and, when given, the Invalid ISINs choice beside it. */
async function typeIsinList(page: Page, invalidIsins?: string): Promise<void> {
	await chooseOption(page, 'isinSource', 'A List Typed Here');
	const field = page.getByTestId('parameter-input-isinList');
	await field.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await field.locator('textarea, input').first().fill(TYPED_LIST);
	await page.waitForTimeout(300);
	if (invalidIsins) await chooseOption(page, 'invalidIsins', invalidIsins);
}

/** Clicks the panel's Execute step and waits until the output panel has the run's items or its error. */
async function executeStep(page: Page): Promise<void> {
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('node-execute-button').first().click();
	const output = ndv.getByTestId('output-panel');
	const deadline = Date.now() + UI_TIMEOUT_MS * 2;
	while (Date.now() < deadline) {
		const text = await output.innerText().catch(() => '');
		if (
			/\d+ items?\b/.test(text) ||
			(await ndv.getByTestId('node-error-message').first().isVisible())
		)
			return;
		await sleep(300);
	}
	throw new Error(
		`the output panel shows no items after Execute step: ${(await output.innerText().catch(() => '')).slice(0, 300)}`,
	);
}

/** Switches the output panel to its table view (n8n may open it in schema or JSON view). */
async function showOutputAsTable(page: Page): Promise<void> {
	const output = page.getByTestId('ndv').getByTestId('output-panel');
	const mode = output.getByTestId('ndv-run-data-display-mode').first();
	if (await mode.isVisible()) {
		await mode.getByText('Table', { exact: true }).first().click();
		await page.waitForTimeout(500);
	}
	await output.locator('table').first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

/**
 * What the output table shows: its first column headers, no cell reading `undefined`, the typed ISIN in the first
 * cells; and the notes above it (n8n's execution hints) with and without given words.
 */
async function assertOutputTable(
	page: Page,
	expected: {
		firstColumns: string[];
		rows?: number;
		firstRowCells?: string[];
		notes: string[];
		absentNotes: string[];
	},
): Promise<void> {
	const output = page.getByTestId('ndv').getByTestId('output-panel');
	const table = await output
		.locator('table')
		.first()
		.evaluate((element) => {
			const texts = (selector: string) =>
				Array.from(element.querySelectorAll(selector)).map((cell) =>
					(cell.textContent ?? '').trim(),
				);
			const rows = Array.from(element.querySelectorAll('tbody tr')).map((row) =>
				Array.from(
					(
						row as unknown as {
							querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
						}
					).querySelectorAll('td'),
				).map((cell) => (cell.textContent ?? '').trim()),
			);
			return { headers: texts('thead th'), rows };
		});
	const headers = table.headers.filter(Boolean);
	const first = headers.slice(0, expected.firstColumns.length);
	if (expected.firstColumns.some((column, index) => !first[index]?.startsWith(column)))
		throw new Error(
			`the table's first columns are ${JSON.stringify(headers.slice(0, 6))}, expected ${JSON.stringify(expected.firstColumns)} first`,
		);
	if (expected.rows !== undefined && table.rows.length !== expected.rows)
		throw new Error(`the table shows ${table.rows.length} rows, expected ${expected.rows}`);
	const undefinedCells = table.rows.flat().filter((cell) => cell === 'undefined');
	if (undefinedCells.length)
		throw new Error(`${undefinedCells.length} cell(s) of the table read "undefined"`);
	if (expected.firstRowCells) {
		const firstCells = table.rows.map((row) => row.find(Boolean) ?? '');
		const missing = expected.firstRowCells.filter(
			(isin) => !firstCells.some((cell) => cell.includes(isin)),
		);
		if (missing.length)
			throw new Error(
				`not in the table's first column: ${missing.join(', ')} (first cells: ${firstCells.join(' | ')})`,
			);
	}
	const notes = await output
		.getByTestId('run-data-hints')
		.first()
		.innerText()
		.catch(() => '');
	const missingNotes = expected.notes.filter((note) => !notes.includes(note));
	if (missingNotes.length)
		throw new Error(
			`notes above the output lack ${JSON.stringify(missingNotes)}; they read: ${JSON.stringify(notes)}`,
		);
	const wrongNotes = expected.absentNotes.filter((note) => notes.includes(note));
	if (wrongNotes.length)
		throw new Error(
			`notes above the output say ${JSON.stringify(wrongNotes)}: ${JSON.stringify(notes)}`,
		);
	console.log(
		`     table columns: ${headers.slice(0, 8).join(', ')}${headers.length > 8 ? ', …' : ''}; notes: ${notes.split('\n').filter(Boolean).join(' | ')}`,
	);
}

/**
 * The README's Quick start (issue 24 item 5): examples/10, the upload form, saved with our credential and published;
 * its form opened at the production URL with examples/holdings.sample.xlsx chosen in the file field (first shot),
 * then submitted in the browser, and the execution the upload started opened in the workflow's Executions view with
 * SFDR Classification's output as a table (second shot). Select them alone with "Upload form".
 */
const UPLOAD_GROUP = 'Upload form';
const UPLOAD_FORM_EXAMPLE = '10-upload-holdings-form.json';
const UPLOAD_RESULT_NODE = 'SFDR Classification';
/** examples/10 saved and published once per run (both shots use it): its id. */
let uploadFormWorkflow: Promise<string> | undefined;

async function publishUploadForm(ctx: ShotContext): Promise<string> {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, UPLOAD_FORM_EXAMPLE), 'utf8')) as {
		name: string;
		nodes: unknown[];
		connections: unknown;
	};
	const id = await ctx.saveWorkflow(workflow, true);
	const saved = await ctx.request.get(`${ctx.base}/rest/workflows/${id}`);
	const versionId = (JSON.parse(await saved.text()) as { data?: { versionId?: string } }).data
		?.versionId;
	if (saved.status() !== 200 || !versionId)
		throw new Error(`GET /rest/workflows/${id} answered ${saved.status()} without a versionId`);
	// As the editor's Publish button does.
	const published = await ctx.request.post(`${ctx.base}/rest/workflows/${id}/activate`, {
		data: { versionId },
	});
	if (published.status() !== 200)
		throw new Error(
			`publishing ${UPLOAD_FORM_EXAMPLE} answered ${published.status()}: ${(await published.text()).slice(0, 300)}`,
		);
	return id;
}

/** Opens the published form at its production URL and chooses the sample workbook in its file field. */
async function openUploadForm(ctx: ShotContext): Promise<string> {
	uploadFormWorkflow ??= publishUploadForm(ctx);
	const id = await uploadFormWorkflow;
	const { page } = ctx;
	await page.setViewportSize({ width: 960, height: 1000 });
	const url = `${ctx.base}/form/${UPLOAD_FORM.path}`;
	// n8n may add the form's webhook a moment after answering the activation.
	const deadline = Date.now() + UI_TIMEOUT_MS;
	for (;;) {
		const response = (await page.goto(url, { timeout: UI_TIMEOUT_MS })) as {
			status(): number;
		} | null;
		if (response?.status() === 200) break;
		if (Date.now() > deadline) throw new Error(`GET ${url} answered ${response?.status()}`);
		await sleep(1000);
	}
	await page.locator('input[type="file"]').first().setInputFiles(SAMPLE_WORKBOOK);
	await page.waitForTimeout(500);
	return id;
}

/** The executions of a workflow n8n lists (newest first), with their status. */
async function workflowExecutions(
	ctx: ShotContext,
	workflowId: string,
): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await ctx.request.get(`${ctx.base}/rest/executions?filter=${filter}`);
	const text = await answer.text();
	if (answer.status() !== 200)
		throw new Error(`GET /rest/executions answered ${answer.status()}: ${text.slice(0, 200)}`);
	return (JSON.parse(text) as { data: { results: Array<{ id: string; status: string }> } }).data
		.results;
}

const SAMPLE_ISINS = WORKBOOK_HOLDINGS.map((holding) => holding.isin).filter(Boolean);

const UPLOAD_FORM_SHOTS: Record<string, FormCheck> = {
	[UPLOAD_GROUP]: {
		node: 'Sustainability Instruments',
		walk: UPLOAD_GROUP,
		expect: [
			'Portfolio check: SFDR and PAI',
			`label for the file field: ${UPLOAD_FORM.field}`,
			'Check my portfolio',
			`file chosen: ${basename(SAMPLE_WORKBOOK)}`,
		],
		open: async (ctx) => {
			await openUploadForm(ctx);
		},
		shownText: async ({ page }) => {
			const fileInput = page.locator('input[type="file"]').first();
			const inputId = await fileInput.getAttribute('id');
			const label = await page
				.locator(`label[for=${JSON.stringify(inputId ?? '')}]`)
				.first()
				.innerText()
				.catch(() => '(no label)');
			const chosen = await fileInput.evaluate((element) =>
				Array.from((element as unknown as { files: ArrayLike<{ name: string }> }).files).map(
					(file) => file.name,
				),
			);
			return [
				await page.locator('body').innerText(),
				`label for the file field: ${label.replace(/\s*\*\s*$/, '').trim()}`,
				...chosen.map((name) => `file chosen: ${name}`),
			].join('\n');
		},
	},
	[`${UPLOAD_GROUP} - result`]: {
		node: 'Sustainability Instruments',
		walk: UPLOAD_GROUP,
		expect: [UPLOAD_RESULT_NODE, ...SAMPLE_ISINS],
		open: async (ctx) => {
			const workflowId = await openUploadForm(ctx);
			const { page } = ctx;
			const before = new Set((await workflowExecutions(ctx, workflowId)).map((e) => e.id));
			await page.locator('#submit-btn').click();
			// The completion page (Form ending) once the execution waits there; the workbook downloads from it.
			await page
				.getByText('Your portfolio check is ready')
				.first()
				.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS * 4 });
			let execution: { id: string; status: string } | undefined;
			const deadline = Date.now() + UI_TIMEOUT_MS;
			while (Date.now() < deadline) {
				execution = (await workflowExecutions(ctx, workflowId)).find((e) => !before.has(e.id));
				if (execution?.status === 'success') break;
				await sleep(500);
			}
			if (execution?.status !== 'success')
				throw new Error(
					`the upload's execution is ${execution ? `${execution.id}, ${execution.status}` : 'not listed'}`,
				);
			await page.setViewportSize({ width: 2080, height: 1000 });
			await page.goto(`${ctx.base}/workflow/${workflowId}/executions/${execution.id}`, {
				timeout: UI_TIMEOUT_MS,
			});
			const node = page.locator(
				`[data-test-id="canvas-node"][data-node-name=${JSON.stringify(UPLOAD_RESULT_NODE)}]`,
			);
			await node.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
			await node.first().dblclick();
			await page.getByTestId('ndv').waitFor({ state: 'visible' });
			await page.waitForTimeout(1000);
		},
		then: async ({ page }) => {
			await showOutputAsTable(page);
			await widenOutputPanel(page);
			await assertSampleRows(page);
		},
	},
};

/** Drags the parameter panel to the left edge of the node panel: the output table gets most of the width. */
async function widenOutputPanel(page: Page): Promise<void> {
	const box = await page.getByTestId('ndv').getByTestId('panel-drag-button').first().boundingBox();
	if (!box) throw new Error("the node panel's drag button is not shown");
	const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
	await page.mouse.move(x, y);
	await page.mouse.down();
	for (let step = 1; step <= 10; step++) await page.mouse.move(x - ((x - 20) * step) / 10, y);
	await page.mouse.up();
	await page.waitForTimeout(800);
}

/**
 * The output table of SFDR Classification after the upload: one row per row of the sample workbook, in its order,
 * each with its ISIN and the simulator's SFDR article (none for the cash row).
 */
async function assertSampleRows(page: Page): Promise<void> {
	const table = await page
		.getByTestId('ndv')
		.getByTestId('output-panel')
		.locator('table')
		.first()
		.evaluate((element) => ({
			headers: Array.from(element.querySelectorAll('thead th')).map((cell) =>
				(cell.textContent ?? '').trim(),
			),
			rows: Array.from(element.querySelectorAll('tbody tr')).map((row) =>
				Array.from(
					(
						row as unknown as {
							querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
						}
					).querySelectorAll('td'),
				).map((cell) => (cell.textContent ?? '').trim()),
			),
		}));
	const column = (name: string) => {
		const index = table.headers.findIndex((header) => header.startsWith(name));
		if (index < 0)
			throw new Error(`the output table has no column ${name}: ${table.headers.join(', ')}`);
		return index;
	};
	const isinColumn = column('ISIN');
	const foundColumn = column('sfdr_found');
	const articleColumn = column('sfdr_article');
	if (table.rows.length !== WORKBOOK_HOLDINGS.length)
		throw new Error(
			`the output table shows ${table.rows.length} rows, the sample has ${WORKBOOK_HOLDINGS.length}`,
		);
	WORKBOOK_HOLDINGS.forEach((holding, index) => {
		const row = table.rows[index];
		// n8n writes "undefined" in the cell of a field an item lacks (the cash row has no ISIN) and "null" for null
		// (an ISIN the API has no data for: found = false).
		const sfdr = holding.isin ? instrumentData(holding.isin).sfdr : undefined;
		const expected = {
			isin: holding.isin || 'undefined',
			found: String(sfdr !== undefined && sfdr !== null),
			article: sfdr === undefined ? row[articleColumn] : sfdr === null ? 'null' : `Article ${sfdr}`,
		};
		const shown = { isin: row[isinColumn], found: row[foundColumn], article: row[articleColumn] };
		if (JSON.stringify(shown) !== JSON.stringify(expected))
			throw new Error(
				`row ${index + 1} (${holding.name}) shows ${JSON.stringify(shown)}, expected ${JSON.stringify(expected)}`,
			);
	});
	console.log(
		`     ${table.rows.length} rows; columns: ${table.headers.filter(Boolean).slice(0, 12).join(', ')}, …`,
	);
}

/**
 * One entry per screenshot, keyed by its label (the file is `<out>/<label as slug>.png`).
 * HTTP Request is a built-in node: it proves the harness itself works.
 */
const FORMS: Record<string, FormCheck> = {
	'HTTP Request': {
		node: 'HTTP Request',
		expect: ['Method', 'URL', 'Authentication', 'Send Headers'],
	},

	// Sustainability Instruments: four operations.
	'Sustainability Instruments - Get SFDR Classification': {
		node: 'Sustainability Instruments',
		action: 'Get SFDR classification',
		expect: [
			...OUR_FORM,
			'Get SFDR Classification',
			'ISINs From',
			'ISIN Field',
			'Invalid ISINs',
			'Stop With an Error',
			'Output',
			'Simplify',
			'Options',
		],
	},
	'Sustainability Instruments - Get PAI Indicators': {
		node: 'Sustainability Instruments',
		action: 'Get PAI indicators',
		expect: [...OUR_FORM, 'Get PAI Indicators', 'ISINs From', 'ISIN Field', 'Output', 'Simplify'],
	},
	'Sustainability Instruments - Get Business Involvements': {
		node: 'Sustainability Instruments',
		action: 'Get business involvements',
		expect: [
			...OUR_FORM,
			'Get Business Involvements',
			'Minimum Threshold',
			'ISINs From',
			'ISIN Field',
			'Output',
		],
	},
	'Sustainability Instruments - Get ESG Data': {
		node: 'Sustainability Instruments',
		action: 'Get ESG data',
		expect: [...OUR_FORM, 'Get ESG Data', 'ISINs From', 'ISIN Field', 'Output'],
	},
	'Sustainability Instruments - Get SFDR Classification - Options': withOptionsOpened(
		{
			node: 'Sustainability Instruments',
			action: 'Get SFDR classification',
			expect: ['Get SFDR Classification'],
		},
		INSTRUMENT_OPTIONS,
	),
	'Sustainability Instruments - Get SFDR Classification - ISINs typed here': {
		node: 'Sustainability Instruments',
		action: 'Get SFDR classification',
		expect: ['A List Typed Here', 'ISINs', 'Invalid ISINs', 'One Item per Instrument'],
		then: async ({ page }) => chooseOption(page, 'isinSource', 'A List Typed Here'),
	},
	...NEWCOMER_WALKS,
	...NEWCOMER_FORMS,
	...UPLOAD_FORM_SHOTS,
	'Sustainability Instruments - Get SFDR Classification - Portfolio Summary': {
		node: 'Sustainability Instruments',
		action: 'Get SFDR classification',
		expect: [
			'Portfolio Summary',
			'Weight Holdings By',
			'Market Value',
			'Market Value Field',
			'Group By',
		],
		then: async ({ page }) => chooseOption(page, 'outputMode', 'Portfolio Summary'),
	},
	'Sustainability Instruments - Get SFDR Classification - Only Changes Since Last Run': {
		node: 'Sustainability Instruments',
		action: 'Get SFDR classification',
		expect: [
			'Only Changes Since Last Run',
			'Only runs of the active (published) workflow',
			'ISINs Seen for the First Time',
			'Remember Only',
			'Fields to Compare',
			'Ignore Numeric Changes Up To',
			'Forget ISINs Missing For (Runs)',
		],
		then: async ({ page }) => chooseOption(page, 'outputMode', 'Only Changes Since Last Run'),
	},

	// Portfolio Snapshots: four operations + the portfolio list of Update.
	'Portfolio Snapshots - Create or Update Snapshot': {
		node: 'Portfolio Snapshots',
		action: 'Create or update a portfolio snapshot',
		expect: [
			...OUR_FORM,
			'Create or Update Snapshot',
			'Portfolio ID',
			'Portfolio Name',
			'Currency',
			'Snapshot Date',
			...HOLDINGS_FORM,
		],
		absent: HOLDINGS_V1_FIELDS,
	},
	'Portfolio Snapshots - Create or Update Snapshot - Options': withOptionsOpened(
		{
			node: 'Portfolio Snapshots',
			action: 'Create or update a portfolio snapshot',
			expect: ['Create or Update Snapshot'],
			absent: ['Cash and Rows Without ISIN'],
		},
		holdingsOptions(false),
	),
	'Portfolio Snapshots - Create or Update Snapshot - Holding Columns mapped manually':
		manualHoldingColumns('Portfolio Snapshots', 'Create or update a portfolio snapshot', [
			'Name',
			'Currency',
			'Market Value',
		]),
	'Portfolio Snapshots - Create or Update Snapshot - holdings as JSON': {
		node: 'Portfolio Snapshots',
		action: 'Create or update a portfolio snapshot',
		expect: ['Holdings Source', 'Holdings (JSON)', 'US0378331005'],
		then: async ({ page }) => chooseOption(page, 'holdingsSource', 'JSON'),
	},
	'Portfolio Snapshots - Update': {
		node: 'Portfolio Snapshots',
		action: 'Update a portfolio',
		expect: [...OUR_FORM, 'Update', 'Portfolio', 'Update Fields'],
	},
	'Portfolio Snapshots - Update - Update Fields and Options': withOptionsOpened(
		withOptionsOpened(
			{
				node: 'Portfolio Snapshots',
				action: 'Update a portfolio',
				expect: ['Update Fields', 'refused before anything is sent'],
			},
			['Currency', 'Name'],
			'Add Field',
		),
		REQUEST_OPTIONS,
	),
	'Portfolio Snapshots - Update - portfolio list': {
		node: 'Portfolio Snapshots',
		action: 'Update a portfolio',
		expect: ['Update', STORED_PORTFOLIO.name],
		then: async ({ page }) => openDynamicList(page, 'portfolio', STORED_PORTFOLIO.name),
		verify: ({ sim }) => assertListRequests(sim, 'GET /portfolios'),
	},
	'Portfolio Snapshots - Delete Snapshot': {
		node: 'Portfolio Snapshots',
		action: 'Delete a portfolio snapshot',
		expect: [...OUR_FORM, 'Delete Snapshot', 'Portfolio', 'Snapshot Date'],
	},
	'Portfolio Snapshots - Delete Snapshot - Options': withOptionsOpened(
		{
			node: 'Portfolio Snapshots',
			action: 'Delete a portfolio snapshot',
			expect: ['Delete Snapshot'],
		},
		REQUEST_OPTIONS,
	),
	'Portfolio Snapshots - Get Many': {
		node: 'Portfolio Snapshots',
		action: 'Get many portfolios',
		expect: [...OUR_FORM, 'Get Many', 'Return All', 'Limit'],
	},
	'Portfolio Snapshots - Get Many - Options': withOptionsOpened(
		{ node: 'Portfolio Snapshots', action: 'Get many portfolios', expect: ['Get Many'] },
		['Name Contains'],
	),

	// Sustainable Investments: two operations + the methodology list.
	'Sustainable Investments - Classify Holdings': {
		node: 'Sustainable Investments',
		action: 'Classify holdings',
		expect: [...OUR_FORM, 'Classify Holdings', 'Methodology', ...HOLDINGS_FORM],
		absent: HOLDINGS_V1_FIELDS,
	},
	'Sustainable Investments - Classify Holdings - Options': withOptionsOpened(
		{
			node: 'Sustainable Investments',
			action: 'Classify holdings',
			expect: ['Classify Holdings'],
		},
		holdingsOptions(true),
	),
	'Sustainable Investments - Classify Holdings - Holding Columns mapped manually':
		manualHoldingColumns('Sustainable Investments', 'Classify holdings', ISIN_ROUTE_REQUIRED),
	'Sustainable Investments - Classify Holdings - Holding Columns - Instrument Type list':
		manualHoldingColumns('Sustainable Investments', 'Classify holdings', ISIN_ROUTE_REQUIRED, true),
	'Sustainable Investments - Classify Holdings - methodology list': {
		node: 'Sustainable Investments',
		action: 'Classify holdings',
		expect: ['Methodology', ...METHODOLOGY_NAMES],
		then: async ({ page }) => openDynamicList(page, 'methodology', METHODOLOGY_NAMES[0]),
		verify: ({ sim }) => assertListRequests(sim, 'GET /sustainable-investments/methodologies'),
	},
	'Sustainable Investments - Get Methodologies': {
		node: 'Sustainable Investments',
		action: 'Get methodologies',
		expect: [...OUR_FORM, 'Get Methodologies'],
	},

	'EU Taxonomy - Get Portfolio Alignment': {
		node: 'EU Taxonomy',
		action: 'Get portfolio alignment',
		expect: [...OUR_FORM, 'Get Portfolio Alignment', ...HOLDINGS_FORM, 'Output'],
		absent: HOLDINGS_V1_FIELDS,
	},
	'EU Taxonomy - Get Portfolio Alignment - Options': withOptionsOpened(
		{ node: 'EU Taxonomy', action: 'Get portfolio alignment', expect: ['Get Portfolio Alignment'] },
		holdingsOptions(true),
	),
	// The instrument type may be missing on this route (routes.ts derivedWhenMissing): not required in the mapper.
	'EU Taxonomy - Get Portfolio Alignment - Holding Columns mapped manually': manualHoldingColumns(
		'EU Taxonomy',
		'Get portfolio alignment',
		['ISIN', 'Name', 'Market Value'],
	),
	'Temperature Score - Get Portfolio Temperature': {
		node: 'Temperature Score',
		action: 'Get portfolio temperature',
		expect: [
			...OUR_FORM,
			'Get Portfolio Temperature',
			...HOLDINGS_FORM,
			'Output',
			'Wait for Calculation',
			'Poll Interval (Seconds)',
			'Max Wait (Seconds)',
		],
		absent: HOLDINGS_V1_FIELDS,
	},
	'Temperature Score - Get Portfolio Temperature - Options': withOptionsOpened(
		{
			node: 'Temperature Score',
			action: 'Get portfolio temperature',
			expect: ['Get Portfolio Temperature'],
		},
		holdingsOptions(true),
	),
	'Temperature Score - Get Portfolio Temperature - Holding Columns mapped manually':
		manualHoldingColumns('Temperature Score', 'Get portfolio temperature', ISIN_ROUTE_REQUIRED),
	'Sustainability Reports - Generate PDF Report': {
		node: 'Sustainability Reports',
		action: 'Generate PDF report',
		expect: [
			...OUR_FORM,
			'Generate PDF Report',
			'Report Name',
			'Report ID',
			'Type',
			'Snapshot Date',
			'Benchmark',
			'Benchmark Fund ISIN',
			...HOLDINGS_FORM,
			'Download PDF',
		],
		absent: HOLDINGS_V1_FIELDS,
	},
	'Sustainability Reports - Generate PDF Report - Options': withOptionsOpened(
		{
			node: 'Sustainability Reports',
			action: 'Generate PDF report',
			expect: ['Generate PDF Report'],
		},
		holdingsOptions(true),
	),
	'Sustainability Reports - Generate PDF Report - Holding Columns mapped manually':
		// The weight may be missing: worked out from market values (routes.ts derivedWhenMissing).
		manualHoldingColumns('Sustainability Reports', 'Generate PDF report', [
			'ISIN',
			'Name',
			'Currency',
			'Market Value',
		]),
	'Sustainability Reports - Generate PDF Report - other benchmark index': {
		node: 'Sustainability Reports',
		action: 'Generate PDF report',
		expect: ['Other Index (Type Its Name)', 'Benchmark Index Name'],
		then: async ({ page }) => chooseOption(page, 'benchmarkIndex', 'Other Index (Type Its Name)'),
	},
	'Sustainability Reports - Generate PDF Report - MiFID II methodology list': {
		node: 'Sustainability Reports',
		action: 'Generate PDF report',
		expect: ['MiFID II', 'Methodology', ...METHODOLOGY_NAMES],
		then: async ({ page }) => {
			await chooseOption(page, 'reportType', 'MiFID II');
			await openDynamicList(page, 'methodology', METHODOLOGY_NAMES[0]);
		},
		verify: ({ sim }) => assertListRequests(sim, 'GET /sustainable-investments/methodologies'),
	},
};

/**
 * The credential dialog (Home > Credentials > open one), which tests the credential when it opens: one
 * screenshot per key, to show how the sentences of the credential's test rules look to a user.
 * `expect` are texts of the dialog; `rule` = the body rule whose sentence must be shown.
 */
const CREDENTIAL_DIALOGS: Record<
	string,
	{
		apiKey: string;
		baseUrl?: (sim: Simulator) => string;
		expect: string[];
		rule?: [string, string];
		/** Words behind "More details" when they are not an answer's sentence (e.g. a refused Base URL). */
		details?: string;
		/** Texts the dialog must not show. */
		absent?: string[];
	}
> = {
	'Credential - valid key': {
		apiKey: 'sim-all-families',
		expect: ['Connection tested successfully'],
	},
	'Credential - unknown key': {
		apiKey: 'not-a-key',
		expect: ['connect with these settings'],
		rule: ['message', 'Forbidden'],
	},
	'Credential - key unknown to the API': {
		apiKey: 'sim-gateway-only',
		expect: ['connect with these settings'],
		rule: ['data.message', 'You must provide a valid API key'],
	},
	'Credential - disabled key': {
		apiKey: 'sim-disabled',
		expect: ['connect with these settings'],
		rule: ['data.message', 'You must provide an active API key'],
	},
	// Issue 36 item 4: the Base URL rule's words, not n8n's date wording around them ("toDateTime() supports ...").
	'Credential - Base URL refused': {
		apiKey: 'sim-all-families',
		baseUrl: (sim) => `http://0.0.0.0:${new URL(sim.url).port}`,
		expect: ['connect with these settings'],
		details: 'Base URL in the credential: "http://0.0.0.0:',
		absent: ['toDateTime', 'Unsupported format'],
	},
	'Credential - Base URL with a path': {
		apiKey: 'sim-all-families',
		baseUrl: (sim) => `${sim.url}/v1`,
		expect: ['connect with these settings'],
		rule: ['message', 'Missing Authentication Token'],
	},
};

const START_TIMEOUT_MS = Number(process.env.E2E_START_TIMEOUT_MS ?? 180_000);
const UI_TIMEOUT_MS = Number(process.env.E2E_UI_TIMEOUT_MS ?? 30_000);
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

// The DOM as seen by functions run in the page (the project's tsconfig has no "dom" lib).
interface DomElement {
	querySelectorAll(
		selector: string,
	): ArrayLike<{ value?: string; textContent: string | null; innerText?: string }>;
}

// Minimal shapes of the playwright-core API used here (the package lives in the cache folder,
// outside the project's dependencies, so its types are not available to tsc).
interface Locator {
	click(options?: { timeout?: number }): Promise<void>;
	dblclick(options?: { timeout?: number }): Promise<void>;
	fill(value: string, options?: { timeout?: number }): Promise<void>;
	first(): Locator;
	last(): Locator;
	nth(index: number): Locator;
	getByText(text: string, options?: { exact?: boolean }): Locator;
	getByTestId(id: string): Locator;
	locator(selector: string): Locator;
	innerText(options?: { timeout?: number }): Promise<string>;
	allInnerTexts(): Promise<string[]>;
	evaluate<T>(fn: (element: DomElement) => T): Promise<T>;
	waitFor(options?: { state?: 'visible' | 'attached'; timeout?: number }): Promise<void>;
	isVisible(): Promise<boolean>;
	boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null>;
	setInputFiles(files: string): Promise<void>;
	getAttribute(name: string): Promise<string | null>;
	count(): Promise<number>;
	inputValue(options?: { timeout?: number }): Promise<string>;
}
interface Page {
	goto(url: string, options?: { timeout?: number }): Promise<unknown>;
	getByTestId(id: string): Locator;
	getByText(text: string, options?: { exact?: boolean }): Locator;
	locator(selector: string): Locator;
	screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
	waitForTimeout(ms: number): Promise<void>;
	setDefaultTimeout(ms: number): void;
	setViewportSize(size: { width: number; height: number }): Promise<void>;
	mouse: {
		move(x: number, y: number): Promise<void>;
		down(): Promise<void>;
		up(): Promise<void>;
	};
	on(event: 'pageerror', listener: (error: Error) => void): void;
	on(event: 'response', listener: (response: PageResponse) => void): void;
	close(): Promise<void>;
}
interface PageResponse {
	url(): string;
	status(): number;
	request(): { method(): string; postData(): string | null };
}
interface ApiResponse {
	status(): number;
	text(): Promise<string>;
}
interface BrowserContext {
	newPage(): Promise<Page>;
	request: {
		get(url: string): Promise<ApiResponse>;
		post(url: string, options: { data: unknown }): Promise<ApiResponse>;
		patch(url: string, options: { data: unknown }): Promise<ApiResponse>;
		delete(url: string): Promise<ApiResponse>;
	};
	close(): Promise<void>;
}
interface PlaywrightCore {
	chromium: {
		launchPersistentContext(
			userDataDir: string,
			options: {
				executablePath: string;
				args: string[];
				viewport: { width: number; height: number };
			},
		): Promise<BrowserContext>;
	};
	selectors: { setTestIdAttribute(name: string): void };
}

interface Args {
	packageRoot: string;
	out: string;
	keep: boolean;
	shots: string[];
	dialogs: string[];
	credentialChecks: boolean;
	/** One n8n version: --n8n-version, else N8N_E2E_N8N_VERSION, else the newest supported. */
	n8nVersion: string;
}

const CREDENTIAL_CHECKS = 'credential-test';

function parseArgs(argv: string[]): Args {
	const args: Args = {
		packageRoot: PROJECT_ROOT,
		out: join(PROJECT_ROOT, 'test-output', 'screenshots'),
		keep: false,
		shots: [],
		dialogs: [],
		credentialChecks: true,
		n8nVersion: process.env.N8N_E2E_N8N_VERSION?.trim() || supportedN8nVersions().newest,
	};
	const wanted: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--keep') args.keep = true;
		else if (arg === '--n8n-version') args.n8nVersion = argv[++i] ?? '';
		else if (arg.startsWith('--n8n-version=')) args.n8nVersion = arg.slice('--n8n-version='.length);
		else if (arg === '--package-root') args.packageRoot = resolve(argv[++i] ?? '');
		else if (arg === '--out') args.out = resolve(argv[++i] ?? '');
		else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
		else wanted.push(arg);
	}
	if (wanted.length === 0) {
		args.shots = Object.keys(FORMS);
		args.dialogs = Object.keys(CREDENTIAL_DIALOGS);
		return args;
	}
	// A label selects that shot; a node display name selects all its shots; "Credential" all dialogs;
	// "credential-test" the REST credential checks.
	args.shots = Object.keys(FORMS).filter((label) =>
		wanted.some(
			(w) => w === label || (FORMS[label].walk ? w === FORMS[label].walk : w === FORMS[label].node),
		),
	);
	args.dialogs = Object.keys(CREDENTIAL_DIALOGS).filter((label) =>
		wanted.some((w) => w === label || w === 'Credential'),
	);
	args.credentialChecks = wanted.includes(CREDENTIAL_CHECKS);
	const known = (w: string) =>
		w === CREDENTIAL_CHECKS ||
		w === 'Credential' ||
		w in CREDENTIAL_DIALOGS ||
		Object.keys(FORMS).some(
			(label) => w === label || w === FORMS[label].node || w === FORMS[label].walk,
		);
	const unknown = wanted.filter((w) => !known(w));
	if (unknown.length)
		throw new Error(
			`no FORMS / CREDENTIAL_DIALOGS entry for ${unknown.map((u) => JSON.stringify(u)).join(', ')}`,
		);
	return args;
}

async function ensurePlaywright(): Promise<{ chromium: string; playwrightCore: string }> {
	const result = await runCommand('bash', [join(SCRIPTS_DIR, 'ensure-playwright.sh')], {
		timeoutMs: 15 * 60_000,
		echoStderr: true,
	});
	const chromium = /^CHROMIUM=(.*)$/m.exec(result.stdout)?.[1];
	const playwrightCore = /^PLAYWRIGHT_CORE=(.*)$/m.exec(result.stdout)?.[1];
	if (result.code !== 0 || !chromium || !playwrightCore) {
		throw new Error(
			`ensure-playwright.sh failed (exit ${result.code}): ${lastLines(result.stderr, 5)}`,
		);
	}
	return { chromium, playwrightCore };
}

/** Text of the parameter panel plus the values of its fields (selected options are input values) and of open dropdowns. */
async function panelText(page: Page): Promise<string> {
	const ndv = page.getByTestId('ndv');
	const text = await ndv.innerText({ timeout: UI_TIMEOUT_MS });
	const values = await ndv.evaluate((element) =>
		Array.from(element.querySelectorAll('input, textarea'))
			.map((field) => field.value)
			.filter(Boolean),
	);
	// Dropdowns (element-plus poppers, the resource-locator list) are rendered outside the NDV.
	const popups = await page
		.locator('body')
		.evaluate((element) =>
			Array.from(
				element.querySelectorAll(
					'[data-test-id="resource-locator-dropdown"], [data-test-id="rlc-item"], .el-select-dropdown, .el-popper',
				),
			).map((popup) => popup.innerText ?? popup.textContent ?? ''),
		);
	return `${text}\n${values.join('\n')}\n${popups.join('\n')}`;
}

function slug(name: string): string {
	return name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'node';
}

async function openNodeForm(page: Page, base: string, check: FormCheck): Promise<void> {
	const nodeName = check.node;
	await page.goto(`${base}/workflow/new`, { timeout: UI_TIMEOUT_MS });
	await page.getByTestId('canvas-add-button').click();
	await page.getByTestId('node-creator-search-bar').fill(nodeName);
	const item = page
		.getByTestId('node-creator-item-name')
		.getByText(nodeName, { exact: true })
		.first();
	try {
		await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	} catch {
		const shown = await page
			.getByTestId('node-creator')
			.evaluate((element) =>
				Array.from(element.querySelectorAll('[data-test-id="node-creator-item-name"]')).map(
					(e) => e.textContent?.trim() ?? '',
				),
			)
			.catch((): string[] => []);
		throw new Error(
			`"${nodeName}" is not in the node panel (search shows: ${shown.length ? shown.join(', ') : 'nothing'}); is it listed in package.json n8n.nodes and built?`,
		);
	}
	await item.click();
	// Nodes with operations show their actions first; nodes without go straight to the panel.
	const ndv = page.getByTestId('ndv');
	const actions = page.locator('[data-keyboard-nav-type="action"][data-keyboard-nav-id*="."]');
	const deadline = Date.now() + UI_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (await ndv.isVisible()) break;
		if (await actions.first().isVisible()) {
			const action = check.action
				? page
						.getByTestId('node-creator')
						.getByTestId('node-creator-item-name')
						.getByText(check.action, { exact: true })
				: actions;
			try {
				await action.first().click({ timeout: UI_TIMEOUT_MS });
			} catch {
				// A slow machine may open the panel while the click still waits for the list to settle.
				if (await ndv.isVisible()) break;
				const shown = await page
					.getByTestId('node-creator')
					.evaluate((element) =>
						Array.from(element.querySelectorAll('[data-test-id="node-creator-item-name"]')).map(
							(e) => e.textContent?.trim() ?? '',
						),
					)
					.catch((): string[] => []);
				throw new Error(
					`action "${check.action}" is not in the node panel (actions shown: ${shown.join(', ')})`,
				);
			}
			break;
		}
		await sleep(200);
	}
	await ndv.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.getByTestId('node-parameters').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForTimeout(1000); // let the form finish rendering (fonts, icons, credential auto-selection)
}

/** Opens the list mode of a resource locator parameter and waits until `expectItem` is listed. */
async function openResourceList(page: Page, parameter: string, expectItem: string): Promise<void> {
	const field = page.getByTestId(`parameter-input-${parameter}`);
	await field.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await field.getByTestId('rlc-input').first().click();
	// The list is teleported out of the NDV; its rows are [data-test-id="rlc-item"].
	await page
		.locator(`[data-test-id="rlc-item"]:has-text(${JSON.stringify(expectItem)})`)
		.first()
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForTimeout(500);
}

/** Picks an option of an `options` parameter by its shown name. */
async function chooseOption(page: Page, parameter: string, optionName: string): Promise<void> {
	const field = page.getByTestId(`parameter-input-${parameter}`);
	await field.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await field.locator('input').first().click();
	await page
		.locator('.el-select-dropdown__item:visible')
		.getByText(optionName, { exact: true })
		.first()
		.click();
	await page.waitForTimeout(500);
}

/**
 * Adds the options `names` of a collection (its "Add Option" / "Add Field" control, found by that text) one by
 * one, so the screenshot shows each option's field; fails if one is not offered or if more are offered.
 */
async function addCollectionOptions(
	page: Page,
	placeholder: string,
	names: string[],
): Promise<void> {
	const ndv = page.getByTestId('ndv');
	// The add control is a button while the collection is empty and a select once it has an option: find
	// the one whose text (button) or placeholder (select) is `placeholder`.
	const findAddControl = async (): Promise<Locator | undefined> => {
		const labels = await ndv.evaluate((element) =>
			Array.from(element.querySelectorAll('[data-test-id="collection-parameter-add"]')).map((e) => {
				const node = e as unknown as {
					innerText?: string;
					querySelector(s: string): { getAttribute(a: string): string | null } | null;
				};
				return `${node.innerText ?? ''} ${node.querySelector('input')?.getAttribute('placeholder') ?? ''}`.trim();
			}),
		);
		const index = labels.findIndex((label) => label === placeholder);
		return index < 0
			? undefined
			: ndv.locator('[data-test-id="collection-parameter-add"]').nth(index);
	};
	for (const name of names) {
		const option = page
			.locator(
				`[data-test-id="collection-parameter-option"]:visible:has-text(${JSON.stringify(name)})`,
			)
			.first();
		// A click on the empty collection's button may only turn it into the select: then click that. A
		// collection of one option adds it at once, with no list.
		let addedAtOnce = false;
		for (let attempt = 0; attempt < 3; attempt++) {
			const control = await findAddControl();
			if (!control) {
				addedAtOnce = (await ndv.innerText()).includes(name);
				if (addedAtOnce) break;
				throw new Error(`no "${placeholder}" left to add ${JSON.stringify(name)}`);
			}
			await control.click();
			if (
				await option.waitFor({ state: 'visible', timeout: 3000 }).then(
					() => true,
					() => false,
				)
			)
				break;
		}
		if (addedAtOnce) continue;
		try {
			await option.waitFor({ state: 'visible', timeout: 5000 });
		} catch {
			const offered = await page
				.locator('body')
				.evaluate((element) =>
					Array.from(element.querySelectorAll('[data-test-id="collection-parameter-option"]')).map(
						(e) => e.textContent?.trim() ?? '',
					),
				);
			throw new Error(
				`"${placeholder}" does not offer ${JSON.stringify(name)} (offered: ${offered.join(', ')})`,
			);
		}
		await option.click();
		await page.waitForTimeout(300);
	}
	// n8n drops the add control once every option is in the form.
	if (await findAddControl())
		throw new Error(`"${placeholder}" offers more options than ${JSON.stringify(names)}`);
	await page.waitForTimeout(500);
}

/**
 * Opens the dynamic list of a parameter and waits until `expectItem` is listed: the list mode of a
 * resource locator (listSearch) or the dropdown of an `options` parameter (loadOptions).
 */
async function openDynamicList(page: Page, parameter: string, expectItem: string): Promise<void> {
	const field = page.getByTestId(`parameter-input-${parameter}`);
	await field.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	if (await field.getByTestId('rlc-input').first().isVisible())
		return openResourceList(page, parameter, expectItem);
	await field.locator('input').first().click();
	await page
		.locator('.el-select-dropdown__item:visible')
		.getByText(expectItem, { exact: true })
		.first()
		.waitFor({
			state: 'visible',
			timeout: UI_TIMEOUT_MS,
		});
	await page.waitForTimeout(500);
}

/** Switches the column mapper's "Mapping Column Mode" (n8n's mapping-mode-select) to `modeName`. */
async function chooseMappingMode(page: Page, modeName: string): Promise<void> {
	const select = page.getByTestId('ndv').getByTestId('mapping-mode-select');
	await select.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await select.locator('input').first().click();
	// Each option shows its name as a headline above a description.
	await page
		.locator('.el-select-dropdown__item:visible')
		.getByText(modeName, { exact: true })
		.first()
		.click();
	await page
		.getByTestId('ndv')
		.getByTestId('mapping-fields-container')
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForTimeout(1000);
}

/**
 * The fields of the column mapper, each of the six shown once, marked required the way n8n marks it in its "add"
 * mode on exactly the `required` ones: no remove (trash) button, and while empty the field's issue icon (its
 * labels carry no "*").
 */
async function assertRequiredMarks(page: Page, required: HoldingFieldTitle[]): Promise<void> {
	const container = page.getByTestId('ndv').getByTestId('mapping-fields-container');
	const fields = await container.evaluate((element) =>
		Array.from(element.querySelectorAll('.parameter-item')).map((item) => {
			const node = item as unknown as {
				innerText?: string;
				querySelector(s: string): unknown;
			};
			return {
				label: (node.innerText ?? '').split('\n')[0].trim(),
				removable: node.querySelector('[data-test-id^="remove-field-button-"]') !== null,
				issue: node.querySelector('[data-test-id="parameter-issues"]') !== null,
			};
		}),
	);
	const problems: string[] = [];
	for (const title of HOLDING_FIELD_TITLES) {
		const shown = fields.filter((field) => field.label === title);
		if (shown.length !== 1) {
			problems.push(`${title}: shown ${shown.length} times`);
			continue;
		}
		const [{ removable, issue }] = shown;
		const isRequired = required.includes(title);
		if (removable === isRequired)
			problems.push(`${title}: ${removable ? 'has' : 'has no'} remove button`);
		if (issue !== isRequired) problems.push(`${title}: ${issue ? 'has' : 'has no'} issue icon`);
	}
	if (problems.length)
		throw new Error(
			`column mapper fields: ${problems.join('; ')} (fields: ${JSON.stringify(fields)})`,
		);
}

/** Opens the dropdown of the mapped field `fieldId` (an options field): it must list exactly `names`, in order. */
async function openMappedFieldOptions(page: Page, fieldId: string, names: string[]): Promise<void> {
	// The column mapper names its fields value["<id>"]; their inputs' test id is parameter-input-<id>.
	const field = page
		.getByTestId('ndv')
		.getByTestId('mapping-fields-container')
		.getByTestId(`parameter-input-${fieldId}`);
	await field.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await field.locator('input').first().click();
	const items = page.locator('.el-select-dropdown__item:visible');
	await items
		.getByText(names[0], { exact: true })
		.first()
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForTimeout(500);
	const listed = (await items.allInnerTexts()).map((text) => text.trim());
	if (JSON.stringify(listed) !== JSON.stringify(names))
		throw new Error(
			`the ${fieldId} dropdown lists ${JSON.stringify(listed)}, not ${JSON.stringify(names)}`,
		);
}

/** The editor asked n8n for the mapper's fields through our getHoldingColumns method, and n8n answered 200. */
function assertHoldingColumnsLoaded(restCalls: PageRestCall[]): void {
	const calls = restCalls.filter((call) => call.path.endsWith('/resource-mapper-fields'));
	if (!calls.some((call) => call.status === 200 && call.body.includes('"getHoldingColumns"')))
		throw new Error(
			`the editor did not load the fields through getHoldingColumns (resource-mapper-fields calls: ${
				calls
					.map((call) => `${call.method} ${call.status} ${call.body.slice(0, 200)}`)
					.join(', ') || 'none'
			})`,
		);
}

/** The list was filled through the credential: the simulator saw the route with our key, answered 200. */
function assertListRequests(
	sim: Simulator,
	route: 'GET /portfolios' | 'GET /sustainable-investments/methodologies',
): void {
	const requests = sim.requests({ route });
	if (requests.length === 0) throw new Error(`the simulator received no ${route}`);
	const bad = requests.filter((r) => r.key !== API_KEY || r.status !== 200);
	if (bad.length)
		throw new Error(`${route}: ${bad.map((r) => `key ${r.key} -> ${r.status}`).join(', ')}`);
}

async function storePortfolio(sim: Simulator): Promise<void> {
	const response = await fetch(`${sim.url}/portfolios`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
		body: JSON.stringify({
			identifier: STORED_PORTFOLIO.identifier,
			name: STORED_PORTFOLIO.name,
			currency: STORED_PORTFOLIO.currency,
			snapshot_at: '2025-06-30',
			holdings: [
				{
					isin: 'NL0010273215',
					name: 'ASML Holding NV',
					instrument_type: 'stock',
					currency: 'EUR',
					weight: 60,
					market_value: 600000,
				},
				{
					isin: null,
					name: 'Cash EUR',
					instrument_type: 'cash',
					currency: 'EUR',
					weight: 40,
					market_value: 400000,
				},
			],
		}),
	});
	if (response.status !== 201)
		throw new Error(
			`POST /portfolios to the simulator answered ${response.status}: ${await response.text()}`,
		);
}

async function main(): Promise<number> {
	const args = parseArgs(process.argv.slice(2));
	const t0 = Date.now();
	let passed = 0;
	let failed = 0;

	console.log(`[screens] ensuring n8n ${args.n8nVersion} and the browser are installed...`);
	await ensureN8n(args.n8nVersion);
	const { chromium, playwrightCore } = await ensurePlaywright();
	const pw = (await import(playwrightCore)) as PlaywrightCore;
	pw.selectors.setTestIdAttribute('data-test-id'); // n8n's attribute

	const info = checkBuiltPackage(args.packageRoot);
	mkdirSync(args.out, { recursive: true });
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-ui-'));
	let server: N8nServer | undefined;
	let context: BrowserContext | undefined;
	let sim: Simulator | undefined;
	try {
		installPackageInto(userFolder, args.packageRoot, info);
		const simModule = (await import(join(PROJECT_ROOT, 'test', 'simulator'))) as {
			startSimulator: (o: SimulatorOptions) => Promise<Simulator>;
		};
		sim = await simModule.startSimulator({ port: 0, temperatureRoute: true });
		await storePortfolio(sim);
		const started = Date.now();
		server = await startN8nServer(args.n8nVersion, userFolder, START_TIMEOUT_MS);
		const base = server.base;
		console.log(
			`[screens] n8n ready at ${base} in ${formatMs(Date.now() - started)} (log: ${server.logFile}); simulator at ${sim.url}`,
		);
		await setupOwner(base);
		await assertServerVersion(await restSession(base), args.n8nVersion);

		// A fresh profile (--user-data-dir) inside the temp folder.
		context = await pw.chromium.launchPersistentContext(join(userFolder, 'chromium-profile'), {
			executablePath: chromium,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 1600 }, // tall: long forms fit in one shot
		});
		const login = await context.request.post(`${base}/rest/login`, {
			data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
		});
		if (login.status() !== 200)
			throw new Error(`POST /rest/login answered ${login.status()}: ${await login.text()}`);
		const credential = await context.request.post(`${base}/rest/credentials`, {
			data: {
				name: CREDENTIAL_NAME,
				type: CREDENTIAL_TYPE,
				data: { apiKey: API_KEY, baseUrl: sim.url },
			},
		});
		if (credential.status() !== 200)
			throw new Error(
				`POST /rest/credentials answered ${credential.status()}: ${await credential.text()}`,
			);
		const credentialId = (JSON.parse(await credential.text()) as { data: { id: string } }).data.id;
		let keyChanged = false;
		const setApiKey = async (apiKey: string) => {
			const answer = await context!.request.patch(`${base}/rest/credentials/${credentialId}`, {
				data: { name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl: sim!.url } },
			});
			if (answer.status() !== 200)
				throw new Error(
					`PATCH /rest/credentials answered ${answer.status()}: ${await answer.text()}`,
				);
			keyChanged = apiKey !== API_KEY;
		};
		const saveWorkflow = async (
			workflow: {
				name: string;
				nodes: unknown[];
				connections: unknown;
				pinData?: Record<string, Array<{ json: unknown }>>;
			},
			exactName = false,
		) => {
			const nodes = (workflow.nodes as Array<{ credentials?: Record<string, unknown> }>).map(
				(node) =>
					node.credentials?.[CREDENTIAL_TYPE]
						? {
								...node,
								credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: CREDENTIAL_NAME } },
							}
						: node,
			);
			const answer = await context!.request.post(`${base}/rest/workflows`, {
				data: {
					name: exactName ? workflow.name : `${workflow.name} (e2e ${Date.now()})`,
					nodes,
					connections: workflow.connections,
					settings: { executionOrder: 'v1' },
					...(workflow.pinData ? { pinData: workflow.pinData } : {}),
				},
			});
			const id = (JSON.parse(await answer.text()) as { data?: { id?: string } }).data?.id;
			if (answer.status() !== 200 || !id)
				throw new Error(
					`POST /rest/workflows answered ${answer.status()}: ${(await answer.text()).slice(0, 300)}`,
				);
			return id;
		};

		const browserContext = context;
		for (const label of args.shots) {
			const check = FORMS[label];
			const page = await browserContext.newPage();
			page.setDefaultTimeout(UI_TIMEOUT_MS);
			const pageErrors: string[] = [];
			page.on('pageerror', (error) => pageErrors.push(error.message));
			const restCalls: PageRestCall[] = [];
			page.on('response', (response) => {
				const url = new URL(response.url());
				if (!url.pathname.startsWith('/rest/')) return;
				const request = response.request();
				restCalls.push({
					method: request.method(),
					path: url.pathname,
					status: response.status(),
					body: request.postData() ?? '',
				});
			});
			const file = join(args.out, `${slug(label)}.png`);
			const t = Date.now();
			sim.reset();
			await storePortfolio(sim); // reset() clears portfolios
			const requestsBefore = sim.requests().length;
			const ctx = {
				page,
				sim,
				restCalls,
				base,
				setApiKey,
				saveWorkflow,
				request: browserContext.request,
			};
			try {
				if (check.open) await check.open(ctx);
				else await openNodeForm(page, base, check);
				if (check.then) await check.then(ctx);
				await page.screenshot({ path: file });
				const text = check.shownText ? await check.shownText(ctx) : await panelText(page);
				const missing = check.expect.filter((expected) => !text.includes(expected));
				if (missing.length > 0)
					throw new Error(
						`missing in the form: ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
					);
				// Only what the panel shows: closed dropdowns (the Add Option list) stay in the page, hidden.
				const shownText = check.absent
					? await page.getByTestId('ndv').innerText({ timeout: UI_TIMEOUT_MS })
					: '';
				const shown = (check.absent ?? []).filter((unwanted) => shownText.includes(unwanted));
				if (shown.length > 0)
					throw new Error(
						`shown in the form but should not be: ${shown.map((m) => JSON.stringify(m)).join(', ')}`,
					);
				check.verify?.(ctx);
				passed++;
				const calls = sim
					.requests()
					.slice(requestsBefore)
					.map((r) => `${r.method} ${r.path} ${r.status}`);
				console.log(
					`ok   ${label} -> ${file} (${formatMs(Date.now() - t)})${check.expect.length ? '' : ' [no expected texts]'}${calls.length ? `\n     API calls from the editor: ${[...new Set(calls)].join(', ')}` : ''}`,
				);
			} catch (error) {
				failed++;
				const failureShot = file.replace(/\.png$/, '.failed.png');
				await page.screenshot({ path: failureShot }).catch(() => undefined);
				const message = String((error as Error).message)
					.split('\n')
					.join(' ');
				console.log(`FAIL ${label}: ${message}\n     screenshot: ${failureShot}`);
				if (pageErrors.length)
					console.log(`     page errors: ${pageErrors.slice(0, 3).join(' | ')}`);
			} finally {
				await page.close().catch(() => undefined);
				if (keyChanged) await setApiKey(API_KEY);
			}
		}

		// The credential dialog of a few keys: the sentence a user sees.
		const rules = await builtCredentialRules(args.packageRoot);
		for (const label of args.dialogs) {
			const dialog = CREDENTIAL_DIALOGS[label];
			sim.reset();
			const page = await browserContext.newPage();
			page.setDefaultTimeout(UI_TIMEOUT_MS);
			const file = join(args.out, `${slug(label)}.png`);
			const t = Date.now();
			let id: string | undefined;
			try {
				const expect = [...dialog.expect];
				if (dialog.rule) {
					const rule = rules.find(
						(r) => r.properties.key === dialog.rule![0] && r.properties.value === dialog.rule![1],
					);
					if (!rule) throw new Error(`the credential has no rule ${dialog.rule.join(' = ')}`);
					expect.push(rule.properties.message);
				}
				if (dialog.details) expect.push(dialog.details);
				const created = await browserContext.request.post(`${base}/rest/credentials`, {
					data: {
						name: `${label} (${dialog.apiKey})`,
						type: CREDENTIAL_TYPE,
						data: { apiKey: dialog.apiKey, baseUrl: dialog.baseUrl?.(sim) ?? sim.url },
					},
				});
				id = (JSON.parse(await created.text()) as { data?: { id?: string } }).data?.id;
				if (created.status() !== 200 || !id)
					throw new Error(`POST /rest/credentials answered ${created.status()}`);
				// Opening a saved credential tests it (GET /rest/credentials/<id> then POST /rest/credentials/test).
				await page.goto(`${base}/home/credentials/${id}`, { timeout: UI_TIMEOUT_MS });
				const modal = page.getByTestId('credential-edit-dialog');
				await modal.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
				await modal
					.getByText(dialog.expect[0], { exact: false })
					.first()
					.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
				if (dialog.rule || dialog.details) {
					// n8n shows only "Couldn't connect with these settings"; the sentence is behind "More details".
					await modal.getByText('More details', { exact: true }).first().click();
					await modal
						.getByText(expect[expect.length - 1], { exact: false })
						.first()
						.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
				}
				await page.waitForTimeout(500);
				await page.screenshot({ path: file });
				const text = await modal.innerText({ timeout: UI_TIMEOUT_MS });
				const missing = expect.filter((e) => !text.includes(e));
				if (missing.length)
					throw new Error(
						`missing in the dialog: ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
					);
				const unwanted = (dialog.absent ?? []).filter((a) => text.includes(a));
				if (unwanted.length)
					throw new Error(
						`shown in the dialog but should not be: ${unwanted.map((m) => JSON.stringify(m)).join(', ')}`,
					);
				passed++;
				const shown = text
					.split('\n')
					.map((line) => line.trim())
					.filter(
						(line) =>
							/connect|tested|successful/i.test(line) ||
							((dialog.rule || dialog.details) && expect.some((e) => line.includes(e))),
					);
				console.log(
					`ok   ${label} -> ${file} (${formatMs(Date.now() - t)})\n     dialog shows: ${shown.join(' | ')}`,
				);
			} catch (error) {
				failed++;
				const failureShot = file.replace(/\.png$/, '.failed.png');
				await page.screenshot({ path: failureShot }).catch(() => undefined);
				const dialogText = await page
					.getByTestId('credential-edit-dialog')
					.innerText({ timeout: 2000 })
					.catch(() => '(no dialog)');
				console.log(
					`FAIL ${label}: ${String((error as Error).message).split('\n')[0]}\n     screenshot: ${failureShot}\n     dialog text: ${dialogText.split('\n').filter(Boolean).slice(0, 12).join(' | ')}`,
				);
			} finally {
				await page.close().catch(() => undefined);
				if (id)
					await browserContext.request
						.delete(`${base}/rest/credentials/${id}`)
						.catch(() => undefined);
			}
		}

		// The credential test through n8n's REST API, every section-5 variant (see credential-test.ts).
		if (args.credentialChecks) {
			const summary = await runCredentialChecks(await restSession(base), sim, base, rules);
			passed += summary.passed;
			failed += summary.failed;
			if (summary.gaps)
				console.log(
					`     ${summary.gaps} credential probe(s) answered "Connection successful!" for an error answer (GAP lines; not counted)`,
				);
		}
	} finally {
		if (context) await context.close().catch(() => undefined);
		if (server) await server.stop();
		if (sim) await sim.close().catch(() => undefined);
		if (args.keep) console.log(`[screens] kept n8n user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	console.log(`[screens] screenshots in ${args.out}; total ${formatMs(Date.now() - t0)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`[screens] ERROR: ${error.message}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	},
);

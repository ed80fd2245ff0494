/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- dev script runs in Node, outside n8n's sandbox */
/**
 * `npm run demo`: runs every example workflow in examples/ inside n8n's engine with this package's built nodes,
 * against the embedded API simulator (or a real API address), prints a short summary per workflow and writes
 * every node's output (and the files: PDF report, CSV statement) to a folder. The weekly watch (06) runs twice, as
 * two weeks of its schedule: the first run remembers the classes, then the simulator serves a later edition of its
 * data (some classes went down) and the second run emails the downgrades.
 *
 *   npm run demo
 *   npm run demo -- --base-url https://api.example.com --api-key <key>   (or SC_BASE_URL / SC_API_KEY)
 *   npm run demo -- --only 01,04 --out ./my-demo-output
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'fs';
import { basename, join, relative, resolve } from 'path';

import { EXAMPLE_RUNS } from '../test/workflow/exampleRuns';
import { buildIfNeeded } from './buildIfNeeded';
import { recordCompletionPage, UPLOAD_FORM, withSampleFiles } from '../test/workflow/fileExamples';

const root = resolve(__dirname, '..');
process.env.SC_NODES_FROM = 'dist';

interface Args {
	baseUrl?: string;
	apiKey?: string;
	out: string;
	only?: string[];
}

function parseArgs(argv: string[]): Args {
	const args: Args = {
		baseUrl: process.env.SC_BASE_URL,
		apiKey: process.env.SC_API_KEY,
		out: join(root, 'demo-output'),
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		if (flag === '--base-url') args.baseUrl = value();
		else if (flag === '--api-key') args.apiKey = value();
		else if (flag === '--out') args.out = resolve(value());
		else if (flag === '--only')
			args.only = value()
				.split(',')
				.map((s) => s.trim());
		else if (flag === '--help' || flag === '-h') {
			console.log(
				'usage: npm run demo [-- --base-url URL --api-key KEY] [--out DIR] [--only 01,03]',
			);
			process.exit(0);
		} else throw new Error(`unknown argument ${argv[i]} (try --help)`);
	}
	if (Boolean(args.baseUrl) !== Boolean(args.apiKey))
		throw new Error('give both --base-url and --api-key, or neither (the simulator is used)');
	return args;
}

type Json = Record<string, unknown>;

/** What to show of each example's result nodes: node name -> columns (first rows). */
const SHOW: Record<string, Record<string, string[]>> = {
	'01': {
		'Business Involvements': [
			'Name',
			'sfdr_article',
			'pai_scope_1_emissions',
			'pai_carbon_footprint',
			'business_involvements_total_score',
			'business_involvements_thermal_coal_weight',
		],
	},
	'02': {
		'Store Snapshots': [
			'portfolio_id',
			'outcome',
			'quarter_end',
			'holdings_count',
			'removed_count',
		],
		'List Portfolios': ['identifier', 'name', 'latest_snapshot', 'snapshot_count'],
	},
	'03': {
		'Generate MiFID II Report': [
			'file_name',
			'file_size',
			'snapshot_at',
			'default_benchmark',
			'request_id',
		],
		'Email the Report': ['to', 'subject'],
	},
	'04': {
		'EU Taxonomy KPIs': ['measure', 'scope', 'excluding_sovereign_bonds', 'percent'],
		'Sustainable Investment Classes': ['Name', 'isin', 'label', 'removed_reason'],
	},
	'05': { 'Portfolio Temperature': ['type', 'name', 'temperature_score', 'target', 'industry'] },
	'06': {
		'SFDR Changes': [
			'isin',
			'status',
			'direction',
			'previous_classification',
			'current_classification',
			'reason',
		],
	},
	'14': {
		'Screen Changes': ['change', 'Fund', 'isin', 'name', 'rule', 'value', 'threshold', 'previous'],
	},
	'10': {
		'PAI Indicators': ['Name', 'Weight', 'Weight %', 'sfdr_article', 'pai_carbon_footprint'],
		'Dates and Percentages as Shown': ['Name', 'Date', 'Weight', 'Weight %', 'sfdr_article'],
		'Portfolio Summary': [
			'Portfolio ID',
			'holdings_count',
			'article_9_percent',
			'article_8_percent',
			'article_6_percent',
			'no_data_percent',
			'removed_count',
		],
	},
	'11': {
		'Store Snapshots': [
			'portfolio_id',
			'outcome',
			'snapshot_date',
			'quarter_end',
			'holdings_count',
			'removed_count',
		],
		'Generate Reports': ['file_name', 'file_size', 'snapshot_at'],
	},
	'13': {
		'PAI Statement': [
			'statement',
			'Portfolio ID',
			'pai',
			'metric',
			'impact_year_n',
			'impact_year_n_minus_1',
			'unit',
			'coverage_percent',
		],
		'One Item per Statement': ['statement', 'file_name'],
	},
	'07': {
		'Side by Side': [
			'holdings_count',
			'total_market_value',
			'coverage_percent',
			'article_9_percent',
			'article_8_percent',
			'article_6_percent',
			'no_data_percent',
			'removed_count',
		],
	},
};

/** One-line highlights: the numbers a compliance analyst looks for first. */
const HIGHLIGHTS: Record<string, (items: (node: string) => Json[]) => string[]> = {
	'13': (items) => {
		const rows = items('PAI Statement').filter((row) => row.impact_year_n !== null);
		const statements = [...new Set(rows.map((row) => String(row['Portfolio Name'] ?? 'Entity')))];
		return statements.map(
			(statement) =>
				`${statement}: ${rows
					.filter((row) => String(row['Portfolio Name'] ?? 'Entity') === statement)
					.map(
						(row) =>
							`PAI ${String(row.pai)} ${String(row.impact_year_n)} (N-1 ${String(row.impact_year_n_minus_1)}) ${String(row.unit ?? '')}, coverage ${String(row.coverage_percent)} %`,
					)
					.join('; ')}`,
		);
	},
	'04': (items) => {
		const kpis = items('EU Taxonomy KPIs');
		const pick = (kpi: string) => kpis.find((k) => k.kpi === kpi)?.percent;
		const classes = items('Sustainable Investment Classes');
		const count = (label: string) => classes.filter((c) => c.label === label).length;
		return [
			`EU Taxonomy: aligned ${pick('taxonomy_alignment_turnover_%')} % (turnover), ${pick('taxonomy_alignment_capex_%')} % (capex), ${pick('taxonomy_alignment_opex_%')} % (opex); eligible ${pick('taxonomy_eligible_turnover_%')} % (turnover); removed rows: ${kpis[0]?.removed_count ?? 0}`,
			`Sustainable investments: ${count('Sustainable')} sustainable, ${count('Moderate')} moderate, ${count('Not sustainable')} not sustainable, ${count('Uncovered')} uncovered, ${count('Not classified')} not classified (cash / no ISIN)`,
		];
	},
	'07': (items) => {
		const [row] = items('Side by Side');
		if (!row) return [];
		const pai = (name: string) =>
			`${row[`${name}_weighted_average`]} ${row[`${name}_unit`] ?? ''} (coverage ${row[`${name}_coverage_percent`]} %)`;
		return [
			`SFDR by market value: Article 9 ${row.article_9_percent} %, Article 8 ${row.article_8_percent} %, Article 6 ${row.article_6_percent} %, no data ${row.no_data_percent} %`,
			`PAI weighted averages: GHG intensity ${pai('ghg_intensity_investee_companies')}; carbon footprint ${pai('carbon_footprint')}`,
		];
	},
	'05': (items) => {
		const summary = items('Portfolio Temperature').find((i) => i.type === 'portfolio');
		return summary
			? [
					`Portfolio temperature ${summary.portfolio_temperature_score} °C over ${summary.covered_market_value_percent} % of market value (${summary.scored_count} scored, ${summary.removed_count} removed); ${summary.requests} requests, waited ${summary.waited_seconds} s for the calculation`,
				]
			: [];
	},
};

function cell(value: unknown): string {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	return text.length > 34 ? `${text.slice(0, 33)}…` : text;
}

function table(rows: Json[], columns: string[], limit = 6): string {
	const cols = columns.filter((c) => rows.some((r) => r[c] !== undefined));
	if (!cols.length || !rows.length) return '    (no rows)';
	const shown = rows.slice(0, limit).map((r) => cols.map((c) => cell(r[c])));
	const widths = cols.map((c, i) => Math.max(c.length, ...shown.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		`    ${cells.map((v, i) => v.padEnd(widths[i])).join('  ')}`.trimEnd();
	const more = rows.length > limit ? `\n    … ${rows.length - limit} more` : '';
	return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...shown.map(line)].join('\n') + more;
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	buildIfNeeded(root);
	// Loaded after the build so the runner picks up the fresh dist/.
	const { startSimulator } = await import('../test/simulator');
	const { loadWorkflowFile, runWorkflow } = await import('../test/workflow/runner');
	const { inProcessSkipReason } = await import('../test/workflow/inProcess');
	const { loadCoreNodes } = await import('../test/workflow/node-types');
	const core = loadCoreNodes();

	const sim = args.baseUrl ? undefined : await startSimulator({ temperatureRoute: true });
	const baseUrl = args.baseUrl ?? sim!.url;
	const apiKey = args.apiKey ?? 'sim-all-families';
	const outDir = args.out;
	mkdirSync(outDir, { recursive: true });

	const files = readdirSync(join(root, 'examples'))
		.filter((f) => /^\d\d-.*\.json$/.test(f))
		.filter((f) => !args.only || args.only.some((o) => f.startsWith(o)))
		.sort();
	console.log(
		`\nSustainability Compliance nodes — demo against ${sim ? `the embedded simulator (${baseUrl}, key sim-all-families)` : baseUrl}`,
	);
	console.log(
		core.nodesBaseDir
			? `n8n's own nodes (Form, Extract From File, Convert to File, …): n8n-nodes-base ${(JSON.parse(readFileSync(join(core.nodesBaseDir, 'package.json'), 'utf8')) as { version: string }).version} from ${relative(process.cwd(), core.nodesBaseDir) || '.'}`
			: "n8n's own nodes: not found (run `npm ci`): the examples that need them are skipped",
	);
	console.log(
		`${files.length} example workflows; outputs go to ${relative(process.cwd(), outDir) || '.'}/\n`,
	);

	let failures = 0;
	let skipped = 0;
	for (const file of files) {
		const id = file.slice(0, 2);
		// examples/11 reads its workbook from /data/holdings.xlsx: here, examples/holdings.sample.xlsx.
		const workflow = withSampleFiles(loadWorkflowFile(join(root, 'examples', file))) as {
			name?: string;
			meta?: { description?: string };
			staticData?: object;
		};
		console.log(`━━ ${file}: ${workflow.name}`);
		if (workflow.meta?.description) console.log(`   ${workflow.meta.description}`);
		const skip = inProcessSkipReason(workflow as { nodes?: Array<{ type?: string }> });
		if (skip) {
			skipped++;
			console.log(`   SKIPPED: ${skip}\n`);
			continue;
		}
		const runs = EXAMPLE_RUNS[id];
		let staticData = workflow.staticData;
		let failed = false;
		for (const [runIndex, run] of (runs ?? [{ label: '' }]).entries()) {
			if (runs) {
				console.log(`   ── run ${runIndex + 1} of ${runs.length}: ${run.label}`);
				if (run.before && sim) run.before(sim);
				else if (run.before) console.log('   (a real API: its data is as it is today)');
			}
			const before = sim?.requestCount() ?? 0;
			const started = Date.now();
			const pinData = run.pinData?.();
			// The form's completion page (examples/10): what it would show, read from the Form node.
			const page = core.types['n8n-nodes-base.form']
				? recordCompletionPage(core.types['n8n-nodes-base.form'])
				: undefined;
			const result = await runWorkflow(
				{ ...workflow, staticData, ...(pinData ? { pinData } : {}) } as never,
				{
					credentials: { sustainabilityComplianceApi: { apiKey, baseUrl } },
					timeoutMs: 180_000,
					...(runs ? { mode: 'trigger' as const } : {}),
					...(run.startNode ? { startNode: run.startNode } : {}),
					...(page ? { nodeTypes: page.nodeTypes } : {}),
				},
			);
			staticData = result.savedStaticData;
			const requests = sim
				? `${sim.requestCount() - before} API request(s)`
				: 'requests: see your API usage';
			// A form's completion page (n8n Form, Form Ending) waits for the browser to fetch it: the run waits there.
			const waitsForBrowser =
				result.status === 'waiting' &&
				!result.error &&
				result.executionOrder.some((node) => node === UPLOAD_FORM.completion);
			console.log(
				`   ${result.status === 'success' ? 'OK' : waitsForBrowser ? "OK (waits at the form's completion page, which hands the workbook to the browser)" : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${requests}`,
			);
			console.log(
				`   items per node: ${result.executionOrder.map((n) => `${n} ${result.items(n).length}`).join(' → ')}`,
			);
			if (result.error) {
				failed = true;
				console.log(`   error: ${result.error.message}`);
				const description = (result.error as { description?: string }).description;
				if (description) console.log(`   ${description.split('\n').join('\n   ')}`);
			}

			const exampleDir = join(outDir, basename(file, '.json'), runs ? `run-${runIndex + 1}` : '');
			mkdirSync(exampleDir, { recursive: true });
			const written = new Set<string>();
			for (const nodeName of result.executionOrder) {
				const items = result.items(nodeName);
				writeFileSync(
					join(exampleDir, `${nodeName.replace(/[^\w.-]+/g, '_')}.json`),
					JSON.stringify(
						items.map((i) => i.json),
						null,
						1,
					),
				);
				for (let index = 0; index < items.length; index++) {
					for (const [property, binary] of Object.entries(items[index].binary ?? {})) {
						const path = join(exampleDir, binary.fileName ?? `${nodeName}-${index}-${property}`);
						// A file passed on by the next nodes is written once.
						if (written.has(path)) continue;
						written.add(path);
						const bytes = await result.binary(nodeName, index, property);
						writeFileSync(path, bytes);
						console.log(
							`   wrote ${relative(process.cwd(), path)} (${bytes.length} bytes, ${binary.mimeType})`,
						);
					}
				}
			}
			for (const [nodeName, columns] of Object.entries(SHOW[id] ?? {})) {
				if (!result.executionOrder.includes(nodeName)) continue;
				console.log(`   ${nodeName}:`);
				console.log(
					table(
						result.items(nodeName).map((i) => i.json as Json),
						columns,
					),
				);
			}
			for (const message of page?.messages ?? [])
				console.log(
					`   the completion page says:\n     | ${message.split('\n').join('\n     | ')}`,
				);
			for (const line of HIGHLIGHTS[id]?.((node) =>
				result.items(node).map((i) => i.json as Json),
			) ?? [])
				console.log(`   ${line}`);
			if (runs && result.emails.length === 0) console.log('   no email sent');
			for (const email of result.emails) {
				const attached = email.attachments.length
					? ` with ${email.attachments.map((a) => `${a.fileName} (${a.size} bytes)`).join(', ')}`
					: '';
				console.log(`   email that would be sent to ${email.to}: "${email.subject}"${attached}`);
				// A short email without a file is the message itself: show it.
				if (!email.attachments.length && email.text)
					console.log(`     | ${email.text.trim().split('\n').join('\n     | ')}`);
			}
		}
		if (failed) failures++;
		// Later examples see the simulator's usual data and answers.
		if (runs && sim) {
			sim.setDataVersion(1);
			sim.setAnswerShape(null);
		}
		console.log('');
	}
	if (sim) {
		console.log(
			`Simulator: ${sim.requestCount()} API requests in all for ${files.length - skipped} workflows.`,
		);
		await sim.close();
	}
	console.log(`Outputs: ${outDir}`);
	console.log(
		`${files.length - skipped - failures} passed, ${failures} failed${skipped ? `, ${skipped} skipped (see SKIPPED above)` : ''}`,
	);
	// n8n-core keeps timers alive after a run; the demo is done.
	process.exit(failures ? 1 : 0);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- e2e tooling runs in Node, outside n8n's sandbox */
/**
 * examples/10 (the upload form) in a real n8n, as a person uses it: the workflow imported and published, `n8n start`,
 * then for each sample file (examples/holdings.sample.xlsx and .csv) an HTTP multipart POST of the file to the form's
 * production URL (/form/portfolio-check), the form's completion page fetched as the browser does (the URL n8n sends it
 * to), and the workbook that page hands to the browser read back and compared, row by row, with the sample file and
 * the simulator's data. Called by real-n8n.ts after the CLI workflows (one check per file).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { get as httpGet } from 'http';
import { tmpdir } from 'os';
import { basename, dirname, join } from 'path';

import { csvHoldings, WORKBOOK_HOLDINGS } from '../../scripts/sample-holdings';
import type { Simulator } from '../simulator/types';
import { instrumentData } from '../simulator';
import {
	EXAMPLES_DIR,
	MIME_TYPES,
	SAMPLE_CSV,
	SAMPLE_WORKBOOK,
	UPLOAD_FORM,
} from '../workflow/fileExamples';
import { sheetRows } from '../workflow/sheets';
import type { N8nInstall, PackageInfo } from './lib';
import {
	formatMs,
	importIntoN8n,
	installPackageInto,
	lastLines,
	restSession,
	setupOwner,
	simulatorCredential,
	sleep,
	startN8nServer,
} from './lib';

export const FORM_EXAMPLE = '10-upload-holdings-form.json';
const WORKFLOW_ID = 'e2eFormUpload1';

interface Binary {
	data: string | { type: 'Buffer'; data: number[] };
	fileName?: string;
	type?: string;
}

/** The file the completion page hands to the browser (n8n 2.41: a list of files; 2.20: one). */
function completionFile(html: string): { bytes: Buffer; fileName?: string } | undefined {
	const encoded = /const binar(?:y|ies) = "([^"]+)"/.exec(html)?.[1];
	if (!encoded) return undefined;
	const parsed = JSON.parse(decodeURIComponent(encoded)) as Binary | Binary[];
	const [binary] = Array.isArray(parsed) ? parsed : [parsed];
	if (!binary) return undefined;
	const bytes =
		typeof binary.data === 'string'
			? Buffer.from(binary.data, 'latin1')
			: Buffer.from(binary.data.data);
	return { bytes, fileName: binary.fileName };
}

/** A GET on a new connection (no keep-alive), answered within 30 s. */
function getOnce(url: string): Promise<{ status: number; text: string }> {
	return new Promise((resolveAnswer, reject) => {
		const request = httpGet(url, { agent: false, timeout: 30_000 }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => (text += chunk));
			response.on('end', () => resolveAnswer({ status: response.statusCode ?? 0, text }));
		});
		request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within 30 s`)));
		request.on('error', reject);
	});
}

/** Posts `file` to the form as a browser does and returns the workbook the completion page offers. */
async function uploadThroughForm(
	base: string,
	file: string,
): Promise<{ bytes: Buffer; fileName?: string; steps: string[] }> {
	const steps: string[] = [];
	// n8n answers /healthz/readiness before it has added the published workflows' webhooks: wait for the form.
	// Each probe on a connection of its own: after n8n's 404 for a webhook not registered yet, a request on the same
	// kept-alive connection was seen to get no answer (n8n 2.41.1).
	let page = await getOnce(`${base}/form/${UPLOAD_FORM.path}`);
	const activated = Date.now() + 180_000;
	while (page.status === 404 && Date.now() < activated) {
		await sleep(2000);
		page = await getOnce(`${base}/form/${UPLOAD_FORM.path}`);
	}
	assert.equal(page.status, 200, `GET /form/${UPLOAD_FORM.path} answered ${page.status}`);
	assert.match(page.text, /Portfolio check: SFDR and PAI/, 'the form page has its title');

	const form = new FormData();
	const name = basename(file);
	form.append(
		'field-0',
		new Blob([readFileSync(file)], { type: MIME_TYPES[name.split('.').pop()!] }),
		name,
	);
	const posted = await fetch(`${base}/form/${UPLOAD_FORM.path}`, {
		method: 'POST',
		body: form,
		redirect: 'manual',
		signal: AbortSignal.timeout(120_000),
	});
	const postText = await posted.text();
	steps.push(`POST ${posted.status}`);
	let waitingUrl = posted.headers.get('location') ?? undefined;
	if (!waitingUrl) {
		try {
			waitingUrl = (JSON.parse(postText) as { formWaitingUrl?: string }).formWaitingUrl;
		} catch {
			/* not JSON */
		}
	}
	assert.ok(
		waitingUrl,
		`the POST answered ${posted.status} without the completion page's address: ${postText.slice(0, 300)}`,
	);
	const url = new URL(waitingUrl, base).toString();
	// As the form page's script does: ask for the execution's status until it waits at the completion page (n8n
	// holds a request for the page itself, unanswered, while the execution runs).
	const statusUrl = new URL(url);
	statusUrl.pathname += '/n8n-execution-status';
	const deadline = Date.now() + 120_000;
	let status = '';
	while (Date.now() < deadline) {
		status = (await getOnce(statusUrl.toString())).text.trim();
		if (!['running', 'new', 'null', ''].includes(status)) break;
		await sleep(1000);
	}
	steps.push(`execution ${status}`);
	assert.equal(status, 'form-waiting', 'the execution waits at the completion page');
	let last = '';
	while (Date.now() < deadline) {
		const answer = await getOnce(url);
		last = answer.text;
		const found = completionFile(last);
		if (found) {
			steps.push(`GET ${new URL(url).pathname} ${answer.status}`);
			return { ...found, steps };
		}
		await sleep(1000);
	}
	throw new Error(`the completion page at ${url} offered no file: ${last.slice(0, 400)}`);
}

/** The simulator's SFDR article of an ISIN, as the simplified output writes it. */
const articleOf = (isin: string) => {
	const sfdr = instrumentData(isin).sfdr;
	return sfdr === null ? undefined : `Article ${sfdr}`;
};

function checkRows(
	rows: Array<Record<string, unknown>>,
	expected: Array<{ name: string; isin: string }>,
): void {
	assert.deepEqual(
		rows.map((row) => row.Name),
		expected.map((h) => h.name),
		'one row per holding, in order',
	);
	rows.forEach((row, index) => {
		const { isin, name } = expected[index];
		const where = `row ${index + 2} (${name})`;
		if (!isin) {
			assert.equal(row.sfdr_found, false, `${where}: sfdr_found`);
			return;
		}
		assert.equal(row.sfdr_isin, isin, `${where}: sfdr_isin`);
		assert.equal(row.sfdr_article, articleOf(isin), `${where}: sfdr_article`);
		assert.equal(
			row.pai_scope_1_emissions,
			instrumentData(isin).pai.scope_1_emissions ?? undefined,
			`${where}: pai_scope_1_emissions`,
		);
	});
}

/** The form example in a real n8n: one pass or failure per uploaded file. */
export async function formUploadInN8n(
	install: N8nInstall,
	packageRoot: string,
	info: PackageInfo,
	sim: Simulator,
	keep: boolean,
): Promise<{ passed: number; failed: number }> {
	const version = install.version;
	const nodesBaseDir = join(dirname(install.n8n), '..', 'n8n-nodes-base');
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-form-'));
	let server: Awaited<ReturnType<typeof startN8nServer>> | undefined;
	let passed = 0;
	let failed = 0;
	try {
		installPackageInto(userFolder, packageRoot, info);
		const credential = simulatorCredential(sim.url);
		const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, FORM_EXAMPLE), 'utf8')) as {
			nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }>;
		};
		for (const node of workflow.nodes)
			if (node.credentials?.sustainabilityComplianceApi)
				node.credentials.sustainabilityComplianceApi = {
					id: credential.id,
					name: credential.name,
				};
		await importIntoN8n(version, userFolder, {
			credentials: [credential],
			workflows: [{ ...workflow, id: WORKFLOW_ID, active: false }],
		});
		server = await startN8nServer(version, userFolder, 180_000);
		// Published through the REST API once n8n runs, as the editor's Publish button does (queue-cluster.ts does the
		// same): published before the start (`n8n publish:workflow`), the form's first requests hung on a fresh n8n.
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		const imported = await rest<{ versionId?: string }>('GET', `/workflows/${WORKFLOW_ID}`);
		assert.ok(
			imported.data?.versionId,
			`GET /rest/workflows/${WORKFLOW_ID}: ${imported.text.slice(0, 200)}`,
		);
		const published = await rest('POST', `/workflows/${WORKFLOW_ID}/activate`, {
			versionId: imported.data.versionId,
		});
		assert.equal(
			published.status,
			200,
			`publishing the form workflow: ${published.text.slice(0, 300)}`,
		);
		const uploads: Array<[string, Array<{ name: string; isin: string }>]> = [
			[SAMPLE_WORKBOOK, WORKBOOK_HOLDINGS.map((h) => ({ name: h.name, isin: h.isin }))],
			[SAMPLE_CSV, csvHoldings().map((h) => ({ name: h.Name, isin: h.ISIN }))],
		];
		for (const [file, expected] of uploads) {
			const label = `${FORM_EXAMPLE} [n8n start, form upload of ${basename(file)}]`;
			const t0 = Date.now();
			const before = sim.requestCount();
			try {
				const { bytes, fileName, steps } = await uploadThroughForm(server.base, file);
				assert.equal(
					fileName,
					`${basename(file).replace(/\.[^.]*$/, '')}_sfdr-pai.xlsx`,
					'the file name the completion page offers',
				);
				const rows = sheetRows(bytes, nodesBaseDir);
				checkRows(rows, expected);
				assert.equal(sim.requestCount() - before, 3, 'SFDR, PAI and the summary: 3 requests');
				passed++;
				console.log(
					`ok   ${label} (${formatMs(Date.now() - t0)})\n     ${steps.join(', ')}; ${fileName}: ${rows.length} rows checked`,
				);
			} catch (error) {
				failed++;
				console.log(`FAIL ${label}\n     ${(error as Error).message.split('\n').join('\n     ')}`);
			}
		}
	} catch (error) {
		failed++;
		const log = server ? `\n${lastLines(readFileSync(server.logFile, 'utf8'), 15)}` : '';
		console.log(
			`FAIL ${FORM_EXAMPLE} [n8n start] (n8n ${version})\n     ${(error as Error).message}${log}`,
		);
	} finally {
		await server?.stop();
		if (keep) console.log(`[e2e] kept form user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
	return { passed, failed };
}

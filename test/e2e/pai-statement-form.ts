/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- e2e tooling runs in Node, outside n8n's sandbox */
/**
 * examples/13's second entry point in a real n8n, as a person uses it: the workflow imported and published, `n8n
 * start`, an HTTP multipart POST of examples/holdings.quarterly.sample.xlsx to the form's production URL
 * (/form/pai-statement), then the email the run sends (an SMTP sink) read back: one workbook per statement with the
 * columns of Annex I, Table 1, and the figures of PAI 2, 3, 4 and 10 those of the independent recomputation. Called by
 * real-n8n.ts after the CLI workflows, which run the same example from its schedule (the workbook on disk).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { basename, dirname, join } from 'path';

import { quarterlyHoldings } from '../../scripts/sample-holdings';
import type { Simulator } from '../simulator/types';
import {
	annexColumns,
	expectedStatements,
	NODE_ROUNDING,
	statementFileName,
} from '../helpers/annualPaiStatement';
import {
	EXAMPLES_DIR,
	MIME_TYPES,
	QUARTERLY_UPLOAD_FORM,
	SAMPLE_QUARTERLY_WORKBOOK,
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
	smtpSinkCredentialData,
	startN8nServer,
} from './lib';
import { startSmtpSink, type ReceivedMail } from './smtp-sink';

export const PAI_STATEMENT_EXAMPLE = '13-annual-pai-statement.json';
const WORKFLOW_ID = 'e2ePaiStatementForm1';
const SMTP_CREDENTIAL = { id: 'e2eFormSmtp1', name: 'SMTP (e2e sink)' };

/** A GET of the form page until n8n has registered the published workflow's form (it answers 404 before). */
async function waitForForm(url: string): Promise<string> {
	const deadline = Date.now() + 180_000;
	for (;;) {
		const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
		const text = await answer.text();
		if (answer.status === 200) return text;
		if (answer.status !== 404 || Date.now() > deadline)
			throw new Error(`GET ${url} answered ${answer.status}: ${text.slice(0, 200)}`);
		await sleep(2000);
	}
}

/** The statements' workbooks of the mail, checked against the independent recomputation; what was seen. */
function checkMail(mail: ReceivedMail, nodesBaseDir: string): string {
	const statements = expectedStatements(quarterlyHoldings(), NODE_ROUNDING);
	const workbooks = mail.attachments.filter((a) => a.fileName?.endsWith('.xlsx'));
	assert.deepEqual(
		workbooks.map((a) => a.fileName).sort(),
		statements.map((statement) => statementFileName(statement, 2025)).sort(),
		'one workbook per statement, attached to the one email',
	);
	const columns = annexColumns(2025);
	for (const statement of statements) {
		const workbook = workbooks.find((a) => a.fileName === statementFileName(statement, 2025))!;
		const sheet = sheetRows(workbook.content, nodesBaseDir);
		for (const row of sheet)
			assert.deepEqual(Object.keys(row), columns, `${workbook.fileName}: the Annex I columns`);
		for (const expected of statement.fedRows) {
			const row = sheet.find((cells) =>
				String(cells['Adverse sustainability indicator']).startsWith(`${expected.pai}. `),
			);
			assert.ok(row, `${workbook.fileName}: the row of PAI ${expected.pai}`);
			assert.deepEqual(
				[row['Impact 2025'], row['Impact 2024']],
				[expected.impact_year_n ?? '', expected.impact_year_n_minus_1 ?? ''],
				`${workbook.fileName}: PAI ${expected.pai} (${expected.indicator}), 2025 and 2024`,
			);
		}
	}
	return `${workbooks.length} workbooks, PAI 2, 3, 4 and 10 of each as recomputed`;
}

/** The form of examples/13 in a real n8n: one pass or failure. */
export async function paiStatementFormInN8n(
	install: N8nInstall,
	packageRoot: string,
	info: PackageInfo,
	sim: Simulator,
	keep: boolean,
): Promise<{ passed: number; failed: number }> {
	const version = install.version;
	const nodesBaseDir = join(dirname(install.n8n), '..', 'n8n-nodes-base');
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-pai-form-'));
	const smtp = await startSmtpSink();
	let server: Awaited<ReturnType<typeof startN8nServer>> | undefined;
	const label = `${PAI_STATEMENT_EXAMPLE} [n8n start, form upload of ${basename(SAMPLE_QUARTERLY_WORKBOOK)}]`;
	const t0 = Date.now();
	try {
		installPackageInto(userFolder, packageRoot, info);
		const credential = simulatorCredential(sim.url);
		const workflow = JSON.parse(
			readFileSync(join(EXAMPLES_DIR, PAI_STATEMENT_EXAMPLE), 'utf8'),
		) as { nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }> };
		for (const node of workflow.nodes) {
			if (node.credentials?.sustainabilityComplianceApi)
				node.credentials.sustainabilityComplianceApi = { id: credential.id, name: credential.name };
			if (node.credentials?.smtp) node.credentials.smtp = { ...SMTP_CREDENTIAL };
		}
		await importIntoN8n(version, userFolder, {
			credentials: [
				credential,
				{ ...SMTP_CREDENTIAL, type: 'smtp', data: smtpSinkCredentialData(smtp) },
			],
			workflows: [{ ...workflow, id: WORKFLOW_ID, active: false }],
		});
		server = await startN8nServer(version, userFolder, 180_000);
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		const imported = await rest<{ versionId?: string }>('GET', `/workflows/${WORKFLOW_ID}`);
		assert.ok(imported.data?.versionId, `GET /rest/workflows/${WORKFLOW_ID}: ${imported.text}`);
		const published = await rest('POST', `/workflows/${WORKFLOW_ID}/activate`, {
			versionId: imported.data.versionId,
		});
		assert.equal(published.status, 200, `publishing: ${published.text.slice(0, 300)}`);

		sim.reset();
		sim.setAnswerShape({ measures: 'vendor' });
		const url = `${server.base}/form/${QUARTERLY_UPLOAD_FORM.path}`;
		assert.match(await waitForForm(url), /Annual PAI statement/, 'the form page has its title');
		const form = new FormData();
		const name = basename(SAMPLE_QUARTERLY_WORKBOOK);
		form.append(
			'field-0',
			new Blob([readFileSync(SAMPLE_QUARTERLY_WORKBOOK)], { type: MIME_TYPES.xlsx }),
			name,
		);
		const posted = await fetch(url, {
			method: 'POST',
			body: form,
			signal: AbortSignal.timeout(120_000),
		});
		const postText = await posted.text();
		assert.equal(
			posted.status,
			200,
			`the POST answered ${posted.status}: ${postText.slice(0, 300)}`,
		);
		const deadline = Date.now() + 180_000;
		while (smtp.mails().length === 0 && Date.now() < deadline) await sleep(1000);
		const mails = smtp.mails();
		assert.equal(mails.length, 1, 'the run sends one email');
		assert.deepEqual(
			sim.requests().map((r) => r.route),
			['POST /instruments/sustainability-data'],
			'one request',
		);
		const saw = checkMail(mails[0], nodesBaseDir);
		console.log(`ok   ${label} (${formatMs(Date.now() - t0)})\n     POST ${posted.status}; ${saw}`);
		return { passed: 1, failed: 0 };
	} catch (error) {
		const log = server ? `\n${lastLines(readFileSync(server.logFile, 'utf8'), 15)}` : '';
		console.log(`FAIL ${label} (n8n ${version})\n     ${(error as Error).message}${log}`);
		return { passed: 0, failed: 1 };
	} finally {
		sim.setAnswerShape(null);
		await server?.stop();
		await smtp.close();
		if (keep) console.log(`[e2e] kept form user folder ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
	}
}

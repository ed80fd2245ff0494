/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console
	-- dev script runs in Node, outside n8n's sandbox */
/**
 * `npm run editor`: a real n8n to click through before you have an API key. It
 *
 * 1. builds the package if dist/ is stale, and installs n8n (the newest supported version, scripts/real-n8n/versions)
 *    with scripts/real-n8n/ensure-n8n.sh on first use (Node 24 and n8n in ~/.cache, outside the project; 6-14 min
 *    once, then instant);
 * 2. starts the API simulator (test/simulator, key sim-all-families, the temperature route on);
 * 3. puts the built package where n8n loads community packages from, imports a credential "Sustainability Compliance
 *    API" pointing at the simulator (the id the example files name, so their nodes find it) and every example of
 *    examples/ (11 reads examples/holdings.sample.xlsx), publishes the upload form (10), and starts `n8n start` on
 *    127.0.0.1;
 * 4. creates the owner account and prints the address and the login; Ctrl-C stops n8n and the simulator and deletes
 *    the temporary n8n folder (`--keep` keeps it, to look at n8n.log or the database).
 *
 *   npm run editor
 *   npm run editor -- --n8n-version 2.20.12 --keep
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import {
	checkBuiltPackage,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	OWNER,
	restSession,
	setupOwner,
	startN8nServer,
	stopTracked,
	supportedN8nVersions,
} from '../test/e2e/lib';
import { startSimulator } from '../test/simulator';
import {
	EXAMPLE_WORKBOOK_PATH,
	SAMPLE_FILE_ACCESS,
	SAMPLE_WORKBOOK,
	UPLOAD_FORM,
} from '../test/workflow/fileExamples';
import { buildIfNeeded } from './buildIfNeeded';

const root = resolve(__dirname, '..');
/** The credential the example files refer to (id and name), so that their nodes find it on import. */
const EXAMPLE_CREDENTIAL = { id: 'sc-simulator', name: 'Sustainability Compliance API' };
const API_KEY = 'sim-all-families';

interface Args {
	version: string;
	keep: boolean;
}

function parseArgs(argv: string[]): Args {
	const args: Args = { version: supportedN8nVersions().newest, keep: false };
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--n8n-version') args.version = argv[++i] ?? '';
		else if (argv[i] === '--keep') args.keep = true;
		else if (argv[i] === '--help' || argv[i] === '-h') {
			console.log('usage: npm run editor [-- --n8n-version X.Y.Z] [--keep]');
			process.exit(0);
		} else throw new Error(`unknown argument ${argv[i]} (try --help)`);
	}
	return args;
}

type ExampleWorkflow = {
	id?: string;
	name?: string;
	active?: boolean;
	nodes: Array<{ type?: string; parameters?: Record<string, unknown> }>;
};

/** Every example of examples/, with an id n8n keeps (scExampleNN) and 11 reading the sample workbook. */
function exampleWorkflows(): ExampleWorkflow[] {
	return readdirSync(join(root, 'examples'))
		.filter((file) => /^\d\d-.*\.json$/.test(file))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(
				readFileSync(join(root, 'examples', file), 'utf8'),
			) as ExampleWorkflow;
			for (const node of workflow.nodes)
				if (
					node.type === 'n8n-nodes-base.readWriteFile' &&
					node.parameters?.fileSelector === EXAMPLE_WORKBOOK_PATH
				)
					node.parameters.fileSelector = SAMPLE_WORKBOOK;
			return { ...workflow, id: `scExample${file.slice(0, 2)}`, active: false };
		});
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const userFolder = mkdtempSync(join(tmpdir(), 'sc-editor-'));
	let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the simulator…');
		await stopTracked();
		await sim?.close();
		if (args.keep) console.log(`n8n's folder kept: ${userFolder}`);
		else rmSync(userFolder, { recursive: true, force: true });
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		buildIfNeeded(root);
		const info = checkBuiltPackage(root);
		console.log(
			`n8n ${args.version}: installed on first use by scripts/real-n8n/ensure-n8n.sh (6-14 minutes once)…`,
		);
		await ensureN8n(args.version);

		sim = await startSimulator({ temperatureRoute: true });
		installPackageInto(userFolder, root, info);
		const workflows = exampleWorkflows();
		await importIntoN8n(args.version, userFolder, {
			credentials: [
				{
					...EXAMPLE_CREDENTIAL,
					type: 'sustainabilityComplianceApi',
					data: { apiKey: API_KEY, baseUrl: sim.url },
				},
			],
			workflows,
		});
		console.log(`Starting n8n ${args.version} (its log: ${join(userFolder, 'n8n.log')})…`);
		const server = await startN8nServer(args.version, userFolder, 240_000, {
			// 11 reads examples/holdings.sample.xlsx; 08 and 09 use our nodes as AI tools.
			N8N_RESTRICT_FILE_ACCESS_TO: SAMPLE_FILE_ACCESS,
			N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		});
		await setupOwner(server.base);
		const rest = await restSession(server.base);
		// The upload form (10) answers only once published, as the editor's Publish button does.
		const form = workflows.find((w) => w.name && /^Upload form/.test(w.name));
		let formNote = '';
		if (form?.id) {
			const imported = await rest<{ versionId?: string }>('GET', `/workflows/${form.id}`);
			const published = await rest('POST', `/workflows/${form.id}/activate`, {
				versionId: imported.data?.versionId,
			});
			formNote =
				published.status === 200
					? `${server.base}/form/${UPLOAD_FORM.path} (example 10, published: upload examples/holdings.sample.xlsx or .csv)`
					: `not published (${published.status}: ${published.text.slice(0, 200)})`;
		}

		console.log(`
n8n ${args.version} with ${info.name} ${info.version}, the API simulator and the examples:

  Address:    ${server.base}
  Login:      ${OWNER.email}
  Password:   ${OWNER.password}
  Credential: "${EXAMPLE_CREDENTIAL.name}" → the simulator at ${sim.url} (API key ${API_KEY})
  Workflows:  the ${workflows.length} examples of examples/ (08 also needs an OpenAI credential)
  Form:       ${formNote}

Ctrl-C stops n8n and the simulator${args.keep ? '' : ' and deletes the temporary n8n folder'}.`);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		await stop(1);
	}
}

void main();

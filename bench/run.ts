/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- bench tooling runs in Node, outside n8n's sandbox */
/**
 * `npm run bench` [-- --quick] [-- --only economy,overhead,throttle,queue,pacing,scale,outputs,mapping]
 *
 * Runs our nodes inside n8n's engine (test/workflow/runner.ts) against the API simulator (in a child process, on
 * loopback), prints a markdown table per section with the command that reproduces it, and writes every table to
 * bench/results/latest.md and the raw figures to bench/results/latest.json. Speed and memory are ratios against a
 * baseline measured in the same process, never absolute targets.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

import type { BenchContext, Section } from './context';
import { economy } from './economy';
import { mapping } from './mapping';
import { outputs } from './outputs';
import { overhead } from './overhead';
import { pacing } from './pacing';
import { queue } from './queue';
import { renderSection, writeResults } from './report';
import type { SectionResult } from './report';
import { scale } from './scale';
import { ChildSimulator } from './sim';
import { throttle } from './throttle';

const SECTIONS: Section[] = [economy, overhead, throttle, queue, pacing, scale, outputs, mapping];

function parseArgs(argv: string[]): { quick: boolean; only: string[] } {
	let quick = false;
	let only = SECTIONS.map((section) => section.id);
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--quick') quick = true;
		else if (arg === '--only' || arg.startsWith('--only=')) {
			const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
			only = (value ?? '')
				.split(',')
				.map((name) => name.trim())
				.filter(Boolean);
			const unknown = only.filter((name) => !SECTIONS.some((section) => section.id === name));
			if (unknown.length || only.length === 0) {
				throw new Error(
					`--only takes a comma-separated list of ${SECTIONS.map((s) => s.id).join(', ')} (got "${value ?? ''}")`,
				);
			}
		} else if (arg === '--help' || arg === '-h') {
			process.stdout.write(
				`Usage: npm run bench [-- --quick] [-- --only ${SECTIONS.map((s) => s.id).join(',')}]\n`,
			);
			process.exit(0);
		} else throw new Error(`Unknown argument ${arg} (use --quick, --only <sections>)`);
	}
	return { quick, only };
}

async function main(): Promise<void> {
	const { quick, only } = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const results: SectionResult[] = [];
	const log = (message: string) =>
		process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${message}\n`);
	for (const section of SECTIONS.filter((candidate) => only.includes(candidate.id))) {
		const simulators: ChildSimulator[] = [];
		const context: BenchContext = {
			quick,
			command: (id) => `npm run bench -- --only ${id}${quick ? ' --quick' : ''}`,
			log,
			simulator: async (options) => {
				const sim = await ChildSimulator.start(options);
				simulators.push(sim);
				return sim;
			},
		};
		log(`${section.title}`);
		const sectionStarted = Date.now();
		try {
			const result = await section.run(context);
			results.push(result);
			process.stdout.write(`\n${renderSection(result)}\n`);
			log(`${section.id} done in ${((Date.now() - sectionStarted) / 1000).toFixed(0)} s`);
		} finally {
			await Promise.all(simulators.map((sim) => sim.close()));
		}
	}
	const header = [
		`<!-- npm run bench${quick ? ' -- --quick' : ''}${only.length < SECTIONS.length ? ` --only ${only.join(',')}` : ''} -->`,
		`Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, n8n-core ${n8nCoreVersion()} (WorkflowExecute), simulator on loopback in a child process${quick ? '; quick variant' : ''}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s.`,
	];
	const files = writeResults(join(__dirname, 'results'), header, results, {
		date: new Date().toISOString(),
		quick,
		sections: only,
		node: process.version,
		cpus: cpus().length,
		durationMs: Date.now() - started,
	});
	log(`wrote ${files.markdown} and ${files.json}`);
	const missed = results.flatMap((result) => result.checks ?? []).filter((check) => !check.ok);
	if (missed.length) log(`targets missed: ${missed.map((check) => check.name).join('; ')}`);
}

main().then(
	// n8n-core's HTTP agents keep sockets alive: leave at once instead of waiting for them.
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exit(1);
	},
);

/** The n8n-core the bench ran in, as installed (the dev dependency moves with n8n). */
function n8nCoreVersion(): string {
	return (
		JSON.parse(readFileSync(require.resolve('n8n-core/package.json'), 'utf8')) as {
			version: string;
		}
	).version;
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- soak tooling runs in Node, outside n8n's sandbox */
/**
 * npm run soak [-- --seconds 75 --seed 1 --probability 0.3 --slow-ms 50 --example 02 --example 05 --replay <seed> --quiet]
 *
 * Runs the example workflows against the simulator with injected faults until the time budget is used
 * (default 75 s: the whole command, start-up included, stays under 90 s), then prints the runs, the
 * retries they took, and `N passed, M failed` alone on the last line. Exit code 1 when a run failed.
 * See soak/soak.ts for the fault mix, the 500 policy and the volatile fields.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes an encryption key under the user folder on first use: keep it out of $HOME (as the tests do).
if (!process.env.N8N_USER_FOLDER)
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-sc-soak-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

import { FAULT_KINDS, VOLATILE_KEYS, runSoak } from './soak';
import type { SoakOptions } from './soak';

const MAX_SECONDS = 85;

function parseArgs(argv: string[]): SoakOptions & { quiet: boolean } {
	const options: SoakOptions & { quiet: boolean } = {
		seconds: 75,
		seed: 20251121,
		probability: 0.3,
		slowMs: 50,
		examples: [],
		quiet: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--seconds':
				options.seconds = Math.min(MAX_SECONDS, Number(value()));
				break;
			case '--seed':
				options.seed = Number(value());
				break;
			case '--probability':
				options.probability = Number(value());
				break;
			case '--slow-ms':
				options.slowMs = Number(value());
				break;
			case '--example':
				options.examples!.push(value());
				break;
			case '--replay':
				options.replaySeed = Number(value());
				break;
			case '--quiet':
				options.quiet = true;
				break;
			default:
				throw new Error(
					`unknown option ${argv[i]} (options: --seconds, --seed, --probability, --slow-ms, --example, --replay, --quiet)`,
				);
		}
	}
	for (const [name, number] of Object.entries({
		seconds: options.seconds,
		seed: options.seed,
		probability: options.probability,
		slowMs: options.slowMs,
	})) {
		if (!Number.isFinite(number) || number < 0) throw new Error(`--${name} must be a number >= 0`);
	}
	return options;
}

async function main(): Promise<number> {
	const options = parseArgs(process.argv.slice(2));
	const print = (line: string) => process.stdout.write(`${line}\n`);
	print(
		`soak: ${options.seconds} s, seed ${options.seed}, faults on ${Math.round(options.probability * 100)} % of requests ` +
			`(${FAULT_KINDS.join(', ')}; slow = ${options.slowMs} ms), volatile fields: ${VOLATILE_KEYS.join(', ')}, UUIDs, rpt_ ids, simulator URLs, binary ids, trigger outputs (see soak/README.md)`,
	);
	const summary = await runSoak({ ...options, log: options.quiet ? undefined : print });
	const retries = summary.requestsSeen - summary.faultFreeRequests;
	const faults =
		Object.entries(summary.faults)
			.map(([kind, count]) => `${kind} ${count}`)
			.join(', ') || 'none';
	print('');
	print(
		`examples: ${summary.references.map((r) => `${r.example} (${r.ok ? `${r.requests} requests` : 'FAILED fault-free'})`).join(', ')}`,
	);
	print(
		`faulted runs: ${summary.runs.length - summary.cut} in ${(summary.elapsedMs / 1000).toFixed(1)} s${summary.cut ? ` (and ${summary.cut} stopped by the time limit, not counted)` : ''}`,
	);
	print(
		`requests: ${summary.requestsSeen} seen vs ${summary.faultFreeRequests} fault-free (${retries} retries); faults injected: ${faults}`,
	);
	print(`expected failures ("500 twice", retried once by design): ${summary.expected500}`);
	print(
		`dropped after sending: ${summary.uncertainReports} run(s) with a PDF report reported uncertain (accepted), ${summary.settledSnapshots} snapshot(s) settled by the list of portfolios, ${summary.unreadableAnswers} run(s) with an unreadable answer that said so (accepted)`,
	);
	for (const run of summary.runs.filter((record) => record.outcome === 'failed')) {
		print(
			`FAILED run ${run.run} ${run.example} (replay: --replay ${run.seed} --example ${run.example}): ${run.problems.join('; ')}`,
		);
	}
	const failed = summary.failed + (summary.runs.length - summary.cut === 0 ? 1 : 0);
	print(`${summary.passed} passed, ${failed} failed`);
	return failed > 0 ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		process.stderr.write(`soak: ${error.stack ?? error.message}\n`);
		process.stdout.write('0 passed, 1 failed\n');
		process.exit(1);
	},
);

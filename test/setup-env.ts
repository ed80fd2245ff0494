/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error
	-- test tooling runs in Node, outside n8n's sandbox */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes an encryption key under the user folder on first use: keep it out of $HOME.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-sc-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n-core 2.41 logs every node error to the console at level info; a test run reads its own results.
process.env.N8N_LOG_LEVEL ??= 'silent';

// n8n-workflow runs the regexes of expressions and display conditions in a vm with a 250 ms wall-clock timeout; on a
// loaded 2-core machine a harmless regex can miss it ("Regular expression execution timed out", seen in CI). The tests
// keep n8n's own way of running them (a vm with a timeout), with 5 s: a runaway regex still ends the run.
import { createContext, Script } from 'vm';
import * as n8nWorkflow from 'n8n-workflow';

const REGEX_TIMEOUT_IN_TESTS_MS = 5_000;

function vmRegexEngine(timeout: number) {
	const context = createContext({
		flags: '',
		input: '',
		pattern: '',
		replacement: '',
		result: undefined,
	});
	const scripts = {
		exec: new Script('result = new RegExp(pattern, flags).exec(input)'),
		test: new Script('result = new RegExp(pattern, flags).test(input)'),
		replace: new Script('result = input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: new Script('result = Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: new Script('result = input.split(new RegExp(pattern, flags))'),
	};
	const run = (script: Script, values: Record<string, unknown>): never => {
		Object.assign(context, { flags: '', replacement: '', result: undefined }, values);
		try {
			script.runInContext(context, { timeout });
		} catch (error) {
			if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
				throw new Error('Regular expression execution timed out');
			throw error;
		}
		return context.result as never;
	};
	const withGlobal = (flags?: string) => (flags?.includes('g') ? flags : `${flags ?? ''}g`);
	return {
		exec: (pattern: string, input: string, flags?: string) =>
			run(scripts.exec, { pattern, input, flags: flags ?? '' }),
		test: (pattern: string, input: string, flags?: string) =>
			run(scripts.test, { pattern, input, flags: flags ?? '' }),
		replace: (pattern: string, input: string, flags: string | undefined, replacement: string) =>
			run(scripts.replace, { pattern, input, flags: flags ?? '', replacement }),
		matchAll: (pattern: string, input: string, flags?: string) =>
			run(scripts.matchAll, { pattern, input, flags: withGlobal(flags) }),
		split: (pattern: string, input: string, flags?: string) =>
			run(scripts.split, { pattern, input, flags: flags ?? '' }),
	};
}

const setSafeRegexEngine = (n8nWorkflow as { setSafeRegexEngine?: (engine: unknown) => void })
	.setSafeRegexEngine;
setSafeRegexEngine?.(vmRegexEngine(REGEX_TIMEOUT_IN_TESTS_MS));

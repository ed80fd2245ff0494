/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions -- test tooling runs in Node, outside n8n's sandbox */
/**
 * The CLI: argument parsing, and a real start/stop as a child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { parseArgs } from '../cli';

describe('simulator CLI', () => {
	const root = join(__dirname, '..', '..', '..');
	const cli = ['-r', 'ts-node/register/transpile-only', 'test/simulator/cli.ts'];

	it('parses the options', () => {
		expect(
			parseArgs([
				'--port',
				'4010',
				'--download-port',
				'4011',
				'--temperature-route',
				'--burst',
				'5/1000',
				'--time-scale',
				'0.1',
				'--log',
			]),
		).toEqual({
			port: 4010,
			downloadPort: 4011,
			temperatureRoute: true,
			burstLimit: { requests: 5, windowMs: 1000 },
			timeScale: 0.1,
			log: true,
		});
		expect(parseArgs(['--quota', '3', '--lock-requests', '2', '--link-ttl', '500'])).toEqual({
			monthlyQuota: 3,
			temperatureLockRequests: 2,
			reportLinkTtlMs: 500,
		});
		expect(parseArgs(['--answer-shape', 'temperature=top-level,measures=vendor'])).toEqual({
			answerShape: { temperature: 'top-level', measures: 'vendor' },
		});
		expect(parseArgs(['--answer-shape', 'measures=vendor'])).toEqual({
			answerShape: { measures: 'vendor' },
		});
		expect(parseArgs(['--answer-shape', 'involvements=extended'])).toEqual({
			answerShape: { involvements: 'extended' },
		});
	});

	it('refuses an unreadable --answer-shape', () => {
		for (const value of ['temperature=flat', 'colour=red', 'vendor']) {
			const run = spawnSync(process.execPath, [...cli, '--answer-shape', value], {
				cwd: root,
				encoding: 'utf8',
			});
			expect(run.status).toBe(2);
			expect(run.stderr).toMatch(/^--answer-shape: /);
		}
	});

	it('starts, prints its URL and key table, and stops on SIGTERM', async () => {
		const child = spawn(process.execPath, [...cli, '--port', '0'], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const url = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`CLI did not start: ${output}`)), 20000);
			child.stdout.on('data', (chunk: Buffer) => {
				output += chunk.toString();
				const match = /Simulator listening at (http:\/\/\S+)/.exec(output);
				if (match && output.includes('Control surface')) {
					clearTimeout(timer);
					resolve(match[1]);
				}
			});
			child.once('exit', (code) => reject(new Error(`CLI exited with ${code}: ${output}`)));
		});
		expect(output).toContain('sim-esg-only');
		expect(output).toContain('POST /reports');
		expect(output).not.toContain('POST /temperature-score/insights');
		expect((await fetch(`${url}/__sim/health`)).status).toBe(200);
		const exitCode = new Promise<number | null>((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		expect(await exitCode).toBe(0);
	});
});

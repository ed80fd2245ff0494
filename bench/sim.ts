/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-dangerous-functions -- bench tooling runs in Node, outside n8n's sandbox */
/**
 * The API simulator in a child process (bench/simHost.ts), driven over its /__sim control surface, so the
 * measured process holds only n8n, our node (or the baseline) and their data.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type {
	BurstLimit,
	FaultSpec,
	RecordedRequest,
	RouteKey,
	SimulatorOptions,
} from '../test/simulator';

export interface Stats {
	total: number;
	byRoute: Record<string, number>;
	byKey: Record<string, number>;
	byStatus: Record<string, number>;
}

export class ChildSimulator {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly downloadUrl: string,
		/** Answers requests it has seen before with the simulator's recorded answer (see simHost.ts). */
		readonly replayUrl: string,
	) {}

	static async start(options: SimulatorOptions = {}): Promise<ChildSimulator> {
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				join(__dirname, 'simHost.ts'),
				JSON.stringify(options),
			],
			{ cwd: join(__dirname, '..'), stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
		);
		const line = await new Promise<string>((resolve, reject) => {
			let buffer = '';
			child.stdout!.on('data', (chunk: Buffer) => {
				buffer += chunk.toString('utf8');
				const end = buffer.indexOf('\n');
				if (end >= 0) resolve(buffer.slice(0, end));
			});
			child.once('exit', (code) => reject(new Error(`simulator host exited with ${code}`)));
		});
		const { url, downloadUrl, replayUrl } = JSON.parse(line) as {
			url: string;
			downloadUrl: string;
			replayUrl: string;
		};
		return new ChildSimulator(child, url, downloadUrl, replayUrl);
	}

	private async control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.url}/__sim/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`simulator control ${path}: ${response.status} ${await response.text()}`);
		return await response.json();
	}

	async reset(): Promise<void> {
		await this.control('POST', 'reset');
	}

	async setBurstLimit(limit: BurstLimit | null): Promise<void> {
		await this.control('POST', 'burst', { limit });
	}

	async setFaults(route: RouteKey | '*', spec: FaultSpec | null): Promise<void> {
		await this.control('POST', 'faults', { route, spec });
	}

	/** The simulator's data version (2 moves some ISINs' SFDR classes and figures); reset() goes back to 1. */
	async setDataVersion(version: 1 | 2): Promise<void> {
		await this.control('POST', 'data-version', { version });
	}

	async stats(): Promise<Stats> {
		return (await this.control('GET', 'stats')) as Stats;
	}

	async requestCount(route?: RouteKey): Promise<number> {
		const stats = await this.stats();
		return route ? (stats.byRoute[route] ?? 0) : stats.total;
	}

	/** Recorded requests of a route (with bodies: keep to small ones). */
	async requests(route: RouteKey): Promise<RecordedRequest[]> {
		const answer = (await this.control('GET', `requests?route=${encodeURIComponent(route)}`)) as {
			requests: RecordedRequest[];
		};
		return answer.requests;
	}

	async downloads(): Promise<number> {
		return ((await this.control('GET', 'downloads')) as { downloads: unknown[] }).downloads.length;
	}

	async close(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.kill('SIGTERM');
		await exited;
	}
}

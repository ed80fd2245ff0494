/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- bench tooling runs in Node, outside n8n's sandbox */
/**
 * Child-process host of the API simulator for the benchmarks (started by bench/sim.ts, not run by hand).
 * argv[2]: SimulatorOptions as JSON. Prints one JSON line `{ url, downloadUrl, replayUrl }` on stdout.
 *
 * Running the simulator in its own process keeps its CPU time and its memory (it records every request body)
 * out of the measured process. `replayUrl` is a second listener in front of the simulator that answers a request
 * it has seen before (same method, path, key and body) with the simulator's recorded answer, so a measurement
 * can leave out the simulator's own computing time; a request it has not seen goes to the simulator.
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSimulator } from '../test/simulator';
import type { SimulatorOptions } from '../test/simulator';

interface Recorded {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

async function main(): Promise<void> {
	const options = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions;
	const sim = await startSimulator(options);
	const target = new URL(sim.url);
	const recorded = new Map<string, Recorded>();

	const replay = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const key = createHash('sha1')
				.update(`${req.method} ${req.url} ${String(req.headers['x-api-key'] ?? '')}\n`)
				.update(body)
				.digest('hex');
			const hit = recorded.get(key);
			if (hit) {
				res.writeHead(hit.status, hit.headers);
				res.end(hit.body);
				return;
			}
			const forward = httpRequest(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					const parts: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => parts.push(chunk));
					answer.on('end', () => {
						const entry: Recorded = {
							status: answer.statusCode ?? 500,
							headers: {
								'content-type': String(answer.headers['content-type'] ?? 'application/json'),
								'content-length': String(Buffer.concat(parts).length),
							},
							body: Buffer.concat(parts),
						};
						if (entry.status >= 200 && entry.status < 300) recorded.set(key, entry);
						res.writeHead(entry.status, entry.headers);
						res.end(entry.body);
					});
				},
			);
			forward.on('error', () => {
				res.writeHead(502);
				res.end();
			});
			forward.end(body);
		});
	});
	await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
	const replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;

	process.stdout.write(
		`${JSON.stringify({ url: sim.url, downloadUrl: sim.downloadUrl, replayUrl })}\n`,
	);
	const stop = () => {
		replay.close();
		replay.closeAllConnections();
		void sim.close().then(() => process.exit(0));
	};
	process.once('SIGTERM', stop);
	process.once('SIGINT', stop);
	process.once('disconnect', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});

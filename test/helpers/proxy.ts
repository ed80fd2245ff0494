/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from './lookupRuns';
import type { NodeSpec } from './workflows';

/** A loopback proxy in front of the simulator that can rewrite JSON answers (for answers the simulator never gives). */
export async function startProxy(
	target: string,
	transform: (path: string, body: { data?: unknown } | null) => unknown,
): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const headers: Record<string, string> = {};
				for (const name of ['x-api-key', 'content-type', 'accept']) {
					const value = req.headers[name];
					if (typeof value === 'string') headers[name] = value;
				}
				const answer = await fetch(`${target}${req.url}`, {
					method: req.method,
					headers,
					body: chunks.length ? Buffer.concat(chunks) : undefined,
				});
				const text = await answer.text();
				let body: unknown;
				try {
					body = transform(new URL(req.url ?? '/', target).pathname, JSON.parse(text));
				} catch {
					body = text;
				}
				res.writeHead(answer.status, { 'content-type': 'application/json' });
				res.end(typeof body === 'string' ? body : JSON.stringify(body));
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * Runs `spec` on `items` against the simulator at `target` through a proxy that hands each JSON answer to `rewrite`
 * (which changes it in place). Expects the run to succeed; gives the JSON of the node's output.
 */
export async function runThroughProxy(
	target: string,
	items: IDataObject[],
	spec: NodeSpec,
	rewrite: (body: { data?: unknown } | null) => void,
): Promise<IDataObject[]> {
	const proxy = await startProxy(target, (_path, body) => {
		rewrite(body);
		return body;
	});
	try {
		const { result, out } = await runNode(proxy.url, items, spec);
		expect(result.error).toBeUndefined();
		return out.map((item) => item.json);
	} finally {
		await proxy.close();
	}
}

/** `runThroughProxy` with `rewrite` applied to each entry of the answer's `data`. */
export const runWithEntriesRewritten = async (
	target: string,
	items: IDataObject[],
	spec: NodeSpec,
	rewrite: (entry: IDataObject) => void,
) =>
	await runThroughProxy(target, items, spec, (body) =>
		((body?.data ?? []) as IDataObject[]).forEach(rewrite),
	);

/** What the raw proxy sends back: an answer of its own, or `'cut'` (the connection closed without an answer). */
export type RawAnswer =
	| { status: number; headers?: Record<string, string>; body: string | Buffer }
	| 'cut';

export interface ProxiedRequest {
	method: string;
	path: string;
	/** The request's body as JSON (null when it had none or it was not JSON). */
	body: unknown;
	/** When it reached the proxy (ms). */
	at: number;
}

export interface Upstream {
	status: number;
	contentType: string;
	text: string;
}

/**
 * A loopback proxy in front of the simulator whose `answer` decides each answer whole (status, headers, bytes) or
 * cuts the connection: `forward()` sends the request on to the simulator (which then carries it out) and gives its
 * answer; not calling it means the simulator never sees the request. `requests` lists what reached the proxy.
 */
export async function startRawProxy(
	target: string,
	answer: (request: ProxiedRequest, forward: () => Promise<Upstream>) => Promise<RawAnswer>,
): Promise<{ url: string; requests: ProxiedRequest[]; close: () => Promise<void> }> {
	const requests: ProxiedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const raw = chunks.length ? Buffer.concat(chunks) : undefined;
				let body: unknown = null;
				try {
					body = raw ? JSON.parse(raw.toString('utf8')) : null;
				} catch {
					body = null;
				}
				const request: ProxiedRequest = {
					method: req.method ?? '',
					path: new URL(req.url ?? '/', target).pathname,
					body,
					at: Date.now(),
				};
				requests.push(request);
				const forward = async (): Promise<Upstream> => {
					const headers: Record<string, string> = {};
					for (const name of ['x-api-key', 'content-type', 'accept']) {
						const value = req.headers[name];
						if (typeof value === 'string') headers[name] = value;
					}
					const upstream = await fetch(`${target}${req.url}`, {
						method: req.method,
						headers,
						body: raw,
					});
					return {
						status: upstream.status,
						contentType: upstream.headers.get('content-type') ?? '',
						text: await upstream.text(),
					};
				};
				const sent = await answer(request, forward);
				if (sent === 'cut') {
					req.socket.destroy();
					return;
				}
				const payload = typeof sent.body === 'string' ? Buffer.from(sent.body) : sent.body;
				const headers: Record<string, string> = {
					'content-type': 'application/json',
					'content-length': String(payload.length),
					...sent.headers,
				};
				// An empty value: no such header at all (an answer without a content type).
				for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
				res.writeHead(sent.status, headers);
				res.end(payload);
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** The simulator's answer passed on as it came. */
export async function passOn(forward: () => Promise<Upstream>): Promise<RawAnswer> {
	const upstream = await forward();
	return {
		status: upstream.status,
		headers: { 'content-type': upstream.contentType || 'application/json' },
		body: upstream.text,
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * HTTP plumbing shared by the listeners: body reading, JSON parsing, response helpers.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface ApiResult {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
	/** Sent as it is instead of the JSON of `body` (an HTML page), with `contentType`. */
	text?: string;
	/** Default `text/html; charset=utf-8` when `text` is set. */
	contentType?: string;
}

/** API-level error: `{"data":{"message": ..., "error"?: ...}}`. */
export function apiError(status: number, message: string, error?: unknown): ApiResult {
	return { status, body: { data: error === undefined ? { message } : { message, error } } };
}

/** Gateway error: `{"message": ...}`, with the AWS-style error type header. */
export function gatewayError(status: number, message: string, errorType?: string): ApiResult {
	return {
		status,
		body: { message },
		headers: errorType ? { 'x-amzn-errortype': errorType } : undefined,
	};
}

export interface ReadBody {
	/** Total bytes received. */
	size: number;
	/** The body, or null when it exceeded the limit (buffering stops there; the rest is drained). */
	buffer: Buffer | null;
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
			else chunks.length = 0;
		});
		req.on('end', () => resolve({ size, buffer: size <= limit ? Buffer.concat(chunks) : null }));
		req.on('error', reject);
	});
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

/** An empty body parses as `undefined`. */
export function parseJson(buffer: Buffer | null): ParsedJson {
	if (buffer === null) return { ok: true, value: undefined };
	const text = buffer.toString('utf8');
	if (text.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
}

function writeHead(res: ServerResponse, result: ApiResult, length?: number): void {
	res.writeHead(result.status, {
		'content-type':
			result.text === undefined
				? 'application/json'
				: (result.contentType ?? 'text/html; charset=utf-8'),
		...(length !== undefined ? { 'content-length': length } : {}),
		'x-amzn-requestid': randomUUID(),
		...result.headers,
	});
}

export function sendJson(res: ServerResponse, result: ApiResult): void {
	const payload = result.text ?? JSON.stringify(result.body);
	writeHead(res, result, Buffer.byteLength(payload));
	res.end(payload);
}

/** The answer's headers (with its Content-Length) at once, then its body one byte every `intervalMs`. */
export function sendTrickled(res: ServerResponse, result: ApiResult, intervalMs: number): void {
	const payload = Buffer.from(result.text ?? JSON.stringify(result.body));
	writeHead(res, result, payload.length);
	res.flushHeaders();
	let sent = 0;
	const timer = setInterval(() => {
		if (res.destroyed) return clearInterval(timer);
		res.write(payload.subarray(sent, ++sent));
		if (sent >= payload.length) {
			clearInterval(timer);
			res.end();
		}
	}, intervalMs);
	res.on('close', () => clearInterval(timer));
}

/**
 * The answer broken on the wire (faults.ts WIRE_FAULT_KINDS): `cut-body` sends the headers (with the full
 * Content-Length) and half the body, then closes the connection; the others write raw bytes on the socket: a text
 * that is not HTTP, a chunked answer with a chunk size that is not hexadecimal, a body announced as gzip that is
 * plain JSON, a header of 64 KB.
 */
export function sendBroken(
	res: ServerResponse,
	result: ApiResult,
	kind: 'cut-body' | 'garbage' | 'bad-chunk' | 'corrupt-gzip' | 'header-overflow',
): void {
	const payload = Buffer.from(result.text ?? JSON.stringify(result.body));
	const socket = res.socket;
	if (!socket) return;
	const head = (status: number, lines: string[]) =>
		[`HTTP/1.1 ${status} Answer`, 'content-type: application/json', ...lines, '', ''].join('\r\n');
	switch (kind) {
		case 'cut-body':
			writeHead(res, result, payload.length);
			res.flushHeaders();
			res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => socket.destroy());
			return;
		case 'garbage':
			socket.end(
				'SSH-2.0-OpenSSH_8.9 internal-lb-7.corp.example\r\n\u0000\u0001\u0002 not http\r\n',
			);
			return;
		case 'bad-chunk':
			socket.end(
				`${head(result.status, ['transfer-encoding: chunked'])}zz-not-a-size\r\n${payload.toString('latin1')}\r\n0\r\n\r\n`,
			);
			return;
		case 'corrupt-gzip':
			socket.end(
				Buffer.concat([
					Buffer.from(
						head(result.status, ['content-encoding: gzip', `content-length: ${payload.length}`]),
					),
					payload,
				]),
			);
			return;
		case 'header-overflow':
			socket.end(
				`${head(result.status, [`x-padding: ${'a'.repeat(64 * 1024)}`, `content-length: ${payload.length}`])}${payload.toString('latin1')}`,
			);
			return;
	}
}

/** Size of the `oversized-answer` faults' answers: far above any client's cap. */
export const OVERSIZED_ANSWER_BYTES = 100_000_000;

/**
 * 200 JSON of OVERSIZED_ANSWER_BYTES (`{"data":[` then spaces), with or without Content-Length, written as fast as
 * the client reads; resolves with the bytes written when the connection ends.
 */
export function sendOversized(res: ServerResponse, announced: boolean): Promise<number> {
	writeHead(res, { status: 200, body: null }, announced ? OVERSIZED_ANSWER_BYTES : undefined);
	const chunk = Buffer.alloc(1024 * 1024, 0x20);
	chunk.write('{"data":[', 'latin1');
	let written = 0;
	return new Promise((resolve) => {
		const write = (): void => {
			while (written < OVERSIZED_ANSWER_BYTES) {
				if (res.destroyed) return;
				const piece = chunk.subarray(0, Math.min(chunk.length, OVERSIZED_ANSWER_BYTES - written));
				written += piece.length;
				if (written >= OVERSIZED_ANSWER_BYTES) {
					res.end(piece);
					return;
				}
				if (!res.write(piece)) {
					res.once('drain', write);
					return;
				}
			}
		};
		res.on('close', () => {
			res.removeAllListeners('drain');
			resolve(written);
		});
		write();
	});
}

export function headerValue(req: IncomingMessage, name: string): string | null {
	const value = req.headers[name.toLowerCase()];
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

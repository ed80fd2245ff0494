/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
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

export function sendJson(res: ServerResponse, result: ApiResult): void {
	const payload = result.text ?? JSON.stringify(result.body);
	res.writeHead(result.status, {
		'content-type':
			result.text === undefined
				? 'application/json'
				: (result.contentType ?? 'text/html; charset=utf-8'),
		'content-length': Buffer.byteLength(payload),
		'x-amzn-requestid': randomUUID(),
		...result.headers,
	});
	res.end(payload);
}

export function headerValue(req: IncomingMessage, name: string): string | null {
	const value = req.headers[name.toLowerCase()];
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

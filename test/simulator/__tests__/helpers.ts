/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Test helpers: plain HTTP calls to a running simulator with Node's global fetch.
 */
import { SIM_KEYS, findIsins } from '../index';

export interface CallOptions {
	/** x-api-key header; null = no header. Default sim-all-families. */
	key?: string | null;
	/** JSON-serialized unless `raw` is given. */
	body?: unknown;
	/** Sent as is. */
	raw?: string | Buffer;
	headers?: Record<string, string>;
}

export interface CallResult {
	status: number;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read by path in assertions
	body: any;
	text: string;
	headers: Headers;
}

export async function call(
	baseUrl: string,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<CallResult> {
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		...options.headers,
	};
	const key = options.key === undefined ? SIM_KEYS.allFamilies : options.key;
	if (key !== null) headers['x-api-key'] = key;
	let body: string | Buffer | undefined = options.raw;
	if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
	const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
	const text = await response.text();
	let parsed: unknown = null;
	try {
		parsed = text === '' ? null : JSON.parse(text);
	} catch {
		parsed = null;
	}
	return { status: response.status, body: parsed, text, headers: response.headers };
}

export const COMPANIES = findIsins((data) => data.known && !data.isFund, 12, 'DE');
export const FUNDS = findIsins((data) => data.isFund, 4, 'LU');
export const UNKNOWN = findIsins((data) => !data.known, 3, 'FR');

/** A copy of `value` without `keys` (a body missing required fields). */
export function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
	const copy = { ...value };
	for (const key of keys) delete copy[key];
	return copy;
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The validator's error entries (spec: 400 with data.error), as the simulator writes them. */
const schemaError = (path: string, message: unknown, kind: string) => ({
	path,
	message,
	errorCode: `${kind}.openapi.validation`,
});
export const requiredError = (path: string) =>
	schemaError(path, `must have required property '${path.split('.').pop()}'`, 'required');
export const typeError = (path: string, type: string) =>
	schemaError(path, `must be ${type}`, 'type');
export const enumError = (path: string, message: unknown) => schemaError(path, message, 'enum');

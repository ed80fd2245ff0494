/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets
	-- test tooling runs in Node, outside n8n's sandbox; SECRET_PAGE_TEXT is a fake secret that clients must never echo */
/**
 * Report documents and the second listener that serves them (another origin, S3-like presigned links).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { DownloadFaultKind, DownloadRecord } from './types';

interface StoredDocument {
	pdf: Buffer;
	expiresAt: number;
}

const DOCUMENT_PATH = /^\/documents\/([0-9a-f]+)\.pdf$/;

export const DOWNLOAD_FAULT_KINDS: readonly DownloadFaultKind[] = [
	'redirect',
	'secret-page',
	'oversized',
	'oversized-unannounced',
	'gcs-json-error',
	'trickle',
];
/** Default wait between the bytes of the `trickle` fault, in ms. */
export const DEFAULT_DOWNLOAD_TRICKLE_MS = 1000;
/** Text of the `secret-page` fault: what a local service's error page could show. It must never reach a node's output. */
export const SECRET_PAGE_TEXT = 'db_password=sim-secret-7f3a9c';
/** Body size of the `oversized` faults: far above any client's cap. */
export const OVERSIZED_BYTES = 100_000_000;
/** Path (with a token in the query) that the `redirect` fault points at, on another origin. */
export const REDIRECT_PATH = '/internal/admin?token=sim-redirect-token';

function xmlError(code: string, message: string): string {
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		`<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomUUID()}</RequestId></Error>`
	);
}

export class DocumentStore {
	private readonly documents = new Map<string, StoredDocument>();
	private readonly log: DownloadRecord[] = [];
	private faults: DownloadFaultKind[] = [];
	private trickleMs = DEFAULT_DOWNLOAD_TRICKLE_MS;
	private linkTemplate: string | null = null;
	/** Base URL of the download listener, set once it listens. */
	baseUrl = '';

	constructor(private readonly ttlMs: number) {}

	/**
	 * Stores a PDF under a random token; returns its download URL (valid for ttlMs, real time), on the host name the
	 * client addressed the API by (localhost or 127.0.0.1), or as the link template says.
	 */
	add(pdf: Buffer, requestHost = '127.0.0.1'): string {
		const token = randomBytes(16).toString('hex');
		this.documents.set(token, { pdf, expiresAt: Date.now() + this.ttlMs });
		const port = new URL(this.baseUrl).port;
		const path = `/documents/${token}.pdf`;
		const url = `http://${requestHost === 'localhost' ? 'localhost' : '127.0.0.1'}:${port}${path}`;
		if (this.linkTemplate === null) return url;
		return this.linkTemplate
			.replace(/\{url\}/g, url)
			.replace(/\{path\}/g, path)
			.replace(/\{port\}/g, port);
	}

	/** `{url}` (the usual link), `{path}` (/documents/<token>.pdf) and `{port}` (of this listener) are filled in. */
	setReportLink(template: string | null): void {
		this.linkTemplate = template;
	}

	/** Consumed one per download request; `null` = answer normally. `trickleMs`: the `trickle` fault's pace. */
	setFaults(
		sequence: (DownloadFaultKind | null)[] | null,
		{ trickleMs = DEFAULT_DOWNLOAD_TRICKLE_MS }: { trickleMs?: number } = {},
	): void {
		for (const kind of sequence ?? []) {
			if (kind !== null && !DOWNLOAD_FAULT_KINDS.includes(kind))
				throw new Error(`Unknown download fault kind: ${String(kind)}`);
		}
		this.faults = [...(sequence ?? [])] as DownloadFaultKind[];
		this.trickleMs = trickleMs;
	}

	downloads(): DownloadRecord[] {
		return this.log.map((entry) => ({ ...entry }));
	}

	reset(): void {
		this.documents.clear();
		this.log.length = 0;
		this.faults = [];
		this.trickleMs = DEFAULT_DOWNLOAD_TRICKLE_MS;
		this.linkTemplate = null;
	}

	/** Request handler of the download listener. */
	handle(req: IncomingMessage, res: ServerResponse): void {
		const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
		const fault = this.faults.length > 0 ? (this.faults.shift() ?? null) : null;
		const record: DownloadRecord = { path, headers: { ...req.headers }, status: 0, fault };
		this.log.push(record);
		record.status = fault
			? this.respondWithFault(req, res, fault, record)
			: this.respond(req, res, path);
		req.resume();
	}

	private respondWithFault(
		req: IncomingMessage,
		res: ServerResponse,
		fault: DownloadFaultKind,
		record: DownloadRecord,
	): number {
		switch (fault) {
			case 'redirect': {
				// Another origin (the other spelling of this host), so a client that follows it shows up in downloads().
				const host = (req.headers.host ?? '').startsWith('localhost') ? '127.0.0.1' : 'localhost';
				res.writeHead(302, {
					location: `http://${host}:${new URL(this.baseUrl).port}${REDIRECT_PATH}`,
					'content-length': 0,
				});
				res.end();
				return 302;
			}
			case 'secret-page': {
				const body = `<html><body><h1>Internal Server Error</h1><pre>config: ${SECRET_PAGE_TEXT}</pre></body></html>`;
				res.writeHead(500, {
					'content-type': 'text/html',
					'content-length': Buffer.byteLength(body),
				});
				res.end(body);
				return 500;
			}
			case 'gcs-json-error': {
				const body = JSON.stringify({
					error: {
						code: 403,
						message:
							'Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object.',
						errors: [
							{ message: `debug: ${SECRET_PAGE_TEXT}`, domain: 'global', reason: 'forbidden' },
						],
					},
				});
				res.writeHead(403, {
					'content-type': 'application/json; charset=UTF-8',
					'content-length': Buffer.byteLength(body),
				});
				res.end(body);
				return 403;
			}
			case 'oversized':
			case 'oversized-unannounced':
				streamOversized(res, fault === 'oversized', record);
				return 200;
			case 'trickle':
				trickle(res, this.trickleMs, record);
				return 200;
		}
	}

	private respond(req: IncomingMessage, res: ServerResponse, path: string): number {
		const match = DOCUMENT_PATH.exec(path);
		const document = match ? this.documents.get(match[1]) : undefined;
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			return sendXml(
				res,
				405,
				xmlError('MethodNotAllowed', 'The specified method is not allowed against this resource.'),
			);
		}
		if (!document)
			return sendXml(res, 404, xmlError('NoSuchKey', 'The specified key does not exist.'));
		if (Date.now() > document.expiresAt)
			return sendXml(res, 403, xmlError('AccessDenied', 'Request has expired'));
		res.writeHead(200, {
			'content-type': 'application/pdf',
			'content-length': document.pdf.length,
		});
		res.end(req.method === 'HEAD' ? undefined : document.pdf);
		return 200;
	}
}

function sendXml(res: ServerResponse, status: number, body: string): number {
	res.writeHead(status, {
		'content-type': 'application/xml',
		'content-length': Buffer.byteLength(body),
	});
	res.end(body);
	return status;
}

/** 200 with the headers of a small PDF (its Content-Length), then one byte of it every `intervalMs`. */
function trickle(res: ServerResponse, intervalMs: number, record: DownloadRecord): void {
	const pdf = Buffer.alloc(2048, 0x20);
	pdf.write('%PDF-1.4\n', 'latin1');
	res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
	res.flushHeaders();
	record.bytes = 0;
	record.complete = false;
	const timer = setInterval(() => {
		if (res.destroyed) return clearInterval(timer);
		res.write(pdf.subarray(record.bytes!, ++record.bytes!));
		if (record.bytes! >= pdf.length) {
			clearInterval(timer);
			res.end(() => {
				record.complete = true;
			});
		}
	}, intervalMs);
	res.on('close', () => clearInterval(timer));
}

/** 200 with a body of OVERSIZED_BYTES (a PDF header, then zeros), written as fast as the client reads it. */
function streamOversized(res: ServerResponse, announced: boolean, record: DownloadRecord): void {
	res.writeHead(200, {
		'content-type': 'application/pdf',
		...(announced ? { 'content-length': OVERSIZED_BYTES } : {}),
	});
	const chunk = Buffer.alloc(1024 * 1024);
	chunk.write('%PDF-1.4\n', 'latin1');
	record.bytes = 0;
	record.complete = false;
	const write = (): void => {
		while (record.bytes! < OVERSIZED_BYTES) {
			if (res.destroyed) return;
			const piece = chunk.subarray(0, Math.min(chunk.length, OVERSIZED_BYTES - record.bytes!));
			record.bytes! += piece.length;
			if (record.bytes! >= OVERSIZED_BYTES) {
				res.end(piece, () => {
					record.complete = true;
				});
				return;
			}
			if (!res.write(piece)) {
				res.once('drain', write);
				return;
			}
		}
	};
	res.on('close', () => res.removeAllListeners('drain'));
	write();
}

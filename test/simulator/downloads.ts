/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Report documents and the second listener that serves them (another origin, S3-like presigned links).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { DownloadRecord } from './types';

interface StoredDocument {
	pdf: Buffer;
	expiresAt: number;
}

const DOCUMENT_PATH = /^\/documents\/([0-9a-f]+)\.pdf$/;

function xmlError(code: string, message: string): string {
	return (
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		`<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomUUID()}</RequestId></Error>`
	);
}

export class DocumentStore {
	private readonly documents = new Map<string, StoredDocument>();
	private readonly log: DownloadRecord[] = [];
	/** Base URL of the download listener, set once it listens. */
	baseUrl = '';

	constructor(private readonly ttlMs: number) {}

	/** Stores a PDF under a random token; returns its download URL (valid for ttlMs, real time). */
	add(pdf: Buffer): string {
		const token = randomBytes(16).toString('hex');
		this.documents.set(token, { pdf, expiresAt: Date.now() + this.ttlMs });
		return `${this.baseUrl}/documents/${token}.pdf`;
	}

	downloads(): DownloadRecord[] {
		return this.log.map((entry) => ({ ...entry }));
	}

	reset(): void {
		this.documents.clear();
		this.log.length = 0;
	}

	/** Request handler of the download listener. */
	handle(req: IncomingMessage, res: ServerResponse): void {
		const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
		const status = this.respond(req, res, path);
		this.log.push({ path, headers: { ...req.headers }, status });
		req.resume();
	}

	private respond(req: IncomingMessage, res: ServerResponse, path: string): number {
		const match = DOCUMENT_PATH.exec(path);
		const document = match ? this.documents.get(match[1]) : undefined;
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			return sendXml(res, 405, xmlError('MethodNotAllowed', 'The specified method is not allowed against this resource.'));
		}
		if (!document) return sendXml(res, 404, xmlError('NoSuchKey', 'The specified key does not exist.'));
		if (Date.now() > document.expiresAt) return sendXml(res, 403, xmlError('AccessDenied', 'Request has expired'));
		res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': document.pdf.length });
		res.end(req.method === 'HEAD' ? undefined : document.pdf);
		return 200;
	}
}

function sendXml(res: ServerResponse, status: number, body: string): number {
	res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
	res.end(body);
	return status;
}

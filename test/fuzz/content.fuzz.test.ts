/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test tooling runs in Node, outside n8n's sandbox, and rethrows what it does not judge */
/**
 * Issue 35, "Content": the body decides what an answer is. Generated JSON bodies × generated content-type labels ×
 * charsets, through the transport's own reading (sendApiRequest, given the bytes as n8n's helper streams them) and
 * every route's contract (readAnswer): the answer read is the one of the same JSON sent as `application/json` in
 * UTF-8, and never taken for a proxy's page. Bodies that are not JSON keep the page handling: an HTML page (by label
 * or by its start) answered 200 is a proxy page, any other text is "not JSON" or "empty".
 */
import { Readable } from 'node:stream';

import fc from 'fast-check';
import type { INode } from 'n8n-workflow';

import { UnreadableAnswerError, isProxyPage, readAnswer } from '../../nodes/shared/api/answers';
import { decodeBody, sendApiRequest } from '../../nodes/shared/api/httpClient';
import type { ApiAnswer, RequestContext } from '../../nodes/shared/api/httpClient';
import { ROUTES } from '../../nodes/shared/api/routes';
import type { ApiRoute } from '../../nodes/shared/api/routes';
import { FUZZ_SEED, runs } from './arbitraries';

const NODE = {
	name: 'Node',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

/** The transport's reading of an answer whose body is `bytes`, as n8n's helper gives it (a stream). */
async function received(status: number, contentType: string | undefined, bytes: Buffer) {
	const context = {
		helpers: {
			httpRequestWithAuthentication: async () => ({
				statusCode: status,
				headers: contentType === undefined ? {} : { 'content-type': contentType },
				body: Readable.from([bytes]),
			}),
		},
	} as unknown as RequestContext;
	return await sendApiRequest.call(context, { url: 'http://127.0.0.1/x', method: 'POST' });
}

/** What the node makes of a 2xx answer on `route`: a proxy page, the body read, or the unreadable answer's words. */
function verdict(route: ApiRoute, answer: ApiAnswer): unknown {
	if (isProxyPage(answer)) return 'proxy page';
	try {
		return { read: readAnswer(NODE, route, answer) };
	} catch (error) {
		if (!(error instanceof UnreadableAnswerError)) throw error;
		return { unreadable: error.message };
	}
}

/** Text with the characters of names in answers: Latin-1 letters, and any others where the charset has them. */
const latin1Text = fc.string({
	unit: fc.oneof(
		fc.constantFrom(...'abcXYZ 09-.,&'.split('')),
		fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)),
	),
	maxLength: 20,
});
const anyText = fc.string({ unit: 'grapheme', maxLength: 20 });

interface Charset {
	/** The label's charset parameter, or none. */
	label?: string;
	encode: (text: string) => Buffer;
	/** Only Latin-1 characters fit it. */
	latin1: boolean;
}
const CHARSETS: Charset[] = [
	{ encode: (text) => Buffer.from(text, 'utf8'), latin1: false },
	{ label: 'utf-8', encode: (text) => Buffer.from(text, 'utf8'), latin1: false },
	{ label: 'UTF-8', encode: (text) => Buffer.from(`\uFEFF${text}`, 'utf8'), latin1: false },
	{ label: 'ISO-8859-1', encode: (text) => Buffer.from(text, 'latin1'), latin1: true },
	{ label: 'iso-8859-1', encode: (text) => Buffer.from(text, 'latin1'), latin1: true },
	{ label: 'windows-1252', encode: (text) => Buffer.from(text, 'latin1'), latin1: true },
	{ label: 'latin1', encode: (text) => Buffer.from(text, 'latin1'), latin1: true },
	{ label: 'utf-16le', encode: (text) => Buffer.from(text, 'utf16le'), latin1: false },
	{
		label: '"UTF-16"',
		encode: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
		latin1: false,
	},
];

const MEDIA_TYPES = [
	'application/json',
	'text/html',
	'text/plain',
	'application/octet-stream',
	'application/problem+json',
	'TEXT/HTML',
	'text/javascript',
];

/** A content type: a media type (or none) with the charset's parameter. */
const label = (charset: Charset) =>
	fc.option(fc.constantFrom(...MEDIA_TYPES), { nil: undefined }).map((type) => {
		if (type === undefined) return charset.label ? `; charset=${charset.label}` : undefined;
		return charset.label ? `${type}; charset=${charset.label}` : type;
	});

/** A JSON value with texts of the charset's characters, sometimes an SFDR answer that reads. */
const jsonOf = (text: fc.Arbitrary<string>) =>
	fc.oneof(
		fc.record({
			data: fc.array(
				fc.record({
					isin: fc.constantFrom('FR0000130809', 'DE0007236101', 'US0378331005'),
					name: text,
					sustainability_profile: fc.record({
						classification: fc.constantFrom(6, 8, 9, null),
						description: fc.option(text, { nil: null }),
					}),
				}),
				{ minLength: 1, maxLength: 3 },
			),
			metadata: fc.dictionary(text, text, { maxKeys: 2 }),
		}),
		fc.jsonValue({ maxDepth: 3 }),
		fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 4 }),
	);

const ROUTE_LIST = Object.values(ROUTES) as ApiRoute[];

describe('content: the body decides, a declared charset is honoured', () => {
	it('decodes a declared single-byte charset, UTF-16 by label or mark, and UTF-8 mislabelled as Latin-1', () => {
		const name = 'Société Générale';
		expect(decodeBody(Buffer.from(name, 'latin1'), 'application/json; charset=ISO-8859-1')).toBe(
			name,
		);
		expect(decodeBody(Buffer.from(name, 'latin1'), 'text/plain;charset="windows-1252"')).toBe(name);
		expect(decodeBody(Buffer.from(name, 'utf16le'), 'application/json; charset=utf-16le')).toBe(
			name,
		);
		// A server's default label on UTF-8 text: the bytes are valid UTF-8, read as such.
		expect(decodeBody(Buffer.from(name, 'utf8'), 'application/json; charset=ISO-8859-1')).toBe(
			name,
		);
		// A byte order mark wins over the label; an unknown charset is read as UTF-8.
		expect(decodeBody(Buffer.from(`\uFEFF${name}`, 'utf8'), 'text/html; charset=latin1')).toBe(
			name,
		);
		expect(decodeBody(Buffer.from(name, 'utf8'), 'application/json; charset=klingon')).toBe(name);
	});

	it('generated JSON × content types × charsets: read as the same JSON in UTF-8 would be, on every route, never a page', async () => {
		const cases = fc
			.constantFrom(...CHARSETS)
			.chain((charset) =>
				fc.tuple(
					fc.constant(charset),
					label(charset),
					jsonOf(charset.latin1 ? latin1Text : anyText),
					fc.constantFrom(200, 201),
				),
			);
		await fc.assert(
			fc.asyncProperty(cases, async ([charset, contentType, value, status]) => {
				const text = JSON.stringify(value);
				// A Latin-1 text that is also valid UTF-8 reads as UTF-8 (see decodeBody): not this property's case.
				if (charset.latin1 && isUtf8(Buffer.from(text, 'latin1')) && /[^ -~]/.test(text)) return;
				const plain = await received(status, 'application/json', Buffer.from(text, 'utf8'));
				const answer = await received(status, contentType, charset.encode(text));
				expect(answer.body).toEqual(value);
				expect(isProxyPage(answer)).toBe(false);
				for (const route of ROUTE_LIST)
					expect(verdict(route, answer)).toEqual(verdict(route, plain));
			}),
			{ seed: FUZZ_SEED, numRuns: runs(300) },
		);
	});

	it('bodies that are not JSON keep the page handling: an HTML page at 200 is a proxy page, any other text is not JSON', async () => {
		const page = fc.oneof(
			fc.constant('<!DOCTYPE html><html><body>Maintenance</body></html>'),
			fc.constant('<html>\r\n<head><title>502</title></head></html>'),
			anyText.map((text) => `<html><body>${text}</body></html>`),
		);
		const notJson = anyText.filter((text) => {
			try {
				JSON.parse(text);
				return false;
			} catch {
				return !/^\s*<(!doctype\s+html|html[\s>])/i.test(text);
			}
		});
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					page.map((body) => ({ body, html: true })),
					notJson.map((body) => ({ body, html: false })),
				),
				fc.option(fc.constantFrom(...MEDIA_TYPES), { nil: undefined }),
				async ({ body, html }, contentType) => {
					const answer = await received(200, contentType, Buffer.from(body, 'utf8'));
					const labelledHtml = (contentType ?? '').toLowerCase().includes('html');
					expect(isProxyPage(answer)).toBe(html || labelledHtml);
					if (html || labelledHtml) return;
					const { unreadable } = verdict(ROUTES.sfdrClassification, answer) as {
						unreadable: string;
					};
					expect(unreadable).toMatch(/cannot be read: it is (not JSON|empty)$/);
				},
			),
			{ seed: FUZZ_SEED, numRuns: runs(200) },
		);
	});
});

function isUtf8(bytes: Buffer): boolean {
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		return true;
	} catch {
		return false;
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
/**
 * smtp-sink.ts — a minimal SMTP server on 127.0.0.1 (node:net only) that accepts every mail and keeps it,
 * so that a real n8n's Send Email node (nodemailer) can deliver to it in the end-to-end runs.
 *
 * Speaks just enough ESMTP for nodemailer without TLS: EHLO/HELO, optional AUTH PLAIN/LOGIN (any
 * credentials are accepted), MAIL FROM, RCPT TO, DATA (dot-unstuffing), RSET, NOOP, QUIT. STARTTLS is
 * not advertised, so the SMTP credential must have SSL/TLS off (and Disable STARTTLS on).
 *
 * Each received mail is parsed into headers, text parts and attachments (multipart MIME, base64 /
 * quoted-printable / 7bit bodies; enough for what nodemailer writes).
 */
import { createServer, type Server, type Socket } from 'net';

export interface MailAttachment {
	fileName: string | null;
	contentType: string;
	disposition: string | null;
	content: Buffer;
}

export interface ReceivedMail {
	from: string;
	to: string[];
	/** The raw message as received (after dot-unstuffing). */
	raw: string;
	headers: Record<string, string>;
	subject: string;
	/** Decoded text/plain parts, joined. */
	text: string;
	attachments: MailAttachment[];
	at: number;
}

export interface SmtpSink {
	host: string;
	port: number;
	mails(): ReceivedMail[];
	reset(): void;
	close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
	const mails: ReceivedMail[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		handleSession(socket, (mail) => mails.push(mail));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		host: '127.0.0.1',
		port,
		mails: () => [...mails],
		reset: () => {
			mails.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

function handleSession(socket: Socket, deliver: (mail: ReceivedMail) => void): void {
	let buffer = '';
	let inData = false;
	let dataLines: string[] = [];
	let authStep: 'none' | 'login-user' | 'login-pass' | 'plain' = 'none';
	let from = '';
	let to: string[] = [];
	const reply = (line: string) => socket.write(`${line}\r\n`);

	reply('220 127.0.0.1 e2e-smtp-sink ready');
	socket.setEncoding('latin1'); // byte-transparent: base64 / 7bit bodies are ASCII anyway
	socket.on('data', (chunk: string) => {
		buffer += chunk;
		let index: number;
		while ((index = buffer.indexOf('\r\n')) >= 0) {
			const line = buffer.slice(0, index);
			buffer = buffer.slice(index + 2);
			if (inData) {
				if (line === '.') {
					inData = false;
					const raw = dataLines.join('\r\n');
					dataLines = [];
					try {
						deliver({ ...parseMessage(raw), from, to, raw, at: Date.now() });
						reply('250 2.0.0 OK: queued');
					} catch (error) {
						reply(`554 5.6.0 cannot parse message: ${(error as Error).message}`);
					}
					from = '';
					to = [];
				} else {
					dataLines.push(line.startsWith('..') ? line.slice(1) : line);
				}
				continue;
			}
			if (authStep === 'login-user') {
				authStep = 'login-pass';
				reply('334 UGFzc3dvcmQ6'); // "Password:"
				continue;
			}
			if (authStep === 'login-pass' || authStep === 'plain') {
				authStep = 'none';
				reply('235 2.7.0 Authentication successful');
				continue;
			}
			const [verb, ...rest] = line.split(' ');
			const argument = rest.join(' ');
			switch (verb.toUpperCase()) {
				case 'EHLO':
					socket.write(
						'250-127.0.0.1 greets you\r\n250-8BITMIME\r\n250-AUTH PLAIN LOGIN\r\n250 SIZE 52428800\r\n',
					);
					break;
				case 'HELO':
					reply('250 127.0.0.1');
					break;
				case 'AUTH': {
					const [mechanism, initial] = argument.split(' ');
					if (/^LOGIN$/i.test(mechanism)) {
						if (initial) {
							authStep = 'login-pass';
							reply('334 UGFzc3dvcmQ6');
						} else {
							authStep = 'login-user';
							reply('334 VXNlcm5hbWU6'); // "Username:"
						}
					} else if (/^PLAIN$/i.test(mechanism)) {
						if (initial) reply('235 2.7.0 Authentication successful');
						else {
							authStep = 'plain';
							reply('334 ');
						}
					} else reply('504 5.5.4 mechanism not supported');
					break;
				}
				case 'MAIL':
					from = /<([^>]*)>/.exec(argument)?.[1] ?? argument;
					to = [];
					reply('250 2.1.0 OK');
					break;
				case 'RCPT':
					to.push(/<([^>]*)>/.exec(argument)?.[1] ?? argument);
					reply('250 2.1.5 OK');
					break;
				case 'DATA':
					inData = true;
					dataLines = [];
					reply('354 End data with <CR><LF>.<CR><LF>');
					break;
				case 'RSET':
					from = '';
					to = [];
					reply('250 2.0.0 OK');
					break;
				case 'NOOP':
					reply('250 2.0.0 OK');
					break;
				case 'QUIT':
					reply('221 2.0.0 Bye');
					socket.end();
					break;
				default:
					reply('502 5.5.2 command not implemented');
			}
		}
	});
}

// ---- MIME --------------------------------------------------------------------------------------------------

interface Part {
	headers: Record<string, string>;
	body: string;
}

function splitHeaders(raw: string): Part {
	const end = raw.indexOf('\r\n\r\n');
	const head = end < 0 ? raw : raw.slice(0, end);
	const body = end < 0 ? '' : raw.slice(end + 4);
	const headers: Record<string, string> = {};
	let last = '';
	for (const line of head.split('\r\n')) {
		if (/^[ \t]/.test(line) && last) headers[last] += ` ${line.trim()}`;
		else {
			const colon = line.indexOf(':');
			if (colon <= 0) continue;
			last = line.slice(0, colon).trim().toLowerCase();
			headers[last] = line.slice(colon + 1).trim();
		}
	}
	return { headers, body };
}

/** Value of a header parameter, e.g. param('application/pdf; name="a.pdf"', 'name') = 'a.pdf'. */
function param(header: string | undefined, name: string): string | null {
	if (!header) return null;
	const match = new RegExp(`(?:^|;)\\s*${name}\\*?=\\s*("([^"]*)"|[^;]+)`, 'i').exec(header);
	if (!match) return null;
	return decodeWords((match[2] ?? match[1]).trim());
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= / ?Q?), as nodemailer writes non-ASCII subjects and names. */
function decodeWords(text: string): string {
	// Whitespace between two adjacent encoded words (a long subject folded over lines) is not part of the text.
	return text
		.replace(/(\?=)\s+(?==\?[^?]+\?[BbQq]\?)/g, '$1')
		.replace(
			/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
			(_all, _charset: string, encoding: string, data: string) =>
				encoding.toUpperCase() === 'B'
					? Buffer.from(data, 'base64').toString('utf8')
					: Buffer.from(
							data
								.replace(/_/g, ' ')
								.replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
									String.fromCharCode(parseInt(hex, 16)),
								),
							'latin1',
						).toString('utf8'),
		);
}

function decodeBody(part: Part): Buffer {
	const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
	if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
	if (encoding === 'quoted-printable') {
		const text = part.body
			.replace(/=\r\n/g, '')
			.replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
		return Buffer.from(text, 'latin1');
	}
	return Buffer.from(part.body, 'latin1');
}

function leafParts(part: Part): Part[] {
	const contentType = part.headers['content-type'] ?? 'text/plain';
	if (!/^multipart\//i.test(contentType)) return [part];
	const boundary = param(contentType, 'boundary');
	if (!boundary) return [part];
	const sections = part.body.split(`--${boundary}`);
	// sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
	return sections
		.slice(1)
		.filter((section) => !section.startsWith('--'))
		.map((section) => splitHeaders(section.replace(/^\r\n/, '').replace(/\r\n$/, '')))
		.flatMap(leafParts);
}

function parseMessage(
	raw: string,
): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'attachments'> {
	const message = splitHeaders(raw);
	const texts: string[] = [];
	const attachments: MailAttachment[] = [];
	for (const part of leafParts(message)) {
		const contentType = part.headers['content-type'] ?? 'text/plain';
		const disposition = part.headers['content-disposition'] ?? null;
		const fileName = param(disposition ?? undefined, 'filename') ?? param(contentType, 'name');
		if (/^text\/plain/i.test(contentType) && !fileName && !/^attachment/i.test(disposition ?? '')) {
			texts.push(decodeBody(part).toString('utf8'));
		} else {
			attachments.push({
				fileName,
				contentType: contentType.split(';')[0].trim().toLowerCase(),
				disposition,
				content: decodeBody(part),
			});
		}
	}
	return {
		headers: message.headers,
		subject: decodeWords(message.headers.subject ?? ''),
		text: texts.join('\n'),
		attachments,
	};
}

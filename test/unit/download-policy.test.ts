/**
 * Where a report download may go (nodes/shared/api/httpClient.ts), a pure function of the link and the credential's
 * Base URL. The workflow tests (test/reports.workflow.test.ts) run it in n8n's engine against the simulator, whose
 * Base URL is local; the production case, a public https Base URL, is covered here.
 */
import { hostKind } from '../../nodes/shared/api/baseUrl';
import { checkDownloadTarget, storageErrorText } from '../../nodes/shared/api/httpClient';

const PUBLIC_BASE = 'https://api.example.com';
const LOCAL_BASE = 'http://127.0.0.1:4010';

function verdict(url: string, base = PUBLIC_BASE): string {
	const result = checkDownloadTarget(url, base);
	return typeof result === 'string' ? result : `ok ${result.href}`;
}

/** The link is fetched as given (it is already in normal form). */
const expectFetched = (url: string, base = PUBLIC_BASE) =>
	expect(verdict(url, base)).toBe(`ok ${url}`);

describe('checkDownloadTarget with a public https Base URL', () => {
	it('fetches a pre-signed https link on a public host, as normalised', () => {
		expectFetched('https://reports.s3.eu-west-1.amazonaws.com/r/1.pdf?X-Amz-Signature=abc');
		expectFetched('https://93.184.216.34/r.pdf');
		expectFetched('https://[2606:4700::1111]/r.pdf');
	});

	it.each([
		[
			'http://reports.example.com/r.pdf',
			'is not an https:// address (it starts with http://, unencrypted)',
		],
		['ftp://reports.example.com/r.pdf', 'is not an https:// address (it starts with ftp://)'],
		['file:///etc/passwd', 'is not an https:// address (it starts with file://)'],
		['not a link', 'is not a web address'],
	])('refuses %s', (url, problem) => {
		expect(verdict(url)).toBe(problem);
	});

	it.each([
		// loopback, in every spelling WHATWG URL accepts
		['https://127.0.0.1/r.pdf', 'loopback', '127.0.0.1'],
		['https://127.9.8.7/r.pdf', 'loopback', '127.9.8.7'],
		['https://localhost/r.pdf', 'loopback', 'localhost'],
		['https://LOCALHOST./r.pdf', 'loopback', 'localhost.'],
		['https://api.localhost/r.pdf', 'loopback', 'api.localhost'],
		['https://[::1]/r.pdf', 'loopback', '[::1]'],
		['https://[0:0:0:0:0:0:0:1]/r.pdf', 'loopback', '[::1]'],
		['https://0x7f000001/r.pdf', 'loopback', '127.0.0.1'],
		['https://2130706433/r.pdf', 'loopback', '127.0.0.1'],
		['https://0177.0.0.1/r.pdf', 'loopback', '127.0.0.1'],
		['https://127.1/r.pdf', 'loopback', '127.0.0.1'],
		['https://0x7f.1/r.pdf', 'loopback', '127.0.0.1'],
		['https://[::ffff:127.0.0.1]/r.pdf', 'loopback', '[::ffff:7f00:1]'],
		['https://[::127.0.0.1]/r.pdf', 'loopback', '[::7f00:1]'],
		['https://[64:ff9b::127.0.0.1]/r.pdf', 'loopback', '[64:ff9b::7f00:1]'],
		['https://[2002:7f00:1::]/r.pdf', 'loopback', '[2002:7f00:1::]'],
		// private
		['https://10.1.2.3/r.pdf', 'private', '10.1.2.3'],
		['https://172.16.0.1/r.pdf', 'private', '172.16.0.1'],
		['https://172.31.255.255/r.pdf', 'private', '172.31.255.255'],
		['https://192.168.1.1/r.pdf', 'private', '192.168.1.1'],
		['https://100.64.0.1/r.pdf', 'private', '100.64.0.1'],
		['https://[fc00::1]/r.pdf', 'private', '[fc00::1]'],
		['https://[fdab:1::2]/r.pdf', 'private', '[fdab:1::2]'],
		['https://[::ffff:10.0.0.1]/r.pdf', 'private', '[::ffff:a00:1]'],
		['https://db/r.pdf', 'private', 'db'],
		['https://metadata.google.internal/r.pdf', 'private', 'metadata.google.internal'],
		['https://printer.local/r.pdf', 'private', 'printer.local'],
		// link-local, including the cloud metadata address
		['https://169.254.169.254/latest/meta-data/', 'link-local', '169.254.169.254'],
		['https://0xa9fea9fe/', 'link-local', '169.254.169.254'],
		['https://2852039166/', 'link-local', '169.254.169.254'],
		['https://[fe80::1]/', 'link-local', '[fe80::1]'],
		['https://[::ffff:169.254.169.254]/', 'link-local', '[::ffff:a9fe:a9fe]'],
		// unspecified and reserved
		['https://0.0.0.0/', 'unspecified', '0.0.0.0'],
		['https://0/', 'unspecified', '0.0.0.0'],
		['https://[::]/', 'unspecified', '[::]'],
		['https://255.255.255.255/', 'reserved', '255.255.255.255'],
		['https://224.0.0.1/', 'reserved', '224.0.0.1'],
		['https://[ff02::1]/', 'reserved', '[ff02::1]'],
	])('refuses %s (%s)', (url, kind, shown) => {
		expect(verdict(url)).toMatch(
			new RegExp(`^points to .+ \\(${shown.replace(/[.[\]]/g, '\\$&')}\\)$`),
		);
		expect(hostKind(new URL(url).hostname)).toBe(kind);
	});

	it('public names and addresses next to the refused ranges stay public', () => {
		for (const host of [
			'172.15.0.1',
			'172.32.0.1',
			'192.169.0.1',
			'100.128.0.1',
			'169.253.0.1',
			'126.0.0.1',
			'11.0.0.1',
			'[2001:db8::1]',
			'example.com',
			'storage.googleapis.com',
		]) {
			expect([host, hostKind(host)]).toEqual([host, 'public']);
		}
	});
});

describe('checkDownloadTarget with a local Base URL (a simulator on this computer)', () => {
	it('also takes http:// and the local host name of the Base URL, on any port', () => {
		expectFetched('http://127.0.0.1:4011/documents/a.pdf', LOCAL_BASE);
		expectFetched('https://127.0.0.1:4011/documents/a.pdf', LOCAL_BASE);
		expect(verdict('http://0x7f000001:4011/a.pdf', LOCAL_BASE)).toBe(
			'ok http://127.0.0.1:4011/a.pdf',
		);
		expectFetched('http://localhost:4011/a.pdf', 'http://localhost:4010');
	});

	it('refuses other local host names, private and link-local addresses, and http:// to public hosts', () => {
		expect(verdict('http://localhost:4011/a.pdf', LOCAL_BASE)).toBe(
			'points to this computer (a loopback address) (localhost)',
		);
		expect(verdict('http://127.0.0.2:4011/a.pdf', LOCAL_BASE)).toBe(
			'points to this computer (a loopback address) (127.0.0.2)',
		);
		expect(verdict('http://[::1]:4011/a.pdf', LOCAL_BASE)).toMatch(/^points to this computer/);
		expect(verdict('https://10.0.0.1/a.pdf', LOCAL_BASE)).toBe(
			'points to a private network address (10.0.0.1)',
		);
		expect(verdict('http://169.254.169.254/', LOCAL_BASE)).toMatch(
			/^points to a link-local address/,
		);
		expect(verdict('http://reports.example.com/a.pdf', LOCAL_BASE)).toBe(
			'is not an https:// address (it starts with http://, unencrypted)',
		);
		expectFetched('https://reports.example.com/a.pdf', LOCAL_BASE);
	});
});

describe('checkDownloadTarget with Allow Private Network Address (a self-hosted gateway)', () => {
	const GATEWAY = 'https://gateway.corp.internal';
	const check = (url: string, base: string, allow: boolean) => {
		const result = checkDownloadTarget(url, base, allow);
		return typeof result === 'string' ? result : `ok ${result.href}`;
	};
	const expectAllowed = (url: string, base: string) =>
		expect(check(url, base, true)).toBe(`ok ${url}`);

	it("takes https:// links on the Base URL's own private host, and only with the option on", () => {
		expectAllowed('https://gateway.corp.internal/docs/a.pdf', GATEWAY);
		expectAllowed('https://10.1.2.3/a.pdf', 'https://10.1.2.3');
		expect(check('https://gateway.corp.internal/docs/a.pdf', GATEWAY, false)).toBe(
			'points to a private network address (gateway.corp.internal)',
		);
	});

	it('still refuses other private hosts, http://, and cloud metadata addresses', () => {
		expect(check('https://files.corp.internal/a.pdf', GATEWAY, true)).toBe(
			'points to a private network address (files.corp.internal)',
		);
		expect(check('http://gateway.corp.internal/a.pdf', GATEWAY, true)).toBe(
			'is not an https:// address (it starts with http://, unencrypted)',
		);
		expect(check('https://169.254.169.254/latest', 'https://169.254.169.254', true)).toMatch(
			/^points to a link-local address/,
		);
		expect(
			check('https://metadata.google.internal/x', 'https://metadata.google.internal', true),
		).toBe('points to a private network address (metadata.google.internal)');
	});
});

describe('storageErrorText', () => {
	it('reads S3, Azure and GCS errors', () => {
		expect(
			storageErrorText(
				'<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><RequestId>1</RequestId></Error>',
			),
		).toBe('AccessDenied: Request has expired');
		expect(
			storageErrorText(
				'<Error><Code>AuthenticationFailed</Code><Message>Signature not valid in the specified time frame&#xD;\nTime:2025</Message></Error>',
			),
		).toBe('AuthenticationFailed: Signature not valid in the specified time frame&#xD; Time:2025');
		expect(
			storageErrorText(
				'{"error":{"code":403,"message":"Access denied.","errors":[{"reason":"forbidden","message":"x"}]}}',
			),
		).toBe('forbidden: Access denied.');
		expect(
			storageErrorText('{"code":"SignatureDoesNotMatch","message":"Bad &amp; signature"}'),
		).toBe('SignatureDoesNotMatch: Bad & signature');
	});

	it('repeats nothing else', () => {
		expect(storageErrorText('<html><body>db_password=hunter2</body></html>')).toBeUndefined();
		expect(storageErrorText('Service Unavailable')).toBeUndefined();
		expect(storageErrorText('{"detail":"db_password=hunter2"}')).toBeUndefined();
		expect(storageErrorText('')).toBeUndefined();
	});
});

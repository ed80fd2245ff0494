/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in Node, outside n8n's sandbox */
import { runInNewContext } from 'vm';

import { addressRules, checkBaseUrlText, hostKind } from '../../nodes/shared/api/baseUrl';

/**
 * The credential's test request runs addressRules' own source inside an n8n expression: it must stand alone (no
 * imports, no outside names) and never hold `}}` (which would end the expression) or what the sandbox lacks.
 */
describe('addressRules runs alone, as the credential test embeds it', () => {
	const source = addressRules.toString();

	it('holds no `}}` or `{{` and uses no URL, Buffer, process or require', () => {
		expect(source).not.toContain('}}');
		expect(source).not.toContain('{{');
		expect(source).not.toMatch(/new URL|\bBuffer\.|\bprocess\.|\brequire\(/);
	});

	it('rebuilt from its source text alone, it gives the verdicts the module gives', () => {
		// A fresh context: only ECMAScript's own globals, none of this module's names.
		const standalone = runInNewContext(`(${source})()`) as ReturnType<typeof addressRules>;
		for (const [raw, allow] of [
			['https://api.example.com/', false],
			['http://127.0.0.1:4010', false],
			['http://2130706433', false],
			['https://[::ffff:10.0.0.1]', false],
			['https://[::ffff:10.0.0.1]', true],
			['https://[fd00:ec2::254]', true],
			['https://u:p@api.example.com', false],
			['https://api.example.com?x', false],
			['https://api.example.com.', false],
		] as const) {
			expect([raw, allow, standalone.checkBaseUrl(raw, allow)]).toEqual([
				raw,
				allow,
				checkBaseUrlText(raw, allow),
			]);
		}
	});
});

describe('checkBaseUrlText', () => {
	it.each([
		['https://api.example.com/', 'https://api.example.com'],
		['  https://API.example.com//  ', 'https://api.example.com'],
		['https://api.example.com:8443/v2/', 'https://api.example.com:8443/v2'],
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
		['http://127.9.9.9:4010', 'http://127.9.9.9:4010'],
		['http://localhost', 'http://localhost'],
		['http://[::1]:4010', 'http://[::1]:4010'],
		['http://[0:0:0:0:0:0:0:1]:4010', 'http://[0:0:0:0:0:0:0:1]:4010'],
		['https://[2001:db8::1]', 'https://[2001:db8::1]'],
		['https://203.0.113.10', 'https://203.0.113.10'],
		['https://api.example.com.', 'https://api.example.com'],
		['https://API.example.com.:8443/v1/', 'https://api.example.com:8443/v1'],
		['http://localhost.:4010', 'http://localhost:4010'],
	])('accepts %j as %j', (raw, url) => {
		expect(checkBaseUrlText(raw, false)).toEqual({ url });
	});

	it.each([
		['', /is empty/],
		['api.example.com', /is not a web address/],
		['http://api.example.com', /must start with https:\/\//],
		['http://foo.localhost:4010', /must start with https:\/\//],
		['https://api example.com', /contains a space/],
		['https://api.example.com\\v1', /backslash/],
		['https://ápi.example.com', /outside plain ASCII/],
		['https://0x7f000001', /not a plain IPv4/],
		['https://1.2.3', /not a plain IPv4/],
		['https://256.1.1.1', /not a plain IPv4/],
		['https://[1::2::3]', /IPv6 address that cannot be read/],
		['https://[::1%eth0]', /IPv6 address that cannot be read/],
		['https://-bad-.example.com', /host name that cannot be read/],
		['https://a..example.com', /host name that cannot be read/],
		['https://api.example.com..', /host name that cannot be read/],
		['https://.', /host name that cannot be read|no host name/],
		['https://metadata.google.internal.', /cloud metadata/],
		['https://api.example.com/a b', /contains a space/],
		['https://[::]', /unspecified/],
		['https://224.0.0.1', /reserved/],
		['https://100.100.100.200', /cloud metadata/],
		['https://[64:ff9b::a9fe:a9fe]', /cloud metadata/],
		['https://[64:ff9b::a9fe:0101]', /link-local/],
	])('refuses %j', (raw, words) => {
		const verdict = checkBaseUrlText(raw, false);
		expect(verdict.url).toBeUndefined();
		expect(verdict.problem).toMatch(words);
		expect(verdict.fix).toBeTruthy();
	});

	it('never repeats a password from the address', () => {
		const verdict = checkBaseUrlText('https://admin:s3cret@api.example.com', false);
		expect(verdict.problem).toContain('"https://***@api.example.com"');
		expect(JSON.stringify(verdict)).not.toContain('s3cret');
	});

	it('reads IPv6 with an IPv4 tail as the IPv4 address', () => {
		expect(hostKind('[::ffff:127.0.0.1]')).toBe('loopback');
		expect(hostKind('[::ffff:192.168.0.1]')).toBe('private');
		expect(hostKind('[1:2:3:4:5:6:8.8.8.8]')).toBe('public');
		expect(hostKind('[2002:a00:1::]')).toBe('private');
	});
});

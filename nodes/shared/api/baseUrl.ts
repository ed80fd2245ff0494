/**
 * The one rule for addresses: which Base URL the key may be sent to (the nodes' transport and the credential's Test
 * button) and what kind of host an address names (also used by the PDF download's check in httpClient.ts).
 *
 * `addressRules` is self-contained (plain ECMAScript, no imports or outside names, no `URL`): the credential's Test
 * button once ran its source inside an n8n expression. It now runs it as code (api/credentialTest.ts, the nodes'
 * `testedBy`); test/unit/baseUrl.test.ts still checks the function stands alone.
 */

export type AddressKind =
	| 'public'
	| 'loopback'
	| 'private'
	| 'link-local'
	| 'unspecified'
	| 'reserved';

export type BaseUrlVerdict =
	/** `url`: the Base URL as requests use it (trimmed, trailing slashes removed). */
	| { url: string; problem?: undefined; fix?: undefined }
	/** `problem`: what is wrong, after the value as shown (`"https://…" has a query`); `fix`: what to do. */
	| { url?: undefined; problem: string; fix: string };

export interface AddressRules {
	hostKind(hostname: string): AddressKind;
	kindWords: Record<Exclude<AddressKind, 'public'>, string>;
	isMetadataHost(hostname: string): boolean;
	checkBaseUrl(raw: unknown, allowPrivateAddress: unknown): BaseUrlVerdict;
}

export function addressRules(): AddressRules {
	const kindWords = {
		loopback: 'this computer (a loopback address)',
		private: 'a private network address',
		'link-local': 'a link-local address (such as a cloud metadata service)',
		unspecified: 'an unspecified address',
		reserved: 'a reserved address',
	};
	// Cloud instance metadata services: never an API gateway, refused even with Allow Private Network Address.
	const metadataNames = [
		'metadata.google.internal',
		'metadata.goog',
		'metadata',
		'instance-data',
		'instance-data.ec2.internal',
		'metadata.azure.internal',
	];
	const metadataAddresses = ['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192'];

	function parseIpv4(host: string): number[] | undefined {
		const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
		if (!match) return undefined;
		const parts = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
		for (const part of parts) if (part > 255) return undefined;
		return parts;
	}

	function ipv4Kind(parts: number[]): AddressKind {
		const a = parts[0];
		const b = parts[1];
		if (a === 127) return 'loopback';
		if (a === 0) return 'unspecified';
		if (
			a === 10 ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168) ||
			(a === 100 && b >= 64 && b <= 127)
		) {
			return 'private';
		}
		if (a === 169 && b === 254) return 'link-local';
		// 192.0.0/24 (protocol assignments), 198.18/15 (benchmarking), 224/4 multicast, 240/4 and broadcast.
		if ((a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224)
			return 'reserved';
		return 'public';
	}

	/** The eight 16-bit groups of an IPv6 address (hex groups, at most one `::`, a dotted IPv4 tail allowed). */
	function parseIpv6(text: string): number[] | undefined {
		let body = text;
		const tail: number[] = [];
		const dotted = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
		if (dotted) {
			const ipv4 = parseIpv4(dotted[2]);
			if (!ipv4) return undefined;
			tail.push(ipv4[0] * 256 + ipv4[1], ipv4[2] * 256 + ipv4[3]);
			body = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
		}
		const halves = body.split('::');
		if (halves.length > 2) return undefined;
		const groupsOf = (part: string): number[] | undefined => {
			const groups: number[] = [];
			if (part === '') return groups;
			for (const group of part.split(':')) {
				if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
				groups.push(parseInt(group, 16));
			}
			return groups;
		};
		const head = groupsOf(halves[0]);
		const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
		if (!head || !rest) return undefined;
		if (halves.length === 1) return head.length + tail.length === 8 ? head.concat(tail) : undefined;
		const fill = 8 - head.length - rest.length - tail.length;
		if (fill < 1) return undefined;
		const zeros: number[] = [];
		for (let i = 0; i < fill; i++) zeros.push(0);
		return head.concat(zeros, rest, tail);
	}

	function ipv6Kind(text: string): AddressKind {
		const groups = parseIpv6(text);
		if (!groups) return 'reserved';
		const embeddedIpv4 = (high: number, low: number) => [
			Math.floor(high / 256),
			high % 256,
			Math.floor(low / 256),
			low % 256,
		];
		const zeroUpTo = (count: number) => {
			for (let i = 0; i < count; i++) if (groups[i] !== 0) return false;
			return true;
		};
		if (zeroUpTo(8)) return 'unspecified';
		if (zeroUpTo(7) && groups[7] === 1) return 'loopback';
		// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d): the IPv4.
		if (zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0))
			return ipv4Kind(embeddedIpv4(groups[6], groups[7]));
		if (zeroUpTo(4) && groups[4] === 0xffff && groups[5] === 0)
			return ipv4Kind(embeddedIpv4(groups[6], groups[7]));
		// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach an IPv4 address too.
		const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b;
		if (nat64 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0)
			return ipv4Kind(embeddedIpv4(groups[6], groups[7]));
		if (groups[0] === 0x2002) return ipv4Kind(embeddedIpv4(groups[1], groups[2]));
		const first = groups[0];
		if (first >= 0xfc00 && first <= 0xfdff) return 'private';
		if (first >= 0xfe80 && first <= 0xfebf) return 'link-local';
		if (first >= 0xfec0 && first <= 0xfeff) return 'private';
		if (first >= 0xff00) return 'reserved';
		if (first === 0) return 'reserved';
		return 'public';
	}

	/**
	 * The kind of a host as the WHATWG URL parser writes its hostname (IPv6 in brackets). Names are public except
	 * localhost, *.localhost (loopback), single-label names and the private-use suffixes .internal, .local,
	 * .home.arpa, .lan (they only resolve inside a network). No DNS: only the address as written.
	 */
	function hostKind(hostname: string): AddressKind {
		const host = hostname.toLowerCase().replace(/\.$/, '');
		if (host.startsWith('[') && host.endsWith(']')) return ipv6Kind(host.slice(1, -1));
		const ipv4 = parseIpv4(host);
		if (ipv4) return ipv4Kind(ipv4);
		if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
		if (!host.includes('.') || /\.(internal|local|home\.arpa|lan)$/.test(host)) return 'private';
		return 'public';
	}

	function isMetadataHost(hostname: string): boolean {
		const host = hostname.toLowerCase().replace(/\.$/, '');
		if (metadataNames.includes(host) || metadataAddresses.includes(host)) return true;
		if (!host.startsWith('[')) return false;
		const groups = parseIpv6(host.slice(1, -1));
		if (!groups) return false;
		// fd00:ec2::254 (AWS over IPv6), and the IPv4 metadata addresses mapped into IPv6.
		const text = groups.join(':');
		if (text === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':')) return true;
		for (const address of metadataAddresses) {
			const ipv4 = parseIpv4(address) as number[];
			const high = ipv4[0] * 256 + ipv4[1];
			const low = ipv4[2] * 256 + ipv4[3];
			if (groups[6] === high && groups[7] === low && ipv6Kind(host.slice(1, -1)) !== 'public')
				return true;
		}
		return false;
	}

	/** The WHATWG parser reads a host whose last label is a number as an IPv4 address (2130706433, 0x7f.1, 0177.1). */
	function endsInNumber(host: string): boolean {
		const labels = host.replace(/\.$/, '').split('.');
		const last = labels[labels.length - 1];
		return /^\d+$/.test(last) || /^0x[0-9a-f]*$/i.test(last);
	}

	function refused(problem: string, fix: string): BaseUrlVerdict {
		return { problem: problem, fix: fix.endsWith('.') ? fix : fix + '.' };
	}

	/**
	 * https to a public host name or address; http only for loopback (127.0.0.0/8, [::1], localhost); no user
	 * name or password, query or fragment; a port from 1 to 65535. Private and link-local addresses only with
	 * Allow Private Network Address (a self-hosted gateway); cloud metadata addresses and numeric forms other than
	 * a dotted IPv4 address never.
	 */
	function checkBaseUrl(raw: unknown, allowPrivateAddress: unknown): BaseUrlVerdict {
		const text = typeof raw === 'string' ? raw.trim() : '';
		const httpsFix = 'Enter the address the vendor gave, for example https://api.example.com';
		if (text === '') return refused('is empty', httpsFix);
		// Never echo a password: whatever sits between // and @ is shown as ***.
		const shown = '"' + text.replace(/^([^/]*\/\/)[^/?#]*@/, '$1***@') + '"';
		const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(text);
		if (!scheme) return refused(shown + ' is not a web address', httpsFix);
		const protocol = scheme[1].toLowerCase();
		if (protocol !== 'https' && protocol !== 'http')
			return refused(
				shown + ' must start with https:// (it starts with ' + protocol + '://)',
				httpsFix,
			);
		const rest = scheme[2];
		if (/[\s\\]/.test(rest) || /[^\x21-\x7e]/.test(rest)) {
			return refused(
				shown + ' contains a space, a backslash or a character outside plain ASCII',
				'Enter the address exactly as the vendor gave it (a host name with non-Latin letters in its xn-- form).',
			);
		}
		if (rest.includes('?'))
			return refused(
				shown + ' has a query (?…), which would swallow the path of every request',
				'Remove everything from the ? on: the Base URL is the address only, for example https://api.example.com',
			);
		if (rest.includes('#'))
			return refused(
				shown + ' has a fragment (#…), which would drop the path of every request',
				'Remove everything from the # on: the Base URL is the address only, for example https://api.example.com',
			);
		const slash = rest.indexOf('/');
		const authority = slash === -1 ? rest : rest.slice(0, slash);
		const path = slash === -1 ? '' : rest.slice(slash).replace(/\/+$/, '');
		if (authority.includes('@'))
			return refused(
				shown + ' contains a user name or password (…@)',
				'Remove the part up to the @: the API key in the credential is the only sign-in, and a password in the address would be sent as well.',
			);
		let host = authority;
		let port = '';
		const bracketed = /^(\[[^\]]*\])(?::(.*))?$/.exec(authority);
		if (bracketed) {
			host = bracketed[1];
			port = bracketed[2] === undefined ? '' : ':' + bracketed[2];
		} else if (authority.includes(':')) {
			host = authority.slice(0, authority.indexOf(':'));
			port = authority.slice(authority.indexOf(':'));
		}
		// A fully qualified name (`api.example.com.`) is the same host: sent without the dot, which no certificate
		// names and the TLS server name must not carry.
		host = host.toLowerCase();
		if (!host.startsWith('[') && /[^.]\.$/.test(host)) host = host.slice(0, -1);
		if (port !== '') {
			const number = /^:\d{1,5}$/.test(port) ? Number(port.slice(1)) : 0;
			if (number < 1 || number > 65535)
				return refused(
					shown + ' has the port "' + port.slice(1) + '"; a port is a number from 1 to 65535',
					'Correct the port after the host name, or leave it out (https uses 443).',
				);
		}
		if (host === '' || host === '[]') return refused(shown + ' has no host name', httpsFix);
		const isIpv6 = host.startsWith('[');
		if (isIpv6 && !parseIpv6(host.slice(1, -1)))
			return refused(shown + ' has an IPv6 address that cannot be read', httpsFix);
		if (!isIpv6) {
			if (endsInNumber(host) && !parseIpv4(host)) {
				return refused(
					shown +
						' writes its address as a number that is not a plain IPv4 address (a.b.c.d); such forms (2130706433, 0x7f.1, 0177.0.0.1) hide where requests go',
					'Write the host name, or the address as four decimal numbers (for example 203.0.113.10).',
				);
			}
			if (parseIpv4(host) && /(^|\.)0\d/.test(host)) {
				return refused(
					shown +
						' writes a part of its address with a leading zero, which is read as octal (0177 is 127)',
					'Write each part of the address without leading zeros (for example 10.0.0.1).',
				);
			}
			const labels = host.split('.');
			for (const label of labels) {
				if (!/^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))
					return refused(shown + ' has a host name that cannot be read ("' + host + '")', httpsFix);
			}
		}
		if (path !== '' && !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]*)*$/.test(path))
			return refused(shown + ' has a path that cannot be read', httpsFix);

		const kind = hostKind(host);
		const plainLoopback =
			kind === 'loopback' && (host === 'localhost' || isIpv6 || parseIpv4(host) !== undefined);
		if (isMetadataHost(host))
			return refused(
				shown + ' points to a cloud metadata service (' + host + '), not to an API',
				'Enter the address the vendor gave. A metadata address is refused even with Allow Private Network Address.',
			);
		if (protocol === 'http' && !plainLoopback)
			return refused(
				shown +
					' must start with https:// (http:// only for localhost and 127.0.0.1, a local simulator): the API key never travels unencrypted',
				'Change http:// to https://.',
			);
		if (kind === 'unspecified' || kind === 'reserved')
			return refused(
				shown + ' points to ' + kindWords[kind] + ' (' + host + '), where no API can answer',
				httpsFix,
			);
		if ((kind === 'private' || kind === 'link-local') && allowPrivateAddress !== true)
			return refused(
				shown + ' points to ' + kindWords[kind] + ' (' + host + ')',
				'If the API is served by your own gateway inside your network, turn on Allow Private Network Address in the credential; otherwise enter the public address the vendor gave.',
			);
		return { url: protocol + '://' + host + port + path };
	}

	return {
		hostKind: hostKind,
		kindWords: kindWords,
		isMetadataHost: isMetadataHost,
		checkBaseUrl: checkBaseUrl,
	};
}

const rules = addressRules();

export const hostKind = rules.hostKind;
export const isMetadataHost = rules.isMetadataHost;
export const ADDRESS_KIND_WORDS = rules.kindWords;
export const checkBaseUrlText = rules.checkBaseUrl;

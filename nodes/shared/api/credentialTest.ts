/**
 * The credential's Test button, run by the nodes (`testedBy` in each node's credentials entry, `methods.credentialTest`),
 * so that its messages are ours: n8n runs a credential's declarative `test` without any code of the package, and
 * could only stop a refused Base URL by failing an expression, which n8n words as a date error. n8n uses a node's
 * `testedBy` only when the credential has no `test` (CredentialsTester.getCredentialTestFunction, 2.20 and 2.41).
 *
 * The request goes through n8n's `helpers.request` (the one helper a credential test gets): never followed when
 * redirected, every status read, the key sent as the x-api-key header, as the nodes send it.
 */
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { checkBaseUrlText } from './baseUrl';

/** The name of the test in each node's `testedBy` (written there as a literal: n8n's lint reads it) and `methods.credentialTest`. */
export const CREDENTIAL_TEST_METHOD = 'testSustainabilityComplianceApi';

export const CONNECTION_SUCCESSFUL = 'Connection successful!';

/** One answer the Test tells apart: the body field (`message` or `data.message`) and the value it holds. */
export interface CredentialTestAnswer {
	key: 'message' | 'data.message';
	value: string;
	message: string;
}

/**
 * What the gateway and the API answer GET /portfolios with when the key or the address is wrong, in the order they
 * are checked (spec section 5).
 */
export const CREDENTIAL_TEST_ANSWERS: CredentialTestAnswer[] = [
	{
		key: 'message',
		value: 'Forbidden',
		message:
			'The API gateway does not know this key. Check that it was copied whole, without spaces, and that the Base URL is the address the vendor gave with this key.',
	},
	{
		key: 'message',
		value: 'Missing Authentication Token',
		message:
			'This address does not serve the Sustainability Compliance API: check the Base URL (no extra path after the host).',
	},
	{
		key: 'data.message',
		value: 'You must provide a valid API key',
		message:
			'The gateway let this key through but the API does not recognise it. Ask the vendor to check the key.',
	},
	{
		key: 'data.message',
		value: 'You must provide an active API key',
		message: 'This key is disabled. Ask the vendor to re-enable it or to issue a new one.',
	},
	{
		key: 'message',
		value: 'Limit Exceeded',
		message:
			"This key's monthly request quota is used up. The key itself is valid; contact the vendor to raise the quota, or wait for next month.",
	},
	{
		key: 'message',
		value: 'Too Many Requests',
		message:
			'The API is throttling this key for a moment (too many requests). The key is probably fine: test again in a minute.',
	},
	{
		key: 'message',
		value: 'Service Unavailable',
		message: 'The API is temporarily unavailable. Test again in a few minutes.',
	},
	{
		key: 'data.message',
		value: 'Internal server error',
		message:
			"The API had an unexpected error. Test again; if it persists, contact the vendor's support.",
	},
];

/** Whatever answered is not the API's portfolio list (another server, an HTML page, a redirect, an unknown error). */
export const NOT_THE_API =
	'This address did not answer like the Sustainability Compliance API. Check the Base URL: the address the vendor gave, with no extra path.';

/** The Base URL refused by the nodes' own rule: nothing is sent. */
export function refusedBaseUrl(problem: string, fix: string): string {
	return `Base URL in the credential: ${problem}. ${fix} Nothing was sent.`;
}

function bodyField(body: unknown, key: CredentialTestAnswer['key']): unknown {
	let at: unknown = body;
	for (const part of key.split('.')) {
		if (!at || typeof at !== 'object' || Array.isArray(at)) return undefined;
		at = (at as IDataObject)[part];
	}
	return at;
}

function parsedBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The Test's verdict on an answer of GET /portfolios. */
export function credentialTestVerdict(
	statusCode: number,
	rawBody: unknown,
): INodeCredentialTestResult {
	const body = parsedBody(rawBody);
	const known = CREDENTIAL_TEST_ANSWERS.find(
		(answer) => bodyField(body, answer.key) === answer.value,
	);
	if (known) return { status: 'Error', message: known.message };
	const funds = bodyField(body, 'data.funds' as CredentialTestAnswer['key']);
	if (statusCode >= 200 && statusCode < 300 && Array.isArray(funds))
		return { status: 'OK', message: CONNECTION_SUCCESSFUL };
	return { status: 'Error', message: NOT_THE_API };
}

/** Network failures in words, with n8n's or Node's code kept for searching (the key is never part of them). */
function networkFailure(error: unknown, url: string): string {
	const failure = error as { code?: string; cause?: { code?: string }; message?: string };
	const code = failure.code ?? failure.cause?.code;
	switch (code) {
		case 'ECONNREFUSED':
			return `Nothing answers at ${url}: the host refused the connection (ECONNREFUSED). Check the Base URL and its port.`;
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return `The host name of ${url} was not found (${code}). Check the Base URL for typos.`;
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
		case 'ECONNRESET':
			return `${url} did not answer in time (${code}). Check the Base URL, or test again in a minute.`;
		default:
			// n8n's own refusals (for example its SSRF protection) say what they refused in their message.
			return `The test request to ${url} failed: ${String(failure.message ?? error)}`;
	}
}

/**
 * `methods.credentialTest.testSustainabilityComplianceApi`: the Base URL rule of the nodes, then GET /portfolios (the
 * one route every key may call whatever families it has), its answer told apart as the nodes tell it apart.
 */
export async function testSustainabilityComplianceApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const verdict = checkBaseUrlText(data.baseUrl, data.allowPrivateAddress);
	if (verdict.problem !== undefined)
		return { status: 'Error', message: refusedBaseUrl(verdict.problem, verdict.fix) };
	const url = `${verdict.url}/portfolios`;
	// A credential test gets n8n's legacy `request` helper only (ICredentialTestFunctions, 2.20 and 2.41: no
	// httpRequest); it is n8n's HTTP client all the same (2.41: OutboundHttp, with its SSRF protection).
	const { helpers } = this;
	let response: { statusCode: number; body: unknown };
	try {
		response = (await helpers.request({
			method: 'GET',
			uri: url,
			headers: { 'x-api-key': String(data.apiKey ?? ''), accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
		})) as { statusCode: number; body: unknown };
	} catch (error) {
		return { status: 'Error', message: networkFailure(error, verdict.url) };
	}
	return credentialTestVerdict(response.statusCode, response.body);
}

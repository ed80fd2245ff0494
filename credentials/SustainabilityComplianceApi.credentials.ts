import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { CREDENTIAL_TEST_BASE_URL_EXPRESSION } from '../nodes/shared/api/baseUrl';

export class SustainabilityComplianceApi implements ICredentialType {
	name = 'sustainabilityComplianceApi';

	displayName = 'Sustainability Compliance API';

	icon: Icon = {
		light: 'file:../nodes/shared/icons/sustainabilityCompliance.svg',
		dark: 'file:../nodes/shared/icons/sustainabilityCompliance.dark.svg',
	};

	documentationUrl =
		'https://github.com/sustainability-compliance/n8n-nodes-sustainability-compliance#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The key your organization received from the vendor. It is sent as the x-api-key header and never shown in outputs or errors.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Address of the API, as given by the vendor. Must start with https:// (http:// is accepted only for localhost and loopback addresses, for example a local simulator). No user name or password, ? or # in it.',
		},
		{
			displayName: 'Allow Private Network Address',
			name: 'allowPrivateAddress',
			type: 'boolean',
			default: false,
			description:
				'Whether the Base URL may be a private network or link-local address (10.x, 172.16-31.x, 192.168.x, fc00::/7, fe80::/10, single-label or .internal names). Only for a self-hosted gateway inside your network; still https://. Cloud metadata addresses stay refused.',
		},
		{
			displayName:
				'This Base URL is refused: it must start with https://. The API key is never sent over plain http:// (only localhost and 127.0.0.1 may use it, for a local simulator). Test and every node send nothing to it.',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				show: {
					baseUrl: [
						{
							_cnd: {
								regex:
									'^\\s*[hH][tT][tT][pP]://(?!(localhost|127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|\\[::1\\])(:\\d+)?(/|\\s*$))',
							},
						},
					],
				},
			},
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	// GET /portfolios is the one route every key may call whatever families it has. n8n applies body rules only
	// to answers it did not throw on, so error statuses are let through to tell the 403 variants apart.
	test: ICredentialTestRequest = {
		request: {
			// The nodes' own Base URL rule (nodes/shared/api/baseUrl.ts), run by n8n's expression engine: a refused Base URL
			// makes the expression fail with the rule's words before a request exists.
			baseURL: CREDENTIAL_TEST_BASE_URL_EXPRESSION,
			url: '/portfolios',
			method: 'GET',
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Forbidden',
					message:
						'The API gateway does not know this key. Check that it was copied whole, without spaces, and that the Base URL is the address the vendor gave with this key.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Missing Authentication Token',
					message:
						'This address does not serve the Sustainability Compliance API: check the Base URL (no extra path after the host).',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data.message',
					value: 'You must provide a valid API key',
					message:
						'The gateway let this key through but the API does not recognise it. Ask the vendor to check the key.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data.message',
					value: 'You must provide an active API key',
					message: 'This key is disabled. Ask the vendor to re-enable it or to issue a new one.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Limit Exceeded',
					message:
						"This key's monthly request quota is used up. The key itself is valid; contact the vendor to raise the quota, or wait for next month.",
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Too Many Requests',
					message:
						'The API is throttling this key for a moment (too many requests). The key is probably fine: test again in a minute.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Service Unavailable',
					message: 'The API is temporarily unavailable. Test again in a few minutes.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data.message',
					value: 'Internal server error',
					message:
						"The API had an unexpected error. Test again; if it persists, contact the vendor's support.",
				},
			},
			// Last: whatever answered is not the API's portfolio list (another server, an HTML page, an unknown error).
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data.funds',
					value: undefined,
					message:
						'This address did not answer like the Sustainability Compliance API. Check the Base URL: the address the vendor gave, with no extra path.',
				},
			},
		],
	};
}

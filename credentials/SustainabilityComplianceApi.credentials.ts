import type { IAuthenticateGeneric, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

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

	// No declarative `test`: the Test button runs the nodes' credential test (`testedBy`, nodes/shared/api/credentialTest.ts),
	// whose messages are ours; n8n would pick a `test` here first.
}

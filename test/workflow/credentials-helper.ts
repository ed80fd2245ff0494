/**
 * Test-only credentials for the workflow harness (test/workflow/runner.ts).
 *
 * `HarnessCredentialsHelper` extends n8n-workflow's abstract `ICredentialsHelper` (n8n-core 2.41
 * calls it from `httpRequestWithAuthentication`, `requestWithAuthentication`, `getCredentials`).
 * It differs from n8n's CLI `CredentialsHelper` (packages/cli/src/credentials-helper.ts) only in
 * where the data comes from: instead of the database, every node credential reference of a type
 * resolves to the data configured for that type, whatever credential id/name the workflow names.
 *
 * `authenticate` is a port of the CLI's: a function `authenticate` is called as is; an
 * `IAuthenticateGeneric` (`type: 'generic'`) has every key and value under each of its
 * properties (headers, qs, body, auth) resolved as an n8n expression with `$credentials` bound
 * to the decrypted data, via `workflow.expression.getSimpleParameterValue(node, value,
 * 'internal', { $credentials })`, and written into the request options.
 */
import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialTypes,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	isExpression,
} from 'n8n-workflow';

/** In-memory `ICredentialTypes` (n8n's CredentialTypes without the loader). */
export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = []) {
		for (const type of types) this.add(type);
	}

	add(type: ICredentialType): void {
		this.types.set(type.name, type);
	}

	recognizes(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) {
			throw new UnexpectedError(
				`Unknown credential type "${name}" (not registered in the workflow test harness)`,
			);
		}
		return type;
	}

	getSupportedNodes(): string[] {
		return [];
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Credential data per credential type name. Copied on read, so nodes cannot mutate it. */
	private readonly data = new Map<string, ICredentialDataDecryptedObject>();

	constructor(
		private readonly credentialTypes: HarnessCredentialTypes,
		data: Record<string, ICredentialDataDecryptedObject | undefined> = {},
	) {
		super();
		for (const [type, value] of Object.entries(data)) {
			if (value) this.data.set(type, { ...value });
		}
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const credentialType = this.credentialTypes.getByName(typeName);
		const { authenticate } = credentialType;
		if (!authenticate) return requestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}

		if (!workflow || !node) {
			throw new UnexpectedError(
				'Workflow and node are required for declarative credential authentication',
			);
		}
		if (requestOptions.headers === undefined) requestOptions.headers = {};

		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<
				string,
				Record<string, unknown> | undefined
			>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries((outerValue ?? {}) as Record<string, unknown>)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(
						value as string,
						{ $credentials: credentials },
						workflow,
						node,
					);
					if (!target[outerKey]) target[outerKey] = {};
					(target[outerKey] as Record<string, unknown>)[keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	/** Same rule as the CLI: runs a credential's `preAuthentication` when its expirable field is empty or expired. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		// n8n persists the refreshed token; the harness keeps it for the rest of the process.
		this.data.set(typeName, { ...(this.data.get(typeName) ?? {}), ...output });
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject | undefined) ?? undefined;
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	/** Every configured credential may be used by every node: the harness has no credential sharing. */
	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id ?? null, name: nodeCredentials.name }, type);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		_executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.data.get(type);
		if (!stored) {
			throw new UserError(
				`Credential "${nodeCredentials.name ?? ''}" (${nodeCredentials.id ?? 'no id'}) of type "${type}" is not configured in the workflow test harness: pass runWorkflow(..., { credentials: { ${type}: {...} } })`,
			);
		}
		const data = { ...stored };
		if (raw) return data;

		// Like the CLI's applyDefaultsAndOverwrites: fill in the defaults of unset properties...
		const properties = this.getCredentialsProperties(type);
		const withDefaults = (NodeHelpers.getNodeParameters(
			properties,
			data as unknown as INodeParameters,
			true,
			false,
			null,
			null,
		) ?? {}) as ICredentialDataDecryptedObject;
		const merged: ICredentialDataDecryptedObject = { ...withDefaults, ...data };

		// ...and resolve expressions stored in the credential data.
		if (expressionResolveValues && Object.values(merged).some((value) => isExpression(value))) {
			const { workflow, node } = expressionResolveValues;
			return workflow.expression.getComplexParameterValue(
				node,
				merged as never,
				mode,
				{},
				undefined,
				undefined,
				merged,
			) as ICredentialDataDecryptedObject;
		}
		return merged;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data.set(type, { ...data });
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data.set(type, { ...(this.data.get(type) ?? {}), ...data });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}
}

/** What a node context built outside a workflow run (a load-options or test-request context) needs of additionalData. */
export function contextAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	parameters: INodeParameters,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		currentNodeParameters: parameters,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

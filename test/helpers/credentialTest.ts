/**
 * The credential's Test button, run the way n8n's CredentialsTester does it (packages/cli
 * credentials-tester.service.js, 2.20 and 2.41): getCredentialTestFunction takes the credential's own `test` when it
 * has one, else the first node that lists the credential with `testedBy`, whose `methods.credentialTest[testedBy]` is
 * called with a CredentialTestContext (n8n-core: `helpers.request`, n8n's HTTP client) and the decrypted data.
 * test/e2e/credential-test.ts runs the same cases inside a real `n8n start`.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';

import { SustainabilityComplianceApi } from '../../credentials/SustainabilityComplianceApi.credentials';
import { EuTaxonomy } from '../../nodes/EuTaxonomy/EuTaxonomy.node';
import { PortfolioSnapshots } from '../../nodes/PortfolioSnapshots/PortfolioSnapshots.node';
import { SustainabilityInstruments } from '../../nodes/SustainabilityInstruments/SustainabilityInstruments.node';
import { SustainabilityReports } from '../../nodes/SustainabilityReports/SustainabilityReports.node';
import { SustainableInvestments } from '../../nodes/SustainableInvestments/SustainableInvestments.node';
import { TemperatureScore } from '../../nodes/TemperatureScore/TemperatureScore.node';

export const credential = new SustainabilityComplianceApi();
const TYPE = credential.name;

/** The package's nodes, in the order n8n may meet them (each must lead to the same test). */
export const NODES_OF_THE_CREDENTIAL: INodeType[] = [
	new SustainabilityInstruments(),
	new SustainableInvestments(),
	new EuTaxonomy(),
	new TemperatureScore(),
	new SustainabilityReports(),
	new PortfolioSnapshots(),
];

/** CredentialsTester.getCredentialTestFunction for one node (undefined: n8n would find no test there). */
export function credentialTestFunctionOf(node: INodeType): ICredentialTestFunction | undefined {
	if ((credential as { test?: unknown }).test) return undefined;
	for (const { name, testedBy } of node.description.credentials ?? []) {
		if (name !== TYPE || !testedBy) continue;
		if (typeof testedBy !== 'string') return undefined;
		return node.methods?.credentialTest?.[testedBy];
	}
	return undefined;
}

/** What the dialog shows: `{ status, message }`, as CredentialsTester.testCredentials computes it. */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
	node: INodeType = NODES_OF_THE_CREDENTIAL[0],
): Promise<INodeCredentialTestResult> {
	const test = credentialTestFunctionOf(node);
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };
	const context = new CredentialTestContext(
		{} as ConstructorParameters<typeof CredentialTestContext>[0],
	);
	return await test.call(context, { id: 'c1', name: 'Test', type: TYPE, data });
}

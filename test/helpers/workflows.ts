import type { IDataObject, INode } from 'n8n-workflow';

import { PACKAGE_NAME } from '../workflow/runner';
import type { WorkflowInput } from '../workflow/runner';

export const CREDENTIAL_REF = { sustainabilityComplianceApi: { id: 'sim', name: 'Simulator' } };

export interface NodeSpec {
	/** Our node's description.name, e.g. 'sustainabilityInstruments'. */
	type: string;
	parameters: IDataObject;
	name?: string;
	onError?: INode['onError'];
}

/**
 * Manual Trigger -> Code (emits `items`) -> our nodes in a chain. The Code step stands in for a sheet: what a
 * user maps onto our node. Names: 'Trigger', 'Input', then each node's name (default 'Node', 'Node 2', ...).
 */
export function chainWorkflow(items: IDataObject[], ...specs: NodeSpec[]): WorkflowInput {
	const names = specs.map((spec, index) => spec.name ?? (index === 0 ? 'Node' : `Node ${index + 1}`));
	const nodes: INode[] = [
		{ id: 't', name: 'Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'i',
			name: 'Input',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { jsCode: `return ${JSON.stringify(items)}.map((json) => ({ json }));` },
		},
		...specs.map(
			(spec, index): INode => ({
				id: `n${index}`,
				name: names[index],
				type: `${PACKAGE_NAME}.${spec.type}`,
				typeVersion: 1,
				position: [400 + 200 * index, 0],
				parameters: spec.parameters as INode['parameters'],
				credentials: CREDENTIAL_REF,
				...(spec.onError ? { onError: spec.onError } : {}),
			}),
		),
	];
	const order = ['Trigger', 'Input', ...names];
	const connections: WorkflowInput['connections'] = {};
	for (let i = 0; i < order.length - 1; i++) {
		connections[order[i]] = { main: [[{ node: order[i + 1], type: 'main', index: 0 }]] };
	}
	return { name: 'test', nodes, connections, settings: { executionOrder: 'v1' } };
}

export function credentialsFor(baseUrl: string, apiKey = 'sim-all-families') {
	return { sustainabilityComplianceApi: { apiKey, baseUrl } };
}

import type { IDataObject, INode } from 'n8n-workflow';

import { holdingMapperFields } from '../../nodes/shared/run/methods';
import { findIsins, makeIsin } from '../simulator';
import type { HoldingsRoute } from '../../nodes/shared/api/routes';
import { PACKAGE_NAME } from '../workflow/runner';
import type { WorkflowInput } from '../workflow/runner';

export const CREDENTIAL_REF = { sustainabilityComplianceApi: { id: 'sim', name: 'Simulator' } };

export interface NodeSpec {
	/** Our node's description.name, e.g. 'sustainabilityInstruments', or a full type name ('n8n-nodes-base.emailSend'). */
	type: string;
	parameters: IDataObject;
	name?: string;
	onError?: INode['onError'];
	/** Default 1. */
	typeVersion?: number;
	/** Default: our API credential for our nodes, none for others. */
	credentials?: INode['credentials'];
	/** Node settings such as retryOnFail, maxTries, waitBetweenTries. */
	settings?: Partial<Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>>;
}

/** The Manual Trigger every test workflow starts from. */
export const MANUAL_TRIGGER: INode = {
	id: 't',
	name: 'Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Two known Swedish companies, 50 % and 1,000 each: the holdings of a report (Weight % / Market Value headers). */
export function reportRows(): IDataObject[] {
	return findIsins((data) => data.known && !data.isFund, 2, 'SE').map((isin, index) => ({
		isin,
		name: `Holding ${index}`,
		instrument_type: 'Stock',
		currency: 'SEK',
		'Weight %': 50,
		'Market Value': 1000,
	}));
}

/** Two holdings (60 % and 40 %) of one portfolio on one date: the rows of a snapshot. */
export function snapshotRows(portfolioId: string, date: string, currency = 'EUR'): IDataObject[] {
	return [
		{ isin: makeIsin('US', 1), name: 'Apple Inc.', weight: 60, market_value: 600 },
		{ isin: makeIsin('DE', 2), name: 'SAP SE', weight: 40, market_value: 400 },
	].map((holding) => ({
		portfolio_id: portfolioId,
		portfolio_name: 'Fund',
		date,
		instrument_type: 'Stock',
		currency,
		...holding,
	}));
}

/** The Input node: a No Operation node whose output is pinned (n8n's pinData), so it gives `items` as they are. */
export const INPUT_NODE: INode = {
	id: 'i',
	name: 'Input',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [200, 0],
	parameters: {},
};

function chainNode(spec: NodeSpec, name: string, index: number): INode {
	const ours = !spec.type.includes('.');
	const credentials = spec.credentials ?? (ours ? CREDENTIAL_REF : undefined);
	return {
		id: `n${index}`,
		name,
		type: ours ? `${PACKAGE_NAME}.${spec.type}` : spec.type,
		typeVersion: spec.typeVersion ?? 1,
		position: [400 + 200 * index, 0],
		parameters: spec.parameters as INode['parameters'],
		...(credentials ? { credentials } : {}),
		...(spec.onError ? { onError: spec.onError } : {}),
		...spec.settings,
	};
}

/**
 * Manual Trigger -> Input (pinned to `items`: what a user maps onto our node, e.g. a sheet's rows) -> the nodes of
 * `specs` in a chain. Names: 'Trigger', 'Input', then each node's name (default 'Node', 'Node 2', ...). Pinned items
 * keep what JSON cannot say (NaN, -0, own `__proto__` keys): the fuzz suites rely on it.
 */
export function chainWorkflow(items: IDataObject[], ...specs: NodeSpec[]): WorkflowInput {
	const names = specs.map(
		(spec, index) => spec.name ?? (index === 0 ? 'Node' : `Node ${index + 1}`),
	);
	const nodes: INode[] = [
		MANUAL_TRIGGER,
		INPUT_NODE,
		...specs.map((spec, index) => chainNode(spec, names[index], index)),
	];
	const order = ['Trigger', 'Input', ...names];
	const connections: WorkflowInput['connections'] = {};
	for (let i = 0; i < order.length - 1; i++) {
		connections[order[i]] = { main: [[{ node: order[i + 1], type: 'main', index: 0 }]] };
	}
	return {
		name: 'test',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: { Input: items.map((json) => ({ json })) },
	};
}

/** The workflow with its Timezone setting (Workflow Settings > Timezone): what `this.getTimezone()` gives nodes. */
export function inTimeZone(workflow: WorkflowInput, timezone: string): WorkflowInput {
	return { ...workflow, settings: { ...workflow.settings, timezone } } as WorkflowInput;
}

export function credentialsFor(baseUrl: string, apiKey = 'sim-all-families') {
	return { sustainabilityComplianceApi: { apiKey, baseUrl } };
}

/** A Holding Columns value as the editor saves it for "Map Each Column Manually" (holdings nodes, version 2). */
export function manualHoldingColumns(route: HoldingsRoute, value: IDataObject): IDataObject {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: holdingMapperFields(route),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

/**
 * The same mapping with each `{{ … }}` in brackets, `{{ ($json.ISIN) }}`: no longer a plain reference to a column
 * (which the node reads from the item itself), so n8n evaluates each one for each item.
 */
export function bracketed(mapping: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(mapping).map(([field, raw]) => [field, `={{ (${String(raw).slice(4, -3)}) }}`]),
	);
}

/**
 * Create or Update Snapshot reading its Portfolio ID, name and date from the items' `portfolio_id`, `portfolio_name`
 * and `date`, one snapshot per portfolio and date.
 */
export function snapshotSpec(extra: IDataObject = {}, onError?: NodeSpec['onError']): NodeSpec {
	return {
		type: 'portfolioSnapshots',
		parameters: {
			operation: 'createOrUpdateSnapshot',
			portfolioId: '={{ $json.portfolio_id }}',
			portfolioName: '={{ $json.portfolio_name }}',
			snapshotDate: '={{ $json.date }}',
			currency: 'EUR',
			groupBy: 'portfolio_id, date',
			...extra,
		},
		...(onError ? { onError } : {}),
	};
}

/** A Portfolio parameter (resource locator) in By Identifier mode. */
export const byIdentifier = (value: string) => ({ __rl: true, mode: 'id', value });

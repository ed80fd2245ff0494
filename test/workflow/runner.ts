/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Workflow test harness: runs an n8n workflow (as exported by n8n, e.g. examples/*.json) inside
 * this process with n8n-core's own `WorkflowExecute`, the way n8n's "Execute workflow" button does
 * (execution mode 'manual' unless `options.mode` says otherwise, started from the workflow's trigger).
 * The workflow's `staticData` is its input; the result gives it back after the run and says whether
 * n8n would have saved it (`staticDataSaved`, `savedStaticData`: not in 'manual' mode).
 *
 * What is real n8n code here: the execution engine (n8n-core `WorkflowExecute`, node execution
 * contexts, expression evaluation, paired items, `onError` handling), every `this.helpers.*` our
 * nodes call — in particular `httpRequestWithAuthentication`, which asks the credentials helper to
 * `authenticate` the request — and n8n-core's `BinaryDataService` (memory mode 'default', so
 * `prepareBinaryData` works and `binary()` reads the bytes back).
 *
 * What is provided by the harness:
 * - the credentials helper (./credentials-helper.ts): every node credential reference of a type
 *   resolves to `options.credentials[type]`; `authenticate` applies `IAuthenticateGeneric`
 *   credentials the way n8n's CLI CredentialsHelper does;
 * - node types (./node-types.ts): this package's nodes from ./packageNodes.ts, registered as
 *   `n8n-nodes-sustainability-compliance.<description.name>`; n8n core nodes, real when an n8n
 *   install is found (see findN8nNodesBase), else the test-only stand-ins of ./standins
 *   (Send Email is always a stand-in; there is no Code node: pin the rows); `options.nodeTypes` on top;
 * - additionalData with real URLs (http://localhost:5678/…, n8n's defaults), no sub-workflows,
 *   no task runners.
 *
 * Workflows without `settings.executionOrder` run with 'v1' (the order n8n gives new workflows).
 * A workflow's `pinData` is used as n8n's manual execution does.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import {
	BinaryDataService,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	INode,
	INodeExecutionData,
	INodeType,
	IPinData,
	IRun,
	IRunData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	IDataObject,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, UserError, Workflow } from 'n8n-workflow';

import { SustainabilityComplianceApi } from '../../credentials/SustainabilityComplianceApi.credentials';
import { HarnessCredentialTypes, HarnessCredentialsHelper } from './credentials-helper';
import { HarnessNodeTypes, loadCoreNodes } from './node-types';
import { packageNodeTypes } from './packageNodes';
import { takeRecordedEmails } from './standins';
import type { RecordedEmail } from './standins';

export type { RecordedAttachment, RecordedEmail } from './standins';

/** npm package name: n8n registers a community package's nodes as `<package>.<description.name>`. */
export const PACKAGE_NAME = 'n8n-nodes-sustainability-compliance';

/** Base of the URLs given to n8n-core (n8n's defaults: http://localhost:5678/). */
export const INSTANCE_BASE_URL = 'http://localhost:5678/';

export type SustainabilityComplianceApiCredentials = {
	apiKey: string;
	baseUrl: string;
	allowPrivateAddress?: boolean;
};

export interface RunWorkflowOptions {
	/**
	 * Credential data per credential TYPE name: every node credential reference of that type
	 * resolves to it, whatever credential id/name the workflow JSON names.
	 */
	credentials?: {
		sustainabilityComplianceApi?: SustainabilityComplianceApiCredentials;
		[credentialType: string]: ICredentialDataDecryptedObject | undefined;
	};
	/** Extra node types by type name, merged over the defaults. */
	nodeTypes?: Record<string, INodeType | IVersionedNodeType>;
	/** Cancel the execution after this many ms (status 'canceled', error says timed out). Default 60 000. */
	timeoutMs?: number;
	/** Cancels the execution when aborted (status 'canceled'). */
	signal?: AbortSignal;
	/** Extension: more credential types (ours, `sustainabilityComplianceApi`, is always there). */
	credentialTypes?: ICredentialType[];
	/** Extension: 'standIns' never loads real n8n core nodes even if an install is found. Default 'auto'. */
	coreNodes?: 'auto' | 'standIns';
	/** Extension: name of the node to start from (default: the workflow's trigger). */
	startNode?: string;
	/**
	 * Extension: the execution mode. Default 'manual' (the editor's "Execute workflow"). Any other mode runs as an
	 * active workflow's or CLI execution does: trigger nodes pass their input on (n8n runs them without their trigger
	 * function), and the static data is saved after the run (see `savedStaticData`).
	 */
	mode?: WorkflowExecuteMode;
}

export interface WorkflowRunResult {
	status: 'success' | 'error' | 'canceled' | string;
	/** The execution error, if any (resultData.error). */
	error?: Error;
	/** Per node name: output of its (last) run, per output index. */
	outputs: Record<string, INodeExecutionData[][]>;
	/** Raw run data. */
	runData: IRunData;
	/** Items of a node's (last) run on one output (default 0); [] if the node did not run. */
	items(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** Bytes of a binary property (default 'data', or the item's only one) of an item of output 0. */
	binary(nodeName: string, itemIndex?: number, property?: string): Promise<Buffer>;

	// Extensions
	/** n8n core node types this workflow uses that were served by test-only stand-ins. */
	standIns: string[];
	/** n8n core node types this workflow uses that were the real n8n-nodes-base nodes. */
	realNodes: string[];
	/** Emails the Send Email stand-in would have sent, in order. */
	emails: RecordedEmail[];
	/** Node names in the order they finished. */
	executionOrder: string[];
	/** Parameters of the workflow JSON the node types do not know (dropped by n8n), and other notes. */
	warnings: string[];
	timedOut: boolean;
	executionId: string;
	/** The full IRun n8n-core returned. */
	run: IRun;
	/** The workflow's static data after the run (a plain copy), whether or not n8n would save it. */
	staticData: IDataObject;
	/**
	 * Whether n8n would save the static data after this run: n8n-core handed it to the `workflowExecuteAfter` hook (a
	 * node changed it and the execution was not cancelled; also when a node failed) and the mode is not 'manual', the
	 * condition of n8n's own handlers (hookFunctionsSave, hookFunctionsSaveWorker).
	 */
	staticDataSaved: boolean;
	/**
	 * The workflow's static data as n8n keeps it for the next run: `staticData` when saved, else the input's. Pass it
	 * as the workflow's `staticData` to run the workflow again as n8n would.
	 */
	savedStaticData: IDataObject;
}

export type WorkflowInput =
	| IWorkflowBase
	| {
			nodes: INode[];
			connections: IConnections;
			name?: string;
			settings?: object;
			pinData?: IPinData;
			staticData?: object;
			id?: string;
	  };

/** Reads a workflow JSON file as exported by n8n (also accepts `{ workflow: {...} }` / `{ data: {...} }` wrappers). */
export function loadWorkflowFile(path: string): WorkflowInput {
	const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
	const candidate = (
		Array.isArray(parsed.nodes)
			? parsed
			: ((parsed.workflow ?? parsed.data) as Record<string, unknown>)
	) as WorkflowInput | undefined;
	if (!candidate || !Array.isArray(candidate.nodes) || typeof candidate.connections !== 'object') {
		throw new UserError(
			`${path} is not an n8n workflow export (no "nodes" array / "connections" object)`,
		);
	}
	return candidate;
}

// ---------------------------------------------------------------------------------------------
// Process-wide n8n-core setup

/** n8n-core writes its instance settings (encryption key) under N8N_USER_FOLDER on first use. */
function ensureUserFolder(): void {
	if (!process.env.N8N_USER_FOLDER) {
		process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-sc-harness-'));
	}
}

let binaryDataReady: Promise<void> | undefined;

/** Like n8n's own test helpers (initBinaryDataService): BinaryDataService in mode 'default' (memory). */
function ensureBinaryDataService(): Promise<void> {
	binaryDataReady ??= (async () => {
		type Args = ConstructorParameters<typeof BinaryDataService>;
		const config = {
			mode: 'default',
			availableModes: ['default'],
			localStoragePath: mkdtempSync(join(tmpdir(), 'n8n-sc-binary-')),
			signingSecret: randomBytes(32).toString('hex'),
			dbMaxFileSize: 512,
		} as unknown as Args[0];
		const noop = () => {};
		const errorReporter = { error: noop, warn: noop, info: noop } as unknown as Args[1];
		const logger = {
			error: noop,
			warn: noop,
			info: noop,
			debug: noop,
			scoped: () => logger,
		} as unknown as Args[2];
		const service = new BinaryDataService(config, errorReporter, logger);
		await service.init();
		Container.set(BinaryDataService, service);
	})();
	return binaryDataReady;
}

// ---------------------------------------------------------------------------------------------

function packageTypeName(type: INodeType | IVersionedNodeType): string {
	return `${PACKAGE_NAME}.${type.description.name}`;
}

function collectDroppedParameters(
	original: unknown,
	normalized: unknown,
	path: string,
	out: string[],
): void {
	if (typeof original !== 'object' || original === null) return;
	if (Array.isArray(original)) {
		if (!Array.isArray(normalized)) return;
		original.forEach((entry, index) =>
			collectDroppedParameters(entry, normalized[index], `${path}[${index}]`, out),
		);
		return;
	}
	if (typeof normalized !== 'object' || normalized === null || Array.isArray(normalized)) return;
	for (const [key, value] of Object.entries(original)) {
		const childPath = path ? `${path}.${key}` : key;
		if (!(key in normalized)) {
			out.push(childPath);
			continue;
		}
		collectDroppedParameters(value, (normalized as Record<string, unknown>)[key], childPath, out);
	}
}

function pickStartNode(
	workflow: Workflow,
	nodeTypes: HarnessNodeTypes,
	name: string | undefined,
	warnings: string[],
): INode {
	if (name) {
		const node = workflow.getNode(name);
		if (!node) throw new UserError(`startNode "${name}" is not a node of the workflow`);
		return node;
	}
	const triggers = Object.values(workflow.nodes).filter((node) => {
		if (node.disabled) return false;
		const type = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		return type.description.group.includes('trigger') || !!type.trigger || !!type.poll;
	});
	if (triggers.length > 1) {
		warnings.push(
			`several triggers (${triggers.map((node) => node.name).join(', ')}): started from "${triggers[0].name}" (pass options.startNode to choose)`,
		);
	}
	const start = triggers[0] ?? workflow.getStartNode();
	if (!start) throw new UserError('The workflow has no trigger to start from');
	return start;
}

export async function runWorkflow(
	workflowInput: WorkflowInput,
	options: RunWorkflowOptions = {},
): Promise<WorkflowRunResult> {
	ensureUserFolder();
	await ensureBinaryDataService();

	// Node types: core (real or stand-in) < package nodes < options.nodeTypes
	const core = loadCoreNodes(options.coreNodes ?? 'auto');
	const nodeTypes = new HarnessNodeTypes();
	for (const [name, type] of Object.entries(core.types)) nodeTypes.add(name, type);
	for (const type of packageNodeTypes) nodeTypes.add(packageTypeName(type), type);
	for (const [name, type] of Object.entries(options.nodeTypes ?? {})) nodeTypes.add(name, type);

	const credentialTypes = new HarnessCredentialTypes([
		new SustainabilityComplianceApi(),
		...(options.credentialTypes ?? []),
	]);
	const credentialsHelper = new HarnessCredentialsHelper(
		credentialTypes,
		(options.credentials ?? {}) as Record<string, ICredentialDataDecryptedObject | undefined>,
	);

	// n8n's Workflow normalises node parameters in place: work on a copy.
	const input = structuredClone(workflowInput) as WorkflowInput & {
		pinData?: IPinData;
		staticData?: object;
		id?: string;
		settings?: IWorkflowSettings;
	};
	const originalParameters = new Map(
		input.nodes.map((node) => [node.name, structuredClone(node.parameters)]),
	);
	const warnings: string[] = [...core.notes];
	const pinData =
		input.pinData && Object.keys(input.pinData).length > 0 ? input.pinData : undefined;
	const workflowId = input.id ? String(input.id) : 'harness-workflow';

	const workflow = new Workflow({
		id: workflowId,
		name: input.name ?? 'Workflow under test',
		nodes: input.nodes,
		connections: input.connections,
		active: false,
		nodeTypes,
		staticData: input.staticData as Workflow['staticData'] | undefined,
		settings: { executionOrder: 'v1', ...(input.settings ?? {}) } as IWorkflowSettings,
		pinData,
	});

	for (const node of Object.values(workflow.nodes)) {
		const dropped: string[] = [];
		collectDroppedParameters(originalParameters.get(node.name), node.parameters, '', dropped);
		if (dropped.length) {
			warnings.push(
				`node "${node.name}" (${node.type} v${node.typeVersion}): parameter(s) ${dropped.join(', ')} unknown to the node type (or not displayed with these settings) — n8n ignores them`,
			);
		}
	}

	const usedTypes = new Set(Object.values(workflow.nodes).map((node) => node.type));
	const standIns = core.standIns.filter(
		(type) => usedTypes.has(type) && !options.nodeTypes?.[type],
	);
	const realNodes = core.real.filter((type) => usedTypes.has(type) && !options.nodeTypes?.[type]);

	const startNode = pickStartNode(workflow, nodeTypes, options.startNode, warnings);

	const executionId = `harness-${randomUUID()}`;
	const workflowData = {
		id: workflowId,
		name: workflow.name,
		active: false,
		isArchived: false,
		nodes: Object.values(workflow.nodes),
		connections: input.connections,
		settings: workflow.settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;

	const mode: WorkflowExecuteMode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	const finished = deferred<IRun>();
	// n8n-core hands the static data to this hook when a node changed it; n8n's own handler (hookFunctionsSave) saves
	// it then, unless the mode is 'manual'. A cancelled execution does not run the hook: nothing is saved.
	let changedStaticData: object | undefined;
	hooks.addHandler('workflowExecuteAfter', (fullRunData, newStaticData) => {
		changedStaticData = newStaticData;
		finished.resolve(fullRunData);
	});

	const notAvailable = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the workflow test harness`);
	};
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${INSTANCE_BASE_URL}rest`,
		instanceBaseUrl: INSTANCE_BASE_URL,
		formWaitingBaseUrl: `${INSTANCE_BASE_URL}form-waiting`,
		webhookBaseUrl: `${INSTANCE_BASE_URL}webhook`,
		webhookWaitingBaseUrl: `${INSTANCE_BASE_URL}webhook-waiting`,
		webhookTestBaseUrl: `${INSTANCE_BASE_URL}webhook-test`,
		formBaseUrl: `${INSTANCE_BASE_URL}form`,
		formTestBaseUrl: `${INSTANCE_BASE_URL}form-test`,
		mcpBaseUrl: `${INSTANCE_BASE_URL}mcp`,
		mcpTestBaseUrl: `${INSTANCE_BASE_URL}mcp-test`,
		getRuntimeCredential: async () => undefined,
		variables: {},
		executeWorkflow: notAvailable('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: notAvailable("n8n's task runner"),
		externalSecretsProxy: new ExternalSecretsProxy(),
		sendDataToUI: () => {},
		setExecutionStatus: () => {},
	};

	const workflowExecute = new WorkflowExecute(additionalData, mode);
	const running = workflowExecute.run({ workflow, startNode, pinData });
	running.then(
		(run) => finished.resolve(run),
		(error: Error) => finished.reject(error),
	);

	let timedOut = false;
	const timeoutMs = options.timeoutMs ?? 60_000;
	const timer = setTimeout(() => {
		timedOut = true;
		running.cancel();
	}, timeoutMs);
	const onAbort = () => running.cancel();
	if (options.signal?.aborted) running.cancel();
	options.signal?.addEventListener('abort', onAbort, { once: true });

	let run: IRun;
	try {
		run = await finished.promise;
	} finally {
		clearTimeout(timer);
		options.signal?.removeEventListener('abort', onAbort);
	}

	const runData = run.data.resultData.runData;
	const outputs: Record<string, INodeExecutionData[][]> = {};
	for (const [nodeName, tasks] of Object.entries(runData)) {
		const last = tasks[tasks.length - 1];
		outputs[nodeName] = (last?.data?.main ?? []).map((output) => output ?? []);
	}

	let error: Error | undefined = run.data.resultData.error;
	if (timedOut && !error) error = new Error(`Workflow timed out after ${timeoutMs} ms`);
	const status = timedOut ? 'canceled' : run.status;

	const items = (nodeName: string, outputIndex = 0): INodeExecutionData[] => {
		if (!workflow.getNode(nodeName)) {
			throw new UserError(
				`No node "${nodeName}" in the workflow (nodes: ${Object.keys(workflow.nodes).join(', ')})`,
			);
		}
		return outputs[nodeName]?.[outputIndex] ?? [];
	};

	const binary = async (nodeName: string, itemIndex = 0, property?: string): Promise<Buffer> => {
		const item = items(nodeName)[itemIndex];
		if (!item) throw new UserError(`Node "${nodeName}" has no output item ${itemIndex}`);
		const keys = Object.keys(item.binary ?? {});
		const key =
			property ?? (keys.includes('data') ? 'data' : keys.length === 1 ? keys[0] : undefined);
		const binaryData = key !== undefined ? item.binary?.[key] : undefined;
		if (!binaryData) {
			throw new UserError(
				`Item ${itemIndex} of node "${nodeName}" has no binary property ${property ? `"${property}"` : '"data"'} (has: ${keys.join(', ') || 'none'})`,
			);
		}
		return await Container.get(BinaryDataService).getAsBuffer(binaryData);
	};

	// JSON copies: what n8n would write to the database (the proxies and their __dataChanged flags are left behind).
	const staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	const staticDataSaved = mode !== 'manual' && changedStaticData !== undefined && !timedOut;
	const savedStaticData = staticDataSaved
		? staticData
		: (JSON.parse(JSON.stringify(workflowInput.staticData ?? {})) as IDataObject);

	return {
		status,
		error,
		outputs,
		runData,
		items,
		binary,
		standIns,
		realNodes,
		emails: takeRecordedEmails(executionId),
		executionOrder,
		warnings,
		timedOut,
		executionId,
		run,
		staticData,
		staticDataSaved,
		savedStaticData,
	};
}

/** A promise with its resolve/reject at hand (n8n-workflow's createDeferredPromise is gone in 2.41). */
function deferred<T>(): {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: Error) => void;
} {
	let resolve!: (value: T) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

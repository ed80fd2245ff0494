/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Node types for the workflow test harness (test/workflow/runner.ts).
 *
 * - `HarnessNodeTypes`: an in-memory `INodeTypes` (getByName, getByNameAndVersion, getKnownTypes),
 *   as n8n's own test harness (packages/core/nodes-testing/node-types.ts) has.
 * - `loadCoreNodes()`: the n8n core nodes the example workflows use, under their real type names.
 *   From n8n-nodes-base (`findN8nNodesBase`: the project's devDependency, pinned to the n8n-core release, or
 *   an n8n install named by N8N_E2E_CACHE), the REAL ManualTrigger, ScheduleTrigger,
 *   Set, SplitOut, NoOp, If, Merge and Convert to File are loaded from its n8n-nodes-base dist; Send Email (would send mail)
 *   and any real node that fails to load are the test-only stand-ins of ./standins. There is no
 *   Code node (the real one needs n8n's task runners): rows come from pinned data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import type { IDataObject, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers, UserError } from 'n8n-workflow';

import { supportedN8nVersions } from '../e2e/lib';
import { createStandIns } from './standins';

export const N8N_NODES_BASE_PREFIX = 'n8n-nodes-base.';
const PROJECT_ROOT = resolve(__dirname, '..', '..');
/** The cache folder of the newest supported n8n (scripts/real-n8n/versions): its nodes match the n8n-core the tests run. */
const DEFAULT_N8N_VERSION_DIR = `n8n-${supportedN8nVersions().newest}`;

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	add(name: string, type: INodeType | IVersionedNodeType): this {
		this.types.set(name, type);
		return this;
	}

	has(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const type = this.types.get(name);
		if (!type) {
			throw new UserError(
				`Unrecognized node type "${name}": the workflow test harness knows ${[...this.types.keys()].join(', ')}. ` +
					'Register package nodes in test/workflow/packageNodes.ts or pass options.nodeTypes.',
			);
		}
		return type;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(name), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(
			[...this.types.keys()].map((name) => [name, { className: '', sourcePath: '' }]),
		);
	}
}

/** Real n8n-nodes-base nodes the harness prefers when an install is available. */
const REAL_CANDIDATES: Record<string, { className: string; sourcePath: string }> = {
	manualTrigger: {
		className: 'ManualTrigger',
		sourcePath: 'dist/nodes/ManualTrigger/ManualTrigger.node.js',
	},
	scheduleTrigger: {
		className: 'ScheduleTrigger',
		sourcePath: 'dist/nodes/Schedule/ScheduleTrigger.node.js',
	},
	set: { className: 'Set', sourcePath: 'dist/nodes/Set/Set.node.js' },
	noOp: { className: 'NoOp', sourcePath: 'dist/nodes/NoOp/NoOp.node.js' },
	splitOut: { className: 'SplitOut', sourcePath: 'dist/nodes/Transform/SplitOut/SplitOut.node.js' },
	if: { className: 'If', sourcePath: 'dist/nodes/If/If.node.js' },
	merge: { className: 'Merge', sourcePath: 'dist/nodes/Merge/Merge.node.js' },
	convertToFile: {
		className: 'ConvertToFile',
		sourcePath: 'dist/nodes/Files/ConvertToFile/ConvertToFile.node.js',
	},
};

/**
 * Real n8n-nodes-base nodes without a stand-in: the file examples use them (upload form, Read/Write Files from Disk,
 * Extract From File; examples/13 also Summarize, Loop Over Items and Aggregate, to write one workbook per
 * statement and attach them all to one email). Without n8n-nodes-base (node_modules not installed) they are missing, and `inProcessSkipReason`
 * says so.
 */
const REAL_ONLY: Record<string, { className: string; sourcePath: string }> = {
	formTrigger: { className: 'FormTrigger', sourcePath: 'dist/nodes/Form/FormTrigger.node.js' },
	form: { className: 'Form', sourcePath: 'dist/nodes/Form/Form.node.js' },
	extractFromFile: {
		className: 'ExtractFromFile',
		sourcePath: 'dist/nodes/Files/ExtractFromFile/ExtractFromFile.node.js',
	},
	readWriteFile: {
		className: 'ReadWriteFile',
		sourcePath: 'dist/nodes/Files/ReadWriteFile/ReadWriteFile.node.js',
	},
	summarize: {
		className: 'Summarize',
		sourcePath: 'dist/nodes/Transform/Summarize/Summarize.node.js',
	},
	splitInBatches: {
		className: 'SplitInBatches',
		sourcePath: 'dist/nodes/SplitInBatches/SplitInBatches.node.js',
	},
	aggregate: {
		className: 'Aggregate',
		sourcePath: 'dist/nodes/Transform/Aggregate/Aggregate.node.js',
	},
};

function isNodesBaseDir(dir: string): boolean {
	const pkg = join(dir, 'package.json');
	if (!existsSync(pkg)) return false;
	try {
		return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'n8n-nodes-base';
	} catch {
		return false;
	}
}

/** The project's own n8n-nodes-base: a devDependency pinned to the release of the n8n-core the tests run. */
export function projectN8nNodesBase(): string | undefined {
	try {
		return dirname(require.resolve('n8n-nodes-base/package.json', { paths: [PROJECT_ROOT] }));
	} catch {
		return undefined;
	}
}

/**
 * Where an n8n-nodes-base install may be. `N8N_E2E_CACHE` may point at the n8n-nodes-base folder
 * itself, at an n8n install (…/node_modules/n8n-nodes-base below it), or at the cache root
 * (…/n8n-<newest>/node_modules/n8n-nodes-base below it); when it is set, only there. Default: the project's
 * devDependency (`npm ci` installs it), else
 * $HOME/.cache/n8n-nodes-sustainability-compliance/n8n-<newest>/node_modules/n8n-nodes-base.
 */
export function findN8nNodesBase(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const candidates: string[] = [];
	const configured = env.N8N_E2E_CACHE;
	if (configured) {
		candidates.push(
			configured,
			join(configured, 'node_modules', 'n8n-nodes-base'),
			join(configured, DEFAULT_N8N_VERSION_DIR, 'node_modules', 'n8n-nodes-base'),
		);
	} else {
		const own = projectN8nNodesBase();
		if (own) candidates.push(own);
		candidates.push(
			join(
				homedir(),
				'.cache',
				'n8n-nodes-sustainability-compliance',
				DEFAULT_N8N_VERSION_DIR,
				'node_modules',
				'n8n-nodes-base',
			),
		);
	}
	return candidates.find(isNodesBaseDir);
}

export interface CoreNodes {
	types: Record<string, INodeType | IVersionedNodeType>;
	/** type names served by the real n8n-nodes-base */
	real: string[];
	/** type names served by a stand-in */
	standIns: string[];
	/** why a real node could not be used, per type name */
	notes: string[];
	/** n8n-nodes-base nodes without a stand-in that could not be loaded, and why, by type name */
	missing: Record<string, string>;
	nodesBaseDir?: string;
}

const cache = new Map<string, CoreNodes>();

/** One node class of the n8n-nodes-base of a real n8n install (a sync require: import() is async). */
function loadRealNode(
	nodesBaseDir: string,
	className: string,
	sourcePath: string,
): INodeType | IVersionedNodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- sync load from a computed path
	const mod = require(join(nodesBaseDir, sourcePath)) as Record<
		string,
		new () => INodeType | IVersionedNodeType
	>;
	return new mod[className]();
}

/**
 * @param mode 'auto' (default): real nodes when an install is found; 'standIns': never load real nodes.
 */
export function loadCoreNodes(mode: 'auto' | 'standIns' = 'auto'): CoreNodes {
	const nodesBaseDir = mode === 'auto' ? findN8nNodesBase() : undefined;
	const key = `${mode}:${nodesBaseDir ?? ''}`;
	const cached = cache.get(key);
	if (cached) return cached;

	const standIns = createStandIns();
	const result: CoreNodes = {
		types: {},
		real: [],
		standIns: [],
		notes: [],
		missing: {},
		nodesBaseDir,
	};
	let known: Record<string, { className: string; sourcePath: string }> = {};
	if (nodesBaseDir) {
		const knownPath = join(nodesBaseDir, 'dist', 'known', 'nodes.json');
		try {
			if (existsSync(knownPath)) known = JSON.parse(readFileSync(knownPath, 'utf8'));
		} catch {
			known = {};
		}
	}

	for (const [typeName, standIn] of Object.entries(standIns)) {
		const shortName = typeName.slice(N8N_NODES_BASE_PREFIX.length);
		const candidate = REAL_CANDIDATES[shortName];
		if (nodesBaseDir && candidate) {
			const { className, sourcePath } = known[shortName] ?? candidate;
			try {
				result.types[typeName] = loadRealNode(nodesBaseDir, className, sourcePath);
				result.real.push(typeName);
				continue;
			} catch (error) {
				result.notes.push(
					`${typeName}: real node not loadable from ${nodesBaseDir} (${(error as Error).message})`,
				);
			}
		}
		result.types[typeName] = standIn;
		result.standIns.push(typeName);
	}
	for (const [shortName, candidate] of Object.entries(REAL_ONLY)) {
		const typeName = `${N8N_NODES_BASE_PREFIX}${shortName}`;
		if (!nodesBaseDir) {
			result.missing[typeName] =
				'n8n-nodes-base not found: run `npm ci` (it is a devDependency), or set N8N_E2E_CACHE to an n8n install';
			continue;
		}
		const { className, sourcePath } = known[shortName] ?? candidate;
		try {
			result.types[typeName] = loadRealNode(nodesBaseDir, className, sourcePath);
			result.real.push(typeName);
		} catch (error) {
			result.missing[typeName] =
				`not loadable from ${nodesBaseDir} (${(error as Error).message.split('\n')[0]})`;
		}
	}
	cache.set(key, result);
	return result;
}

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

/**
 * Registry of this package's node classes for the workflow test harness (test/workflow/runner.ts).
 *
 * Add one instance per node as the nodes are written, e.g.
 *
 *   import { SustainabilityInstruments } from '../../nodes/SustainabilityInstruments/SustainabilityInstruments.node';
 *   export const packageNodeTypes: Array<INodeType | IVersionedNodeType> = [new SustainabilityInstruments()];
 *
 * The runner registers each one under the name n8n gives community-package nodes:
 * `n8n-nodes-sustainability-compliance.<description.name>`.
 */
export const packageNodeTypes: Array<INodeType | IVersionedNodeType> = [];

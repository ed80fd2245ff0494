/**
 * Screen Holdings as an AI Agent tool inside n8n's engine (test/helpers/agents.ts; issue 39): the model passes ISINs
 * ("screen these holdings against the Paris-aligned exclusions"), the tool screens them with its preset, one request per
 * data family. Both agent ways: the AI Agent ≤ 2.x (createNodeAsTool) and 3.x (an engine request).
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import { agentNodeTypes, agentWorkflow } from './helpers/agents';
import type { ToolSpec } from './helpers/agents';
import { makeIsin } from './helpers/isins';
import { credentialsFor } from './helpers/workflows';
import { useSimulator } from './helpers/simulator';
import { runWorkflow } from './workflow/runner';

const sim = useSimulator({ answerShape: { measures: 'vendor' } });

const screenTool: ToolSpec = {
	type: 'sustainabilityInstruments',
	parameters: {
		operation: 'screenHoldings',
		screenPreset: 'pab',
		isinSource: 'list',
		isinList: "={{ $fromAI('isins', 'ISINs to screen, comma-separated', 'string') }}",
	},
};

const coal = (isin: string) => instrumentData(isin).businessInvolvements.thermal_coal?.weight ?? 0;
const violation = (isin: string) =>
	instrumentData(isin).vendorIndicators.violations_un_global_compact;
const [COAL] = findIsins((d) => d.known && coal(d.isin) >= 1 && violation(d.isin) === false, 1);
const [VIOLATOR] = findIsins((d) => d.known && coal(d.isin) === 0 && violation(d.isin) === true, 1);
const UNKNOWN = makeIsin('XX', 4242);

const PAB_RULES = [
	'Art. 12(1)(a) Controversial weapons',
	'Art. 12(1)(b) Cultivation and production of tobacco',
	'Art. 12(1)(c) Violations of the UN Global Compact principles or OECD Guidelines',
	'Art. 12(1)(d) Revenues from hard coal and lignite',
	'Art. 12(1)(e) Revenues from oil fuels',
	'Art. 12(1)(f) Revenues from gaseous fuels',
	'Art. 12(1)(g) Revenues from electricity generation above 100 g CO2e/kWh',
];
/** Categories the simulator's answer (as the spec) lacks: never a pass, said per ISIN. */
const NOT_GIVEN = [0, 1, 4, 5, 6].map((index) => PAB_RULES[index]);

/** The one result object the model gets for the call. */
function modelResult(agent: 'langchain' | 'engine', json: IDataObject): IDataObject {
	if (agent === 'langchain') {
		expect(json.thrown).toBeUndefined();
		const parsed = JSON.parse(json.result as string) as IDataObject[];
		expect(parsed).toHaveLength(1);
		return parsed[0];
	}
	expect(json.taskError).toBeUndefined();
	const output = json.output as IDataObject[];
	expect(output).toHaveLength(1);
	return output[0];
}

const rulesOf = (list: unknown) => (list as IDataObject[]).map((entry) => entry.rule);

describe.each(['langchain', 'engine'] as const)('Screen Holdings as a tool (%s agent)', (agent) => {
	it('screens the ISINs the model passes against the Paris-aligned exclusions: a breach each where expected, not_checked where the API has no data, one request per data family', async () => {
		const result = await runWorkflow(
			agentWorkflow(
				agent,
				[{ args: { isins: `${COAL}, ${VIOLATOR}, ${UNKNOWN}, ${COAL}` } }],
				screenTool,
			),
			{
				credentials: credentialsFor(sim.url),
				nodeTypes: agentNodeTypes(screenTool.type),
				timeoutMs: 120_000,
			},
		);
		expect(result.error).toBeUndefined();
		const [out] = result.items('Agent').map((item) => item.json);
		if (agent === 'langchain')
			expect(out.description).toMatch(/Paris-aligned Benchmark exclusions/);
		const json = modelResult(agent, out);
		const results = json.results as IDataObject[];
		expect(results.map((entry) => entry.isin)).toEqual([COAL, VIOLATOR, UNKNOWN]);
		const [coalResult, violatorResult, unknownResult] = results;
		expect(coalResult.screen).toBe('breach');
		expect(coalResult.breaches).toEqual([
			expect.objectContaining({ rule: PAB_RULES[3], value: coal(COAL), threshold: 1 }),
		]);
		expect(rulesOf(coalResult.not_checked_rules)).toEqual(NOT_GIVEN);
		expect(violatorResult.screen).toBe('breach');
		expect(violatorResult.breaches).toEqual([
			expect.objectContaining({ rule: PAB_RULES[2], value: true, threshold: false }),
		]);
		expect(unknownResult.screen).toBe('not_checked');
		expect(unknownResult.breaches).toEqual([]);
		expect(rulesOf(unknownResult.not_checked_rules)).toEqual(PAB_RULES);
		// One request per data family the rules need, for the three distinct ISINs.
		const sent = [COAL, VIOLATOR, UNKNOWN].map((isin) => ({ isin }));
		expect(
			sim
				.requests()
				.map((request) => [request.route, request.body])
				.sort(),
		).toEqual(
			[
				['POST /instruments/business-involvements', { holdings: sent }],
				['POST /instruments/sustainability-data', { holdings: sent }],
			].sort(),
		);
	});
});

/**
 * Our nodes as AI Agent tools inside n8n's engine (test/helpers/agents.ts): the AI Agent ≤ 2.x way (n8n-core's
 * createNodeAsTool, a SupplyDataContext) and the AI Agent 3.x way (an engine request: the `…Tool` node runs as a
 * node with `rewireOutputLogTo = 'ai_tool'`), against the simulator.
 */
import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData } from './simulator';
import { SIM_KEYS } from './simulator/keys';
import { agentNodeTypes, agentWorkflow } from './helpers/agents';
import type { ToolCall, ToolSpec } from './helpers/agents';
import { makeIsins } from './helpers/isins';
import { credentialsFor } from './helpers/workflows';
import { useSimulator } from './helpers/simulator';
import { runWorkflow } from './workflow/runner';
import { TOOL_RESULT_LIMIT } from '../nodes/shared/run/tool';
import { TOOL_DESCRIPTIONS } from '../nodes/shared/ui/toolDescriptions';
import { REPORT_LINK_NOTE } from '../nodes/SustainabilityReports/actions/reportItems';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const METHODOLOGY = { __rl: true, mode: 'id', value: 1 };

const sim = useSimulator();

const FROM_AI = "={{ $fromAI('isins', 'ISINs to look up, comma-separated', 'string') }}";

const sfdrTool = (extra: IDataObject = {}): ToolSpec => ({
	type: 'sustainabilityInstruments',
	parameters: {
		operation: 'getSfdrClassification',
		isinSource: 'list',
		isinList: FROM_AI,
		...extra,
	},
});

/** What the model received from each call: the parsed tool result (langchain) or the tool node's output (engine). */
async function callTool(
	agent: 'langchain' | 'engine',
	calls: ToolCall[],
	tool: ToolSpec = sfdrTool(),
	apiKey: string = SIM_KEYS.allFamilies,
) {
	const result = await runWorkflow(agentWorkflow(agent, calls, tool), {
		credentials: credentialsFor(sim.url, apiKey),
		nodeTypes: agentNodeTypes(tool.type),
		timeoutMs: 120_000,
	});
	const out = result.items('Agent').map((item) => item.json);
	return { result, out };
}

/** The one result object the model gets for a call. */
function modelResult(agent: 'langchain' | 'engine', json: IDataObject): IDataObject {
	if (agent === 'langchain') {
		expect(json.thrown).toBeUndefined();
		expect(typeof json.result).toBe('string');
		const parsed = JSON.parse(json.result as string) as IDataObject[];
		expect(parsed).toHaveLength(1);
		return parsed[0];
	}
	expect(json.taskError).toBeUndefined();
	const output = json.output as IDataObject[];
	expect(output).toHaveLength(1);
	return output[0];
}

/** ESG Data needs at least one valid ISIN (SFDR answers an all-invalid list with its results). */
const esgTool: ToolSpec = {
	type: 'sustainabilityInstruments',
	parameters: { operation: 'getEsgData', isinSource: 'list', isinList: FROM_AI },
};

const [known1, known2] = findIsins((d) => d.known && !d.isFund, 2);
// Apple's ISIN with its last digit dropped: 11 characters.
const MISTYPED = 'US037833100';
// A check digit that does not match.
const WRONG_CHECK = `${known2.slice(0, 11)}${(Number(known2[11]) + 1) % 10}`;

describe.each(['langchain', 'engine'] as const)('tool mode (%s agent)', (agent) => {
	it('answers the valid ISINs and reports each mistyped one with a fix, sending only the valid ones', async () => {
		const { result, out } = await callTool(agent, [
			{ args: { isins: `${known1}, ${MISTYPED}, ${known2}, ${WRONG_CHECK}` } },
		]);
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		// What n8n's createNodeAsTool told the model the tool does (Tool Description left as preset).
		if (agent === 'langchain')
			expect(out[0].description).toBe(
				TOOL_DESCRIPTIONS.sustainabilityInstruments.getSfdrClassification,
			);
		const json = modelResult(agent, out[0]);
		expect(json.summary).toEqual({ asked: 4, found: 2, not_found: 0, invalid: 2 });
		const results = json.results as IDataObject[];
		expect(results).toHaveLength(4);
		expect(results[0]).toMatchObject({
			isin: known1,
			found: true,
			classification: instrumentData(known1).sfdr,
		});
		expect(results[1]).toMatchObject({ isin: MISTYPED, found: false });
		expect(results[1].problem).toMatch(/invalid ISIN: .*11 characters.*; fix: check the ISIN/);
		expect(results[3]).toMatchObject({ isin: WRONG_CHECK, found: false });
		expect(results[3].problem).toMatch(/check digit/);
		// Not-found and invalid entries carry no empty columns.
		expect(Object.keys(results[1]).sort()).toEqual(['found', 'isin', 'problem']);
		// The tool's own arguments are not echoed back.
		expect(JSON.stringify(json)).not.toContain('toolCallId');
		expect(sim.requests({ route: SFDR }).map((r) => r.body)).toEqual([
			{ holdings: [{ isin: known1 }, { isin: known2 }] },
		]);
	});

	it('an empty list: a result saying what to pass, nothing sent', async () => {
		const { result, out } = await callTool(agent, [{ args: { isins: ' , ' } }]);
		expect(result.status).toBe('success');
		const json = modelResult(agent, out[0]);
		expect(json.problem).toMatch(/empty/i);
		expect(json.fix).toMatch(/pass at least one ISIN/);
		expect(sim.requestCount()).toBe(0);
	});

	it('only invalid ISINs: each named with its reason and the fix (the model sees no output items), nothing sent', async () => {
		const { result, out } = await callTool(
			agent,
			[{ args: { isins: `${MISTYPED}, ${WRONG_CHECK}` } }],
			esgTool,
		);
		expect(result.status).toBe('success');
		const json = modelResult(agent, out[0]);
		expect(json.problem).toMatch(/^No entry of the ISINs list is a valid ISIN/);
		expect(json.not_sent).toEqual([
			{ isin: MISTYPED, problem: expect.stringMatching(/invalid ISIN.*; fix: check the ISIN/) },
			{ isin: WRONG_CHECK, problem: expect.stringMatching(/invalid ISIN.*; fix: check the ISIN/) },
		]);
		expect(json.fix).toMatch(/correct each ISIN/);
		expect(json.more_not_sent).toBeUndefined();
		expect(sim.requestCount()).toBe(0);
	});

	it('only invalid ISINs, many: the first 20 named, the rest counted', async () => {
		// A letter where the check digit goes: never a valid ISIN.
		const many = Array.from({ length: 25 }, (_, index) => `XX${String(index).padStart(9, '0')}Z`);
		const { out } = await callTool(agent, [{ args: { isins: many.join(', ') } }], esgTool);
		const json = modelResult(agent, out[0]);
		expect((json.not_sent as IDataObject[]).map((entry) => entry.isin)).toEqual(many.slice(0, 20));
		expect(json.more_not_sent).toBe('and 5 more, not named here');
		expect(sim.requestCount()).toBe(0);
	});

	it('a used-up quota: a plain error the model can relay, not a thrown error', async () => {
		// sim-quota-5: five requests a month; the sixth call finds the quota used up.
		const calls: ToolCall[] = Array.from({ length: 6 }, () => ({ args: { isins: known1 } }));
		const { result, out } = await callTool(agent, calls, sfdrTool(), SIM_KEYS.quota5);
		expect(result.status).toBe('success');
		expect(out).toHaveLength(6);
		expect(modelResult(agent, out[0])).toMatchObject({
			summary: { asked: 1, found: 1 },
			results: [{ isin: known1, found: true }],
		});
		expect(modelResult(agent, out[5])).toEqual({
			error: expect.stringMatching(/^the monthly request quota of the API key is used up/),
		});
	});

	it('an unknown API key: a plain error', async () => {
		const { result, out } = await callTool(
			agent,
			[{ args: { isins: known1 } }],
			sfdrTool(),
			SIM_KEYS.disabled,
		);
		expect(result.status).toBe('success');
		expect(modelResult(agent, out[0]).error).toMatch(/API key is disabled/);
	});
});

describe('tool mode: bounded results', () => {
	it('20,000 ISINs: counts over all, the first results only, in 2 requests of 10,000', async () => {
		const isins = makeIsins(20_000, 0, 'US');
		const { result, out } = await callTool('langchain', [{ args: { isins: isins.join(',') } }]);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount({ route: SFDR })).toBe(2);
		const json = modelResult('langchain', out[0]);
		const summary = json.summary as IDataObject;
		expect(summary.asked).toBe(20_000);
		expect((summary.found as number) + (summary.not_found as number)).toBe(20_000);
		expect(summary.found).toBe(isins.filter((isin) => instrumentData(isin).known).length);
		expect(json.results).toHaveLength(TOOL_RESULT_LIMIT);
		expect(json.note).toBe(
			`showing ${TOOL_RESULT_LIMIT} of 20,000 results; ask for fewer ISINs at a time, or use Portfolio Summary for figures over a whole portfolio`,
		);
		// What the model gets stays small.
		expect((out[0].result as string).length).toBeLessThan(20_000);
	});
});

describe('tool mode: holdings and reports', () => {
	const holdingsTool = (type: string, parameters: IDataObject): ToolSpec => ({
		type,
		parameters: {
			holdingsSource: 'json',
			holdingsJson: "={{ $fromAI('holdings', 'the holdings as a JSON array', 'string') }}",
			...parameters,
		},
	});

	it.each(['langchain', 'engine'] as const)(
		'Generate PDF Report (%s): the model gets the link, its expiry note and the request id, no file',
		async (agent) => {
			const holdings = [known1, known2].map((isin, index) => ({
				isin,
				name: `Holding ${index + 1}`,
				instrument_type: 'stock',
				currency: 'USD',
				weight: 50,
				market_value: 1000,
			}));
			const { result, out } = await callTool(
				agent,
				[{ args: { holdings: JSON.stringify(holdings) } }],
				holdingsTool('sustainabilityReports', {
					operation: 'generatePdfReport',
					reportName: 'Agent Fund',
					reportId: 'agent-fund',
					downloadPdf: true,
				}),
			);
			expect(result.status).toBe('success');
			const json = modelResult(agent, out[0]);
			expect(String(json.location_url)).toMatch(new RegExp(`^${sim.downloadUrl}/`));
			expect(json.request_id).toMatch(/^[0-9a-f-]{36}$/);
			expect(json.link_note).toBe(REPORT_LINK_NOTE);
			expect(json.downloaded).toBe(false);
			expect(JSON.stringify(out)).not.toMatch(/"binary"|application\/pdf/);
			// One report generated, and the PDF never fetched: the model gets the link to pass on.
			expect(sim.requestCount({ route: 'POST /reports' })).toBe(1);
			expect(sim.downloads()).toEqual([]);
		},
	);

	it('Sustainable Investments: a holding with a mistyped ISIN is reported, the others classified', async () => {
		const holdings = [
			{
				isin: known1,
				name: 'One',
				instrument_type: 'stock',
				currency: 'USD',
				weight: 50,
				market_value: 10,
			},
			{
				isin: MISTYPED,
				name: 'Two',
				instrument_type: 'stock',
				currency: 'USD',
				weight: 50,
				market_value: 10,
			},
		];
		const { result, out } = await callTool(
			'langchain',
			[{ args: { holdings: JSON.stringify(holdings) } }],
			holdingsTool('sustainableInvestments', {
				operation: 'classifyHoldings',
				methodology: METHODOLOGY,
			}),
		);
		expect(result.status).toBe('success');
		expect(out[0].thrown).toBeUndefined();
		const json = modelResult('langchain', out[0]);
		expect(json.summary).toEqual({ results: 2, invalid: 1 });
		const [one, two] = json.results as IDataObject[];
		expect(one).toMatchObject({ isin: known1, name: 'One', removed: false });
		expect(typeof one.label).toBe('string');
		expect(two).toMatchObject({ isin: MISTYPED, name: 'Two', removed: true });
		expect(two.problem).toMatch(/^invalid ISIN: .*; fix: check the ISIN/);
		// Only the valid holding was sent.
		const sent = sim.requests().filter((request) => request.method === 'POST');
		expect(sent).toHaveLength(1);
		expect(JSON.stringify(sent[0].body)).not.toContain(MISTYPED);
	});
});

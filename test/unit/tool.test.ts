import type { INode, INodeExecutionData } from 'n8n-workflow';

import { notInAnswerReason } from '../../nodes/shared/api/answers';
import {
	isToolExecution,
	TOOL_RESULT_LIMIT,
	toolErrorMessage,
	toolResult,
} from '../../nodes/shared/run/tool';
import { QUOTA_USED_UP } from '../../nodes/shared/api/errors';

const node = (type: string, extra: Partial<INode> & { rewireOutputLogTo?: string } = {}): INode =>
	({
		id: '1',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...extra,
	}) as INode;

const BASE = 'n8n-nodes-sustainability-compliance.sustainabilityInstruments';
const TOOL = `${BASE}Tool`;

describe('isToolExecution', () => {
	it('AI Agent ≤ 2.x: a SupplyDataContext (isToolExecution() true) running the …Tool node', () => {
		expect(isToolExecution({ getNode: () => node(TOOL), isToolExecution: () => true })).toBe(true);
	});

	it('AI Agent 3.x: an ExecuteContext (isToolExecution() false), node rewired to ai_tool', () => {
		expect(
			isToolExecution({
				getNode: () => node(TOOL, { rewireOutputLogTo: 'ai_tool' }),
				isToolExecution: () => false,
			}),
		).toBe(true);
		// The rewiring alone is enough (a node type named otherwise).
		expect(
			isToolExecution({
				getNode: () => node(BASE, { rewireOutputLogTo: 'ai_tool' }),
				isToolExecution: () => false,
			}),
		).toBe(true);
	});

	it('the …Tool type alone, on a context without isToolExecution or one that throws', () => {
		expect(isToolExecution({ getNode: () => node(TOOL) })).toBe(true);
		expect(
			isToolExecution({
				getNode: () => node(TOOL),
				isToolExecution: () => {
					throw new Error('no state');
				},
			}),
		).toBe(true);
	});

	it('a node in a workflow is not a tool', () => {
		expect(isToolExecution({ getNode: () => node(BASE), isToolExecution: () => false })).toBe(
			false,
		);
		expect(isToolExecution({ getNode: () => node(BASE) })).toBe(false);
		expect(
			isToolExecution({ getNode: () => node(BASE, { rewireOutputLogTo: 'ai_languageModel' }) }),
		).toBe(false);
		// "Tool" inside the package name does not count: only the node's own type name.
		expect(
			isToolExecution({ getNode: () => node('n8n-nodes-Tool.sustainabilityInstruments') }),
		).toBe(false);
	});
});

describe('toolErrorMessage', () => {
	it('a used-up quota in plain words; other messages without the run-again cost', () => {
		expect(toolErrorMessage(`${QUOTA_USED_UP} Requests with this key will fail.`, '429')).toMatch(
			/^the monthly request quota of the API key is used up; .*next month/,
		);
		expect(
			toolErrorMessage(
				'The API is temporarily unavailable (503). This run sent 2 requests; running it again sends up to 2.',
				'503',
			),
		).toBe('The API is temporarily unavailable (503). (HTTP 503)');
	});
});

describe('toolResult', () => {
	const items: INodeExecutionData[] = [{ json: { isins: 'x', toolCallId: 'c1' } }];
	const result = (i: number): INodeExecutionData => ({
		json: { isin: `I${i}`, found: i % 2 === 0, classification: i % 2 === 0 ? 8 : null },
		pairedItem: { item: 0 },
	});

	it('bounded: counts over all results, the first ones, a note; paired with the input', () => {
		const out = toolResult(
			Array.from({ length: 120 }, (_, i) => result(i)),
			items,
			true,
		);
		expect(out.pairedItem).toEqual([{ item: 0 }]);
		expect(out.json.summary).toEqual({ asked: 120, found: 60, not_found: 60, invalid: 0 });
		expect(out.json.results).toHaveLength(TOOL_RESULT_LIMIT);
		expect(out.json.note).toMatch(/^showing 50 of 120 results/);
		// A not-found ISIN without its empty columns.
		expect((out.json.results as object[])[1]).toEqual({ isin: 'I1', found: false });
	});

	it('problems after the first results still come back', () => {
		const output = Array.from({ length: 60 }, (_, i) => result(i * 2));
		output.push({
			json: {
				isin: null,
				found: false,
				classification: null,
				reason: 'invalid ISIN: "US037833100" has 11 characters; an ISIN has 12',
			},
			pairedItem: { item: 0 },
		});
		const out = toolResult(output, items, true);
		expect(out.json.summary).toMatchObject({ asked: 61, found: 60, invalid: 1 });
		expect(out.json.problems).toEqual([
			{
				isin: 'US037833100',
				found: false,
				problem: expect.stringMatching(/^invalid ISIN: .*; fix: check the ISIN/),
			},
		]);
	});

	it('an ISIN left out of the answer is counted not_checked with its reason, never not_found (issue 35)', () => {
		const output = [result(0), result(2)];
		output.push({
			json: {
				isin: 'US0378331005',
				found: null,
				classification: null,
				reason: notInAnswerReason('ISIN'),
			},
			pairedItem: { item: 0 },
		});
		const out = toolResult(output, items, true);
		expect(out.json.summary).toEqual({
			asked: 3,
			found: 2,
			not_found: 0,
			not_checked: 1,
			invalid: 0,
		});
		expect((out.json.results as object[])[2]).toEqual({
			isin: 'US0378331005',
			found: null,
			problem: expect.stringMatching(/^not in the API's answer: /),
		});
	});

	it('the same error on every result: one plain error', () => {
		const output = [0, 1].map((i) => ({
			json: { isin: `I${i}`, error: `${QUOTA_USED_UP} Renews next month.`, http_code: '429' },
			pairedItem: { item: 0 },
		}));
		expect(toolResult(output, items, true).json).toEqual({
			error: expect.stringMatching(/^the monthly request quota/),
		});
	});

	it('an item that echoes the tool arguments: the arguments left out, binary data dropped', () => {
		const out = toolResult(
			[
				{
					json: {
						isins: 'x',
						toolCallId: 'c1',
						location_url: 'https://x/r.pdf',
						downloaded: false,
					},
					binary: { data: { data: '', mimeType: 'application/pdf' } },
					pairedItem: { item: 0 },
				},
			],
			items,
		);
		expect(out).toEqual({
			json: { location_url: 'https://x/r.pdf', downloaded: false },
			pairedItem: [{ item: 0 }],
		});
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Issue 36, "What to build" 6: every error a person meets has a title read at a glance (at most 150 characters, never
 * starting with "Item N": n8n names the item itself) and a description with the rest; every run hint is at most 120
 * characters. Over generated failing answers on every route: the real nodes run inside n8n's engine, the simulator
 * behind a raw proxy that answers each request with a generated failure (any status with the API's JSON, the
 * gateway's JSON, a schema error, a page, a text, an empty body, a redirect, a cut connection, a 2xx that cannot be
 * read, long and hostile texts as the API's words), or passes it on; with and without Continue On Fail. The thrown
 * error, every error item and every hint are checked. Bad input is covered by the other HTTP fuzz suites, whose
 * harness checks the same (harness.ts, property 4).
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../../nodes/shared/api/transport';
import type { RetryPolicy } from '../../nodes/shared/api/transport';
import { passOn, startRawProxy } from '../helpers/proxy';
import type { RawAnswer, Upstream } from '../helpers/proxy';
import { useSimulator } from '../helpers/simulator';
import { HOLDINGS_NODES, hintMessages, instrumentsSpec, runNode } from '../helpers/lookupRuns';
import { byIdentifier, reportRows, snapshotRows, snapshotSpec } from '../helpers/workflows';
import type { NodeSpec } from '../helpers/workflows';
import { makeIsin } from '../helpers/isins';
import { FUZZ_SEED, hostileString, runs } from './arbitraries';
import { errorTextViolations, errorViolations, shortJson } from './harness';

const sim = useSimulator({ temperatureRoute: true, temperatureLockRequests: 0 });

/** Retries without the waits: the texts of exhausted retries are checked, not the backoff. */
const kept: Partial<RetryPolicy> = {};
const FAST: Partial<RetryPolicy> = {
	maxRetries: 2,
	maxThrottleRetries: 2,
	maxNetworkRetries: 1,
	baseDelayMs: 1,
	maxDelayMs: 5,
	requestTimeoutMs: 3000,
};
beforeAll(() => {
	for (const key of Object.keys(FAST) as Array<keyof RetryPolicy>) {
		kept[key] = DEFAULT_RETRY_POLICY[key];
		DEFAULT_RETRY_POLICY[key] = FAST[key]!;
	}
});
afterAll(() => Object.assign(DEFAULT_RETRY_POLICY, kept));

const HINT_LIMIT = 120;

/** The words an API answer may carry: the documented ones, long ones (the API's text is never cut by it), hostile ones. */
const apiWords = fc.oneof(
	fc.constantFrom(
		'Forbidden',
		'You must provide a valid API key',
		'You must provide an active API key',
		"You don't have access to any of the frameworks requested.",
		'You can only request data for a maximum of 10000 instruments at a time.',
		'Limit Exceeded',
		'Missing Authentication Token',
		'Too Many Requests',
		'An error occurred while processing your request',
		'No data found for the given portfolio',
		'Internal server error',
	),
	fc.string({ minLength: 100, maxLength: 700 }),
	fc
		.array(fc.lorem({ maxCount: 1 }), { minLength: 30, maxLength: 120 })
		.map((words) => words.join(' ')),
	hostileString,
);

type Failure =
	| { kind: 'pass' }
	| { kind: 'cut' }
	| {
			kind: 'answer';
			status: number;
			body: 'api' | 'gateway' | 'schema' | 'html' | 'text' | 'empty';
			words: string;
			problems: number;
	  };

const failure: fc.Arbitrary<Failure> = fc.oneof(
	{ weight: 1, arbitrary: fc.constant<Failure>({ kind: 'pass' }) },
	{ weight: 1, arbitrary: fc.constant<Failure>({ kind: 'cut' }) },
	{
		weight: 8,
		arbitrary: fc.record({
			kind: fc.constant('answer' as const),
			status: fc.constantFrom(
				200,
				201,
				301,
				302,
				307,
				400,
				400,
				401,
				403,
				403,
				404,
				405,
				407,
				409,
				413,
				418,
				422,
				429,
				429,
				500,
				502,
				503,
				504,
				599,
			),
			body: fc.constantFrom('api', 'gateway', 'schema', 'html', 'text', 'empty'),
			words: apiWords,
			problems: fc.nat({ max: 40 }),
		}) as fc.Arbitrary<Failure>,
	},
);

function bodyOf(answer: Extract<Failure, { kind: 'answer' }>): RawAnswer {
	const { status, body, words, problems } = answer;
	const headers: Record<string, string> =
		status >= 300 && status < 400 ? { location: 'https://elsewhere.example/x?token=1' } : {};
	const json = (value: unknown) => ({ status, headers, body: JSON.stringify(value) });
	switch (body) {
		case 'api':
			return json({ data: { message: words } });
		case 'gateway':
			return json({ message: words });
		case 'schema':
			return json({
				data: {
					message: 'An error occurred while processing your request',
					error: Array.from({ length: problems }, (_, index) => ({
						path: `.body.holdings[${index}].market_value`,
						message: words.slice(0, 200),
					})),
				},
			});
		case 'html':
			return {
				status,
				headers: { ...headers, 'content-type': 'text/html' },
				body: `<!DOCTYPE html><html><body>${words}</body></html>`,
			};
		case 'text':
			return { status, headers: { ...headers, 'content-type': 'text/plain' }, body: words };
		case 'empty':
			return { status, headers: { ...headers, 'content-type': '' }, body: '' };
	}
}

async function answerFor(step: Failure, forward: () => Promise<Upstream>): Promise<RawAnswer> {
	if (step.kind === 'pass') return await passOn(forward);
	if (step.kind === 'cut') return 'cut';
	return bodyOf(step);
}

interface RouteCase {
	name: string;
	spec: NodeSpec;
	items: IDataObject[];
}

const isinRows = [makeIsin('US', 1), makeIsin('DE', 2), makeIsin('SE', 3)].map((isin) => ({
	isin,
}));
const stored = { identifier: 'svc-portfolio:org-a_pf-1', date: '2024-03-31' };

/** Every route the nodes send to, one node operation each (the holdings routes from HOLDINGS_NODES). */
const ROUTE_CASES: RouteCase[] = [
	...['getSfdrClassification', 'getPaiIndicators', 'getBusinessInvolvements', 'getEsgData'].map(
		(operation) => ({ name: operation, spec: instrumentsSpec(operation), items: isinRows }),
	),
	...HOLDINGS_NODES.map((node) => ({
		name: node.label,
		spec: { type: node.type, parameters: node.parameters },
		items: node.type === 'portfolioSnapshots' ? snapshotRows('pf-1', '2024-03-31') : reportRows(),
	})),
	{
		name: 'Generate PDF Report with download',
		spec: {
			type: 'sustainabilityReports',
			parameters: {
				operation: 'generatePdfReport',
				reportName: 'Nordic Fund',
				reportId: 'nordic',
			},
		},
		items: reportRows(),
	},
	{
		name: 'Create or Update Snapshot, two groups',
		spec: snapshotSpec(),
		items: [...snapshotRows('pf-1', '2024-03-31'), ...snapshotRows('pf-2', '2024-06-30')],
	},
	{
		name: 'Update',
		spec: {
			type: 'portfolioSnapshots',
			parameters: {
				operation: 'update',
				portfolio: byIdentifier('={{ $json.identifier }}'),
				updateFields: { name: 'Renamed' },
			},
		},
		items: [stored],
	},
	{
		name: 'Delete Snapshot',
		spec: {
			type: 'portfolioSnapshots',
			parameters: {
				operation: 'deleteSnapshot',
				portfolio: byIdentifier('={{ $json.identifier }}'),
				snapshotDate: '={{ $json.date }}',
			},
		},
		items: [stored],
	},
	{
		name: 'Get Many',
		spec: { type: 'portfolioSnapshots', parameters: { operation: 'getMany', returnAll: true } },
		items: [{}],
	},
	{
		name: 'Get Methodologies',
		spec: { type: 'sustainableInvestments', parameters: { operation: 'getMethodologies' } },
		items: [{}],
	},
];

/** Every title seen (FUZZ_VERBOSE prints them). */
const seen = new Set<string>();
afterAll(() => {
	if (process.env.FUZZ_VERBOSE) console.log([...seen].sort().join('\n'));
});

/**
 * The builders' own messages fit without the last-resort cut (errors.ts splitTitle: a first sentence longer than the
 * limit is cut at a word with "…", and the whole text goes to the description).
 */
function cutShort(title: string, description: unknown): boolean {
	return (
		title.endsWith('…') &&
		typeof description === 'string' &&
		description.startsWith(title.slice(0, -1).trimEnd())
	);
}

async function checkRoute(route: RouteCase, seed: number, numRuns: number): Promise<void> {
	await fc.assert(
		fc.asyncProperty(
			fc.array(failure, { minLength: 1, maxLength: 6 }),
			fc.constantFrom<NodeSpec['onError']>(
				undefined,
				'continueRegularOutput',
				'continueErrorOutput',
			),
			async (steps, onError) => {
				sim.reset();
				let next = 0;
				const proxy = await startRawProxy(sim.url, async (_request, forward) =>
					answerFor(steps[next++ % steps.length], forward),
				);
				try {
					const spec = { ...route.spec, ...(onError ? { onError } : {}) };
					const { result } = await runNode(proxy.url, route.items, spec, { timeoutMs: 60_000 });
					const violations = [...errorViolations(result.error)];
					const texts: Array<[unknown, unknown]> = result.error
						? [[result.error.message, (result.error as { description?: unknown }).description]]
						: [];
					const output = [...result.items('Node', 0), ...result.items('Node', 1)];
					for (const item of output)
						if (typeof item.json.error === 'string') {
							texts.push([item.json.error, item.json.error_details]);
							violations.push(
								...errorTextViolations(item.json.error, item.json.error_details, 'error item'),
							);
						}
					for (const [title, description] of texts) {
						seen.add(String(title));
						if (cutShort(String(title), description))
							violations.push(`a title cut short, not written to fit: ${String(title)}`);
					}
					for (const hint of hintMessages(result))
						if (hint.length > HINT_LIMIT)
							violations.push(`hint of ${hint.length} characters: ${hint}`);
					if (violations.length)
						throw new Error(
							`${route.name}: ${violations.join('\n')}\nanswers: ${shortJson(steps, 1500)}`,
						);
				} finally {
					await proxy.close();
				}
			},
		),
		{ seed, numRuns, endOnFailure: !process.env.FUZZ_SHRINK },
	);
}

describe('error titles and hints over generated failing answers, every route', () => {
	it.each(ROUTE_CASES.map((route, index) => [route.name, route, index] as const))(
		'%s',
		async (_name, route, index) => {
			// A seed of its own per route: the routes together see more kinds of failure.
			await checkRoute(route, FUZZ_SEED + index, runs(20));
		},
		240_000,
	);
});

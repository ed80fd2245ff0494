import { networkErrorCode, tryDeadline } from '../../nodes/shared/api/httpClient';
import {
	DEFAULT_RETRY_POLICY,
	backoffDelay,
	checkBaseUrl,
	throttleRetryFloor,
} from '../../nodes/shared/api/transport';
import { methodologyIdForRequest, readMethodologies } from '../../nodes/shared/api/methodologies';
import { chunk, distinct } from '../../nodes/shared/run/batching';
import { apiAnswerOf, apiErrorFor, inputError } from '../../nodes/shared/api/errors';
import { ROUTES } from '../../nodes/shared/api/routes';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';
import { boundTexts } from '../../nodes/shared/api/answers';
import { MAX_OUTPUT_TEXT_LENGTH } from '../../nodes/shared/base/constants';
import { IDENTITY_COLUMNS, uniformRows } from '../../nodes/shared/input/rows';

const node = { name: 'Test' } as INode;

describe('backoffDelay', () => {
	it('stays within the exponential ceiling and the cap', () => {
		for (let retry = 0; retry < 12; retry++) {
			for (let i = 0; i < 50; i++) {
				const delay = backoffDelay(DEFAULT_RETRY_POLICY, retry);
				expect(delay).toBeGreaterThanOrEqual(0);
				expect(delay).toBeLessThanOrEqual(
					Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** retry),
				);
			}
		}
	});

	it('honours Retry-After', () => {
		expect(backoffDelay(DEFAULT_RETRY_POLICY, 0, { 'retry-after': '3' })).toBe(3000);
	});
});

describe('throttleRetryFloor', () => {
	const almostOne = () => 0.999;
	it("takes the next free slot at a request's first throttle, then at most one pacing window more", () => {
		expect(throttleRetryFloor(DEFAULT_RETRY_POLICY, 0, 1, {}, 1000, almostOne)).toBe(0);
		// The backoff alone would be up to 8 s at the fourth retry.
		expect(throttleRetryFloor(DEFAULT_RETRY_POLICY, 4, 5, {}, 1000, almostOne)).toBe(999);
		expect(throttleRetryFloor(DEFAULT_RETRY_POLICY, 4, 5, {}, 2000, almostOne)).toBe(1998);
		expect(throttleRetryFloor(DEFAULT_RETRY_POLICY, 0, 2, {}, 2000, almostOne)).toBe(500);
	});

	it('honours Retry-After, even at the first throttle', () => {
		expect(throttleRetryFloor(DEFAULT_RETRY_POLICY, 0, 1, { 'retry-after': '3' }, 1000)).toBe(3000);
	});
});

describe('checkBaseUrl', () => {
	it('accepts https and loopback http, dropping trailing slashes', () => {
		expect(checkBaseUrl(node, 'https://api.example.com/')).toBe('https://api.example.com');
		expect(checkBaseUrl(node, 'http://127.0.0.1:4010//')).toBe('http://127.0.0.1:4010');
		expect(checkBaseUrl(node, 'http://localhost:4010')).toBe('http://localhost:4010');
		expect(checkBaseUrl(node, 'http://[::1]:4010')).toBe('http://[::1]:4010');
	});

	it('refuses plain http elsewhere and non-URLs', () => {
		expect(() => checkBaseUrl(node, 'http://api.example.com')).toThrow(/https/);
		expect(() => checkBaseUrl(node, 'api.example.com')).toThrow(/not a web address/);
	});
});

describe('networkErrorCode', () => {
	it.each<[unknown, string | undefined]>([
		[{ cause: { code: 'ECONNRESET' } }, 'ECONNRESET'],
		[new Error('socket hang up'), 'ECONNRESET'],
		[{ message: 'timeout of 60000ms exceeded' }, 'ETIMEDOUT'],
		// An HTTP answer is no dropped connection.
		[{ code: 'ECONNRESET', response: { status: 500 } }, undefined],
		[new Error('Node does not have credentials'), undefined],
		// n8n-core's wrapper: the axios code in httpCode, the raw text in messages
		[{ httpCode: 'ECONNRESET', message: 'The connection was closed', messages: [] }, 'ECONNRESET'],
		[{ httpCode: '500', message: 'x', messages: ['socket hang up'] }, 'ECONNRESET'],
	])('finds a dropped connection anywhere in the cause chain: %p gives %p', (error, code) => {
		expect(networkErrorCode(error)).toBe(code);
	});
});

describe('parseMethodologies', () => {
	it.each([
		[{ data: [{ id: 1, name: 'A' }] }, [{ id: 1, name: 'A' }]],
		[[{ methodology_id: '7', title: 'B' }], [{ id: '7', name: 'B' }]],
		[
			{ data: { methodologies: [{ id: 2, description: 'Only a description' }] } },
			[{ id: 2, name: 'Only a description' }],
		],
		[
			{ items: [3, 'x'] },
			[
				{ id: 3, name: '3' },
				{ id: 'x', name: 'x' },
			],
		],
		[{ data: [] }, []],
		[
			{ data: { '7': 'Article 2(17) strict', '12': 'PAI based' } },
			[
				{ id: 7, name: 'Article 2(17) strict' },
				{ id: 12, name: 'PAI based' },
			],
		],
		[{ '3': 'Bare map' }, [{ id: 3, name: 'Bare map' }]],
		[
			{ data: { '7': { name: 'Seven', description: 'D' }, x: { title: 'X' } } },
			[
				{ id: 7, name: 'Seven' },
				{ id: 'x', name: 'X' },
			],
		],
		[{ data: { id: 4, name: 'Single record' } }, [{ id: 4, name: 'Single record' }]],
		[{ results: [{ methodologyId: 5, methodologyName: 'Camel' }] }, [{ id: 5, name: 'Camel' }]],
	])('reads %j', (body, expected) => {
		const read = readMethodologies(body);
		expect(
			'methodologies' in read ? read.methodologies.map(({ id, name }) => ({ id, name })) : read,
		).toEqual(expected);
	});

	it.each([
		[{ data: [{ label: 'no id' }] }, /a list of 1 entries/],
		[null, /null/],
		[{ data: { '7': 'A', '8': 3 } }, /top-level keys: data; keys under data: 7, 8/],
		[{ payload: [{ id: 1, name: 'A' }], metadata: {} }, /top-level keys: payload, metadata/],
	])('an unreadable answer %j names what it found', (body, expected) => {
		const read = readMethodologies(body);
		expect('unreadable' in read ? read.unreadable : 'read').toMatch(expected);
	});

	it('sends numeric ids as numbers', () => {
		expect(methodologyIdForRequest('12')).toBe(12);
		expect(methodologyIdForRequest('abc')).toBe('abc');
		expect(methodologyIdForRequest('')).toBeUndefined();
	});
});

describe('batching helpers', () => {
	it('dedupes in order and chunks', () => {
		expect(distinct(['a', 'b', 'a', 'c'])).toEqual(['a', 'b', 'c']);
		expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
	});
});

describe('inputError', () => {
	it('names the item and ends the fix with what was not sent', () => {
		const error = inputError(node, 3, 'Portfolio Name is empty', 'Give the portfolio a name.');
		expect(error.message).toBe('Portfolio Name is empty');
		expect(error.description).toBe('Give the portfolio a name. Nothing was sent.');
		expect(error.context.itemIndex).toBe(3);
	});

	it('takes a longer name for the input, no prefix without an item, and says only this request when found at send time', () => {
		expect(
			inputError(node, 0, 'invalid ISIN', 'Fix it.', {
				where: 'Item 0, holding 2 of Holdings (JSON)',
			}).message,
		).toBe('Holding 2 of Holdings (JSON): invalid ISIN');
		expect(inputError(node, undefined, 'No input item has an ISIN').message).toBe(
			'No input item has an ISIN',
		);
		expect(
			inputError(node, 1, 'too large', 'Send fewer.', { where: '', atRequest: true }),
		).toMatchObject({
			message: 'Too large',
			description: 'Send fewer. This request was not sent.',
		});
	});
});

describe('apiAnswerOf', () => {
	it("gives the status and the API's own words of the answer an error was made of, never our message", () => {
		const noData = apiErrorFor(node, ROUTES.taxonomy, {
			statusCode: 400,
			body: { data: { message: 'No data found for the given parameters' } },
			headers: {},
		});
		expect(apiAnswerOf(noData)).toEqual({
			statusCode: 400,
			said: 'No data found for the given parameters',
		});
		const ours = new NodeApiError(
			node,
			{ message: 'x' },
			{ message: 'No data found for the given parameters', httpCode: '400' },
		);
		expect(apiAnswerOf(ours)).toBeUndefined();
	});
});

describe('tryDeadline', () => {
	const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any');
	afterEach(() => {
		if (any) Object.defineProperty(AbortSignal, 'any', any);
	});

	it.each([
		['with AbortSignal.any', false],
		['without it (older runtimes)', true],
	])(
		'%s: aborts at the deadline, tells it from a cancellation, and follows a cancellation at once',
		async (_, hide) => {
			if (hide) Object.defineProperty(AbortSignal, 'any', { value: undefined, configurable: true });
			const cancel = new AbortController();
			const expiring = tryDeadline(50, cancel.signal);
			expect(expiring.signal.aborted).toBe(false);
			await new Promise((resolve) => expiring.signal.addEventListener('abort', resolve));
			expect(expiring.expired()).toBe(true);
			expect(cancel.signal.aborted).toBe(false);
			expiring.dispose();

			const cancelled = tryDeadline(60_000, cancel.signal);
			cancel.abort();
			expect(cancelled.signal.aborted).toBe(true);
			expect(cancelled.expired()).toBe(false);
			cancelled.dispose();
		},
	);
});

describe('uniformRows', () => {
	const rows = () => [
		{ isin: 'A', found: true, reason: null, x: 1 },
		{ isin: 'B', found: false, reason: null },
		{ x: 2, isin: 'C', found: true, reason: null },
	];

	it.each([false, true])(
		'gives every row the same columns in the same order, null where missing (rows fresh: %p)',
		(rowsAreFresh) => {
			const given = rows();
			const out = uniformRows(given, IDENTITY_COLUMNS, { rowsAreFresh });
			for (const row of out) expect(Object.keys(row)).toEqual(['isin', 'found', 'reason', 'x']);
			expect(out.map((row) => row.x)).toEqual([1, null, 2]);
			// A row that already fits is kept only when it was made for this output.
			expect(out[0] === given[0]).toBe(rowsAreFresh);
			expect(out[2]).not.toBe(given[2]);
		},
	);

	it('keeps a "__proto__" column an own column', () => {
		const row = JSON.parse('{"isin": "A", "__proto__": "x"}') as IDataObject;
		const [out] = uniformRows([row, { isin: 'B' }], IDENTITY_COLUMNS);
		expect(Object.keys(out)).toEqual(['isin', '__proto__']);
		expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
	});
});

describe('boundTexts', () => {
	it('cuts texts over the limit wherever they are, copying only what holds one', () => {
		const long = 'a'.repeat(MAX_OUTPUT_TEXT_LENGTH + 5);
		const untouched = { n: 1, list: [1, 'b', null] };
		const answer = { data: [untouched, { text: long, nested: [{ deep: long }] }] };
		const { value, cut } = boundTexts(answer) as { value: typeof answer; cut: number };
		expect(cut).toBe(2);
		expect(value.data[0]).toBe(untouched);
		expect((value.data[1] as { text: string }).text).toBe(
			`${'a'.repeat(MAX_OUTPUT_TEXT_LENGTH)}… (truncated, ${(MAX_OUTPUT_TEXT_LENGTH + 5).toLocaleString('en-US')} characters)`,
		);
		expect(answer.data[1]).toEqual({ text: long, nested: [{ deep: long }] });
		expect(boundTexts(untouched).value).toBe(untouched);
		expect(boundTexts(long).cut).toBe(1);
	});

	it('cuts a long text under a "__proto__" key and keeps it an own key', () => {
		const answer = JSON.parse(
			`{"__proto__": "${'a'.repeat(MAX_OUTPUT_TEXT_LENGTH + 1)}", "n": 1}`,
		) as IDataObject;
		const { value, cut } = boundTexts(answer) as { value: IDataObject; cut: number };
		expect(cut).toBe(1);
		expect(Object.keys(value)).toEqual(['__proto__', 'n']);
		expect(String(Object.getOwnPropertyDescriptor(value, '__proto__')?.value)).toMatch(
			/… \(truncated, 10,001 characters\)$/,
		);
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
	});
});

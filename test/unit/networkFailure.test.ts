/**
 * networkFailureOf over the shapes n8n's request helper gives a broken answer in, also those the engine tests do not
 * reach on this n8n: axios reading the body itself ("stream has been aborted" with the answer's status 200), a
 * NodeApiError carrying an HPE_ code as httpCode, a zlib error wrapped with the answer.
 */
import { networkFailureOf } from '../../nodes/shared/api/httpClient';

const withResponse = { response: { status: 200, headers: {} } };

describe('networkFailureOf: broken answers', () => {
	it.each<[string, unknown, string]>([
		[
			'axios: stream has been aborted, with the answer (status 200)',
			{ code: 'ERR_BAD_RESPONSE', message: 'stream has been aborted', ...withResponse },
			'ANSWER_CUT_SHORT',
		],
		[
			'a NodeApiError with httpCode "200" and the message "stream has been aborted"',
			{
				httpCode: '200',
				message: 'stream has been aborted',
				messages: ['stream has been aborted'],
			},
			'ANSWER_CUT_SHORT',
		],
		[
			'Node: aborted (ECONNRESET) while the body came',
			{ code: 'ECONNRESET', message: 'aborted' },
			'ANSWER_CUT_SHORT',
		],
		[
			'a NodeApiError with httpCode HPE_INVALID_CONSTANT',
			{
				httpCode: 'HPE_INVALID_CONSTANT',
				message: 'Parse Error: Expected HTTP/, RTSP/ or ICE/',
				cause: { code: 'HPE_INVALID_CONSTANT' },
			},
			'ANSWER_NOT_HTTP',
		],
		[
			'a bad chunk size',
			{ code: 'HPE_INVALID_CHUNK_SIZE', message: 'Parse Error: Invalid character in chunk size' },
			'ANSWER_NOT_HTTP',
		],
		[
			'a header overflow, as text only',
			{ message: 'Parse Error: Header overflow' },
			'ANSWER_NOT_HTTP',
		],
		[
			'zlib, wrapped by axios with the answer',
			{
				message: 'incorrect header check',
				...withResponse,
				cause: { code: 'Z_DATA_ERROR', errno: -3 },
			},
			'ANSWER_NOT_DECOMPRESSIBLE',
		],
		[
			'zlib: unexpected end of file',
			{ code: 'Z_BUF_ERROR', message: 'unexpected end of file' },
			'ANSWER_NOT_DECOMPRESSIBLE',
		],
	])('%s', (_, error, code) => {
		const failure = networkFailureOf(error);
		expect(failure).toMatchObject({ code, reached: 'maybe', kind: 'broken-answer' });
		expect(failure?.reason).not.toMatch(/Parse Error|HPE_|zlib|incorrect header|aborted/i);
	});

	it('an error with an answer and nothing broken is no network failure', () => {
		expect(
			networkFailureOf({ message: 'Request failed with status code 400', ...withResponse }),
		).toBeUndefined();
	});

	it('a connection reset before any answer stays a dropped connection', () => {
		expect(networkFailureOf({ code: 'ECONNRESET', message: 'socket hang up' })).toMatchObject({
			code: 'ECONNRESET',
			reached: 'maybe',
			kind: 'connection',
		});
	});
});

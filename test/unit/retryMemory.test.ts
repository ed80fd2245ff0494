import type { IExecuteFunctions } from 'n8n-workflow';

import {
	MAX_EXECUTIONS,
	rememberedExecutions,
	retryMemory,
} from '../../nodes/shared/base/retryMemory';

function context(executionId: string, retryOnFail: boolean | undefined, name = 'Report') {
	return {
		getExecutionId: () => executionId,
		getNode: () => ({ id: `id-${name}`, name, retryOnFail }),
	} as unknown as IExecuteFunctions;
}

describe('retryMemory (Settings > Retry On Fail)', () => {
	it('keeps nothing when Retry On Fail is off or there is no execution ID', () => {
		expect(retryMemory.call(context('e-off', false))).toBeUndefined();
		expect(retryMemory.call(context('e-off', undefined))).toBeUndefined();
		expect(retryMemory.call(context('', true))).toBeUndefined();
	});

	it('per execution and node: a second call sees what the first kept, until forget', () => {
		const first = retryMemory.call(context('e-1', true))!;
		first.set('a', { state: 'done', items: [{ json: { n: 1 } }] });
		expect(retryMemory.call(context('e-1', true))!.get('a')).toEqual({
			state: 'done',
			items: [{ json: { n: 1 } }],
		});
		expect(retryMemory.call(context('e-2', true))!.get('a')).toBeUndefined();
		expect(retryMemory.call(context('e-1', true, 'Other'))!.get('a')).toBeUndefined();
		first.forget();
		expect(retryMemory.call(context('e-1', true))!.get('a')).toBeUndefined();
	});

	it(`bounded to ${MAX_EXECUTIONS} executions, the least recently used dropped first`, () => {
		const oldest = retryMemory.call(context('lru-0', true))!;
		oldest.set('x', { state: 'uncertain', message: 'm' });
		for (let index = 1; index <= MAX_EXECUTIONS; index++)
			retryMemory
				.call(context(`lru-${index}`, true))!
				.set('x', { state: 'uncertain', message: 'm' });
		expect(rememberedExecutions()).toBe(MAX_EXECUTIONS);
		expect(oldest.get('x')).toBeUndefined();
		expect(retryMemory.call(context('lru-1', true))!.get('x')).toBeDefined();
	});
});

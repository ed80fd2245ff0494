import { startSimulator } from '../simulator';
import type { Simulator, SimulatorOptions } from '../simulator';

/**
 * One simulator for a test file or `describe` block: started before its tests, reset before each test (unless
 * `reset: false`), closed after them. The returned object stands for the running simulator: read it inside tests.
 */
export function useSimulator(
	options: SimulatorOptions = {},
	{ reset = true }: { reset?: boolean } = {},
): Simulator {
	let current: Simulator | undefined;
	beforeAll(async () => {
		current = await startSimulator(options);
	});
	if (reset) beforeEach(() => current?.reset());
	afterAll(async () => {
		await current?.close();
		current = undefined;
	});
	return new Proxy({} as Simulator, {
		get(_target, key) {
			if (!current)
				throw new Error('useSimulator: the simulator runs only while the tests of its block run');
			const value: unknown = Reflect.get(current, key, current);
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(current)
				: value;
		},
	});
}

import type { INode, NodeOperationError } from 'n8n-workflow';

/** The node the pure input readers name in their errors (nothing runs it). */
export const unitNode = (name = 'Test', typeVersion = 1): INode => ({
	id: '1',
	name,
	type: 'test',
	typeVersion,
	position: [0, 0],
	parameters: {},
});

/** The error `fn` throws; fails the test when it throws none. */
export function errorOf(fn: () => unknown): NodeOperationError {
	try {
		fn();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected an error');
}

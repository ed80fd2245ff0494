import type { IExecuteFunctions } from 'n8n-workflow';

/** What the run should know: a note above the node's output (where this n8n has execution hints) and in the log. */
export function addRunNote(
	context: Pick<IExecuteFunctions, 'addExecutionHints' | 'logger'>,
	note: string,
	type: 'warning' | 'info' = 'warning',
): void {
	context.logger?.[type === 'warning' ? 'warn' : 'info'](`Sustainability Compliance: ${note}`);
	if (typeof context.addExecutionHints === 'function')
		context.addExecutionHints({ message: note, type, location: 'outputPane' });
}

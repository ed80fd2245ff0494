/**
 * Hints for n8n's AI Builder (and the MCP server that builds workflows): what a node or an operation is for and
 * what input it needs, where a builder must choose. n8n 2.41 reads `searchHint` on the node and `propertyHint` on a
 * parameter or an option; n8n 2.20 read `message` in both places. Each hint carries its text under both names, so
 * every supported n8n finds it; n8n ignores the name it does not know.
 */
import type { IBuilderHint, IParameterBuilderHint } from 'n8n-workflow';

export function nodeBuilderHint(text: string): IBuilderHint {
	const hint: IBuilderHint & { message: string } = { searchHint: text, message: text };
	return hint;
}

export function parameterBuilderHint(text: string): IParameterBuilderHint {
	const hint: IParameterBuilderHint & { message: string } = { propertyHint: text, message: text };
	return hint;
}

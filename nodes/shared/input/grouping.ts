import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { inputError } from '../api/errors';
import { compactKey } from './holdingFields';
import { isBlank, showValue } from '../base/values';

export interface ItemGroup {
	/** The group's values, by field name as given in Group By. */
	values: Record<string, unknown>;
	itemIndices: number[];
}

/** Splits input items by the values of the Group By fields, in the order groups first appear. */
export function groupItems(
	node: INode,
	items: INodeExecutionData[],
	groupBy: string[],
): ItemGroup[] {
	if (groupBy.length === 0) return [{ values: {}, itemIndices: items.map((_, index) => index) }];
	const groups = new Map<string, ItemGroup>();
	const keyCache = new Map<string, Map<string, string>>();
	items.forEach((item, itemIndex) => {
		const json = item.json;
		const signature = Object.keys(json).join('\u0000');
		let byCompact = keyCache.get(signature);
		if (!byCompact) {
			byCompact = new Map(Object.keys(json).map((key) => [compactKey(key), key]));
			keyCache.set(signature, byCompact);
		}
		const values: Record<string, unknown> = {};
		for (const field of groupBy) {
			const key = Object.prototype.hasOwnProperty.call(json, field)
				? field
				: byCompact.get(compactKey(field));
			const value = key === undefined ? undefined : json[key];
			if (isBlank(value)) {
				throw inputError(
					node,
					itemIndex,
					`the Group By field "${field}" is empty or missing`,
					`Every input item needs a value in "${field}", or remove it from Group By.`,
				);
			}
			// A data property even for a field named __proto__: the value stays a group value, not a prototype.
			Object.defineProperty(values, field, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		const groupKey = JSON.stringify(groupBy.map((field) => values[field]));
		const group = groups.get(groupKey);
		if (group) group.itemIndices.push(itemIndex);
		else groups.set(groupKey, { values, itemIndices: [itemIndex] });
	});
	return [...groups.values()];
}

/**
 * A group's Group By values for messages: `field = "value", ...`, each value cut to `max` characters;
 * '' when there is no Group By.
 */
export function describeGroupValues(values: Record<string, unknown>, max = Infinity): string {
	return Object.entries(values)
		.map(([field, value]) => {
			// A long text is cut inside its quotes, so the value still reads as one quoted value.
			if (typeof value === 'string') return `${field} = ${JSON.stringify(showValue(value, max))}`;
			let text: string | undefined;
			try {
				text = JSON.stringify(value);
			} catch {
				text = undefined;
			}
			return `${field} = ${showValue(text ?? value, max)}`;
		})
		.join(', ');
}

export function splitFieldList(value: unknown): string[] {
	if (Array.isArray(value))
		return value
			.map(String)
			.map((v) => v.trim())
			.filter(Boolean);
	return typeof value === 'string'
		? value
				.split(',')
				.map((v) => v.trim())
				.filter(Boolean)
		: [];
}

/**
 * The portfolios to send: one per Group By value (items source), or one for all items. With the JSON source
 * the array parameter is one portfolio, read once, and every input item is paired to it.
 */
export function portfolioGroups(this: IExecuteFunctions, items: INodeExecutionData[]): ItemGroup[] {
	const source = this.getNodeParameter('holdingsSource', 0, 'items') as string;
	const groupBy = source === 'items' ? splitFieldList(this.getNodeParameter('groupBy', 0, '')) : [];
	if (items.length === 0) return [];
	return groupItems(this.getNode(), items, groupBy);
}

/**
 * Node parameters for the HTTP fuzz suites: each one either typed in (a literal, as the editor stores it)
 * or an expression `={{ $json.p.<name> }}` whose value is any fuzzed value put in the items.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	cleanRow,
	fieldNames,
	hostileString,
	mistyped,
	numberLike,
	objectOf,
	rows as rowsArb,
} from './arbitraries';
import { shortJson } from './harness';
import type { FuzzCase, OnError } from './harness';

export interface Param {
	name: string;
	literal?: unknown;
	/** Set when the parameter is an expression: the value it evaluates to. */
	expression?: { value: unknown };
}

/** A parameter typed in (`literal`), or an expression evaluating to `expression` (default: anything). */
export function param(
	name: string,
	literal: fc.Arbitrary<unknown>,
	expression?: fc.Arbitrary<unknown>,
): fc.Arbitrary<Param> {
	const wild = expression ?? fc.oneof(literal, hostileString, mistyped, numberLike);
	return fc.oneof(
		{ weight: 3, arbitrary: literal.map((value) => ({ name, literal: value })) },
		{ weight: 1, arbitrary: wild.map((value) => ({ name, expression: { value } })) },
	);
}

/** Parameters into the node's parameters, expression values into every item under `p`. */
export function assemble(
	items: Record<string, unknown>[],
	fixed: IDataObject,
	params: Param[],
): { items: Record<string, unknown>[]; parameters: IDataObject } {
	const parameters: IDataObject = { ...fixed };
	const values: Array<[string, unknown]> = [];
	for (const entry of params) {
		if (entry.expression) {
			parameters[entry.name] = `={{ $json.p[${JSON.stringify(entry.name)}] }}`;
			values.push([entry.name, entry.expression.value]);
		} else if (entry.literal !== undefined) {
			parameters[entry.name] = entry.literal as IDataObject[string];
		}
	}
	if (values.length === 0) return { items, parameters };
	return {
		items: items.map((item) => objectOf([...Object.entries(item), ['p', objectOf(values)]])),
		parameters,
	};
}

export const onError = fc.constantFrom<OnError>(
	undefined,
	undefined,
	'continueRegularOutput',
	'continueErrorOutput',
);

/** Group By columns the fuzzed rows may carry. */
export const groupValue = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom('A', 'B', 'growth-eu') },
	{ weight: 1, arbitrary: fc.constantFrom('', null, ' ') },
	{ weight: 1, arbitrary: hostileString },
	{ weight: 1, arbitrary: mistyped },
);

/** Rows of a clean sheet: every field present and sound (so that runs also reach the API and succeed). */
export const cleanItems = (maxLength = 6) => fc.array(cleanRow, { minLength: 1, maxLength });

export const holdingsItems = (maxLength = 7) =>
	fc
		.tuple(
			fc.oneof(
				{ weight: 3, arbitrary: rowsArb(maxLength) },
				{ weight: 1, arbitrary: cleanItems() },
			),
			fc.boolean(),
		)
		.chain(([list, grouped]) =>
			grouped
				? fc
						.array(
							fc.tuple(groupValue, fc.constantFrom('2025-03-31', '2024-12-31', '2025-02-14')),
							{ minLength: list.length, maxLength: list.length },
						)
						.map((groups) =>
							list.map((entry, index) =>
								objectOf([
									...Object.entries(entry),
									['portfolio', groups[index][0]],
									['date', groups[index][1]],
								]),
							),
						)
				: fc.constant(list),
		);

const holdingsJsonText = fc.oneof(
	{ weight: 4, arbitrary: rowsArb(6).map((list) => JSON.stringify(list)) },
	// As AI models write it ($fromAI): wrapped, fenced, one object, encoded twice.
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				rowsArb(6),
				fc.constantFrom<(list: unknown[]) => string>(
					(list) => JSON.stringify({ holdings: list }),
					(list) => JSON.stringify({ portfolio: 'P', positions: list }),
					(list) => '```json\n' + JSON.stringify(list, null, 2) + '\n```',
					(list) => '```\n' + JSON.stringify({ Holdings: list }) + '\n```',
					(list) => JSON.stringify(list[0] ?? {}),
					(list) => JSON.stringify(JSON.stringify(list)),
					(list) => JSON.stringify({ a: list, b: list }),
				),
			)
			.map(([list, write]) => write(list)),
	},
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			'',
			'[',
			'{}',
			'null',
			'[]',
			'[null]',
			'[1, "x"]',
			'[{"__proto__": {"polluted": 1}}]',
		),
	},
	{ weight: 1, arbitrary: hostileString },
);

/** The shared holdings parameters (spec 2.1 requirements are the route's; these choose where rows come from). */
export function holdingsParams(withCash: boolean): fc.Arbitrary<Param[]> {
	return fc
		.tuple(
			fc.constantFrom('items', 'items', 'items', 'json'),
			holdingsJsonText,
			fieldNames,
			fc.constantFrom('fail', 'skip', 'send'),
			fc.constantFrom('remove', 'error'),
			fc.constantFrom(
				'',
				'',
				'',
				'portfolio',
				'portfolio, date',
				'Portfolio',
				'missing',
				'constructor',
				'__proto__',
			),
		)
		.map(([source, json, fields, invalid, cash, groupBy]) => [
			{ name: 'holdingsSource', literal: source },
			{ name: 'holdingsJson', literal: json },
			{ name: 'holdingFields', literal: fields },
			{ name: 'invalidIsins', literal: invalid },
			...(withCash ? [{ name: 'cashRows', literal: cash }] : []),
			{ name: 'groupBy', literal: groupBy },
		]);
}

export const textParam = (name: string, ...valid: string[]) =>
	param(
		name,
		fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(...valid) },
			{ weight: 1, arbitrary: hostileString },
		),
	);

/** fast-check prints a case with this (long strings cut), instead of kilobytes of fuzzed text. */
export function printable(fuzz: FuzzCase): FuzzCase {
	return Object.defineProperty(fuzz, fc.toStringMethod, {
		value: () => shortJson(fuzz),
		enumerable: false,
	});
}

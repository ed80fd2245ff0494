import type { IExecuteFunctions } from 'n8n-workflow';

import { addRunNote } from '../base/hints';
import { countOf, hasOwn, isRecord, showValue } from '../base/values';
import { pathWords } from './answers';
import { domainAt, withinDomain } from './answerShapes';
import type { DomainRule, NumberDomain } from './answerShapes';

/**
 * The numbers of an answer outside their domain (the route's `answer.domains`, answerShapes.ts): never output as
 * figures, never summed or averaged. Each is set to null where it was, and named (where, what came, what it may be)
 * so that the item says why the figure is null and the run's hint says that values were left out.
 */

/** A number of an answer outside its domain: where it was (from the answer's top), what came, what it may be. */
export interface OutsideValue {
	path: Array<string | number>;
	value: number;
	domain: NumberDomain;
}

/**
 * `value` (the answer, or the part of it at `at`) with every number outside its domain set to null, and those
 * numbers. Copies only what holds such a number: it runs over every entry of a 10,000-instrument answer.
 */
export function settleDomains<T>(
	rules: readonly DomainRule[] | undefined,
	value: T,
	at: Array<string | number> = [],
): { value: T; outside: OutsideValue[] } {
	const outside: OutsideValue[] = [];
	const path = [...at];
	const settle = (current: unknown): unknown => {
		if (typeof current === 'number') {
			const domain = domainAt(rules, path);
			if (withinDomain(domain, current)) return current;
			outside.push({ path: [...path], value: current, domain });
			return null;
		}
		if (Array.isArray(current)) {
			let copy: unknown[] | undefined;
			for (let index = 0; index < current.length; index++) {
				path.push(index);
				const settled = settle(current[index]);
				path.pop();
				if (settled !== current[index]) (copy ??= current.slice())[index] = settled;
			}
			return copy ?? current;
		}
		if (isRecord(current)) {
			let copy: Record<string, unknown> | undefined;
			for (const key in current) {
				if (!hasOwn(current, key)) continue;
				const member = current[key];
				// Texts, true/false and null hold no number: passed over without a step down.
				if (member === null || (typeof member !== 'number' && typeof member !== 'object')) continue;
				path.push(key);
				const settled = settle(current[key]);
				path.pop();
				if (settled !== current[key])
					Object.defineProperty((copy ??= { ...current }), key, {
						value: settled,
						enumerable: true,
						writable: true,
						configurable: true,
					});
			}
			return copy ?? current;
		}
		return current;
	};
	return { value: settle(value) as T, outside };
}

/** The number as it came, for notes: `250`, `-40`, `1e+308`. */
function shownNumber(value: number): string {
	return showValue(value, 24);
}

/** "scope_1_emissions.value is -40, outside its range (a number not below 0)", the path from `from` on. */
export function describeOutside(outside: OutsideValue, from = 0): string {
	return `${pathWords(outside.path.slice(from))} is ${shownNumber(outside.value)}, outside its range (${outside.domain.words})`;
}

/**
 * The note on an item or row: each value outside its domain named, and what was done with it (`done`, e.g.
 * "set to null and left out of the averages").
 */
export function outsideNote(outside: OutsideValue[], done: string, from = 0): string {
	const shown = outside.slice(0, 5).map((value) => describeOutside(value, from));
	const more = outside.length > 5 ? ` and ${outside.length - 5} more` : '';
	return `The API answered ${countOf(outside.length, 'value')} outside ${outside.length === 1 ? 'its' : 'their'} range: ${shown.join('; ')}${more}. ${done}`;
}

/**
 * The run's hint: how many values were outside their range, the first of them, and where the output says more. The
 * whole note goes to the log.
 */
export function noteOutside(
	this: Pick<IExecuteFunctions, 'addExecutionHints' | 'logger'>,
	outside: OutsideValue[],
	note: string,
	listedIn: string,
	from = 0,
	done = 'left out',
): void {
	if (outside.length === 0) return;
	const [first] = outside;
	const name = showValue(pathWords(first.path.slice(from)), 40);
	addRunNote(this, note, 'warning', {
		short: `${countOf(outside.length, 'value')} out of range (${name} = ${shownNumber(first.value)}) ${done}: see ${listedIn}`,
	});
}

import type { IDataObject } from 'n8n-workflow';

import { hasOwn, isRecord, roundTo, showValue } from '../../shared/base/values';
import type { WeightBasis } from './portfolioSummary';
import { familyOf, isKnownToTheApi, ruleCondition } from './screenRules';
import type { ScreenFamily, ScreenRule } from './screenRules';

/** What one family's answer said of one ISIN, read for screening (its numbers outside their range set to null). */
export interface FamilyRecord {
	/** The answer had data for the ISIN (the spec's null values mean none). */
	found: boolean;
	/** Business involvements: category → weight as given (null when none). */
	involvements?: Record<string, unknown>;
	/** Indicators, metrics, scores and `classification` (SFDR article): name → value as given. */
	measures: Record<string, unknown>;
	/** Names whose number was outside the range its figure may have, with the value as it came. */
	outside?: Map<string, number>;
}

/** One family's answers for the whole run, by ISIN. */
export interface FamilyAnswers {
	label: string;
	records: Map<string, FamilyRecord>;
	/** ISINs of batches that failed under continueOnFail, with the error. */
	failed: Map<string, Error>;
	/** ISINs the answer left out (an answer defect). */
	notInAnswer: ReadonlySet<string>;
}

export type ScreenAnswers = Partial<Record<ScreenFamily, FamilyAnswers>>;

export type ScreenVerdict = 'breach' | 'pass' | 'not_checked';

export interface RuleBreach {
	rule: string;
	value: unknown;
	threshold: unknown;
	source: string;
}

export interface RuleNotChecked {
	rule: string;
	why: string;
}

export interface HoldingScreen {
	screen: ScreenVerdict;
	breaches: RuleBreach[];
	not_checked_rules: RuleNotChecked[];
}

/** What a threshold is compared with, said on each involvement breach: the API does not document `weight`. */
export const WEIGHT_AS_GIVEN =
	"the threshold is compared with the API's weight as given (the API does not document what the weight measures)";

type Reading =
	| { checked: true; breach: boolean; value: unknown; threshold: unknown }
	| { why: string };

/** The rule's outcome on one answered record. */
function readRule(rule: ScreenRule, record: FamilyRecord): Reading {
	const outside = (name: string) =>
		record.outside?.has(name)
			? {
					why: `the API's value of ${name} for this ISIN (${showValue(record.outside.get(name))}) is outside the range it may have`,
				}
			: undefined;
	if (rule.type === 'involvement') {
		const category = rule.category ?? '';
		const involvements = record.involvements ?? {};
		if (!hasOwn(involvements, category))
			return { why: absentWhy(rule, `business involvement category "${category}"`) };
		const weight = weightOf(involvements[category]);
		if (weight === undefined)
			return outside(category) ?? { why: `the API gives no weight of "${category}" for this ISIN` };
		const threshold = rule.threshold ?? 0;
		return { checked: true, breach: weight > 0 && weight >= threshold, value: weight, threshold };
	}
	const name =
		rule.type === 'indicatorFalse'
			? (rule.indicator ?? '')
			: rule.type === 'minSfdrArticle'
				? 'classification'
				: (rule.metric ?? '');
	if (!hasOwn(record.measures, name))
		return {
			why: absentWhy(rule, rule.type === 'minSfdrArticle' ? 'an SFDR article' : `"${name}"`),
		};
	const value = record.measures[name];
	if (value === null || value === undefined)
		return outside(name) ?? { why: `the API has no value of ${name} for this ISIN` };
	if (rule.type === 'indicatorFalse') {
		if (typeof value !== 'boolean')
			return { why: `the API gives ${name} as ${showValue(value)}, not true/false` };
		return { checked: true, breach: value, value, threshold: false };
	}
	if (typeof value !== 'number' || !Number.isFinite(value))
		return { why: `the API gives ${name} as ${showValue(value)}, not a number` };
	const minimum = rule.type === 'minSfdrArticle' ? (rule.article ?? 0) : (rule.minimum ?? 0);
	return { checked: true, breach: value < minimum, value, threshold: minimum };
}

function absentWhy(rule: ScreenRule, what: string): string {
	return `the API's answer has no ${what} for this ISIN${isKnownToTheApi(rule) ? '' : ' (the API is not known to give it)'}`;
}

function weightOf(involvement: unknown): number | undefined {
	const weight = isRecord(involvement) ? involvement.weight : involvement;
	return typeof weight === 'number' && Number.isFinite(weight) ? weight : undefined;
}

/** Why a family said nothing usable of an ISIN, or undefined when it has a record with data. */
function familyWhy(family: FamilyAnswers | undefined, isin: string): string | undefined {
	if (!family) return 'its data was not asked for';
	const failure = family.failed.get(isin);
	if (failure) return `the ${family.label} request failed: ${failure.message}`;
	if (family.notInAnswer.has(isin))
		return `not in the API's answer: the ${family.label} answer left this ISIN out (an answer defect); run again later`;
	const record = family.records.get(isin);
	if (!record || !record.found) return `the API has no ${family.label} data for this ISIN`;
	return undefined;
}

/** The screen of one ISIN the API was asked for: every rule breached, passed or not checked (with why). */
export function screenIsin(
	isin: string,
	rules: ScreenRule[],
	answers: ScreenAnswers,
): HoldingScreen {
	const involvementsAsked = rules.some((rule) => rule.type === 'involvement');
	const breaches: RuleBreach[] = [];
	const notChecked: RuleNotChecked[] = [];
	for (const rule of rules) {
		const family = answers[familyOf(rule, involvementsAsked)];
		const why = familyWhy(family, isin);
		if (why) {
			notChecked.push({ rule: rule.label, why });
			continue;
		}
		const reading = readRule(rule, family!.records.get(isin)!);
		if ('why' in reading) notChecked.push({ rule: rule.label, why: reading.why });
		else if (reading.breach)
			breaches.push({
				rule: rule.label,
				value: reading.value,
				threshold: reading.threshold,
				source: breachSource(rule),
			});
	}
	return verdict(breaches, notChecked);
}

/** The screen of a holding whose ISIN was not sent (missing or invalid): every rule not checked, with why. */
export function screenUnsent(rules: ScreenRule[], why: string): HoldingScreen {
	return verdict(
		[],
		rules.map((rule) => ({ rule: rule.label, why })),
	);
}

/** breach when any rule is breached; pass only when every rule was checked and none breached. */
function verdict(breaches: RuleBreach[], notChecked: RuleNotChecked[]): HoldingScreen {
	return {
		screen: breaches.length ? 'breach' : notChecked.length ? 'not_checked' : 'pass',
		breaches,
		not_checked_rules: notChecked,
	};
}

function breachSource(rule: ScreenRule): string {
	const compared = `${ruleCondition(rule)}${rule.type === 'involvement' ? `; ${WEIGHT_AS_GIVEN}` : ''}`;
	return `${rule.source}; ${compared}`;
}

/**
 * The rules no ISIN of the run could be checked against (its data the API never gave), each with why: never counted
 * as passed. `screens` are the screens of the ISINs asked.
 */
export function rulesWithoutData(
	rules: ScreenRule[],
	screens: Iterable<HoldingScreen>,
	answers: ScreenAnswers,
): RuleNotChecked[] {
	const all = [...screens];
	const involvementsAsked = rules.some((rule) => rule.type === 'involvement');
	const without: RuleNotChecked[] = [];
	for (const rule of rules) {
		const checked = all.some(
			(screen) => !screen.not_checked_rules.some((entry) => entry.rule === rule.label),
		);
		if (checked) continue;
		const family = answers[familyOf(rule, involvementsAsked)];
		const records = family ? [...family.records.values()].filter((record) => record.found) : [];
		let why: string;
		if (all.length === 0) why = 'no holding with an ISIN was asked for';
		else if (records.length === 0)
			why = `the API gave no ${family ? `${family.label} ` : ''}data for any holding of this run`;
		else if (!records.some((record) => hasName(rule, record)))
			why = `no answer of this run has ${rule.type === 'involvement' ? `the category "${rule.category}"` : `"${nameOf(rule)}"`}${isKnownToTheApi(rule) ? '' : ': the API is not known to give it'}`;
		else why = 'the API gave no usable value for it for any holding of this run';
		without.push({ rule: rule.label, why });
	}
	return without;
}

/** The name of what a rule reads in its family's answer (a category, an indicator, a score, `classification`). */
export function nameOf(rule: ScreenRule): string {
	if (rule.type === 'indicatorFalse') return rule.indicator ?? '';
	if (rule.type === 'minSfdrArticle') return 'classification';
	if (rule.type === 'minEsgScore') return rule.metric ?? '';
	return rule.category ?? '';
}

function hasName(rule: ScreenRule, record: FamilyRecord): boolean {
	return rule.type === 'involvement'
		? hasOwn(record.involvements ?? {}, rule.category ?? '')
		: hasOwn(record.measures, nameOf(rule));
}

/** One holding of a portfolio screen: its value (market value or weight) and its screen. */
export interface ScreenedHolding {
	weight: number;
	isin: string | null;
	name: string | null;
	screen: HoldingScreen;
	/** The SFDR article the API gave (for a positive test), or undefined. */
	article?: number;
}

const percentOf = (part: number, total: number): number | null =>
	total > 0 ? roundTo((part / total) * 100, 2) : null;

/**
 * The screen of one portfolio: shares of value in breach, passing and not checked (they add up to 100 to rounding),
 * coverage (the share of value with every rule checked), the breaching holdings. Pure: the docs write it out.
 */
export function summarizeScreen(holdings: ScreenedHolding[], basis: WeightBasis): IDataObject {
	const total = holdings.reduce((sum, holding) => sum + holding.weight, 0);
	const sumOf = (verdictOf: (holding: ScreenedHolding) => boolean) =>
		holdings.filter(verdictOf).reduce((sum, holding) => sum + holding.weight, 0);
	const summary: IDataObject = {
		holdings_count: holdings.length,
		[basis === 'weight' ? 'total_weight' : 'total_market_value']: roundTo(
			total,
			basis === 'weight' ? 4 : 2,
		),
		breach_percent: percentOf(
			sumOf((holding) => holding.screen.screen === 'breach'),
			total,
		),
		pass_percent: percentOf(
			sumOf((holding) => holding.screen.screen === 'pass'),
			total,
		),
		not_checked_percent: percentOf(
			sumOf((holding) => holding.screen.screen === 'not_checked'),
			total,
		),
		coverage_percent: percentOf(
			sumOf((holding) => holding.screen.not_checked_rules.length === 0),
			total,
		),
		breaching_holdings: holdings
			.filter((holding) => holding.screen.screen === 'breach')
			.map((holding) => ({
				isin: holding.isin,
				name: holding.name,
				rules: holding.screen.breaches.map((breach) => breach.rule),
			})),
	};
	if (total <= 0)
		summary.percent_note =
			holdings.length === 0
				? 'No percent: no holding is in the portfolio total'
				: 'No percent: every holding in the portfolio total weighs 0';
	return summary;
}

/**
 * An SFDR revision preset's positive test: the share (by value) of the holdings whose SFDR article per the API is at
 * least `minArticle`, against `minimumPercent`; measured over all holdings, with the share that has an article.
 */
export function positiveTest(
	holdings: ScreenedHolding[],
	minArticle: number,
	minimumPercent: number,
	text: string,
): IDataObject {
	const total = holdings.reduce((sum, holding) => sum + holding.weight, 0);
	const withArticle = holdings.filter((holding) => typeof holding.article === 'number');
	const meeting = withArticle.filter((holding) => holding.article! >= minArticle);
	const sum = (list: ScreenedHolding[]) => list.reduce((acc, holding) => acc + holding.weight, 0);
	const percent = withArticle.length ? percentOf(sum(meeting), total) : null;
	return {
		test: text,
		minimum_percent: minimumPercent,
		min_sfdr_article: minArticle,
		percent,
		coverage_percent: percentOf(sum(withArticle), total),
		meets: percent === null ? null : percent >= minimumPercent,
		...(percent === null
			? { note: 'No percent: the API gave no SFDR article for any holding' }
			: {}),
	};
}

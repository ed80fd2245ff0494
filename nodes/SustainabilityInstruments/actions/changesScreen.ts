import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { addRunNote } from '../../shared/base/hints';
import { countOf, isRecord, scalarText } from '../../shared/base/values';
import { groupItems, splitFieldList } from '../../shared/input/grouping';
import { FieldResolver } from '../../shared/input/holdingFields';
import { uniformRows } from '../../shared/input/rows';
import { pairedTo } from '../../shared/run/execution';
import { parameterBuilderHint } from '../../shared/ui/builderHints';
import {
	keepMissing,
	memoryItems,
	missingNote,
	noteMemory,
	openMemory,
	saveMemory,
} from './changes';
import type { ChangesRun, MemorySettings } from './changes';
import { changesProperties, readMemorySettings } from './changesSettings';
import { forgotten } from './changesState';
import type { RememberedResult } from './changesState';
import type { ItemIsin } from './lookupTypes';
import { familyOf } from './screenRules';
import type { ScreenRule } from './screenRules';
import { nameOf } from './screening';
import type { ScreenAnswers } from './screening';

// Only Changes Since Last Run of Screen Holdings: what changed in each holding's screen since the last run, one item
// per rule that changed (a new breach, a resolved breach, a rule newly not checkable), on the memory the lookups' Only
// Changes uses (changes.ts: the workflow's static data, or the rows given in Remembered Rows and handed out on To
// Remember). Remembered per ISIN: each rule's outcome, the breaches' values, and the funds (Group By values) it was in.

/** A holding's screen as Screen Holdings makes it (screening.ts, HoldingScreen). */
export interface ScreenOutcome {
	screen: string;
	breaches: Array<{ rule: string; value: unknown; threshold: unknown; source?: string }>;
	not_checked_rules: Array<{ rule: string; why: string }>;
}

/** What the screen hands to its Only Changes output. */
export interface ScreenChangesInput {
	/** Every rule of this run, by its label (as the output names it), in order. */
	rules: string[];
	/** Each input item's ISIN (undefined when not sent, with the problem). */
	perItem: ItemIsin[];
	/** The screen of an item's holding. */
	screenOf(entry: ItemIsin): ScreenOutcome;
	/**
	 * The rules that could not be settled for this ISIN this run for a reason that passes (its request failed, the answer
	 * left it out, a value outside its range): never a change; what is remembered for them is kept.
	 */
	unsettledOf(isin: string): ReadonlySet<string>;
}

export type ScreenChange = 'new_breach' | 'resolved_breach' | 'newly_not_checked';

type RuleState = 'breach' | 'pass' | 'not_checked';

/** One ISIN's screen as remembered: each rule's outcome, each breach's value and threshold, the funds it was in. */
interface RememberedScreen {
	rules: Record<string, RuleState>;
	breaches: Record<string, { value: unknown; threshold: unknown }>;
	funds: string[];
}

/** Names what is remembered: a state kept by a lookup (or by anything else) is not compared with. */
export const SCREEN_SCOPE = JSON.stringify(['Screen Holdings']);

const show = { show: { outputMode: ['changesSinceLastRun'] } };

const MEMORY_PARAMETERS = [
	'rememberIn',
	'changesSavedNotice',
	'changesRowsNotice',
	'rememberedRows',
	'forgetAfterRuns',
];

/** Parameters of Screen Holdings shown with Output > Only Changes Since Last Run. */
export const screenChangesProperties: INodeProperties[] = [
	{
		displayName: 'Group By',
		name: 'groupBy',
		builderHint: parameterBuilderHint(
			'Leave empty when all input items are one portfolio. When they hold several funds, name the column that tells them apart (e.g. fund): each change comes out with it.',
		),
		type: 'string',
		default: '',
		placeholder: 'e.g. fund',
		description:
			'Input field(s), comma-separated, whose values tell the funds apart: each change comes out with them, and a holding new to a fund counts as seen for the first time in that fund. Leave empty when all input items are one portfolio.',
		hint: 'Name the column that tells the funds apart (e.g. fund), or leave empty for one portfolio',
		displayOptions: show,
	},
	...changesProperties.filter((property) => MEMORY_PARAMETERS.includes(property.name)),
	{
		displayName: 'On the First Run',
		name: 'firstSeen',
		type: 'options',
		options: [
			{
				name: 'Remember Only',
				value: 'remember',
				description:
					'Nothing comes out but one item, change nothing_remembered; every screen is kept to compare with the next run',
			},
			{
				name: 'Output Every Breach',
				value: 'outputAsNew',
				description:
					'Each breach found comes out as new_breach, each rule not checked as newly_not_checked',
			},
		],
		default: 'remember',
		description:
			'What a run with nothing remembered outputs (the first run, or memory that did not come back). On later runs a holding new to its fund is compared as if it had passed every rule: its breaches come out as new_breach.',
		displayOptions: show,
	},
];

export interface ScreenChangesSettings extends MemorySettings {
	groupBy: string[];
}

/** Only Changes' settings of the screen, read and checked before anything is sent. */
export function readScreenChangesSettings(this: IExecuteFunctions): ScreenChangesSettings {
	return {
		...readMemorySettings.call(this, SCREEN_SCOPE, 'outputAsNew'),
		groupBy: splitFieldList(this.getNodeParameter('groupBy', 0, '')),
	};
}

/**
 * The rules of an ISIN that this run could not settle for a reason that passes: its family's request failed, the
 * answer left the ISIN out, or the value the rule reads was outside its range. Not compared; the remembered kept.
 */
export function unsettledRules(
	isin: string,
	rules: ScreenRule[],
	answers: ScreenAnswers,
): Set<string> {
	const involvementsAsked = rules.some((rule) => rule.type === 'involvement');
	const unsettled = new Set<string>();
	for (const rule of rules) {
		const family = answers[familyOf(rule, involvementsAsked)];
		if (!family) continue;
		if (
			family.failed.has(isin) ||
			family.notInAnswer.has(isin) ||
			family.records.get(isin)?.outside?.has(nameOf(rule))
		)
			unsettled.add(rule.label);
	}
	return unsettled;
}

/** A holding of one fund: its ISIN, name, the fund's Group By values and the items it is on. */
interface FundHolding {
	isin: string;
	name: string | null;
	fund: string;
	values: Record<string, unknown>;
	items: number[];
}

interface ScreenTally {
	new_breach: number;
	resolved_breach: number;
	newly_not_checked: number;
	firstSeen: number;
	notScreened: number;
}

/**
 * Compares each holding's screen with the remembered one and outputs one item per rule whose outcome changed: a new
 * breach, a resolved breach (the rule passes now), a rule newly not checkable; keeps the new screens for the next run.
 */
export function outputScreenChanges(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	input: ScreenChangesInput,
	settings: ScreenChangesSettings,
): INodeExecutionData[] {
	const current = openMemory.call(this, settings);
	const { holdings, unsent, byIsin } = fundHoldings.call(this, items, input, settings);
	const tally: ScreenTally = {
		new_breach: 0,
		resolved_breach: 0,
		newly_not_checked: 0,
		firstSeen: 0,
		notScreened: unsent.length,
	};

	// Each ISIN's outcome per rule this run, and what to remember of it.
	const next = new Map<string, RememberedResult>();
	const outcomes = new Map<string, Map<string, RuleState | 'unsettled'>>();
	const rememberedOf = new Map<string, RememberedScreen | undefined>();
	for (const [isin, funds] of byIsin) {
		const remembered = rememberedScreen(current, isin, settings);
		rememberedOf.set(isin, remembered);
		const entry = input.perItem[funds.items[0]];
		const screen = input.screenOf(entry);
		const unsettled = input.unsettledOf(isin);
		const outcome = ruleOutcomes(input.rules, screen, unsettled);
		outcomes.set(isin, outcome);
		next.set(isin, {
			lastSeen: current.run,
			result: screenToRemember(outcome, screen, remembered, [...funds.funds]),
		});
	}

	// Rules checked for some holding of this run: one checked for none (the API gives its data for no one) is no
	// news on a holding seen for the first time; the screen's own note names it.
	const checkedSomewhere = new Set<string>();
	for (const outcome of outcomes.values())
		for (const [rule, state] of outcome)
			if (state === 'breach' || state === 'pass') checkedSomewhere.add(rule);

	const out: INodeExecutionData[] = [];
	for (const holding of holdings) {
		const remembered = rememberedOf.get(holding.isin);
		const screen = input.screenOf(input.perItem[holding.items[0]]);
		const outcome = outcomes.get(holding.isin)!;
		const known = remembered?.funds.includes(holding.fund) === true;
		if (!known) {
			tally.firstSeen++;
			// Nothing remembered at all (a first run, or memory lost): On the First Run decides. Later, a holding new to
			// its fund is compared as if it had passed every rule.
			if (current.firstRun && settings.firstSeen !== 'outputAsNew') continue;
		}
		for (const rule of input.rules) {
			const now = outcome.get(rule);
			if (now === undefined || now === 'unsettled') continue;
			const before = known ? remembered!.rules[rule] : undefined;
			if (before === undefined && now === 'not_checked' && !checkedSomewhere.has(rule)) continue;
			const change = changeOf(before, now);
			if (!change) continue;
			tally[change]++;
			out.push(changeItem(holding, rule, change, before ?? null, screen, remembered));
		}
	}
	out.push(...unsent);

	const kept = keepMissing(current, byIsin, settings, next);
	out.push(
		...memoryItems(current, settings, byIsin).map((item) => {
			// The memory's own items (a first run that remembered only, a remembered row skipped) say what they are in
			// `change`, as every item of this output does.
			const { status, ...rest } = item.json;
			return { ...item, json: { change: status, ...rest } };
		}),
	);
	saveMemory.call(this, current, next, settings, (isin) => byIsin.get(isin)?.items ?? [0]);
	noteScreenRun.call(this, current, settings, byIsin.size, tally, kept);
	return uniformOutput(out);
}

/** The change from the remembered outcome to this run's, or undefined when none counts. */
function changeOf(before: RuleState | undefined, now: RuleState): ScreenChange | undefined {
	if (before === now) return undefined;
	if (now === 'breach') return 'new_breach';
	if (now === 'not_checked') return 'newly_not_checked';
	// Passing now: a breach resolved; a rule that was not checked and passes now is no alert.
	return before === 'breach' ? 'resolved_breach' : undefined;
}

/** Each rule's outcome this run: breach, pass, not checked, or unsettled (not compared). */
function ruleOutcomes(
	rules: string[],
	screen: ScreenOutcome,
	unsettled: ReadonlySet<string>,
): Map<string, RuleState | 'unsettled'> {
	const outcome = new Map<string, RuleState | 'unsettled'>();
	for (const rule of rules) outcome.set(rule, 'pass');
	for (const { rule } of screen.breaches) outcome.set(rule, 'breach');
	for (const { rule } of screen.not_checked_rules)
		outcome.set(rule, unsettled.has(rule) ? 'unsettled' : 'not_checked');
	return outcome;
}

/** The screen to remember: this run's outcomes, and for an unsettled rule the remembered one (if any). */
function screenToRemember(
	outcome: Map<string, RuleState | 'unsettled'>,
	screen: ScreenOutcome,
	remembered: RememberedScreen | undefined,
	funds: string[],
): IDataObject {
	const rules: Record<string, RuleState> = {};
	const breaches: RememberedScreen['breaches'] = {};
	for (const [rule, state] of outcome) {
		if (state === 'unsettled') {
			const before = remembered?.rules[rule];
			if (before === undefined) continue;
			rules[rule] = before;
			if (before === 'breach' && remembered!.breaches[rule])
				breaches[rule] = remembered!.breaches[rule];
			continue;
		}
		rules[rule] = state;
	}
	for (const { rule, value, threshold } of screen.breaches) breaches[rule] = { value, threshold };
	return { rules, breaches, funds } as unknown as IDataObject;
}

/** The remembered screen of an ISIN, unless forgotten or not a screen (a row of a lookup's memory). */
function rememberedScreen(
	current: ChangesRun,
	isin: string,
	settings: ScreenChangesSettings,
): RememberedScreen | undefined {
	const kept = current.state.results.get(isin);
	if (!kept || forgotten(kept.lastSeen, current.run, settings.forgetAfterRuns)) return undefined;
	const { rules, breaches, funds } = kept.result;
	if (!isRecord(rules) || !Array.isArray(funds)) return undefined;
	return {
		rules: rules as Record<string, RuleState>,
		breaches: (isRecord(breaches) ? breaches : {}) as RememberedScreen['breaches'],
		funds: funds.filter((fund): fund is string => typeof fund === 'string'),
	};
}

/**
 * The holdings per fund (one per fund and ISIN, with every item of it), the items whose ISIN was not sent (one item
 * each, every run: they cannot be screened nor remembered), and per ISIN its items and funds.
 */
function fundHoldings(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	input: ScreenChangesInput,
	settings: ScreenChangesSettings,
): {
	holdings: FundHolding[];
	unsent: INodeExecutionData[];
	byIsin: Map<string, { items: number[]; funds: Set<string> }>;
} {
	const resolver = new FieldResolver();
	const nameOf = (json: IDataObject) => {
		const field = resolver.resolve(json).name;
		return field === undefined ? null : scalarText(json[field])?.trim() || null;
	};
	const groups = groupItems(this.getNode(), items, settings.groupBy);
	const holdings: FundHolding[] = [];
	const unsent: INodeExecutionData[] = [];
	const byIsin = new Map<string, { items: number[]; funds: Set<string> }>();
	for (const group of groups) {
		const fund = JSON.stringify(settings.groupBy.map((field) => group.values[field]));
		const inFund = new Map<string, FundHolding>();
		for (const index of group.itemIndices) {
			const entry = input.perItem[index];
			const name = nameOf(items[index].json);
			if (entry.isin === undefined) {
				unsent.push({
					json: {
						change: 'not_screened',
						...group.values,
						isin: entry.normalised ?? entry.given ?? null,
						name,
						why: `not sent: ${entry.problem ?? 'no ISIN'}; this holding is not screened nor remembered`,
					},
					pairedItem: { item: index },
				});
				continue;
			}
			const seen = inFund.get(entry.isin);
			if (seen) seen.items.push(index);
			else {
				const holding = { isin: entry.isin, name, fund, values: group.values, items: [index] };
				inFund.set(entry.isin, holding);
				holdings.push(holding);
			}
			const all = byIsin.get(entry.isin);
			if (all) {
				all.items.push(index);
				all.funds.add(fund);
			} else byIsin.set(entry.isin, { items: [index], funds: new Set([fund]) });
		}
	}
	return { holdings, unsent, byIsin };
}

function changeItem(
	holding: FundHolding,
	rule: string,
	change: ScreenChange,
	previous: RuleState | null,
	screen: ScreenOutcome,
	remembered: RememberedScreen | undefined,
): INodeExecutionData {
	const breach = screen.breaches.find((entry) => entry.rule === rule);
	const before = previous === 'breach' ? remembered?.breaches[rule] : undefined;
	const notChecked = screen.not_checked_rules.find((entry) => entry.rule === rule);
	const json: IDataObject = {
		change,
		...(holding.values as IDataObject),
		isin: holding.isin,
		name: holding.name,
		rule,
		value: (breach?.value ?? null) as IDataObject[string],
		threshold: (breach?.threshold ?? before?.threshold ?? null) as IDataObject[string],
		previous,
		previous_value: (before?.value ?? null) as IDataObject[string],
		why:
			change === 'new_breach'
				? null
				: change === 'resolved_breach'
					? 'the rule passes now'
					: (notChecked?.why ?? null),
		source: (breach?.source ?? null) as IDataObject[string],
	};
	return { json, pairedItem: pairedTo(holding.items) };
}

/** Every item with the same columns, so that n8n's table (and an email's template) shows no `undefined`. */
function uniformOutput(out: INodeExecutionData[]): INodeExecutionData[] {
	const json = uniformRows(
		out.map((item) => item.json),
		['change'],
	);
	return out.map((item, index) => ({ ...item, json: json[index] }));
}

function noteScreenRun(
	this: IExecuteFunctions,
	current: ChangesRun,
	settings: ScreenChangesSettings,
	isins: number,
	tally: ScreenTally,
	kept: { missing: number; forgotten: number },
): void {
	const changes = `${tally.new_breach} new breach${tally.new_breach === 1 ? '' : 'es'}, ${tally.resolved_breach} resolved, ${countOf(tally.newly_not_checked, 'rule')} newly not checkable`;
	const summary = [
		current.firstRun
			? `First run with nothing remembered: ${countOf(isins, 'ISIN')} screened, ${settings.firstSeen === 'outputAsNew' ? changes : 'remembered, none output'}.`
			: `Compared the screens of ${countOf(isins, 'ISIN')} with the remembered ones: ${changes}.`,
		!current.firstRun && tally.firstSeen
			? `${countOf(tally.firstSeen, 'holding')} new to ${settings.groupBy.length ? 'its fund' : 'the portfolio'}.`
			: '',
		tally.notScreened ? `${countOf(tally.notScreened, 'holding')} without an ISIN sent.` : '',
		missingNote(kept, settings),
	]
		.filter(Boolean)
		.join(' ');
	addRunNote(this, summary, 'info', {
		short: current.firstRun && settings.firstSeen !== 'outputAsNew' ? undefined : `${changes}.`,
	});
	noteMemory.call(this, current, settings);
}

/**
 * The pure core of Screen Holdings (screening.ts, screenRules.ts): what each rule finds in a family's record, the
 * verdict, the run's rules without data, and a portfolio's shares. The HTTP runs are in
 * test/screenHoldings.workflow.test.ts and test/fuzz/screenHoldings.fuzz.test.ts.
 */
import {
	positiveTest,
	rulesWithoutData,
	screenIsin,
	screenUnsent,
	summarizeScreen,
} from '../../nodes/SustainabilityInstruments/actions/screening';
import type {
	FamilyAnswers,
	FamilyRecord,
	ScreenAnswers,
} from '../../nodes/SustainabilityInstruments/actions/screening';
import {
	SCREEN_PRESETS,
	familiesNeeded,
	presetNotice,
} from '../../nodes/SustainabilityInstruments/actions/screenRules';
import type { ScreenRule } from '../../nodes/SustainabilityInstruments/actions/screenRules';

const ISIN = 'DE0007164600';

const family = (label: string, records: Record<string, FamilyRecord>): FamilyAnswers => ({
	label,
	records: new Map(Object.entries(records)),
	failed: new Map(),
	notInAnswer: new Set(),
});

const coal: ScreenRule = {
	type: 'involvement',
	category: 'thermal_coal',
	threshold: 1,
	label: 'Coal',
	source: 'test',
};
const anyTobacco: ScreenRule = {
	type: 'involvement',
	category: 'tobacco_producer',
	threshold: 0,
	label: 'Tobacco',
	source: 'test',
};
const ungc: ScreenRule = {
	type: 'indicatorFalse',
	indicator: 'violations_un_global_compact',
	label: 'UNGC',
	source: 'test',
};
const article8: ScreenRule = { type: 'minSfdrArticle', article: 8, label: 'Art 8', source: 'test' };
const totalScore: ScreenRule = {
	type: 'minEsgScore',
	metric: 'total_score',
	minimum: 50,
	label: 'Score',
	source: 'test',
};

const involvements = (weights: Record<string, number | null>, scores = {}): FamilyRecord => ({
	found: true,
	involvements: Object.fromEntries(
		Object.entries(weights).map(([name, weight]) => [name, { weight, count: 1 }]),
	),
	measures: scores,
});

describe('screenIsin', () => {
	it('breach at the threshold (≥), not below; weight 0 never breaches, even with threshold 0', () => {
		const at = {
			businessInvolvements: family('bi', { [ISIN]: involvements({ thermal_coal: 1 }) }),
		};
		expect(screenIsin(ISIN, [coal], at).screen).toBe('breach');
		const below = {
			businessInvolvements: family('bi', { [ISIN]: involvements({ thermal_coal: 0.99 }) }),
		};
		expect(screenIsin(ISIN, [coal], below).screen).toBe('pass');
		const zero = {
			businessInvolvements: family('bi', { [ISIN]: involvements({ tobacco_producer: 0 }) }),
		};
		expect(screenIsin(ISIN, [anyTobacco], zero).screen).toBe('pass');
	});

	it('a category the answer lacks is not checked, and says when the API is not known to give it', () => {
		const answers = {
			businessInvolvements: family('business involvements', {
				[ISIN]: involvements({ thermal_coal: 0 }),
			}),
		};
		const screen = screenIsin(ISIN, [coal, anyTobacco], answers);
		expect(screen).toEqual({
			screen: 'not_checked',
			breaches: [],
			not_checked_rules: [
				{
					rule: 'Tobacco',
					why: 'the API\'s answer has no business involvement category "tobacco_producer" for this ISIN (the API is not known to give it)',
				},
			],
		});
	});

	it('a breach wins over rules not checked; pass needs every rule checked', () => {
		const answers: ScreenAnswers = {
			businessInvolvements: family('bi', { [ISIN]: involvements({ thermal_coal: 30 }) }),
			paiIndicators: family('PAI indicators', {
				[ISIN]: { found: true, measures: { violations_un_global_compact: null } },
			}),
		};
		const screen = screenIsin(ISIN, [coal, ungc], answers);
		expect(screen.screen).toBe('breach');
		expect(screen.breaches).toEqual([
			expect.objectContaining({ rule: 'Coal', value: 30, threshold: 1 }),
		]);
		expect(screen.not_checked_rules).toEqual([
			{ rule: 'UNGC', why: 'the API has no value of violations_un_global_compact for this ISIN' },
		]);
	});

	it('no data, not in the answer, a failed request, a value out of range, a value of the wrong kind: each not checked with why', () => {
		const failed = family('PAI indicators', {});
		failed.failed.set(ISIN, new Error('The API answered 500'));
		expect(screenIsin(ISIN, [ungc], { paiIndicators: failed }).not_checked_rules[0].why).toBe(
			'the PAI indicators request failed: The API answered 500',
		);
		const left = family('PAI indicators', {});
		(left.notInAnswer as Set<string>).add(ISIN);
		expect(screenIsin(ISIN, [ungc], { paiIndicators: left }).not_checked_rules[0].why).toMatch(
			/^not in the API's answer/,
		);
		const none = family('SFDR classification', {
			[ISIN]: { found: false, measures: { classification: null } },
		});
		expect(
			screenIsin(ISIN, [article8], { sfdrClassification: none }).not_checked_rules[0].why,
		).toBe('the API has no SFDR classification data for this ISIN');
		const outside = family('bi', {
			[ISIN]: {
				...involvements({ thermal_coal: null }),
				outside: new Map([['thermal_coal', 250]]),
			},
		});
		expect(
			screenIsin(ISIN, [coal], { businessInvolvements: outside }).not_checked_rules[0].why,
		).toMatch(/\(250\) is outside the range/);
		const text = family('PAI indicators', {
			[ISIN]: { found: true, measures: { violations_un_global_compact: 'yes' } },
		});
		expect(screenIsin(ISIN, [ungc], { paiIndicators: text }).not_checked_rules[0].why).toMatch(
			/not true\/false/,
		);
	});

	it('SFDR article and ESG score minimums', () => {
		const sfdr = (classification: number) => ({
			sfdrClassification: family('SFDR', {
				[ISIN]: { found: true, measures: { classification } },
			}),
		});
		expect(screenIsin(ISIN, [article8], sfdr(6)).screen).toBe('breach');
		expect(screenIsin(ISIN, [article8], sfdr(8)).screen).toBe('pass');
		const esg = (total_score: number) => ({
			esgData: family('ESG', { [ISIN]: { found: true, measures: { total_score } } }),
		});
		expect(screenIsin(ISIN, [totalScore], esg(49.9)).screen).toBe('breach');
		expect(screenIsin(ISIN, [totalScore], esg(50)).screen).toBe('pass');
	});

	it('an unsent holding has every rule not checked with the reason', () => {
		expect(screenUnsent([coal, ungc], 'not sent: no ISIN')).toEqual({
			screen: 'not_checked',
			breaches: [],
			not_checked_rules: [
				{ rule: 'Coal', why: 'not sent: no ISIN' },
				{ rule: 'UNGC', why: 'not sent: no ISIN' },
			],
		});
	});
});

describe('rulesWithoutData and familiesNeeded', () => {
	it('a rule checked for no holding is reported with why; one checked for any holding is not', () => {
		const answers = {
			businessInvolvements: family('bi', {
				A: involvements({ thermal_coal: 0 }),
				B: { found: false, involvements: {}, measures: {} },
			}),
		};
		const rules = [coal, anyTobacco];
		const screens = ['A', 'B'].map((isin) => screenIsin(isin, rules, answers));
		expect(rulesWithoutData(rules, screens, answers)).toEqual([
			{
				rule: 'Tobacco',
				why: 'no answer of this run has the category "tobacco_producer": the API is not known to give it',
			},
		]);
	});

	it('asks each family a rule needs, ESG scores from the involvements answer when it is asked anyway', () => {
		expect(familiesNeeded([totalScore])).toEqual(['esgData']);
		expect(familiesNeeded([coal, totalScore])).toEqual(['businessInvolvements']);
		expect(familiesNeeded([ungc, article8])).toEqual(['paiIndicators', 'sfdrClassification']);
		expect(
			familiesNeeded(SCREEN_PRESETS.pab.rules.map((rule) => ({ ...rule, source: '' }))),
		).toEqual(['businessInvolvements', 'paiIndicators']);
	});

	it('each preset notice names its source and every rule the API is not known to give', () => {
		for (const preset of Object.values(SCREEN_PRESETS)) {
			const notice = presetNotice(preset);
			expect(notice).toContain(preset.source);
			// The SFDR revision presets say first that they are a pre-check against a proposal.
			expect(notice.startsWith('A pre-check against a proposal, not a classification')).toBe(
				preset.positiveTest !== undefined,
			);
			expect(notice).not.toMatch(/\.\./);
			for (const rule of preset.rules) {
				const unknown = !['thermal_coal', 'violations_un_global_compact'].includes(
					rule.category ?? rule.indicator ?? '',
				);
				expect([rule.point, notice.includes(`${rule.label} →`)]).toEqual([rule.point, true]);
				const line = notice
					.split(';')
					.find((part) => part.includes(`${rule.point} ${rule.label}`))!;
				expect([rule.point, line.includes('NOT KNOWN')]).toEqual([rule.point, unknown]);
			}
		}
	});
});

describe('summarizeScreen and positiveTest', () => {
	const verdict = (screen: 'breach' | 'pass' | 'not_checked', notChecked = 0) => ({
		screen,
		breaches: screen === 'breach' ? [{ rule: 'Coal', value: 5, threshold: 1, source: '' }] : [],
		not_checked_rules: Array.from({ length: notChecked }, () => ({ rule: 'x', why: 'y' })),
	});

	it('shares of the total by value add up to 100; coverage is the share with every rule checked', () => {
		const summary = summarizeScreen(
			[
				{ weight: 100, isin: 'A', name: 'a', screen: verdict('breach') },
				{ weight: 50, isin: 'B', name: 'b', screen: verdict('breach', 1) },
				{ weight: 25, isin: 'C', name: 'c', screen: verdict('pass') },
				{ weight: 25, isin: null, name: 'd', screen: verdict('not_checked', 2) },
			],
			'marketValue',
		);
		expect(summary).toMatchObject({
			holdings_count: 4,
			total_market_value: 200,
			breach_percent: 75,
			pass_percent: 12.5,
			not_checked_percent: 12.5,
			coverage_percent: 62.5,
			breaching_holdings: [
				{ isin: 'A', name: 'a', rules: ['Coal'] },
				{ isin: 'B', name: 'b', rules: ['Coal'] },
			],
		});
	});

	it('a total of 0 gives null shares and says why', () => {
		const summary = summarizeScreen(
			[{ weight: 0, isin: 'A', name: null, screen: verdict('pass') }],
			'weight',
		);
		expect(summary).toMatchObject({ breach_percent: null, total_weight: 0 });
		expect(summary.percent_note).toMatch(/weighs 0/);
	});

	it('the positive test: share of the total at or above the article, met or not, null without any article', () => {
		const holdings = [
			{ weight: 80, isin: 'A', name: null, screen: verdict('pass'), article: 9 },
			{ weight: 20, isin: 'B', name: null, screen: verdict('pass'), article: 8 },
		];
		expect(positiveTest(holdings, 9, 70, 't')).toMatchObject({
			percent: 80,
			coverage_percent: 100,
			meets: true,
		});
		expect(positiveTest(holdings, 9, 90, 't').meets).toBe(false);
		expect(
			positiveTest([{ weight: 1, isin: 'A', name: null, screen: verdict('pass') }], 9, 70, 't'),
		).toMatchObject({ percent: null, meets: null });
	});
});

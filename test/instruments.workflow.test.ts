import type { IDataObject } from 'n8n-workflow';

import { findIsins, instrumentData, isinCheckDigit, startSimulator } from './simulator';
import { makeIsin, makeIsins } from './helpers/isins';
import {
	descriptionOf,
	instrumentsSpec as instruments,
	runNode,
	fullText,
} from './helpers/lookupRuns';
import type { NodeSpec } from './helpers/workflows';
import { useSimulator } from './helpers/simulator';

const SFDR = 'POST /instruments/sustainability-profile' as const;
const PAI = 'POST /instruments/sustainability-data' as const;
const INVOLVEMENTS = 'POST /instruments/business-involvements' as const;

const sim = useSimulator();

/** The holdings of each request to `route`, in order. */
const batches = (route: typeof SFDR | typeof PAI) =>
	sim.requests({ route }).map((request) => (request.body as { holdings: unknown[] }).holdings);
const SFDR_NODE = instruments('getSfdrClassification');
const runItems = async (items: IDataObject[], spec: NodeSpec) =>
	(await runNode(sim.url, items, spec)).result;

describe('Sustainability Instruments inside n8n', () => {
	it('answers 25,000 items with 20,000 distinct ISINs in exactly 2 requests, every item in order', async () => {
		const distinctIsins = makeIsins(20_000, 0, 'US');
		const items = Array.from({ length: 25_000 }, (_, i) => ({
			row: i,
			isin: distinctIsins[i % 20_000].toLowerCase(),
		}));
		const { result } = await runNode(sim.url, items, SFDR_NODE, {
			timeoutMs: 120_000,
		});
		expect(result.error).toBeUndefined();
		expect(batches(SFDR).map((holdings) => holdings.length)).toEqual([10_000, 10_000]);

		const out = result.items('Node');
		expect(out).toHaveLength(25_000);
		for (const index of [0, 1, 9_999, 10_000, 19_999, 20_000, 24_999]) {
			const isin = distinctIsins[index % 20_000];
			const expected = instrumentData(isin);
			expect(out[index].json.row).toBe(index);
			expect(out[index].pairedItem).toEqual({ item: index });
			// The ISIN as the item gave it, and the form sent beside it.
			expect(out[index].json.sfdr).toMatchObject({
				isin: isin.toLowerCase(),
				isin_normalised: isin,
				found: expected.known,
				classification: expected.sfdr,
			});
		}
	});

	it('de-duplicates, matches by ISIN when funds come back last, and fills unknown ISINs with found = false', async () => {
		const [fund] = findIsins((d) => d.known && d.isFund, 1);
		const [company] = findIsins((d) => d.known && !d.isFund, 1);
		const unknownIsin = `XX000000001${isinCheckDigit('XX000000001')}`;
		const items = [
			{ isin: fund },
			{ isin: company },
			{ isin: ` ${fund.toLowerCase()} ` },
			{ isin: unknownIsin },
		];
		const result = await runItems(items, instruments('getPaiIndicators'));
		expect(result.error).toBeUndefined();
		expect(batches(PAI)).toEqual([[{ isin: fund }, { isin: company }, { isin: unknownIsin }]]);
		const out = result.items('Node').map((item) => item.json.pai as Record<string, unknown>);
		expect(out[0]).toMatchObject({ isin: fund, isin_normalised: fund, found: true, is_fund: true });
		expect(out[0].scope_1_emissions).toEqual({
			value: instrumentData(fund).pai.scope_1_emissions,
			unit: expect.any(String),
		});
		expect(out[1]).toMatchObject({ isin: company, found: true, is_fund: false });
		expect(out[2]).toEqual({ ...out[0], isin: ` ${fund.toLowerCase()} ` });
		expect(out[3]).toMatchObject({ isin: unknownIsin, found: false });
	});

	it('simplifies into spreadsheet columns and can output one item per instrument', async () => {
		const [a, b] = findIsins((d) => d.known, 2);
		const items = [{ ISIN: a }, { ISIN: b }, { ISIN: a }];
		const result = await runItems(
			items,
			instruments('getBusinessInvolvements', {
				simplify: true,
				outputMode: 'perInstrument',
				minimumThreshold: 5,
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requests({ route: INVOLVEMENTS })[0].body).toMatchObject({ minimum_threshold: 5 });
		const out = result.items('Node');
		expect(out).toHaveLength(2);
		expect(out[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(out[1].pairedItem).toEqual([{ item: 1 }]);
		for (const value of Object.values(out[0].json))
			expect(typeof value === 'object' && value !== null).toBe(false);
		expect(out[0].json).toMatchObject({
			isin: a,
			found: true,
			total_score: instrumentData(a).scores!.total,
		});
	});

	it('adds simplified, prefixed columns to the input items', async () => {
		const [a] = findIsins((d) => d.known, 1);
		const result = await runItems(
			[{ isin: a, name: 'A' }],
			instruments('getEsgData', { simplify: true }),
		);
		const json = result.items('Node')[0].json;
		expect(json).toMatchObject({
			isin: a,
			name: 'A',
			esg_isin: a,
			esg_found: true,
			esg_total_score: instrumentData(a).esg.total_score,
		});
		expect(typeof json.esg_total_score_unit).toBe('string');
	});

	it('sends an ISIN pasted with a zero-width space clean, and refuses a Cyrillic look-alike naming it, before any request', async () => {
		const clean = await runItems(
			[{ isin: 'US0378\u200B331005' }, { isin: '\uFEFFＤＥ０００７１６４６００' }],
			SFDR_NODE,
		);
		expect(clean.error).toBeUndefined();
		expect(batches(SFDR)).toEqual([[{ isin: 'US0378331005' }, { isin: 'DE0007164600' }]]);
		expect(clean.items('Node')[0].json.sfdr).toMatchObject({
			isin: 'US0378\u200B331005',
			isin_normalised: 'US0378331005',
		});

		sim.reset();
		const lookAlike = await runItems(
			[{ isin: 'DE0007164600' }, { isin: 'US03783З1005' }],
			SFDR_NODE,
		);
		expect(lookAlike.status).toBe('error');
		expect(lookAlike.error?.message).toBe(
			'Invalid ISIN: "US03783З1005" contains the Cyrillic letter "З" (U+0417) at position 8, which looks like a Latin letter or digit; retype it',
		);
		expect(sim.requestCount()).toBe(0);
	});

	it('skips and reports invalid ISINs when asked, and marks them under Continue on error', async () => {
		const items = [{ isin: makeIsin('XS', 1) }, { isin: 'NOT-AN-ISIN' }, {}];
		const skip = await runItems(
			items,
			instruments('getSfdrClassification', { options: { invalidIsins: 'skip' } }),
		);
		const out = skip.items('Node').map((item) => item.json.sfdr as Record<string, unknown>);
		expect(out).toHaveLength(3);
		expect(out[1]).toMatchObject({
			isin: 'NOT-AN-ISIN',
			found: false,
			reason: expect.stringMatching(/invalid ISIN/),
		});
		// The item without the column the others hold: an empty sheet cell, written back as "".
		expect(out[2]).toMatchObject({
			isin: null,
			found: false,
			reason: 'no ISIN in field "isin" (the cell is empty, shown as "")',
		});
		expect(skip.items('Node')[2].json.isin).toBe('');
		expect(batches(SFDR).map((holdings) => holdings.length)).toEqual([1]);

		sim.reset();
		const cont = await runItems(items, {
			...SFDR_NODE,
			onError: 'continueRegularOutput',
		});
		expect(cont.status).toBe('success');
		const contOut = cont.items('Node');
		expect(contOut).toHaveLength(3);
		expect(contOut[1].json.error).toMatch(/^Invalid ISIN/);
		expect(contOut[0].json.error).toBeUndefined();
	});

	it('follows each route rule when no item has an ISIN: SFDR answers empty, the others refuse, without a request', async () => {
		const items = [{ name: 'no isin' }];
		const sfdr = await runItems(items, SFDR_NODE);
		expect(sfdr.status).toBe('success');
		expect(sfdr.items('Node')[0].json.sfdr).toMatchObject({ found: false });
		const pai = await runItems(items, instruments('getPaiIndicators'));
		expect(fullText(pai.error)).toMatch(
			/No input item has an ISIN: the PAI indicators needs at least one instrument/,
		);
		expect(sim.requestCount()).toBe(0);
	});

	it('splits a batch that times out at the gateway and still answers every ISIN', async () => {
		// 100 ms modelled per ISIN: a batch of 400 passes the 29 s gateway limit, halves of 200 do not.
		const slow = await startSimulator({
			timeScale: 0.0005,
			latency: { [SFDR]: { baseMs: 0, perHoldingMs: 100 } },
		});
		try {
			const isins = makeIsins(400, 5000, 'US');
			const { result } = await runNode(
				slow.url,
				isins.map((isin) => ({ isin })),
				SFDR_NODE,
			);
			expect(result.error).toBeUndefined();
			const sizes = slow
				.requests({ route: SFDR })
				.map((r) => [(r.body as { holdings: unknown[] }).holdings.length, r.status]);
			expect(sizes).toEqual([
				[400, 504],
				[200, 200],
				[200, 200],
			]);
			expect(result.items('Node').map((item) => (item.json.sfdr as { isin: string }).isin)).toEqual(
				isins,
			);
		} finally {
			await slow.close();
		}
	});

	it('says in plain words that the key has no access to the family, and keeps the API words', async () => {
		const { result } = await runNode(sim.url, [{ isin: makeIsin('XS', 3) }], SFDR_NODE, {
			apiKey: 'sim-esg-only',
		});
		expect(fullText(result.error)).toMatch(/subscription does not include this data family/);
		expect(descriptionOf(result.error)).toMatch(
			/You don't have access to any of the frameworks requested\./,
		);
		expect(sim.requestCount()).toBe(1);
	});

	it('sends ceil(distinct / batch size) requests with a lower Batch Size and concurrency', async () => {
		const isins = makeIsins(25, 0, 'US');
		const result = await runItems(
			isins.map((isin) => ({ isin })),
			instruments('getEsgData', { options: { batchSize: 10, concurrency: 3 } }),
		);
		expect(result.error).toBeUndefined();
		expect(sim.requestCount()).toBe(3);
		expect(result.items('Node').map((item) => (item.json.esg as { isin: string }).isin)).toEqual(
			isins,
		);
	});
});

describe('ISIN cells that cannot be an ISIN (not text, or far too long)', () => {
	const [good] = findIsins((d) => d.known && !d.isFund, 1);
	const HUGE = 'A'.repeat(1024 * 1024);
	const run = (items: IDataObject[], options: IDataObject = {}) =>
		runItems(items, instruments('getSfdrClassification', { options }));

	it.each([
		[
			'an object',
			{ code: 'US0378331005' },
			/^Invalid ISIN: field "isin" holds an object \({"code":"US0378331005"}\), not text/,
		],
		[
			'a list',
			['US0378331005'],
			/^Invalid ISIN: field "isin" holds a list \(\["US0378331005"\]\), not text/,
		],
		['a boolean', true, /^Invalid ISIN: field "isin" holds a boolean \(true\), not text/],
		['a 1 MB text', HUGE, /^Invalid ISIN: field "isin" holds 1048576 characters \("A{20}…"\)/],
	])(
		'Stop With an Error: %s is an input error naming the item and the field (shortly), nothing sent',
		async (_, value, message) => {
			const result = await run([{ isin: good }, { isin: value }]);
			expect(fullText(result.error)).toMatch(message);
			expect(result.error?.message.length).toBeLessThan(200);
			expect(descriptionOf(result.error)).toMatch(/Map the ISIN Field/);
			expect(sim.requestCount()).toBe(0);
		},
	);

	it.each(['skip', 'send'])(
		'Invalid ISINs "%s": an object is reported on its item, never sent as "[object Object]"',
		async (policy) => {
			const result = await run([{ isin: good }, { isin: { code: 'x' } }, { isin: false }], {
				invalidIsins: policy,
			});
			expect(result.error).toBeUndefined();
			expect(batches(SFDR)).toEqual([[{ isin: good }]]);
			const out = result.items('Node').map((item) => item.json.sfdr as Record<string, unknown>);
			expect(out[0]).toMatchObject({ isin: good, found: true });
			expect(out[1]).toMatchObject({
				isin: '{"code":"x"}',
				found: false,
				reason: 'invalid ISIN: field "isin" holds an object ({"code":"x"}), not text',
			});
			expect(out[2]).toMatchObject({
				isin: 'false',
				found: false,
				reason: 'invalid ISIN: field "isin" holds a boolean (false), not text',
			});
		},
	);

	it('Send Anyway: a 1 MB value is not sent, and the output shows only its first characters', async () => {
		const result = await run([{ isin: good }, { isin: HUGE }], { invalidIsins: 'send' });
		expect(result.error).toBeUndefined();
		const sent = sim.requests({ route: SFDR }).map((r) => JSON.stringify(r.body));
		expect(sent).toHaveLength(1);
		expect(sent[0]).not.toContain(
			'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
		);
		const second = result.items('Node')[1].json;
		expect(second.sfdr).toMatchObject({
			isin: `${'A'.repeat(40)}…`,
			found: false,
			reason: expect.stringMatching(
				/^invalid ISIN: field "isin" holds 1048576 characters \("A{20}…"\), far more than the 12 of an ISIN$/,
			),
		});
		expect(JSON.stringify(second.sfdr).length).toBeLessThan(500);
	});

	it('A List Typed Here: an over-long entry is refused by its position', async () => {
		const result = await runItems(
			[{}],
			instruments('getSfdrClassification', {
				isinSource: 'list',
				isinList: `${good}, ${'B'.repeat(100)}`,
			}),
		);
		expect(fullText(result.error)).toMatch(
			/^2nd ISIN of the list: invalid ISIN: 100 characters \("B{20}…"\)/,
		);
		expect(sim.requestCount()).toBe(0);
	});
});

describe('A List Typed Here, as people and AI models write it', () => {
	const [apple, sap, ishares] = findIsins((d) => d.known, 3);
	const listNode = (isinList: IDataObject[string], extra: IDataObject = {}) =>
		instruments('getSfdrClassification', { isinSource: 'list', isinList, ...extra });
	const run = async (isinList: IDataObject[string], extra: IDataObject = {}) =>
		await runItems([{ any: 'item' }], listNode(isinList, extra));
	const sent = () => batches(SFDR).flat();

	it.each<[string, IDataObject[string]]>([
		['a JSON array ($fromAI)', `["${apple}", "${sap}", "${ishares}"]`],
		['a JSON array cut short', `["${apple}", "${sap}", "${ishares}"`],
		[
			'a fenced JSON array in lower case',
			'```json\n' + JSON.stringify([apple, sap, ishares]).toLowerCase() + '\n```',
		],
		[
			'quoted entries, semicolons, tabs and new lines',
			`'${apple}';\t"${sap}"\n\n${ishares.toLowerCase()}`,
		],
		[
			'duplicates in every spelling',
			`${apple}, "${apple}", ${sap}; ${apple.toLowerCase()}\n[${ishares}, ${sap}]`,
		],
		[
			'a list an expression gives',
			`={{ ${JSON.stringify([apple, ` ${sap.toLowerCase()} `, ishares, apple])} }}`,
		],
	])(
		'%s: exactly those ISINs are sent, once each, and each comes out once, matched',
		async (_, isinList) => {
			const result = await run(isinList);
			expect(result.error).toBeUndefined();
			expect(sim.requestCount({ route: SFDR })).toBe(1);
			expect(sent()).toEqual([{ isin: apple }, { isin: sap }, { isin: ishares }]);
			const out = result.items('Node');
			const matched = out.map((item) => item.json.isin_normalised ?? item.json.isin);
			expect(matched).toEqual([apple, sap, ishares]);
			// Each row shows the entry as written first in the list (quotes and separators left out).
			for (const item of out)
				expect(String(item.json.isin).trim().toUpperCase()).toBe(
					item.json.isin_normalised ?? item.json.isin,
				);
			for (const item of out) {
				expect(item.json.classification).toBe(
					instrumentData((item.json.isin_normalised ?? item.json.isin) as string).sfdr,
				);
				expect(item.pairedItem).toEqual([{ item: 0 }]);
			}
		},
	);

	it('an entry that is no ISIN after cleaning is refused by name and position before any request', async () => {
		const result = await run(`["${apple}", "${apple}", "US03783310"]`);
		expect(result.error?.message).toBe(
			'3rd ISIN of the list: invalid ISIN: "US03783310" has 10 characters; an ISIN has 12',
		);
		expect(sim.requestCount()).toBe(0);
		// Skipped under Invalid ISINs = skip: reported by name, the rest sent.
		const skipped = await run(`["${apple}", "us03783310"]`, { options: { invalidIsins: 'skip' } });
		expect(skipped.error).toBeUndefined();
		expect(sent()).toEqual([{ isin: apple }]);
		expect(skipped.items('Node').map((item) => item.json)).toEqual([
			expect.objectContaining({ isin: apple, isin_normalised: apple, found: true, reason: null }),
			expect.objectContaining({
				isin: 'us03783310',
				isin_normalised: 'US03783310',
				found: false,
				reason: expect.stringContaining('"US03783310"'),
			}),
		]);
	});

	it.each<[string, IDataObject[string]]>([
		['an empty JSON array', '[]'],
		['only separators and quotes', ' , ; "" \n'],
		['an expression giving an empty list', '={{ [] }}'],
	])('%s: refused naming the parameter and the fix, before any request', async (_, isinList) => {
		const result = await run(isinList);
		expect(result.error?.message).toBe(
			'The ISINs parameter (ISINs From = A List Typed Here) is empty',
		);
		expect(descriptionOf(result.error)).toMatch(/^Type or paste at least one ISIN/);
		expect(sim.requestCount()).toBe(0);
	});

	it('an empty field is refused by n8n itself (the parameter is required), before any request', async () => {
		await expect(run('')).rejects.toThrow(/Parameter "ISINs" is required/);
		expect(sim.requestCount()).toBe(0);
	});

	it('an expression giving an object is refused, not sent', async () => {
		const result = await run(`={{ ${JSON.stringify({ isins: [apple] })} }}`);
		expect(fullText(result.error)).toMatch(/^ISINs must be a list or text, got an object/);
		expect(sim.requestCount()).toBe(0);
	});
});

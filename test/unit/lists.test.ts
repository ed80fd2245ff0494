import { NodeOperationError } from 'n8n-workflow';

import {
	matchColumn,
	splitFieldNames,
} from '../../nodes/SustainabilityInstruments/actions/changesSettings';
import { holdingRowsFromJson } from '../../nodes/shared/input/holdingRows';
import { splitIsinList } from '../../nodes/shared/input/isin';
import { errorOf, unitNode } from '../helpers/unitInput';

const A = 'US0378331005';
const B = 'DE0007236101';
const C = 'IE00B4L5Y983';

const isinsOf = (value: unknown) =>
	splitIsinList(value).entries.map((entry) => entry.isin ?? entry.problem);

describe('splitIsinList', () => {
	// JSON arrays (cut short, fenced, encoded twice), quoted lists and nested arrays: holdings.fuzz.test.ts.
	it.each<[string, unknown]>([
		['double quotes without brackets', `"${A}", "${B}"`],
		['semicolons', `${A};${B}`],
		['new lines and tabs', `\n${A}\r\n\t${B}\t\n`],
		['spaces', `${A}   ${B}`],
		['lower case', `${A.toLowerCase()}, ${B.toLowerCase()}`],
		['an array value', [A, ` ${B.toLowerCase()} `]],
		['an array entry with spaces inside one ISIN', `["us 0378 331005", "${B}"]`],
		['an array entry holding two ISINs', [`${A}, ${B}`]],
		['an array of JSON texts', [`["${A}"]`, `"${B}"`]],
		[
			'invisible characters, also alone between separators',
			`\uFEFF${A}\u200B, \u200B, ${B.slice(0, 6)}\u00AD${B.slice(6)}`,
		],
		['full-width ISINs', 'ＵＳ０３７８３３１００５\u3000ＤＥ０００７２３６１０１'],
		['an ideographic comma', `${A}、${B}`],
		['a full-width comma', `${A}，${B}`],
		['a full-width semicolon and an ideographic space', `${A}；\u3000${B}`],
		['full-width ISINs and commas', 'ＵＳ０３７８３３１００５，ＤＥ０００７２３６１０１'],
		['an Arabic comma', `${A}، ${B}`],
		['CJK quotes', `「${A}」、「${B}」`],
		['an array entry holding two ISINs with a full-width comma', [`${A}，${B}`]],
	])('reads %s', (_, value) => {
		expect(isinsOf(value)).toEqual([A, B]);
	});

	it('keeps each ISIN once, in first-seen order, with its position in the list as given', () => {
		const list = splitIsinList(`${A}, ${B}, ${A.toLowerCase()}, "${A}", ${C}`);
		expect(list.entries).toEqual([
			{ isin: A, position: 1, given: A },
			{ isin: B, position: 2, given: B },
			{ isin: C, position: 5, given: C },
		]);
		expect(list.duplicates).toBe(2);
	});

	it('gives nothing for an empty list in any form', () => {
		for (const empty of [
			'',
			'   ',
			'\n\t',
			'[]',
			'[ ]',
			'""',
			',;',
			[],
			null,
			undefined,
			'```json\n[]\n```',
		])
			expect(splitIsinList(empty).entries).toEqual([]);
	});

	it('does not guess: an entry that is not an ISIN after cleaning stays in the list, by name', () => {
		expect(isinsOf(`["${A}", "US03783310", "hello world"]`)).toEqual([
			A,
			'US03783310',
			'HELLOWORLD',
		]);
		// Invalid JSON is split at the separators: the words come out as entries to report.
		expect(isinsOf(`{"isins": "${A}"}`)).toEqual([expect.stringContaining('ISINS'), A]);
		expect(isinsOf('12345')).toEqual(['12345']);
	});

	it('reports values that can never be an ISIN (not text, far too long) as problems, at their position', () => {
		const list = splitIsinList([A, { isin: B }, true, 'X'.repeat(100)]);
		expect(list.entries).toEqual([
			{ isin: A, position: 1, given: A },
			{
				problem: expect.stringMatching(/^invalid ISIN: an object .*not text$/),
				position: 2,
				given: `{"isin":"${B}"}`,
			},
			{
				problem: expect.stringMatching(/^invalid ISIN: a boolean \(true\), not text$/),
				position: 3,
				given: 'true',
			},
			{
				problem: expect.stringMatching(/^invalid ISIN: 100 characters/),
				position: 4,
				given: `${'X'.repeat(40)}…`,
			},
		]);
	});
});

const node = unitNode('Test', 2);
const apple = { isin: A, name: 'Apple', market_value: 1000 };
const sap = { isin: B, name: 'SAP', market_value: 500 };
const jsonOf = (value: unknown) => holdingRowsFromJson(node, value, 3).map((row) => row.json);

describe('holdingRowsFromJson', () => {
	it.each<[string, unknown]>([
		['a JSON array', JSON.stringify([apple, sap])],
		['an array value', [apple, sap]],
		['an object wrapping the list', JSON.stringify({ holdings: [apple, sap] })],
		['"Holdings" in another case', JSON.stringify({ Holdings: [apple, sap], date: '2024-12-31' })],
		['the only list of an object', JSON.stringify({ portfolio: 'P1', positions: [apple, sap] })],
		['a fenced JSON array', '```json\n' + JSON.stringify([apple, sap], null, 2) + '\n```'],
		['a fence without a language', '```\n' + JSON.stringify([apple, sap]) + '\n```'],
		['JSON encoded twice', JSON.stringify(JSON.stringify([apple, sap]))],
		[
			'a fenced, wrapped list encoded twice',
			JSON.stringify('```json\n' + JSON.stringify({ holdings: [apple, sap] }) + '\n```'),
		],
		['an object value wrapping the list', { holdings: [apple, sap] }],
	])('reads %s', (_, value) => {
		expect(jsonOf(value)).toEqual([apple, sap]);
	});

	it('reads one holding (an object) as a list of one, named by its place', () => {
		const rows = holdingRowsFromJson(node, JSON.stringify(apple), 3);
		expect(rows).toEqual([
			{ json: apple, itemIndex: 3, where: 'Item 3, 1st holding of Holdings (JSON)' },
		]);
		// A holding with a list of its own is still one holding.
		expect(jsonOf({ ...apple, tags: [{ a: 1 }] })).toEqual([{ ...apple, tags: [{ a: 1 }] }]);
	});

	it.each<[string, unknown, RegExp]>([
		['invalid JSON', '[{"isin": ', /^Holdings \(JSON\) is not valid JSON: /],
		['a fenced text that is not JSON', '```json\nthe holdings\n```', /not valid JSON/],
		['a number', '42', /^Holdings \(JSON\) must be an array of holdings, got a number \(42\)$/],
		['null', 'null', /must be an array of holdings, got null/],
		[
			'a text encoded as JSON',
			'"Apple and SAP"',
			/must be an array of holdings, got the text "Apple and SAP"$/,
		],
		[
			'an object with several lists',
			JSON.stringify({ stocks: [apple], bonds: [sap] }),
			/several lists \("stocks", "bonds"\)/,
		],
	])('refuses %s, naming the item, the field and the fix', (_, value, message) => {
		const error = errorOf(() => holdingRowsFromJson(node, value, 3));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(message);
		expect(error.description).toMatch(/Give .*(array|list of holdings).*Nothing was sent\.$/);
	});
});

describe('Fields to Compare', () => {
	it.each<[string, unknown, string[]]>([
		['commas', 'classification, carbon_footprint', ['classification', 'carbon_footprint']],
		[
			'semicolons and new lines',
			'classification;carbon_footprint\nscope 1 emissions',
			['classification', 'carbon_footprint', 'scope 1 emissions'],
		],
		['names with spaces', 'Carbon Footprint', ['Carbon Footprint']],
		[
			'quotes and brackets',
			'["classification", "Carbon Footprint"]',
			['classification', 'Carbon Footprint'],
		],
		[
			'a list value',
			['classification', ' Carbon Footprint '],
			['classification', 'Carbon Footprint'],
		],
		['nothing', '', []],
	])('splits %s', (_, value, names) => {
		expect(splitFieldNames(value)).toEqual(names);
	});

	it('refuses what is neither text nor a list of names', () => {
		expect(splitFieldNames({ a: 1 })).toBeUndefined();
		expect(splitFieldNames([{ a: 1 }])).toBeUndefined();
	});

	const columns = [
		'isin',
		'found',
		'classification',
		'carbon_footprint',
		'carbon_footprint_unit',
		'scope_1_emissions',
	];
	it.each<[string, string, string | undefined]>([
		['carbon_footprint', 'pai', 'carbon_footprint'],
		['Carbon Footprint', 'pai', 'carbon_footprint'],
		['CARBON-FOOTPRINT unit', 'pai', 'carbon_footprint_unit'],
		['Scope 1 Emissions', 'pai', 'scope_1_emissions'],
		['pai_carbon_footprint', 'pai', 'carbon_footprint'],
		['PAI Carbon Footprint', 'pai', 'carbon_footprint'],
		['sfdr_classification', 'sfdr', 'classification'],
		['business_involvements_classification', 'business_involvements', 'classification'],
		['previous_carbon_footprint', 'pai', 'carbon_footprint'],
		['current_classification', 'sfdr', 'classification'],
		['esg_classification', 'sfdr', undefined],
		['carbon', 'pai', undefined],
		['footprint carbon', 'pai', undefined],
	])('matches "%s" (result key %s) to %s', (name, resultKey, column) => {
		expect(matchColumn(name, columns, resultKey)).toBe(column);
	});
});

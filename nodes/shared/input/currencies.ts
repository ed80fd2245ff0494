import type { INode } from 'n8n-workflow';

import { inputError } from '../api/errors';
import { showValue } from '../base/values';

/** ISO 4217 active codes with their names, for the currency dropdowns. */
const ISO_4217: ReadonlyArray<[code: string, name: string]> = [
	['AED', 'UAE Dirham'],
	['AFN', 'Afghani'],
	['ALL', 'Lek'],
	['AMD', 'Armenian Dram'],
	['ANG', 'Netherlands Antillean Guilder'],
	['AOA', 'Kwanza'],
	['ARS', 'Argentine Peso'],
	['AUD', 'Australian Dollar'],
	['AWG', 'Aruban Florin'],
	['AZN', 'Azerbaijan Manat'],
	['BAM', 'Convertible Mark'],
	['BBD', 'Barbados Dollar'],
	['BDT', 'Taka'],
	['BGN', 'Bulgarian Lev'],
	['BHD', 'Bahraini Dinar'],
	['BIF', 'Burundi Franc'],
	['BMD', 'Bermudian Dollar'],
	['BND', 'Brunei Dollar'],
	['BOB', 'Boliviano'],
	['BRL', 'Brazilian Real'],
	['BSD', 'Bahamian Dollar'],
	['BTN', 'Ngultrum'],
	['BWP', 'Pula'],
	['BYN', 'Belarusian Ruble'],
	['BZD', 'Belize Dollar'],
	['CAD', 'Canadian Dollar'],
	['CDF', 'Congolese Franc'],
	['CHF', 'Swiss Franc'],
	['CLP', 'Chilean Peso'],
	['CNY', 'Yuan Renminbi'],
	['COP', 'Colombian Peso'],
	['CRC', 'Costa Rican Colon'],
	['CUP', 'Cuban Peso'],
	['CVE', 'Cabo Verde Escudo'],
	['CZK', 'Czech Koruna'],
	['DJF', 'Djibouti Franc'],
	['DKK', 'Danish Krone'],
	['DOP', 'Dominican Peso'],
	['DZD', 'Algerian Dinar'],
	['EGP', 'Egyptian Pound'],
	['ERN', 'Nakfa'],
	['ETB', 'Ethiopian Birr'],
	['EUR', 'Euro'],
	['FJD', 'Fiji Dollar'],
	['FKP', 'Falkland Islands Pound'],
	['GBP', 'Pound Sterling'],
	['GEL', 'Lari'],
	['GHS', 'Ghana Cedi'],
	['GIP', 'Gibraltar Pound'],
	['GMD', 'Dalasi'],
	['GNF', 'Guinean Franc'],
	['GTQ', 'Quetzal'],
	['GYD', 'Guyana Dollar'],
	['HKD', 'Hong Kong Dollar'],
	['HNL', 'Lempira'],
	['HTG', 'Gourde'],
	['HUF', 'Forint'],
	['IDR', 'Rupiah'],
	['ILS', 'New Israeli Sheqel'],
	['INR', 'Indian Rupee'],
	['IQD', 'Iraqi Dinar'],
	['IRR', 'Iranian Rial'],
	['ISK', 'Iceland Krona'],
	['JMD', 'Jamaican Dollar'],
	['JOD', 'Jordanian Dinar'],
	['JPY', 'Yen'],
	['KES', 'Kenyan Shilling'],
	['KGS', 'Som'],
	['KHR', 'Riel'],
	['KMF', 'Comorian Franc'],
	['KPW', 'North Korean Won'],
	['KRW', 'Won'],
	['KWD', 'Kuwaiti Dinar'],
	['KYD', 'Cayman Islands Dollar'],
	['KZT', 'Tenge'],
	['LAK', 'Lao Kip'],
	['LBP', 'Lebanese Pound'],
	['LKR', 'Sri Lanka Rupee'],
	['LRD', 'Liberian Dollar'],
	['LSL', 'Loti'],
	['LYD', 'Libyan Dinar'],
	['MAD', 'Moroccan Dirham'],
	['MDL', 'Moldovan Leu'],
	['MGA', 'Malagasy Ariary'],
	['MKD', 'Denar'],
	['MMK', 'Kyat'],
	['MNT', 'Tugrik'],
	['MOP', 'Pataca'],
	['MRU', 'Ouguiya'],
	['MUR', 'Mauritius Rupee'],
	['MVR', 'Rufiyaa'],
	['MWK', 'Malawi Kwacha'],
	['MXN', 'Mexican Peso'],
	['MYR', 'Malaysian Ringgit'],
	['MZN', 'Mozambique Metical'],
	['NAD', 'Namibia Dollar'],
	['NGN', 'Naira'],
	['NIO', 'Cordoba Oro'],
	['NOK', 'Norwegian Krone'],
	['NPR', 'Nepalese Rupee'],
	['NZD', 'New Zealand Dollar'],
	['OMR', 'Rial Omani'],
	['PAB', 'Balboa'],
	['PEN', 'Sol'],
	['PGK', 'Kina'],
	['PHP', 'Philippine Peso'],
	['PKR', 'Pakistan Rupee'],
	['PLN', 'Zloty'],
	['PYG', 'Guarani'],
	['QAR', 'Qatari Rial'],
	['RON', 'Romanian Leu'],
	['RSD', 'Serbian Dinar'],
	['RUB', 'Russian Ruble'],
	['RWF', 'Rwanda Franc'],
	['SAR', 'Saudi Riyal'],
	['SBD', 'Solomon Islands Dollar'],
	['SCR', 'Seychelles Rupee'],
	['SDG', 'Sudanese Pound'],
	['SEK', 'Swedish Krona'],
	['SGD', 'Singapore Dollar'],
	['SHP', 'Saint Helena Pound'],
	['SLE', 'Leone'],
	['SOS', 'Somali Shilling'],
	['SRD', 'Surinam Dollar'],
	['SSP', 'South Sudanese Pound'],
	['STN', 'Dobra'],
	['SVC', 'El Salvador Colon'],
	['SYP', 'Syrian Pound'],
	['SZL', 'Lilangeni'],
	['THB', 'Baht'],
	['TJS', 'Somoni'],
	['TMT', 'Turkmenistan New Manat'],
	['TND', 'Tunisian Dinar'],
	['TOP', "Pa'anga"],
	['TRY', 'Turkish Lira'],
	['TTD', 'Trinidad and Tobago Dollar'],
	['TWD', 'New Taiwan Dollar'],
	['TZS', 'Tanzanian Shilling'],
	['UAH', 'Hryvnia'],
	['UGX', 'Uganda Shilling'],
	['USD', 'US Dollar'],
	['UYU', 'Peso Uruguayo'],
	['UZS', 'Uzbekistan Sum'],
	['VES', 'Bolivar Soberano'],
	['VND', 'Dong'],
	['VUV', 'Vatu'],
	['WST', 'Tala'],
	['XAF', 'CFA Franc BEAC'],
	['XCD', 'East Caribbean Dollar'],
	['XOF', 'CFA Franc BCEAO'],
	['XPF', 'CFP Franc'],
	['YER', 'Yemeni Rial'],
	['ZAR', 'Rand'],
	['ZMW', 'Zambian Kwacha'],
	['ZWG', 'Zimbabwe Gold'],
];

/** The active codes: what the dropdowns offer and what a typo is most likely of. */
const CODES = new Set(ISO_4217.map(([code]) => code));

/**
 * The rest of ISO 4217's list one: fund codes (CHE, CLF, USN…), precious metals (XAU, XAG, XPT, XPD), units (XDR,
 * XSU, XUA, XBA–XBD), testing and "no currency" (XTS, XXX), and codes still listed while being replaced. A holding
 * may be in any of them (a gold position is XAU).
 */
const OTHER_LIST_ONE_CODES = new Set(
	'BOV CHE CHW CLF COU CUC MXV SLL USN UYI UYW VED XAG XAU XBA XBB XBC XBD XCG XDR XPD XPT XSU XTS XUA XXX ZWL'.split(
		' ',
	),
);

/** A code of ISO 4217 (list one), upper case. */
export function isIsoCurrency(code: string): boolean {
	return CODES.has(code) || OTHER_LIST_ONE_CODES.has(code);
}

/**
 * Codes in use that are not ISO 4217, with the ISO code they stand for and what to mind. GBX / GBp (pence) and ZAC
 * (cents) are a hundredth of the currency, so the value changes too.
 */
const NOT_ISO: Record<string, { code: string; why: string }> = {
	RMB: { code: 'CNY', why: 'RMB (renminbi) is written CNY in ISO 4217' },
	CNH: { code: 'CNY', why: 'CNH (offshore yuan) is not an ISO 4217 code; ISO writes the yuan CNY' },
	NTD: { code: 'TWD', why: 'NTD (New Taiwan dollar) is written TWD in ISO 4217' },
	GBX: {
		code: 'GBP',
		why: 'GBX is pence, a hundredth of a pound: give the value in pounds (divided by 100) with GBP',
	},
	ZAC: {
		code: 'ZAR',
		why: 'ZAC is South African cents: give the value in rand (divided by 100) with ZAR',
	},
	ILA: {
		code: 'ILS',
		why: 'ILA is agorot, a hundredth of a shekel: give the value in shekels (divided by 100) with ILS',
	},
	UKL: { code: 'GBP', why: 'the pound sterling is GBP in ISO 4217' },
	STG: { code: 'GBP', why: 'the pound sterling is GBP in ISO 4217' },
};

// Most used first: a tie in the distance goes to the code a sheet more likely meant.
const COMMON = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'DKK', 'CAD', 'AUD', 'CNY', 'HKD'];

/** Edits from one code to the other: a letter changed, added, left out, or two neighbours swapped. */
function editDistance(a: string, b: string): number {
	const rows: number[][] = [];
	for (let i = 0; i <= a.length; i++) {
		rows.push([i]);
		for (let j = 1; j <= b.length; j++) {
			if (i === 0) {
				rows[i].push(j);
				continue;
			}
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				best = Math.min(best, rows[i - 2][j - 2] + 1);
			rows[i].push(best);
		}
	}
	return rows[a.length][b.length];
}

/**
 * The ISO 4217 codes nearest to a code that is not one (at most three, the most used first), or the code a known
 * non-ISO one stands for. Always at least one code.
 */
export function nearestCurrencies(code: string): {
	codes: string[];
	why?: string;
	/** Letters to change, add, leave out or swap to reach each code. */
	distance: number;
} {
	const upper = code.toUpperCase();
	const known = Object.prototype.hasOwnProperty.call(NOT_ISO, upper) ? NOT_ISO[upper] : undefined;
	if (known) return { codes: [known.code], why: known.why, distance: 0 };
	const rank = (candidate: string) => {
		const common = COMMON.indexOf(candidate);
		return common === -1 ? COMMON.length : common;
	};
	let best = Infinity;
	let nearest: string[] = [];
	for (const candidate of CODES) {
		const distance = editDistance(upper, candidate);
		if (distance < best) {
			best = distance;
			nearest = [candidate];
		} else if (distance === best) nearest.push(candidate);
	}
	nearest.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
	return { codes: nearest.slice(0, 3), distance: best };
}

/** The sentence that suggests the nearest codes: `Did you mean EUR?` (and why, for a known non-ISO code). */
export function currencySuggestion(code: string): string {
	const { codes, why, distance } = nearestCurrencies(code);
	const list =
		codes.length === 1
			? codes[0]
			: `${codes.slice(0, -1).join(', ')} or ${codes[codes.length - 1]}`;
	if (why) return `Use ${codes[0]}: ${why}.`;
	if (distance === 1) return `Did you mean ${list}?`;
	return codes.length === 1
		? `The nearest ISO 4217 code is ${list}.`
		: `The nearest ISO 4217 codes are ${list}.`;
}

/**
 * A currency parameter already read as text, upper-cased and checked against ISO 4217; refused naming the
 * item (`where`) and the parameter (`label`) otherwise, with `fix` as the description.
 */
export function readIsoCurrency(
	node: INode,
	text: string,
	itemIndex: number,
	options: { label: string; fix: string; where?: string },
): string {
	const currency = text.toUpperCase();
	if (!isIsoCurrency(currency)) {
		throw inputError(
			node,
			itemIndex,
			`${options.label} "${showValue(currency, 20)}" is not an ISO 4217 currency code`,
			/^[A-Z]{3}$/.test(currency) ? `${currencySuggestion(currency)} ${options.fix}` : options.fix,
			{
				where: options.where,
			},
		);
	}
	return currency;
}

export const CURRENCY_OPTIONS = ISO_4217.map(([code, name]) => ({
	name: `${code} - ${name}`,
	value: code,
}));

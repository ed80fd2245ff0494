import type { INode } from 'n8n-workflow';

import { inputError } from './errors';
import { showValue } from './values';

/** ISO 4217 active codes with their names, for the currency dropdowns. */
const ISO_4217: ReadonlyArray<[code: string, name: string]> = [
	['AED', 'UAE Dirham'], ['AFN', 'Afghani'], ['ALL', 'Lek'], ['AMD', 'Armenian Dram'], ['ANG', 'Netherlands Antillean Guilder'],
	['AOA', 'Kwanza'], ['ARS', 'Argentine Peso'], ['AUD', 'Australian Dollar'], ['AWG', 'Aruban Florin'], ['AZN', 'Azerbaijan Manat'],
	['BAM', 'Convertible Mark'], ['BBD', 'Barbados Dollar'], ['BDT', 'Taka'], ['BGN', 'Bulgarian Lev'], ['BHD', 'Bahraini Dinar'],
	['BIF', 'Burundi Franc'], ['BMD', 'Bermudian Dollar'], ['BND', 'Brunei Dollar'], ['BOB', 'Boliviano'], ['BRL', 'Brazilian Real'],
	['BSD', 'Bahamian Dollar'], ['BTN', 'Ngultrum'], ['BWP', 'Pula'], ['BYN', 'Belarusian Ruble'], ['BZD', 'Belize Dollar'],
	['CAD', 'Canadian Dollar'], ['CDF', 'Congolese Franc'], ['CHF', 'Swiss Franc'], ['CLP', 'Chilean Peso'], ['CNY', 'Yuan Renminbi'],
	['COP', 'Colombian Peso'], ['CRC', 'Costa Rican Colon'], ['CUP', 'Cuban Peso'], ['CVE', 'Cabo Verde Escudo'], ['CZK', 'Czech Koruna'],
	['DJF', 'Djibouti Franc'], ['DKK', 'Danish Krone'], ['DOP', 'Dominican Peso'], ['DZD', 'Algerian Dinar'], ['EGP', 'Egyptian Pound'],
	['ERN', 'Nakfa'], ['ETB', 'Ethiopian Birr'], ['EUR', 'Euro'], ['FJD', 'Fiji Dollar'], ['FKP', 'Falkland Islands Pound'],
	['GBP', 'Pound Sterling'], ['GEL', 'Lari'], ['GHS', 'Ghana Cedi'], ['GIP', 'Gibraltar Pound'], ['GMD', 'Dalasi'],
	['GNF', 'Guinean Franc'], ['GTQ', 'Quetzal'], ['GYD', 'Guyana Dollar'], ['HKD', 'Hong Kong Dollar'], ['HNL', 'Lempira'],
	['HTG', 'Gourde'], ['HUF', 'Forint'], ['IDR', 'Rupiah'], ['ILS', 'New Israeli Sheqel'], ['INR', 'Indian Rupee'],
	['IQD', 'Iraqi Dinar'], ['IRR', 'Iranian Rial'], ['ISK', 'Iceland Krona'], ['JMD', 'Jamaican Dollar'], ['JOD', 'Jordanian Dinar'],
	['JPY', 'Yen'], ['KES', 'Kenyan Shilling'], ['KGS', 'Som'], ['KHR', 'Riel'], ['KMF', 'Comorian Franc'],
	['KPW', 'North Korean Won'], ['KRW', 'Won'], ['KWD', 'Kuwaiti Dinar'], ['KYD', 'Cayman Islands Dollar'], ['KZT', 'Tenge'],
	['LAK', 'Lao Kip'], ['LBP', 'Lebanese Pound'], ['LKR', 'Sri Lanka Rupee'], ['LRD', 'Liberian Dollar'], ['LSL', 'Loti'],
	['LYD', 'Libyan Dinar'], ['MAD', 'Moroccan Dirham'], ['MDL', 'Moldovan Leu'], ['MGA', 'Malagasy Ariary'], ['MKD', 'Denar'],
	['MMK', 'Kyat'], ['MNT', 'Tugrik'], ['MOP', 'Pataca'], ['MRU', 'Ouguiya'], ['MUR', 'Mauritius Rupee'],
	['MVR', 'Rufiyaa'], ['MWK', 'Malawi Kwacha'], ['MXN', 'Mexican Peso'], ['MYR', 'Malaysian Ringgit'], ['MZN', 'Mozambique Metical'],
	['NAD', 'Namibia Dollar'], ['NGN', 'Naira'], ['NIO', 'Cordoba Oro'], ['NOK', 'Norwegian Krone'], ['NPR', 'Nepalese Rupee'],
	['NZD', 'New Zealand Dollar'], ['OMR', 'Rial Omani'], ['PAB', 'Balboa'], ['PEN', 'Sol'], ['PGK', 'Kina'],
	['PHP', 'Philippine Peso'], ['PKR', 'Pakistan Rupee'], ['PLN', 'Zloty'], ['PYG', 'Guarani'], ['QAR', 'Qatari Rial'],
	['RON', 'Romanian Leu'], ['RSD', 'Serbian Dinar'], ['RUB', 'Russian Ruble'], ['RWF', 'Rwanda Franc'], ['SAR', 'Saudi Riyal'],
	['SBD', 'Solomon Islands Dollar'], ['SCR', 'Seychelles Rupee'], ['SDG', 'Sudanese Pound'], ['SEK', 'Swedish Krona'], ['SGD', 'Singapore Dollar'],
	['SHP', 'Saint Helena Pound'], ['SLE', 'Leone'], ['SOS', 'Somali Shilling'], ['SRD', 'Surinam Dollar'], ['SSP', 'South Sudanese Pound'],
	['STN', 'Dobra'], ['SVC', 'El Salvador Colon'], ['SYP', 'Syrian Pound'], ['SZL', 'Lilangeni'], ['THB', 'Baht'],
	['TJS', 'Somoni'], ['TMT', 'Turkmenistan New Manat'], ['TND', 'Tunisian Dinar'], ['TOP', "Pa'anga"], ['TRY', 'Turkish Lira'],
	['TTD', 'Trinidad and Tobago Dollar'], ['TWD', 'New Taiwan Dollar'], ['TZS', 'Tanzanian Shilling'], ['UAH', 'Hryvnia'], ['UGX', 'Uganda Shilling'],
	['USD', 'US Dollar'], ['UYU', 'Peso Uruguayo'], ['UZS', 'Uzbekistan Sum'], ['VES', 'Bolivar Soberano'], ['VND', 'Dong'],
	['VUV', 'Vatu'], ['WST', 'Tala'], ['XAF', 'CFA Franc BEAC'], ['XCD', 'East Caribbean Dollar'], ['XOF', 'CFA Franc BCEAO'],
	['XPF', 'CFP Franc'], ['YER', 'Yemeni Rial'], ['ZAR', 'Rand'], ['ZMW', 'Zambian Kwacha'], ['ZWG', 'Zimbabwe Gold'],
];

const CODES = new Set(ISO_4217.map(([code]) => code));

export function isIsoCurrency(code: string): boolean {
	return CODES.has(code);
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
		throw inputError(node, itemIndex, `${options.label} "${showValue(currency, 20)}" is not an ISO 4217 currency code`, options.fix, {
			where: options.where,
		});
	}
	return currency;
}

export const CURRENCY_OPTIONS = ISO_4217.map(([code, name]) => ({ name: `${code} - ${name}`, value: code }));

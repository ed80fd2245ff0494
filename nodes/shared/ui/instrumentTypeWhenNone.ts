import type { INodeProperties } from 'n8n-workflow';

import { INSTRUMENT_TYPE_WHEN_NONE, INSTRUMENT_TYPE_WHEN_NONE_PARAMETER } from '../input/holdings';

/**
 * Instrument Type When the Sheet Has None: the type every holding is sent as when no row gives one (the output's
 * input_notes and the run's hint say so), or Stop With an Error. A sheet where only some rows lack a type is always
 * refused naming those rows: a type is never guessed for a row.
 */
export const instrumentTypeWhenNoneProperty: INodeProperties = {
	displayName: INSTRUMENT_TYPE_WHEN_NONE,
	name: INSTRUMENT_TYPE_WHEN_NONE_PARAMETER,
	type: 'options',
	options: [
		{ name: 'Bond', value: 'bond', description: 'Corporate bonds' },
		{ name: 'ETF', value: 'etf', description: 'Exchange-traded funds' },
		{ name: 'Mutual Fund', value: 'mutual-fund', description: 'Mutual funds, UCITS' },
		{ name: 'Other', value: 'other' },
		{
			name: 'Sovereign Bond',
			value: 'sovereign-bond',
			description: 'Government bonds: they count with no alignment',
		},
		{
			name: 'Stock',
			value: 'stock',
			description: 'Company shares: the usual holding of an equity portfolio',
		},
		{
			name: 'Stop With an Error',
			value: 'refuse',
			description: 'Nothing is sent: the error names the missing column',
		},
	],
	default: 'stock',
	description:
		"The API needs each holding's instrument type. When no row of the input gives one (no Type column, or an empty one), every holding is sent as this type and the output's input_notes say so. When only some rows lack a type, the run stops naming them: a type is never guessed for a row.",
	hint: 'Used only when no row has an instrument type; the output says which type was sent',
};

/** The fields of a holding, as the API names them: what a route's holdings rule and the holdings reader speak of. */
export type HoldingKey =
	| 'isin'
	| 'name'
	| 'instrument_type'
	| 'currency'
	| 'weight'
	| 'market_value';

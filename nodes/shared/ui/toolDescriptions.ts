/**
 * What an AI Agent's model is told each operation's tool does and what to pass: one text per node and operation.
 *
 * n8n builds the tool description it sends the model with `NodeHelpers.getToolDescriptionForNode` (n8n-workflow,
 * the same in 2.20.x and 2.41.x): with its own "Tool Description: Set Automatically" (`descriptionType: 'auto'`,
 * added by `convertNodeToAiTool` when a node has no `toolDescription` parameter) it sends `makeDescription`, which
 * for a node without a `resource` parameter is the node's `description`, the same for every operation. So our nodes
 * have their own `toolDescription` parameter, one per operation with that operation's text as its default, shown
 * only on the `…Tool` variant (`@tool`): n8n then adds no Tool Description parameters of its own and sends this
 * parameter's value, the text below unless the user edits it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { MAX_INSTRUMENTS_PER_REQUEST } from '../base/constants';

const upTo = `up to ${MAX_INSTRUMENTS_PER_REQUEST.toLocaleString('en-US')}`;
const PASS_ISINS =
	'Pass the ISINs as a list, e.g. ["US0378331005", "DE0007164600"]; an invalid ISIN is reported with how to fix it and the others are still answered.';
const PASS_HOLDINGS =
	'Pass the holdings as a JSON array of objects with isin, name, instrument_type (stock, bond, etf, mutual-fund, cash), currency, weight (percent of the portfolio) and market_value.';

export const TOOL_DESCRIPTIONS = {
	sustainabilityInstruments: {
		getSfdrClassification: `Get the SFDR classification (Article 6, 8 or 9) of ${upTo} instruments by ISIN, with found or not found for each. ${PASS_ISINS}`,
		getPaiIndicators: `Get the mandatory SFDR principal adverse impact (PAI) indicators (scope 1 and 2 emissions, carbon footprint, GHG intensity of investee companies, with units) of ${upTo} instruments by ISIN. ${PASS_ISINS}`,
		getBusinessInvolvements: `Get the ESG scores and business involvements (e.g. thermal coal, tobacco, controversial weapons: share of revenue) of ${upTo} instruments by ISIN. ${PASS_ISINS}`,
		getEsgData: `Get ESG scores and environmental, social and governance metrics of ${upTo} instruments by ISIN. ${PASS_ISINS}`,
		screenHoldings: `Screen ${upTo} instruments by ISIN against exclusion rules (this tool's preset, e.g. the Paris-aligned Benchmark exclusions of Delegated Regulation (EU) 2020/1818 Art. 12, and its own rules): per ISIN screen = breach, pass or not_checked, each breach with its rule, the value found and the threshold, each rule that could not be checked with why (never counted as a pass). ${PASS_ISINS}`,
	},
	sustainableInvestments: {
		classifyHoldings: `Classify the holdings of a portfolio as sustainable investments under an SFDR methodology (label per holding, shares of the portfolio). ${PASS_HOLDINGS}`,
		getMethodologies:
			'List the sustainable-investment methodologies (id, name, description) the API offers. Needs no input.',
	},
	euTaxonomy: {
		getPortfolioAlignment: `Get the EU Taxonomy alignment of a portfolio (turnover, CapEx and OpEx aligned and eligible, in percent). ${PASS_HOLDINGS}`,
	},
	temperatureScore: {
		getPortfolioTemperature: `Get the temperature score (implied warming in °C) of a portfolio and its holdings. ${PASS_HOLDINGS}`,
	},
	portfolioSnapshots: {
		createOrUpdateSnapshot: `Store the holdings of a portfolio at a quarter end (a snapshot) under a portfolio identifier. ${PASS_HOLDINGS}`,
		deleteSnapshot:
			'Delete a stored portfolio snapshot, or a whole portfolio, by its identifier. Pass the portfolio identifier; this cannot be undone.',
		getMany:
			'List the stored portfolios and their snapshots (identifier, name, quarter ends). Needs no input.',
		update:
			'Rename a stored portfolio or change its details. Pass the portfolio identifier and the new values.',
	},
	sustainabilityReports: {
		generatePdfReport: `Create a sustainability PDF report (ESG overview or MiFID II) of a portfolio. Returns a download link to pass on to the user (no file: the PDF is not attached), a note that the link expires soon, and the request id for support. ${PASS_HOLDINGS}`,
	},
} as const;

export type ToolDescribedNode = keyof typeof TOOL_DESCRIPTIONS;

/** The Tool Description parameters of a node: one per operation, shown only when the node is an AI Agent tool. */
export function toolDescriptionProperties(node: ToolDescribedNode): INodeProperties[] {
	return Object.entries(TOOL_DESCRIPTIONS[node]).map(([operation, text]) => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: text,
		description:
			'What the AI Agent is told this tool does and what to pass. Preset for the operation; edit it to describe your setup.',
		displayOptions: { show: { '@tool': [true], operation: [operation] } },
	}));
}

import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { getMethodologies, searchMethodologies, holdingColumnsMethod } from '../shared/run/methods';
import { HOLDING_COLUMNS_METHOD } from '../shared/input/holdingColumns';
import { ROUTES } from '../shared/api/routes';
import * as generatePdfReport from './actions/generatePdfReport.operation';
import { operations, router } from './actions/router';
import { toolDescriptionProperties } from '../shared/ui/toolDescriptions';
import { nodeBuilderHint, parameterBuilderHint } from '../shared/ui/builderHints';
import { asNodeError } from '../shared/api/errors';
import { testSustainabilityComplianceApi } from '../shared/api/credentialTest';
import { errorItemsForRun } from '../shared/run/execution';

export class SustainabilityReports implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sustainability Reports',
		name: 'sustainabilityReports',
		icon: { light: 'file:sustainabilityReports.svg', dark: 'file:sustainabilityReports.dark.svg' },
		group: ['transform'],
		// The canvas shows the operation as the list names it (test/formWords.test.ts holds the two together).
		subtitle:
			'={{ {"generatePdfReport":"Generate PDF Report"}[$parameter["operation"]] || $parameter["operation"] }}',
		version: [1, 2],
		defaultVersion: 2,
		description:
			'Generate PDF sustainability reports (ESG Overview, MiFID II) of a portfolio, ready to attach to an email',
		defaults: { name: 'Sustainability Reports' },
		usableAsTool: true,
		builderHint: nodeBuilderHint(
			'Generate a PDF sustainability report (ESG Overview, or MiFID II sustainability preferences) of a portfolio, ready to attach to an email. Input: one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings, a report name and a report ID.',
		),
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'sustainabilityComplianceApi',
				required: true,
				testedBy: 'testSustainabilityComplianceApi',
			},
		],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Generate PDF Report',
						value: 'generatePdfReport',
						description: 'Build a PDF report of the holdings and download it as a file',
						action: 'Generate PDF report',
						builderHint: parameterBuilderHint(
							'Build a PDF report of the holdings and download it as a binary file (or return only its link). Needs one item per holding (ISIN, name, instrument type, market value, ...) or a JSON array of holdings, a report name and a report ID.',
						),
					},
				],
				default: 'generatePdfReport',
			},
			...toolDescriptionProperties('sustainabilityReports'),
			...generatePdfReport.description,
		],
	};

	methods = {
		credentialTest: { testSustainabilityComplianceApi },
		resourceMapping: { [HOLDING_COLUMNS_METHOD]: holdingColumnsMethod(ROUTES.reports) },
		loadOptions: { getMethodologies },
		listSearch: { searchMethodologies },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		try {
			return await router.call(this);
		} catch (error) {
			if (this.continueOnFail()) return errorItemsForRun.call(this, error, operations);
			throw asNodeError(this.getNode(), error);
		}
	}
}

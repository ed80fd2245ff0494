import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import * as getBusinessInvolvements from './actions/getBusinessInvolvements.operation';
import * as getEsgData from './actions/getEsgData.operation';
import * as getPaiIndicators from './actions/getPaiIndicators.operation';
import * as getSfdrClassification from './actions/getSfdrClassification.operation';
import { router } from './actions/router';
import { toolDescriptionProperties } from '../shared/toolDescriptions';

export class SustainabilityInstruments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sustainability Instruments',
		name: 'sustainabilityInstruments',
		icon: {
			light: 'file:sustainabilityInstruments.svg',
			dark: 'file:sustainabilityInstruments.dark.svg',
		},
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"]}}',
		description:
			'Look up SFDR classification, PAI indicators, business involvements and ESG data of instruments by ISIN',
		defaults: { name: 'Sustainability Instruments' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sustainabilityComplianceApi', required: true }],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Get Business Involvements',
						value: 'getBusinessInvolvements',
						description: 'ESG scores and involvement in activities such as thermal coal or tobacco',
						action: 'Get business involvements',
					},
					{
						name: 'Get ESG Data',
						value: 'getEsgData',
						description: 'ESG scores and environmental, social and governance metrics',
						action: 'Get ESG data',
					},
					{
						name: 'Get PAI Indicators',
						value: 'getPaiIndicators',
						description:
							'Mandatory SFDR principal adverse impact indicators (emissions, carbon footprint, ...)',
						action: 'Get PAI indicators',
					},
					{
						name: 'Get SFDR Classification',
						value: 'getSfdrClassification',
						description: 'SFDR article (6, 8 or 9) of each instrument',
						action: 'Get SFDR classification',
					},
				],
				default: 'getSfdrClassification',
			},
			...toolDescriptionProperties('sustainabilityInstruments'),
			...getSfdrClassification.description,
			...getPaiIndicators.description,
			...getBusinessInvolvements.description,
			...getEsgData.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

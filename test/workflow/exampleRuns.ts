/**
 * Examples run more than once, as consecutive runs of their schedule (`npm run demo`, scripts/demo.ts, and the
 * queue-mode check, test/e2e/queue-mode.ts): the static data n8n saves after a run (what "Only Changes Since Last
 * Run" remembers) goes into the next one. Each run is executed as the active workflow's trigger would run it: a
 * manual run would not be remembered.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { Simulator } from '../simulator/types';
import {
	QUARTERLY_UPLOAD_FORM,
	SAMPLE_CSV,
	SAMPLE_QUARTERLY_WORKBOOK,
	SAMPLE_WORKBOOK,
	formUploadPinData,
} from './fileExamples';
import { resetDataTables } from './standins';

export interface ExampleRun {
	/** Printed before the run's results (demo). */
	label: string;
	/** Done before the run (simulator only). */
	before?: (sim: Simulator) => void;
	/** Node outputs pinned for the run (the in-process harness serves no forms: an upload is pinned). */
	pinData?: () => Record<string, INodeExecutionData[]>;
	/** The trigger the run starts from, for a workflow with several (default: the first). */
	startNode?: string;
}

/**
 * The simulator answers as the vendor's live API does (`measures: 'vendor'`): with the true/false indicators
 * fossil_fuel_sector_exposure and violations_un_global_compact, which PAI 4 and PAI 10 of the statement need.
 */
const vendorMeasures = (sim: Simulator) => sim.setAnswerShape({ measures: 'vendor' });

/** The runs of each example run more than once, by example number; the others run once. */
export const EXAMPLE_RUNS: Record<string, ExampleRun[]> = {
	'10': [
		{
			label:
				"examples/holdings.sample.xlsx uploaded (the form's output pinned: the in-process harness serves no forms)",
			pinData: () => formUploadPinData(SAMPLE_WORKBOOK),
		},
		{
			label: "examples/holdings.sample.csv uploaded (the form's output pinned)",
			pinData: () => formUploadPinData(SAMPLE_CSV),
		},
	],
	'13': [
		{
			label:
				'the schedule: examples/holdings.quarterly.sample.xlsx read from disk (the simulator answers with the true/false indicators, as the live API does)',
			before: vendorMeasures,
		},
		{
			label:
				"the same workbook uploaded to the form (the form's output pinned: the in-process harness serves no forms)",
			before: vendorMeasures,
			startNode: QUARTERLY_UPLOAD_FORM.node,
			pinData: () => formUploadPinData(SAMPLE_QUARTERLY_WORKBOOK, QUARTERLY_UPLOAD_FORM),
		},
	],
	'06': [
		{ label: 'week 1 (nothing remembered yet: remembers every class, emails nothing)' },
		{
			label:
				'week 2 (the simulator now serves a later edition of its data: some classes went down)',
			before: (sim) => sim.setDataVersion(2),
		},
	],
	'12': [
		{
			label:
				'week 1 (the Data Table sfdr_watch_memory is empty: remembers every class in it, emails nothing)',
			// A fresh n8n: the in-process Data Table stand-in starts empty (a real n8n keeps the table).
			before: () => resetDataTables(),
		},
		{
			label:
				'week 2 (the rows written back in week 1 come in; the simulator serves a later edition of its data)',
			before: (sim) => sim.setDataVersion(2),
		},
	],
	'14': [
		{
			label:
				"day 1 (nothing remembered yet: remembers every holding's screen, emails nothing; the simulator answers in the vendor's shape, with the UN Global Compact indicator)",
			before: (sim) => sim.setAnswerShape({ measures: 'vendor' }),
		},
		{
			label:
				'day 2 (the simulator now serves a later edition of its data: some SFDR articles went down, some ISINs gained data)',
			before: (sim) => sim.setDataVersion(2),
		},
	],
};

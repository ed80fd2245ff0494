/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The examples that start from a file (examples/10 upload form, examples/11 holdings workbook on disk, examples/13
 * quarterly holdings workbook on disk or uploaded to its form), as the demo (scripts/demo.ts), the example tests and
 * the real-n8n check run them:
 *
 * - Read/Write Files from Disk reads `/home/node/.n8n-files/holdings.xlsx` in examples/11 and
 *   `/home/node/.n8n-files/holdings-quarterly.xlsx` in examples/13 (n8n 2.x lets nodes read only below
 *   `~/.n8n-files` unless N8N_RESTRICT_FILE_ACCESS_TO says otherwise; /home/node is the home of n8n's Docker image);
 *   here they read examples/holdings.sample.xlsx and examples/holdings.quarterly.sample.xlsx (`withSampleFiles`), and
 *   examples/ is allowed: in process through n8n's SecurityConfig, in a real n8n through N8N_RESTRICT_FILE_ACCESS_TO
 *   (`SAMPLE_FILE_ACCESS`).
 * - The in-process harness serves no forms: the Form Trigger's output is pinned to what n8n's Form Trigger gives for
 *   an upload of a sample file (`formUploadPinData`: the fields, and the file under the binary property named after
 *   the field's label). The real-n8n check posts the file to the form's production URL instead.
 */
import { readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

export const EXAMPLES_DIR = resolve(__dirname, '..', '..', 'examples');
/** The path examples/11 reads in the file as shipped. */
export const EXAMPLE_WORKBOOK_PATH = '/home/node/.n8n-files/holdings.xlsx';
/** The path examples/13 reads in the file as shipped. */
export const EXAMPLE_QUARTERLY_WORKBOOK_PATH = '/home/node/.n8n-files/holdings-quarterly.xlsx';
/** N8N_RESTRICT_FILE_ACCESS_TO for an n8n that runs the file examples: its default folder and examples/. */
export const SAMPLE_FILE_ACCESS = `~/.n8n-files;${EXAMPLES_DIR}`;
export const SAMPLE_WORKBOOK = join(EXAMPLES_DIR, 'holdings.sample.xlsx');
export const SAMPLE_CSV = join(EXAMPLES_DIR, 'holdings.sample.csv');
export const SAMPLE_QUARTERLY_WORKBOOK = join(EXAMPLES_DIR, 'holdings.quarterly.sample.xlsx');
/** Each path an example reads from disk as shipped, and the sample file read instead. */
const SAMPLE_FOR_PATH: Record<string, string> = {
	[EXAMPLE_WORKBOOK_PATH]: SAMPLE_WORKBOOK,
	[EXAMPLE_QUARTERLY_WORKBOOK_PATH]: SAMPLE_QUARTERLY_WORKBOOK,
};

/** The upload form of examples/13 (the annual PAI statement): its trigger node, field and binary property. */
export const QUARTERLY_UPLOAD_FORM = {
	node: 'Upload Quarterly Holdings',
	path: 'pai-statement',
	field: 'Quarterly holdings',
	binaryProperty: 'Quarterly_holdings',
} as const;

/** The upload form of examples/10: its trigger node, field and the binary property n8n names after the field. */
export const UPLOAD_FORM = {
	node: 'Upload Holdings',
	path: 'portfolio-check',
	field: 'Holdings file',
	binaryProperty: 'Holdings_file',
	/** The Form Ending node that hands the workbook back. */
	completion: 'Download the Workbook',
	/** The node whose output is the workbook handed back. */
	workbook: 'SFDR and PAI Workbook',
} as const;

export const MIME_TYPES: Record<string, string> = {
	csv: 'text/csv',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * The workflow with every Read/Write Files from Disk path that is an example's workbook set to its sample file; the
 * in-process n8n may then read examples/ (n8n's SecurityConfig, as N8N_RESTRICT_FILE_ACCESS_TO would set it).
 */
export function withSampleFiles<T>(workflow: T): T {
	allowSampleFileAccess();
	const copy = structuredClone(workflow) as T & {
		nodes?: Array<{ type?: string; parameters?: IDataObject }>;
	};
	for (const node of copy.nodes ?? []) {
		const sample = SAMPLE_FOR_PATH[String(node.parameters?.fileSelector)];
		if (node.type === 'n8n-nodes-base.readWriteFile' && sample)
			node.parameters!.fileSelector = sample;
	}
	return copy;
}

/** What n8n's Form Trigger (v2.3) outputs for an upload of `file` in the form of examples/10 (or `form`'s). */
export function formUploadPinData(
	file: string,
	form: { node: string; field: string; binaryProperty: string } = UPLOAD_FORM,
): Record<string, INodeExecutionData[]> {
	const bytes = readFileSync(file);
	const fileName = file.split('/').pop()!;
	const extension = fileName.split('.').pop()!;
	return {
		[form.node]: [
			{
				json: {
					[form.field]: {
						filename: fileName,
						mimetype: MIME_TYPES[extension],
						size: bytes.length,
					},
					submittedAt: '2026-01-01T07:00:00.000+00:00',
					formMode: 'production',
				},
				binary: {
					[form.binaryProperty]: {
						data: bytes.toString('base64'),
						mimeType: MIME_TYPES[extension],
						fileName,
						fileExtension: extension,
						fileSize: `${bytes.length} B`,
					},
				},
			},
		],
	};
}

/**
 * n8n-core checks file access against the SecurityConfig of its own @n8n/config and @n8n/di (its dependencies, not
 * necessarily the project's copies): set it there.
 */
function allowSampleFileAccess(): void {
	const core = dirname(require.resolve('n8n-core'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the copies n8n-core resolves, by path
	const { Container } = require(require.resolve('@n8n/di', { paths: [core] })) as {
		Container: { get<T>(type: new (...args: never[]) => T): T };
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
	const { SecurityConfig } = require(require.resolve('@n8n/config', { paths: [core] })) as {
		SecurityConfig: new () => { restrictFileAccessTo: string };
	};
	Container.get(SecurityConfig).restrictFileAccessTo = SAMPLE_FILE_ACCESS;
}

/**
 * Node types for `runWorkflow` that record what the completion page of examples/10 (its n8n Form Ending) shows: the
 * real Form node, whose Completion Message is resolved as n8n resolves it for the page (the Form's first input item)
 * before the node runs. The in-process harness serves no pages, so this is where the page's text is read.
 */
export function recordCompletionPage(formType: INodeType | IVersionedNodeType): {
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	messages: string[];
} {
	const messages: string[] = [];
	const form = formType as INodeType;
	const recording = Object.create(form) as INodeType;
	recording.execute = async function (this: unknown, ...args: unknown[]) {
		// A node class (n8n-workflow's Node) gets the context as its argument, a plain node type as `this`.
		const classStyle =
			typeof (args[0] as IExecuteFunctions | undefined)?.getNodeParameter === 'function';
		const context = (classStyle ? args[0] : this) as IExecuteFunctions;
		if (context.getNodeParameter('operation', 0) === 'completion')
			messages.push(String(context.getNodeParameter('completionMessage', 0, '')));
		const execute = form.execute as (...params: unknown[]) => Promise<INodeExecutionData[][]>;
		return classStyle ? execute.apply(form, args) : execute.apply(context, args);
	};
	return { nodeTypes: { 'n8n-nodes-base.form': recording }, messages };
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- bench tooling runs in Node, outside n8n's sandbox */
/** Markdown tables of the benchmark sections, and the results files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Table {
	title: string;
	/** Shell command that reproduces this table. */
	command: string;
	columns: string[];
	rows: Array<Array<string | number>>;
	/** Lines printed under the table (what was measured, how). */
	notes?: string[];
}

export interface SectionResult {
	id: string;
	title: string;
	tables: Table[];
	/** Raw figures for the JSON file. */
	data: unknown;
	/** Targets: name, met or not, and the figure. */
	checks?: Array<{ name: string; ok: boolean; value: string }>;
}

const escape = (cell: string | number) => String(cell).replace(/\|/g, '\\|');

export function renderTable(table: Table): string {
	const lines = [
		`#### ${table.title}`,
		'',
		`\`${table.command}\``,
		'',
		`| ${table.columns.map(escape).join(' | ')} |`,
		`|${table.columns.map(() => '---').join('|')}|`,
		...table.rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
	];
	if (table.notes?.length) lines.push('', ...table.notes.map((note) => `- ${note}`));
	return `${lines.join('\n')}\n`;
}

export function renderSection(section: SectionResult): string {
	const parts = [`### ${section.title}`, '', ...section.tables.map(renderTable)];
	if (section.checks?.length) {
		parts.push(
			section.checks
				.map((check) => `- Target ${check.ok ? 'met' : 'MISSED'}: ${check.name} (${check.value})`)
				.join('\n'),
			'',
		);
	}
	return parts.join('\n');
}

export function writeResults(
	dir: string,
	header: string[],
	sections: SectionResult[],
	meta: Record<string, unknown>,
): { markdown: string; json: string } {
	mkdirSync(dir, { recursive: true });
	const markdown = join(dir, 'latest.md');
	const json = join(dir, 'latest.json');
	writeFileSync(markdown, `${[...header, '', ...sections.map(renderSection)].join('\n')}`);
	writeFileSync(json, `${JSON.stringify({ ...meta, sections }, null, 2)}\n`);
	return { markdown, json };
}

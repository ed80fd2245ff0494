/**
 * Reads a workbook's first sheet into rows with the SheetJS copy of an n8n install (the one its Extract From File and
 * Convert to File use: `xlsx` in n8n 2.20, `@e965/xlsx` in 2.41): the project has no spreadsheet dependency.
 */
export function sheetRows(bytes: Buffer, nodesBaseDir: string): Array<Record<string, unknown>> {
	const name = ['@e965/xlsx', 'xlsx'].find((candidate) => {
		try {
			require.resolve(candidate, { paths: [nodesBaseDir] });
			return true;
		} catch {
			return false;
		}
	});
	if (!name) throw new Error(`no SheetJS (xlsx) next to ${nodesBaseDir}`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved from the n8n install, by path
	const xlsx = require(require.resolve(name, { paths: [nodesBaseDir] })) as {
		read(data: Buffer): { SheetNames: string[]; Sheets: Record<string, unknown> };
		utils: { sheet_to_json(sheet: unknown): Array<Record<string, unknown>> };
	};
	const workbook = xlsx.read(bytes);
	return xlsx.utils.sheet_to_json(workbook.Sheets[workbook.SheetNames[0]]);
}

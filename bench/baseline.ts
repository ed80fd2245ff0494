/**
 * The baseline of the engine-overhead section: what a bare script does for the same work as Get SFDR
 * Classification (Output: Add to Input Items): distinct ISINs, the same request bodies (10,000 ISINs each, in
 * first-seen order) sent one after the other with `fetch`, answers matched by ISIN, and the same output objects
 * (`{ json: { ...row, sfdr: {...} }, pairedItem }`). It reads `json.isin` as is: no trimming, upper-casing or
 * check-digit test, no n8n.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

interface SfdrEntry {
	isin?: string;
	sustainability_profile?: { classification?: number | null; description?: string | null };
}

export async function baselineSfdr(
	baseUrl: string,
	items: INodeExecutionData[],
	apiKey = 'sim-all-families',
): Promise<{ output: INodeExecutionData[]; requests: number }> {
	const isins = [...new Set(items.map((item) => item.json.isin as string))];
	const byIsin = new Map<string, SfdrEntry>();
	let requests = 0;
	for (let start = 0; start < isins.length; start += 10_000) {
		const response = await fetch(`${baseUrl}/instruments/sustainability-profile`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json',
				'x-api-key': apiKey,
			},
			body: JSON.stringify({
				holdings: isins.slice(start, start + 10_000).map((isin) => ({ isin })),
			}),
		});
		requests++;
		if (!response.ok) throw new Error(`baseline: HTTP ${response.status}`);
		const body = (await response.json()) as { data?: SfdrEntry[] };
		for (const entry of body.data ?? [])
			if (entry.isin && !byIsin.has(entry.isin)) byIsin.set(entry.isin, entry);
	}
	const output = items.map((item, index) => {
		const isin = item.json.isin as string;
		const entry = byIsin.get(isin);
		const classification = entry?.sustainability_profile?.classification ?? null;
		const sfdr: IDataObject = {
			isin,
			found: classification !== null,
			classification,
			article: classification === null ? null : `Article ${classification}`,
			description: entry?.sustainability_profile?.description ?? null,
		};
		return { json: { ...item.json, sfdr }, pairedItem: { item: index } };
	});
	return { output, requests };
}

import type { IDataObject } from 'n8n-workflow';

import { EntryTally, readClassification } from '../../shared/api/answers';
import { normalizeIsin } from '../../shared/input/isin';

/** Entry of `data` in the answer of POST /sustainable-investments/insights. */
export interface ClassificationEntry {
	name?: string;
	isin?: string;
	weight?: number | null;
	sustainability_profile?: {
		classification?: unknown;
		description?: unknown;
		metadata?: unknown;
	} | null;
}

export const LABELS = {
	sustainable: 'Sustainable',
	moderate: 'Moderate',
	notSustainable: 'Not sustainable',
	uncovered: 'Uncovered',
	/** Rows that were not sent (cash, no ISIN, skipped invalid ISIN). */
	notClassified: 'Not classified',
	/** Holdings sent that the API's answer left out (an answer defect): never "Uncovered". */
	notChecked: 'Not checked',
} as const;

export type SustainabilityLabel = (typeof LABELS)[keyof typeof LABELS];

/**
 * The category of a classification. The API's description decides when it names a category (the code of
 * "not sustainable" is not documented); otherwise the code: 9 Sustainable, 8 Moderate, null Uncovered,
 * anything else Not sustainable.
 */
export function sustainabilityLabel(
	classification: unknown,
	description: unknown,
): SustainabilityLabel {
	if (typeof description === 'string') {
		const text = description
			.trim()
			.toLowerCase()
			.replace(/[\s_-]+/g, ' ');
		if (/^(not|non|un) ?sustainable\b/.test(text)) return LABELS.notSustainable;
		if (/^(uncovered|not covered|no coverage|no data)\b/.test(text)) return LABELS.uncovered;
		if (/^moderate\b/.test(text)) return LABELS.moderate;
		if (/^sustainable\b/.test(text)) return LABELS.sustainable;
	}
	const code = readClassification(classification) ?? classification;
	if (code === null || code === undefined || code === '') return LABELS.uncovered;
	if (code === 9) return LABELS.sustainable;
	if (code === 8) return LABELS.moderate;
	return LABELS.notSustainable;
}

/**
 * Finds the answer for each holding by ISIN, never by position (the API lists funds last). When an ISIN
 * was sent several times, its n-th holding gets its n-th entry (so each keeps the weight the API gave
 * it), or the last one when the API answered fewer times; all carry the classification of that ISIN.
 */
export class ClassificationMatcher {
	private readonly byIsin = new Map<string, ClassificationEntry[]>();
	private readonly taken = new Map<string, number>();
	/** Entries without an ISIN, and (after `tallyUnasked`) ISINs listed that were not sent. */
	readonly tally = new EntryTally();

	/** `data` of the answer, a list of entries (the route's contract, answers.ts). */
	constructor(data: ClassificationEntry[]) {
		for (const entry of data) {
			const isin = normalizeIsin(entry.isin);
			if (!isin) {
				this.tally.withoutIsin++;
				continue;
			}
			const list = this.byIsin.get(isin);
			if (list) list.push(entry);
			else this.byIsin.set(isin, [entry]);
		}
	}

	/** Counts the ISINs the answer listed that are none of `sent`. */
	tallyUnasked(sent: Iterable<string>): EntryTally {
		const asked = new Set(sent);
		for (const isin of this.byIsin.keys()) if (!asked.has(isin)) this.tally.unasked.add(isin);
		return this.tally;
	}

	next(isin: string): ClassificationEntry | undefined {
		const list = this.byIsin.get(isin);
		if (!list) return undefined;
		const index = this.taken.get(isin) ?? 0;
		this.taken.set(isin, index + 1);
		return list[Math.min(index, list.length - 1)];
	}
}

/** The result columns of a classified holding. */
export function classificationColumns(
	isin: string,
	entry: ClassificationEntry | undefined,
): IDataObject {
	const profile = entry?.sustainability_profile ?? {};
	const classification = readClassification(profile.classification);
	const description = (typeof profile.description === 'string' ? profile.description : null) as
		| string
		| null;
	return {
		isin,
		classification,
		label: sustainabilityLabel(classification, description),
		description,
		weight: (entry?.weight ?? null) as IDataObject[string],
	};
}

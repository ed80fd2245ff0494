import { kindOf, showValue } from '../base/values';

const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/**
 * Longest value ever sent as an ISIN, even with "Invalid ISINs: Send Anyway": an ISIN has 12 characters, and a
 * longer value is a whole cell or document mapped by mistake (a megabyte would be sent, and echoed back).
 */
const MAX_ISIN_INPUT_LENGTH = 64;

/** Why a value cannot be an ISIN at all (not text, or far too long), shown by a short prefix only; else undefined. */
export function unsendableIsin(raw: unknown, normalized: string): string | undefined {
	if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
		return `${kindOf(raw)} (${showValue(raw, 30)}), not text`;
	}
	if (normalized.length > MAX_ISIN_INPUT_LENGTH) {
		return `${normalized.length} characters ("${showValue(normalized, 20)}"), far more than the 12 of an ISIN`;
	}
	return undefined;
}

/**
 * Characters that show nothing and carry nothing in an ISIN, as copies from web pages, PDFs, Word and chat apps bring
 * them: soft hyphen, zero-width space / non-joiner / joiner, left-to-right and right-to-left marks, the bidi
 * embeddings, overrides and isolates, word joiner, byte order mark (zero-width no-break space).
 */
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

/**
 * Full-width digits and Latin letters (Ｕ Ｓ ０, typed with an East Asian input method) as their ASCII selves. Only
 * these: NFKC would also turn superscripts, circled digits, ligatures, Roman numerals and mathematical letters into
 * ASCII, which would be a guess; such characters are named by describeInvalidIsin instead.
 */
const FULL_WIDTH = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/g;
const toHalfWidth = (char: string) => String.fromCharCode(char.charCodeAt(0) - 0xfee0);

/**
 * Trim, drop inner spaces and invisible characters, fold full-width letters and digits to ASCII and upper-case, as
 * people paste ISINs from sheets, PDFs and web pages. Only ASCII letters are upper-cased: a letter of another script
 * (Cyrillic "з", Turkish "ı") stays as typed, for describeInvalidIsin to name.
 */
export function normalizeIsin(raw: unknown): string {
	// Already clean (the usual case): nothing to strip or upper-case.
	if (typeof raw === 'string' && ISIN_SHAPE.test(raw)) return raw;
	if (typeof raw !== 'string' && typeof raw !== 'number') return '';
	return String(raw)
		.replace(INVISIBLE, '')
		.replace(FULL_WIDTH, toHalfWidth)
		.replace(/\s+/g, '')
		.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** A Luhn digit's share of the sum: doubled digits above 4 give their digit sum (2 × d − 9). */
const luhn = (digit: number, doubled: boolean) =>
	doubled ? (digit > 4 ? digit * 2 - 9 : digit * 2) : digit;

/** ISO 6166: two letters, nine alphanumerics, one Luhn check digit over the letters expanded to numbers. */
export function isValidIsin(isin: string): boolean {
	if (!ISIN_SHAPE.test(isin)) return false;
	// From the right over the first 11 characters, the rightmost digit doubled; a letter counts as its two digits
	// (A = 10 ... Z = 35), units first. No intermediate string: this runs once per input item.
	let sum = 0;
	let doubled = true;
	for (let i = 10; i >= 0; i--) {
		const code = isin.charCodeAt(i);
		if (code >= 65) {
			const value = code - 55;
			sum += luhn(value % 10, doubled) + luhn(Math.floor(value / 10), !doubled);
		} else {
			sum += luhn(code - 48, doubled);
			doubled = !doubled;
		}
	}
	return (10 - (sum % 10)) % 10 === isin.charCodeAt(11) - 48;
}

/** Cyrillic and Greek letters that look like a Latin capital letter or a digit (З like 3, Ο like O). */
const LOOK_ALIKES = new Set(Array.from('АВЕЗКМНОРСТХУІЈЅаезкмнорстхуіјѕԁԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧοικνρτυχ'));

function scriptOf(code: number): string | undefined {
	if ((code >= 0x0400 && code <= 0x052f) || (code >= 0x1c80 && code <= 0x1c8f)) return 'Cyrillic';
	if ((code >= 0x0370 && code <= 0x03ff) || (code >= 0x1f00 && code <= 0x1fff)) return 'Greek';
	return undefined;
}

const codePoint = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character an ISIN can never have (anything but A–Z and 0–9), named with its code point and position
 * (from 1, in the cleaned value), in words a user can act on; undefined when there is none.
 */
function strangeCharacter(isin: string, quoted: string): string | undefined {
	let position = 0;
	for (const char of isin) {
		position++;
		if (/^[A-Z0-9]$/.test(char)) continue;
		const code = char.codePointAt(0)!;
		const script = scriptOf(code);
		const at = `at position ${position}`;
		if (script && /^\p{L}$/u.test(char)) {
			return LOOK_ALIKES.has(char)
				? `${quoted} contains the ${script} letter "${char}" (${codePoint(code)}) ${at}, which looks like a Latin letter or digit; retype it`
				: `${quoted} contains the ${script} letter "${char}" (${codePoint(code)}) ${at}; an ISIN has only Latin letters A–Z and digits 0–9`;
		}
		if (/^[\p{Cc}\p{Cf}\p{Z}]$/u.test(char)) {
			return `${quoted} contains an invisible character (${codePoint(code)}) ${at}; retype the ISIN or delete that character`;
		}
		return `${quoted} contains the character "${char}" (${codePoint(code)}) ${at}; an ISIN has only letters A–Z and digits 0–9`;
	}
	return undefined;
}

/** Why an ISIN is invalid, in words a user can act on. */
export function describeInvalidIsin(isin: string): string {
	// A character from outside ASCII first: it is what went wrong (a look-alike letter, an invisible character), and it
	// makes the length and the country code look wrong for no visible reason.
	if (/[^\x20-\x7e]/.test(isin)) {
		const strange = strangeCharacter(isin, `"${showValue(isin)}"`);
		if (strange) return strange;
	}
	if (isin.length !== 12)
		return `"${showValue(isin)}" has ${isin.length} characters; an ISIN has 12`;
	if (!/^[A-Z]{2}/.test(isin)) return `"${isin}" does not start with a two-letter country code`;
	if (!ISIN_SHAPE.test(isin)) {
		return (
			strangeCharacter(isin, `"${isin}"`) ??
			`"${isin}" ends in the letter "${isin[11]}"; the last character of an ISIN is its check digit (0–9)`
		);
	}
	return `"${isin}" fails the ISIN check digit (a typo?)`;
}

/** One entry of an ISIN list: a cleaned value (an ISIN, or what Invalid ISINs reports), or why it can never be sent. */
export interface IsinListEntry {
	isin?: string;
	problem?: string;
	/** Its place in the list as given (from 1), duplicates counted. */
	position: number;
	/** The entry as the user wrote it (givenIsin), for the output row. */
	given: string | null;
}

export interface IsinList {
	/** Each distinct value once, in first-seen order. */
	entries: IsinListEntry[];
	/** Entries left out because the same ISIN came earlier in the list. */
	duplicates: number;
}

/** Longest ISIN value kept as written in an output row; a longer one is shown cut (it is never an ISIN). */
const MAX_GIVEN_LENGTH = 40;

/**
 * The ISIN as the user typed or mapped it, for the output row beside the result: text as written (trimmed only when
 * the list split it), a number as its text, null when there is none (or only spaces); anything else, or a text far too long for an
 * ISIN, as a short description.
 */
export function givenIsin(raw: unknown): string | null {
	if (raw === undefined || raw === null) return null;
	if (typeof raw === 'string' && raw.trim() === '') return null;
	if (typeof raw === 'string')
		return raw.length <= MAX_GIVEN_LENGTH ? raw : showValue(raw, MAX_GIVEN_LENGTH);
	if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : showValue(raw);
	return showValue(raw, MAX_GIVEN_LENGTH);
}

/**
 * Quotes, brackets and braces around an entry: `["US0378331005",` and `'DE0007164600']` as JSON or Python write them,
 * and their full-width and CJK forms (「US0378331005」).
 */
const WRAPPING =
	/^[\s"'`“”‘’[\](){}「」『』［］（）｛｝＂＇]+|[\s"'`“”‘’[\](){}「」『』［］（）｛｝＂＇]+$/g;

/** A markdown code fence around the whole value, as AI models often write JSON: ```json ... ``` */
const CODE_FENCE = /^```[\w-]*[^\S\r\n]*\r?\n?([\s\S]*?)\r?\n?```$/;

/**
 * The ISINs of a list parameter, in any form people and AI models write one: separated by commas, semicolons, spaces,
 * tabs or new lines; a JSON array (`["US0378331005", "DE0007164600"]`, also inside a ```json fence or encoded twice);
 * quoted or bracketed entries; lower case; or a list an expression gives. Every entry is cleaned (normalizeIsin), not
 * checked: one that is not an ISIN stays in the list for the Invalid ISINs option to report by name. A text that looks
 * like JSON but is not valid JSON is split at the separators.
 */
export function splitIsinList(value: unknown): IsinList {
	const raw: unknown[] = [];
	collect(value, raw, 0);
	const entries: IsinListEntry[] = [];
	const seen = new Set<string>();
	let duplicates = 0;
	raw.forEach((entry, index) => {
		const position = index + 1;
		if (typeof entry !== 'string') {
			entries.push({
				problem: `invalid ISIN: ${unsendableIsin(entry, '')}`,
				position,
				given: givenIsin(entry),
			});
			return;
		}
		const isin = normalizeIsin(entry);
		// Only invisible characters (a zero-width space between two separators): no entry.
		if (!isin) return;
		const why = unsendableIsin(isin, isin);
		if (why) entries.push({ problem: `invalid ISIN: ${why}`, position, given: givenIsin(entry) });
		else if (seen.has(isin)) duplicates++;
		else {
			seen.add(isin);
			entries.push({ isin, position, given: givenIsin(entry) });
		}
	});
	return { entries, duplicates };
}

/** The list's entries as texts (numbers as text; other values kept as they are, to be reported). */
function collect(value: unknown, into: unknown[], depth: number): void {
	if (value === undefined || value === null || value === '') return;
	if (Array.isArray(value)) {
		for (const entry of value) {
			// A list inside the list (`[["US0378331005"]]`) is read as its entries; deeper nesting is not a list of ISINs.
			if (Array.isArray(entry) && depth < 2) collect(entry, into, depth + 1);
			else if (typeof entry === 'string') collectText(entry, into, depth + 1, ENTRY_SEPARATORS);
			else if (typeof entry === 'number') into.push(String(entry));
			else if (entry !== undefined && entry !== null) into.push(entry);
		}
		return;
	}
	if (typeof value === 'number') into.push(String(value));
	else if (typeof value === 'string') collectText(value, into, depth, TEXT_SEPARATORS);
	else into.push(value);
}

/**
 * Between the ISINs of a text; within an entry of a list, spaces are part of one ISIN ("US 0378 331005"). Commas and
 * semicolons as Chinese, Japanese and Arabic keyboards type them count too: 、，；﹐﹔､ ، ؛ (the ideographic space
 * U+3000 is one of `\s`).
 */
const TEXT_SEPARATORS = /[\s,;、，；﹐﹔､،؛]+/;
const ENTRY_SEPARATORS = /[,;\r\n、，；﹐﹔､،؛]+/;

function collectText(text: string, into: unknown[], depth: number, separators: RegExp): void {
	let trimmed = text.trim();
	const fenced = CODE_FENCE.exec(trimmed);
	if (fenced) trimmed = fenced[1].trim();
	// A JSON array, or a JSON string holding one (double-encoded); anything else is split at the separators.
	if (depth < 3 && (trimmed.startsWith('[') || trimmed.startsWith('"['))) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(trimmed);
		} catch {
			parsed = undefined;
		}
		if (Array.isArray(parsed) || (typeof parsed === 'string' && parsed.trim().startsWith('['))) {
			collect(parsed, into, depth + 1);
			return;
		}
	}
	for (const part of trimmed.split(separators)) {
		const entry = part.replace(WRAPPING, '');
		if (entry) into.push(entry);
	}
}

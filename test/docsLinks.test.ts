/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * Every link in the documentation leads somewhere: the relative links and `#anchor`s of README.md and every .md under docs/
 * (file exists, heading exists, as GitHub slugs it), and every link to the project's README or docs that the shipped
 * code carries (the codex `primaryDocumentation` / `credentialDocumentation` of each node, the credential's
 * `documentationUrl`, any text under nodes/ or credentials/). A node's own link leads to its page in docs/nodes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative } from 'path';

import packageJson from '../package.json';
import { SustainabilityComplianceApi } from '../credentials/SustainabilityComplianceApi.credentials';
import { packageNodeTypes } from './workflow/packageNodes';

const root = join(__dirname, '..');
const repository = packageJson.homepage.replace(/#.*$/, '');

/** GitHub's heading anchor: lower case, punctuation dropped (except "-" and "_"), spaces become "-", repeats get -1, -2... */
export function githubSlugs(
	markdown: string,
): Array<{ level: number; text: string; slug: string }> {
	const seen = new Map<string, number>();
	const headings: Array<{ level: number; text: string; slug: string }> = [];
	let inFence = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
		const match = !inFence && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
		if (!match) continue;
		const text = match[2]
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
			.replace(/`/g, '');
		const base = text
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		headings.push({ level: match[1].length, text, slug: count ? `${base}-${count}` : base });
	}
	return headings;
}

function filesUnder(folder: string, pattern: RegExp): string[] {
	return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return filesUnder(path, pattern);
		return pattern.test(entry.name) ? [path] : [];
	});
}

/** The documentation pages whose links are checked (paths relative to the repository, "/"-separated). */
const markdownFiles = ['README.md', ...filesUnder('docs', /\.md$/)].map((file) =>
	file.split('\\').join('/'),
);

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
	let anchors = anchorCache.get(file);
	if (!anchors) {
		anchors = new Set(
			githubSlugs(readFileSync(join(root, file), 'utf8')).map((heading) => heading.slug),
		);
		anchorCache.set(file, anchors);
	}
	return anchors;
}

/** The other Markdown pages of the repository that link into README.md and docs/. */
const otherPages = [
	'CONTRIBUTING.md',
	'examples/README.md',
	'test/e2e/README.md',
	'test/simulator/README.md',
	'soak/README.md',
].filter((file) => existsSync(join(root, file)));

/** Link targets of a Markdown text, outside fenced code blocks and `code` spans. */
export function markdownLinkTargets(markdown: string): string[] {
	let inFence = false;
	const prose = markdown
		.split('\n')
		.filter((line) => {
			if (/^\s*(```|~~~)/.test(line)) {
				inFence = !inFence;
				return false;
			}
			return !inFence;
		})
		.join('\n')
		.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
	return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
}

/**
 * What is wrong with a link to `path` (relative to the repository) and `anchor`, or undefined: the file (or folder)
 * must exist; an anchor must name a heading of that Markdown file.
 */
export function linkProblem(path: string, anchor: string | undefined): string | undefined {
	const file = decodeURIComponent(path);
	if (file.startsWith('..') || !existsSync(join(root, file))) return `no file ${file}`;
	if (anchor === undefined) return undefined;
	if (!file.endsWith('.md') || statSync(join(root, file)).isDirectory())
		return `#${anchor} on ${file}, which is not a Markdown page`;
	if (!anchorsOf(file).has(decodeURIComponent(anchor))) return `no heading #${anchor} in ${file}`;
	return undefined;
}

/** Problems of the relative links and anchors of one Markdown page. */
function problemsOfPage(file: string, markdown: string): string[] {
	const problems: string[] = [];
	for (const target of markdownLinkTargets(markdown)) {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
		const hash = target.indexOf('#');
		const path = hash === -1 ? target : target.slice(0, hash);
		const anchor = hash === -1 ? undefined : target.slice(hash + 1);
		const resolved = path
			? relative(root, join(root, dirname(file), path))
					.split('\\')
					.join('/')
			: file;
		const problem = linkProblem(resolved, anchor);
		if (problem) problems.push(`${file}: (${target}): ${problem}`);
	}
	return problems;
}

/** A project URL (README or a file of the main branch) as the path and anchor it names, or undefined. */
function projectTarget(url: string): { path: string; anchor: string | undefined } | undefined {
	const match = new RegExp(
		`^${repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/blob/main/([^#?]+))?(?:#(.*))?$`,
	).exec(url);
	if (!match) return undefined;
	return { path: match[1] ?? 'README.md', anchor: match[2] };
}

function urlProblem(url: string): string | undefined {
	const target = projectTarget(url);
	if (!target) return `not a link to ${repository} or a file on its main branch`;
	return linkProblem(target.path, target.anchor);
}

interface Codex {
	node: string;
	resources: {
		primaryDocumentation?: Array<{ url: string }>;
		credentialDocumentation?: Array<{ url: string }>;
	};
}

const codexFiles = readdirSync(join(root, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
	.flatMap((entry) =>
		readdirSync(join(root, 'nodes', entry.name))
			.filter((file) => file.endsWith('.node.json'))
			.map((file) => join('nodes', entry.name, file)),
	);

/** The first heading of each page in docs/nodes, by page. */
const nodePages = new Map(
	markdownFiles
		.filter((file) => file.startsWith('docs/nodes/'))
		.map((file) => [file, githubSlugs(readFileSync(join(root, file), 'utf8'))[0]] as const),
);

describe('Docs links', () => {
	it('slugs headings the way GitHub does', () => {
		expect(
			githubSlugs(
				"# A & B\n## Max Requests per Run\n```\n# not a heading\n```\n## Holdings (JSON)\n## Holdings (JSON)\n### `code` and [link](x)\n## Waiting, throttles and the API's answers",
			).map((heading) => heading.slug),
		).toEqual([
			'a--b',
			'max-requests-per-run',
			'holdings-json',
			'holdings-json-1',
			'code-and-link',
			'waiting-throttles-and-the-apis-answers',
		]);
	});

	it('reads the link targets of a page, not what is in code', () => {
		expect(
			markdownLinkTargets(
				'[a](docs/x.md#y) `[not](z.md)` ![img](docs/screenshots/a.png "title")\n```\n[no](w.md)\n```\n[b](#c) [c](https://e.com)',
			),
		).toEqual(['docs/x.md#y', 'docs/screenshots/a.png', '#c', 'https://e.com']);
	});

	it('finds a broken link: a missing page, a missing heading, an anchor on a file that is not a page', () => {
		expect(
			problemsOfPage('docs/x.md', '[ok](../README.md#credentials) [ok](holdings-input.md)'),
		).toEqual([]);
		expect(
			problemsOfPage(
				'docs/x.md',
				'[a](nodes/missing.md) [b](../README.md#no-such-heading) [c](#nowhere) [d](../package.json#x) [e](../../outside.md)',
			),
		).toEqual([
			'docs/x.md: (nodes/missing.md): no file docs/nodes/missing.md',
			'docs/x.md: (../README.md#no-such-heading): no heading #no-such-heading in README.md',
			'docs/x.md: (#nowhere): no file docs/x.md',
			'docs/x.md: (../package.json#x): #x on package.json, which is not a Markdown page',
			'docs/x.md: (../../outside.md): no file ../outside.md',
		]);
		expect(urlProblem(`${repository}/blob/main/docs/nodes/eu-taxonomy.md#no-such-heading`)).toBe(
			'no heading #no-such-heading in docs/nodes/eu-taxonomy.md',
		);
		expect(urlProblem('https://example.com/docs#x')).toMatch(/^not a link to /);
	});

	it('has README.md and the pages docs/**/*.md it links to', () => {
		expect(markdownFiles).toEqual(
			expect.arrayContaining([
				'README.md',
				'docs/holdings-input.md',
				'docs/requests-quota-and-errors.md',
				'docs/agents-and-mcp.md',
				'docs/running-at-scale.md',
				'docs/performance.md',
				'docs/simulator.md',
				'docs/development.md',
			]),
		);
		const readmeTargets = markdownLinkTargets(readFileSync(join(root, 'README.md'), 'utf8'));
		for (const file of markdownFiles.filter((page) => page !== 'README.md'))
			expect({
				file,
				linked: readmeTargets.some((target) => target.split('#')[0] === file),
			}).toEqual({
				file,
				linked: true,
			});
		expect(readmeTargets).toEqual(expect.arrayContaining(['docs/screenshots/Upload-form.png']));
	});

	it.each([...markdownFiles, ...otherPages])(
		'%s: every relative link and #anchor leads to an existing file and heading',
		(file) => {
			expect(problemsOfPage(file, readFileSync(join(root, file), 'utf8'))).toEqual([]);
		},
	);

	it('every link to the README or docs in nodes/ and credentials/ leads to an existing file and heading', () => {
		const urlPattern = new RegExp(
			`${repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"'\`)<>]*`,
			'g',
		);
		const found: string[] = [];
		for (const file of [
			...filesUnder('nodes', /\.(ts|json)$/),
			...filesUnder('credentials', /\.(ts|json)$/),
		])
			for (const match of readFileSync(join(root, file), 'utf8').matchAll(urlPattern)) {
				found.push(match[0]);
				expect({ file, url: match[0], problem: urlProblem(match[0]) }).toEqual({
					file,
					url: match[0],
					problem: undefined,
				});
			}
		// the six codex files (primary and credential documentation) and the credential
		expect(found.length).toBeGreaterThanOrEqual(2 * codexFiles.length + 1);
	});

	it('has a codex file for every node, and a page in docs/nodes for each, headed by its name', () => {
		expect(codexFiles).toHaveLength(packageJson.n8n.nodes.length);
		const titles = [...nodePages.values()].map((heading) => heading.level === 1 && heading.text);
		for (const type of packageNodeTypes)
			expect({
				node: type.description.displayName,
				page: titles.includes(type.description.displayName),
			}).toEqual({
				node: type.description.displayName,
				page: true,
			});
	});

	it.each(codexFiles)("%s: the node's Docs link leads to its page in docs/nodes", (file) => {
		const codex = JSON.parse(readFileSync(join(root, file), 'utf8')) as Codex;
		const type = packageNodeTypes.find(
			(node) => codex.node === `${packageJson.name}.${node.description.name}`,
		);
		expect(type).toBeDefined();
		const primary = codex.resources.primaryDocumentation ?? [];
		expect(primary).toHaveLength(1);
		const target = projectTarget(primary[0].url);
		expect(target?.anchor).toBeUndefined();
		expect(nodePages.get(target?.path ?? '')?.text).toBe(type!.description.displayName);
		for (const { url } of codex.resources.credentialDocumentation ?? [])
			expect({ url, problem: urlProblem(url) }).toEqual({ url, problem: undefined });
	});

	it('docs/ stays out of the npm package (its pages are read on GitHub, where the links lead)', () => {
		expect(packageJson.files.filter((pattern) => /^(\.\/)?docs\b/.test(pattern))).toEqual([]);
	});

	it("the credential's documentation link leads to the README's Credentials section", () => {
		const url = new SustainabilityComplianceApi().documentationUrl;
		expect(urlProblem(url)).toBeUndefined();
		expect(projectTarget(url)).toEqual({ path: 'README.md', anchor: 'credentials' });
	});
});

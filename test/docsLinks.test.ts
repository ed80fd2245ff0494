/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The Docs links n8n shows (the codex `primaryDocumentation` / `credentialDocumentation` of each node, the
 * credential's `documentationUrl`) must land on an existing README heading, as GitHub slugs it; a node's own
 * link must land on its section under "## Nodes".
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

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

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const headings = githubSlugs(readme);
const anchors = new Set(headings.map((heading) => heading.slug));

/** The `### <Node>` headings between "## Nodes" and the next "##". */
function nodeSections(): Map<string, string> {
	const sections = new Map<string, string>();
	let inNodes = false;
	for (const heading of headings) {
		if (heading.level <= 2) inNodes = heading.text === 'Nodes';
		else if (inNodes && heading.level === 3) sections.set(heading.text, heading.slug);
	}
	return sections;
}

function anchorOf(url: string): string {
	expect(url.startsWith(`${repository}#`)).toBe(true);
	return url.slice(repository.length + 1);
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

describe('Docs links', () => {
	it('slugs headings the way GitHub does', () => {
		expect(
			githubSlugs(
				'# A & B\n## Max Requests per Run\n```\n# not a heading\n```\n## Holdings (JSON)\n## Holdings (JSON)\n### `code` and [link](x)',
			).map((heading) => heading.slug),
		).toEqual([
			'a--b',
			'max-requests-per-run',
			'holdings-json',
			'holdings-json-1',
			'code-and-link',
		]);
	});

	it('has a codex file for every node, and the README a section under "## Nodes" for each', () => {
		expect(codexFiles).toHaveLength(packageJson.n8n.nodes.length);
		const sections = nodeSections();
		for (const type of packageNodeTypes)
			expect({
				node: type.description.displayName,
				section: sections.has(type.description.displayName),
			}).toEqual({
				node: type.description.displayName,
				section: true,
			});
	});

	it.each(codexFiles)("%s: the node's Docs link leads to its README section", (file) => {
		const codex = JSON.parse(readFileSync(join(root, file), 'utf8')) as Codex;
		const type = packageNodeTypes.find(
			(node) => codex.node === `${packageJson.name}.${node.description.name}`,
		);
		expect(type).toBeDefined();
		const primary = codex.resources.primaryDocumentation ?? [];
		expect(primary).toHaveLength(1);
		expect(anchorOf(primary[0].url)).toBe(nodeSections().get(type!.description.displayName));
		for (const { url } of codex.resources.credentialDocumentation ?? [])
			expect({ url, found: anchors.has(anchorOf(url)) }).toEqual({ url, found: true });
	});

	it("the README's links and images to the project's files (docs/screenshots, examples) lead to existing files", () => {
		const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
			.map((match) => match[1])
			.filter((target) => !/^([a-z]+:|#)/i.test(target))
			.map((target) => target.replace(/#.*$/, ''));
		expect(targets).toEqual(expect.arrayContaining(['docs/screenshots/Upload-form.png']));
		expect(targets.filter((target) => !existsSync(join(root, decodeURIComponent(target))))).toEqual(
			[],
		);
	});

	it("the credential's documentation link leads to an existing README heading", () => {
		const url = new SustainabilityComplianceApi().documentationUrl;
		expect({ url, found: anchors.has(anchorOf(url)) }).toEqual({ url, found: true });
		expect(anchorOf(url)).toBe('credentials');
	});
});

#!/usr/bin/env node
// `npm run check:package` (after `npm run build`): checks what `npm publish` would ship.
//
// 1. Contents: `npm pack --dry-run --json` may list only what n8n loads (the compiled nodes and credentials, their
//    .svg icons and .node.json codex files, each built from a source that still exists) plus package.json, README.md,
//    LICENSE and CHANGELOG.md; and it must list every file package.json's `n8n.nodes` / `n8n.credentials` names, each
//    node's codex file and every `file:` icon a node or credential description references.
// 2. n8n's scanner, @n8n/scan-community-package, on its two lint legs, run the way its analyzePackageByName runs them:
//    the source leg lints this checkout's package.json, nodes/ and credentials/ (SOURCE_FILE_PATTERNS); the tarball
//    leg packs the package for real, unpacks it as the scanner does (tar --strip-components=1) and lints its
//    compiled .js and package.json. Any finding fails the check.
//    Not run here, because they need the published package: the scanner's provenance check (the version on
//    registry.npmjs.org must carry an SLSA provenance attestation, which only `npm publish --provenance` from CI
//    creates) and its download of the source commit that attestation names. The publish workflow provides both.
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const problems = [];
const problem = (message) => problems.push(message);

/** Runs npm in the package root; npm's own notices go to stderr and are shown only on failure. */
function npm(args) {
	const result = spawnSync('npm', args, {
		cwd: root,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		shell: process.platform === 'win32',
		// `npm publish --dry-run` exports npm_config_dry_run to its prepublishOnly script; the tarball leg needs a real tarball.
		env: { ...process.env, npm_config_dry_run: 'false' },
	});
	if (result.status !== 0) {
		throw new Error(
			`npm ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`,
		);
	}
	return JSON.parse(result.stdout);
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Contents
// ---------------------------------------------------------------------------------------------------------------

const n8nFiles = [...(packageJson.n8n?.nodes ?? []), ...(packageJson.n8n?.credentials ?? [])];
const unbuilt = n8nFiles.filter((file) => !existsSync(join(root, file)));
if (unbuilt.length > 0) {
	console.error(
		`The package is not built (missing ${unbuilt.join(', ')}): run \`npm run build\` first.`,
	);
	process.exit(1);
}

const [dryRun] = npm(['pack', '--dry-run', '--json', '--ignore-scripts']);
const packed = dryRun.files.map((file) => file.path).sort();
const packedSet = new Set(packed);

console.log(
	`npm pack --dry-run: ${dryRun.filename}, ${packed.length} files, ${dryRun.size} B packed, ${dryRun.unpackedSize} B unpacked`,
);
for (const file of dryRun.files.slice().sort((a, b) => a.path.localeCompare(b.path))) {
	console.log(`  ${String(file.size).padStart(7)}  ${file.path}`);
}

const alwaysShipped = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
// A compiled file must come from a source that is still there: a stale dist/ (a source renamed or deleted since the
// last build) would otherwise ship dead code.
const built = [
	{ pattern: /^dist\/((?:nodes|credentials)\/.+)\.js$/, source: (m) => `${m[1]}.ts` },
	{ pattern: /^dist\/((?:nodes|credentials)\/.+\.svg)$/, source: (m) => m[1] },
	{ pattern: /^dist\/(nodes\/.+\.node\.json)$/, source: (m) => m[1] },
];
for (const file of packed) {
	if (alwaysShipped.has(file)) continue;
	const rule = built
		.map(({ pattern, source }) => ({ match: pattern.exec(file), source }))
		.find(({ match }) => match);
	if (!rule) {
		problem(`packed but not loaded by n8n: ${file}`);
	} else if (!existsSync(join(root, rule.source(rule.match)))) {
		problem(
			`packed but stale (no source ${rule.source(rule.match)}; run \`npm run build\`): ${file}`,
		);
	}
}
for (const file of alwaysShipped) {
	if (!packedSet.has(file)) problem(`not packed: ${file}`);
}

/** A `file:` icon path resolved, as n8n resolves it, against the directory of the compiled file declaring it. */
function checkIcon(declaredIn, icon, what) {
	for (const value of typeof icon === 'object' && icon !== null ? Object.values(icon) : [icon]) {
		if (typeof value !== 'string' || !value.startsWith('file:')) continue;
		const iconPath = posix.normalize(
			posix.join(posix.dirname(declaredIn), value.slice('file:'.length)),
		);
		if (iconPath.startsWith('../')) problem(`${what}: icon ${value} points outside the package`);
		else if (!packedSet.has(iconPath))
			problem(`${what}: icon ${value} (${iconPath}) is not packed`);
	}
}

/** Instances of every class a compiled node or credential file exports (n8n instantiates the one named like the file). */
function exportedInstances(file) {
	return Object.values(require(join(root, file)))
		.filter((value) => typeof value === 'function')
		.map((Class) => new Class());
}

for (const file of packageJson.n8n?.nodes ?? []) {
	if (!packedSet.has(file)) problem(`n8n.nodes names ${file}, which is not packed`);
	const codex = file.replace(/\.js$/, '.json');
	if (!packedSet.has(codex)) problem(`${file}: codex file ${codex} is not packed`);
	for (const node of exportedInstances(file)) {
		const descriptions = [
			node.description ?? node.baseDescription,
			...Object.values(node.nodeVersions ?? {}).map((v) => v.description),
		];
		for (const description of descriptions.filter(Boolean)) {
			checkIcon(file, description.icon, `${file} (${description.name})`);
		}
	}
}
for (const file of packageJson.n8n?.credentials ?? []) {
	if (!packedSet.has(file)) problem(`n8n.credentials names ${file}, which is not packed`);
	for (const credential of exportedInstances(file))
		checkIcon(file, credential.icon, `${file} (${credential.name})`);
}

// ---------------------------------------------------------------------------------------------------------------
// 2. n8n's scanner, source leg and tarball leg
// ---------------------------------------------------------------------------------------------------------------

const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
const scannerRequire = createRequire(scannerPath);
// The scanner makes a temp folder when it loads (for downloads this check does not do); have it removed on exit.
scannerRequire('tmp').setGracefulCleanup();
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(scannerPath);
// The scanner's own file globber, to show how many files each leg lints (it passes "no files found" silently).
const glob = scannerRequire('fast-glob');

const workDir = mkdtempSync(join(tmpdir(), 'check-package-'));
let findings = 0;
try {
	const [tarball] = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', workDir]);
	const packageDir = join(workDir, 'package');
	mkdirSync(packageDir);
	const tar = spawnSync(
		'tar',
		['-xzf', join(workDir, tarball.filename), '-C', packageDir, '--strip-components=1'],
		{
			encoding: 'utf8',
		},
	);
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);

	const unpacked = listFiles(packageDir).sort();
	if (unpacked.join('\n') !== packed.join('\n')) {
		problem(
			`the tarball's files differ from npm pack --dry-run's list:\n  ${unpacked.join('\n  ')}`,
		);
	}

	const legs = [
		{ name: 'source leg', dir: root, patterns: SOURCE_FILE_PATTERNS },
		{ name: 'tarball leg', dir: packageDir, patterns: ['**/*.js', 'package.json'] },
	];
	for (const leg of legs) {
		const files = glob.sync(leg.patterns, {
			cwd: leg.dir,
			ignore: ['node_modules/**', '**/package-lock.json'],
		});
		const result = await analyzePackage(leg.dir, leg.patterns);
		const legFindings = result.passed ? 0 : countFindings(result.details);
		findings += legFindings;
		console.log(
			`\nscanner ${leg.name}: ${files.length} files (${leg.patterns.join(', ')}), ${legFindings} finding${legFindings === 1 ? '' : 's'}`,
		);
		if (files.length === 0) problem(`scanner ${leg.name}: no files to lint`);
		if (!result.passed) {
			console.log(result.message);
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(workDir, { recursive: true, force: true });
}

/** Every file under dir, as a /-separated path relative to base. */
function listFiles(dir, base = dir) {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory()
			? listFiles(path, base)
			: [relative(base, path).split(sep).join('/')];
	});
}

/** Errors in ESLint's stylish summary ("✖ 3 problems (3 errors, 0 warnings)"); a failure without one counts as 1. */
function countFindings(details) {
	const summary = /✖ \d+ problems? \((\d+) errors?, \d+ warnings?\)/.exec(details ?? '');
	return summary ? Number(summary[1]) : 1;
}

console.log(`\nscanner findings: ${findings}`);
for (const message of problems) console.error(`✖ ${message}`);
if (problems.length > 0 || findings > 0) {
	console.error(
		`\ncheck:package failed: ${problems.length} packing problems, ${findings} scanner findings`,
	);
	process.exit(1);
}
console.log(
	"check:package passed: the package ships only what n8n loads, and n8n's scanner finds nothing",
);

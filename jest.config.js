/** Packages of the cached n8n install that ship ES modules only: transformed to CommonJS for Jest. */
const ESM_ONLY_PACKAGES = [
	'htmlparser2',
	'domhandler',
	'domutils',
	'dom-serializer',
	'domelementtype',
	'entities',
	'escape-string-regexp',
];
const ESM_ONLY_FILES = `/node_modules/(${ESM_ONLY_PACKAGES.join('|')})/.+\\.js$`;

/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
		// n8n's Form nodes (loaded from the cached n8n install) reach htmlparser2 10, which ships ES modules only.
		[ESM_ONLY_FILES]: [
			'ts-jest',
			{
				diagnostics: false,
				isolatedModules: true,
				tsconfig: { allowJs: true, module: 'commonjs' },
			},
		],
	},
	transformIgnorePatterns: [
		`^(?!.*/node_modules/(${ESM_ONLY_PACKAGES.join('|')})/).*/node_modules/`,
	],
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 60000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	// keep-alive sockets of n8n's HTTP client can outlive a suite by a few seconds
	forceExit: true,
};

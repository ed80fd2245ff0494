/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 60000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	// keep-alive sockets of n8n's HTTP client can outlive a suite by a few seconds
	forceExit: true,
};

const path = require('path');
const { task, src, dest } = require('gulp');

// tsc only emits .js; n8n loads node icons and codex files from next to the compiled node.
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);

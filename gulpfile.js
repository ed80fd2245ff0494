const fs = require('fs');
const path = require('path');
const { task, src, dest } = require('gulp');

// `npm run build` starts here: tsc never deletes, so a renamed or removed source would leave its old output in dist/
// and ship it.
task('clean', async () => {
	fs.rmSync(path.resolve('dist'), { recursive: true, force: true });
});

// tsc only emits .js; n8n loads node icons and codex files from next to the compiled node.
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest(path.resolve('dist'))),
);

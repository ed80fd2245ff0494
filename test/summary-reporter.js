// Closes every jest run with one plain line CI can read: "jest: N passed, M failed, K skipped".
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`,
		);
	}
}
module.exports = SummaryReporter;

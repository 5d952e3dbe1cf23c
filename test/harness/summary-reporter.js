// Prints the slowest suites and one plain closing line ("jest: N passed, N failed, N skipped") that
// CI can read. With PLAT_RECORD_SUITE_DURATIONS=1 it also writes the suites it ran into
// test/suite-durations.json (the others keep theirs), the order a clean clone runs its suites in
// (longest-first-sequencer.js).
const fs = require('node:fs');
const { DURATIONS_FILE, recordedDurations, suiteKey } = require('./longest-first-sequencer');

const SLOWEST_SHOWN = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const durations = results.testResults
      .filter((r) => !r.skipped && r.perfStats.runtime > 0)
      .map((r) => [suiteKey(r.testFilePath), r.perfStats.runtime / 1000])
      .sort((a, b) => b[1] - a[1]);
    if (durations.length > SLOWEST_SHOWN) {
      const lines = durations
        .slice(0, SLOWEST_SHOWN)
        .map(([file, s]) => `  ${s.toFixed(0).padStart(4)} s  ${file}`);
      process.stdout.write(`slowest suites:\n${lines.join('\n')}\n`);
    }
    if (process.env.PLAT_RECORD_SUITE_DURATIONS === '1') {
      const merged = { ...recordedDurations() };
      for (const [file, s] of durations) merged[file] = Math.max(1, Math.round(s));
      const longestFirst = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1]));
      fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(longestFirst, null, 2)}\n`);
      process.stdout.write(`suite durations written to ${suiteKey(DURATIONS_FILE)}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;

// Prints the slowest suites and one plain closing line ("jest: N passed, N failed, N skipped") that
// CI can read. With PLAT_RECORD_SUITE_DURATIONS=1 after a whole run, it also rewrites
// test/suite-durations.json, the order a clean clone runs its suites in (longest-first-sequencer.js).
const fs = require('node:fs');
const path = require('node:path');
const { DURATIONS_FILE } = require('./longest-first-sequencer');

const repoRoot = path.join(__dirname, '..', '..');
const SLOWEST_SHOWN = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const durations = results.testResults
      .filter((r) => !r.skipped && r.perfStats.runtime > 0)
      .map((r) => [
        path.relative(repoRoot, r.testFilePath).split(path.sep).join('/'),
        r.perfStats.runtime / 1000,
      ])
      .sort((a, b) => b[1] - a[1]);
    if (durations.length > SLOWEST_SHOWN) {
      const lines = durations
        .slice(0, SLOWEST_SHOWN)
        .map(([file, s]) => `  ${s.toFixed(0).padStart(4)} s  ${file}`);
      process.stdout.write(`slowest suites:\n${lines.join('\n')}\n`);
    }
    if (process.env.PLAT_RECORD_SUITE_DURATIONS === '1') {
      const rounded = Object.fromEntries(durations.map(([file, s]) => [file, Math.max(1, Math.round(s))]));
      fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(rounded, null, 2)}\n`);
      process.stdout.write(`suite durations written to ${path.relative(repoRoot, DURATIONS_FILE)}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;

// Runs the longest suites first on a clean clone too. Jest orders suites by the durations it cached
// on this machine's last run; a fresh clone has none, and jest falls back to file size, which can
// start a five-minute suite last and leave the other workers idle while it finishes. The durations
// measured on a CI-sized machine (test/suite-durations.json, refreshed by
// `PLAT_RECORD_SUITE_DURATIONS=1 npm test`) stand in until jest has its own.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const DURATIONS_FILE = path.join(__dirname, '..', 'suite-durations.json');
const repoRoot = path.join(__dirname, '..', '..');

/** A suite's key in the durations file: its path from the repository's root, with forward slashes. */
function suiteKey(testPath) {
  return path.relative(repoRoot, testPath).split(path.sep).join('/');
}

function recordedDurations() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

class LongestFirstSequencer extends Sequencer {
  constructor(options) {
    super(options);
    this.recorded = recordedDurations();
  }

  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = this.recorded[suiteKey(test.path)];
    return typeof seconds === 'number' ? seconds * 1000 : undefined;
  }
}

module.exports = LongestFirstSequencer;
module.exports.DURATIONS_FILE = DURATIONS_FILE;
module.exports.suiteKey = suiteKey;
module.exports.recordedDurations = recordedDurations;

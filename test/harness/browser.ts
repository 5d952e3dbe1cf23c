/** Debian's Chromium for UI tests (installed by provisioning with --tests). */
import * as fs from 'node:fs';

export function chromiumPath(): string {
  const found = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!found) throw new Error('Chromium is not installed: run scripts/provision.sh --tests');
  return found;
}

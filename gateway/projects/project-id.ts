import { randomBytes } from 'node:crypto';

/** `proj-<yyyymmdd>-<random suffix>` (docs/requirements.md#project-record); also the workflow id. */
export function newProjectId(now = new Date()): string {
  const date = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `proj-${date}-${randomBytes(4).toString('hex')}`;
}

export const PROJECT_ID_PATTERN = /^proj-\d{8}-[a-z0-9]{4,32}$/;

/**
 * The offline task pass of the digest: completed or open work found in journal text, written as
 * `[type] description`, at most five per pass (category task, docs/requirements.md#categories).
 */
import { sentences } from './deterministic-extractor';

export const MAX_TASK_LINES = 5;

/** The extraction prompt of the digest's task pass (used as is by Claude). */
export const TASK_EXTRACTION_PROMPT = `From this work journal, list the work tasks that were completed or started, at most 5, each as
"[type] description" where type is one word such as fix, feature, deploy, review, docs, migration,
ops, meeting, todo. Answer with ONLY {"facts": ["[type] description", ...]}.`;

const VERB_TYPES: [RegExp, string][] = [
  [/^(fixed|resolved|debugged|patched|repaired)\b/i, 'fix'],
  [/^(deployed|released|shipped|rolled out|published)\b/i, 'deploy'],
  [/^(implemented|added|built|created|wrote|introduced)\b/i, 'feature'],
  [/^(reviewed|approved)\b/i, 'review'],
  [/^(migrated|upgraded|moved)\b/i, 'migration'],
  [/^(documented|updated the docs)\b/i, 'docs'],
  [/^(met|discussed|synced|called)\b/i, 'meeting'],
  [/^(refactored|cleaned up|renamed|removed|updated|configured|set up|restarted|investigated)\b/i, 'ops'],
];

/** `[type] description` lines for the work the text records. */
export function taskLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const done = /^[-*]\s*\[x\]\s*(.+)$/i.exec(line);
    const todo = /^[-*]\s*\[ \]\s*(.+)$|^TODO:?\s*(.+)$/i.exec(line);
    if (done) lines.push(typed(done[1]));
    else if (todo) lines.push(`[todo] ${(todo[1] ?? todo[2]).trim()}`);
    else
      for (const s of sentences(line.replace(/^[-*]\s+/, ''))) {
        const verb = VERB_TYPES.find(([re]) => re.test(s));
        if (verb) lines.push(`[${verb[1]}] ${s.replace(/[.]$/, '')}`);
      }
  }
  return [...new Set(lines)].slice(0, MAX_TASK_LINES);
}

function typed(description: string): string {
  const d = description.trim().replace(/[.]$/, '');
  return `[${VERB_TYPES.find(([re]) => re.test(d))?.[1] ?? 'done'}] ${d}`;
}

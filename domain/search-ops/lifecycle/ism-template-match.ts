/**
 * Which policy an `ism_template` attaches to a new index, by ISM's rule: among the templates whose
 * index patterns match the name, the highest priority wins, and only indices created after the
 * template was last updated are attached (older ones need an explicit add).
 */
import type { IsmPolicy } from '../ism-policy';

type Template = { index_patterns: string[]; priority: number; last_updated_time?: number };

/** ISM index patterns: `*` matches any run of characters. */
export function patternMatches(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`);
  return re.test(name);
}

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function templatesOf(policy: IsmPolicy): Template[] {
  const t = policy.ism_template;
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

/** The policy whose template claims the index, if any, with the template that matched. */
export function templatePolicyFor<P extends { policy: IsmPolicy }>(
  index: { index: string; creation_date: number },
  policies: P[],
): { policy: P; template: Template } | undefined {
  let best: { policy: P; template: Template } | undefined;
  for (const policy of policies)
    for (const template of templatesOf(policy.policy)) {
      if (!template.index_patterns.some((p) => patternMatches(p, index.index))) continue;
      if (index.creation_date < (template.last_updated_time ?? 0)) continue;
      if (!best || template.priority > best.template.priority) best = { policy, template };
    }
  return best;
}

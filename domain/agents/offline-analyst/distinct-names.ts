/**
 * Distinct stems for names a source may give in any form. Two source names can make the same
 * identifier (`a/b` and `a_b` are both `a_b`; `*` and `..` make none), and a PRD whose tables or
 * fields share a name is refused, so a name that would clash, or that has no words at all, gets a
 * short hash of itself as a suffix (docs/architecture.md#file-names-from-source-names). Ordinary
 * names keep their stem: an existing PRD does not change.
 */
import { nameTokens } from './name-words';

/** The words of a name as an identifier stem (`Order Lines` → `order_lines`), '' when it has none. */
export const wordStem = (name: string): string => nameTokens(name).join('_');

/** FNV-1a over the name's UTF-16 units, in base 36: short, stable across runs and platforms. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0').slice(-6);
}

/**
 * For each of `names`, the stem to build identifiers from: the name itself when its stem is its own
 * (no other name makes the same, and it has words), otherwise `<stem>_<hash>` (`x_<hash>` when it
 * has no words). The name already written as its stem (`a_b`) keeps it; the others move. Stems are
 * kept within `maxLength` characters and distinct from each other and from every plain stem.
 */
export function distinctStems(
  names: readonly string[],
  /** How a name becomes an identifier stem; names it maps alike clash. */
  stemOf: (name: string) => string = wordStem,
  maxLength = 40,
): Map<string, string> {
  const byStem = new Map<string, string[]>();
  for (const name of new Set(names)) {
    const stem = stemOf(name).slice(0, maxLength);
    byStem.set(stem, [...(byStem.get(stem) ?? []), name]);
  }
  const result = new Map<string, string>();
  const taken = new Set<string>();
  const moved: string[] = [];
  for (const [stem, group] of byStem) {
    // The one name (if any) already written as its stem keeps it; an only name keeps its own form.
    const keeper = stem === '' ? undefined : group.length === 1 ? group[0] : group.find((n) => n === stem);
    for (const name of group) {
      if (name === keeper) {
        result.set(name, name);
        taken.add(stem);
      } else moved.push(name);
    }
  }
  for (const name of moved.sort()) {
    const stem = (stemOf(name) || 'x').slice(0, maxLength - 7).replace(/_+$/, '') || 'x';
    let candidate = `${stem}_${shortHash(name)}`;
    for (let salt = 1; taken.has(candidate); salt++) candidate = `${stem}_${shortHash(`${salt}:${name}`)}`;
    taken.add(candidate);
    result.set(name, candidate);
  }
  return result;
}

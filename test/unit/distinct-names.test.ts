/** Distinct stems: clashing or wordless source names get a stable hash; ordinary names keep theirs. */
import { distinctStems } from '../../domain/agents/offline-analyst/distinct-names';

describe('distinctStems', () => {
  it('keeps ordinary names and moves the ones that clash or have no words', () => {
    const names = ['rental', 'Order Lines', 'a/b', 'a_b', '*', '..', '../../escape'];
    const stems = distinctStems(names);
    expect(stems.get('rental')).toBe('rental');
    expect(stems.get('Order Lines')).toBe('Order Lines');
    expect(stems.get('a_b')).toBe('a_b');
    expect(stems.get('../../escape')).toBe('../../escape');
    expect(stems.get('a/b')).toMatch(/^a_b_[0-9a-z]{6}$/);
    expect(stems.get('*')).toMatch(/^x_[0-9a-z]{6}$/);
    expect(stems.get('..')).toMatch(/^x_[0-9a-z]{6}$/);
    expect(new Set(stems.values()).size).toBe(names.length);
  });

  it('gives the same stems in any order, and steps around a name already taken', () => {
    const once = distinctStems(['a/b', 'a_b', 'a-b']);
    const taken = once.get('a/b')!;
    expect(distinctStems(['a-b', 'a_b', 'a/b'])).toEqual(once);
    // A table already named like the hashed stem keeps it; the clashing name moves elsewhere.
    const around = distinctStems(['a/b', 'a_b', taken]);
    expect(around.get(taken)).toBe(taken);
    expect(new Set(around.values()).size).toBe(3);
  });

  it('keeps hostile and long names within the length it is given', () => {
    const long = 'x'.repeat(100);
    const stems = distinctStems([long, `${long}/`, "x'; DROP TABLE y; --"]);
    for (const stem of stems.values()) expect(stem.length).toBeLessThanOrEqual(100);
    expect(stems.get(`${long}/`)!.length).toBeLessThanOrEqual(40);
    expect(new Set(stems.values()).size).toBe(3);
  });
});

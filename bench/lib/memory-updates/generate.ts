/**
 * Users whose facts change over a year, for `npm run bench:memory-updates`: per user some attributes
 * stated and changed once or twice (in the part's phrasings), some stated once and left, earlier
 * values mentioned in passing after they changed, and everyday notes between. Seeded: the same
 * arguments give the same users.
 */
import type { AttributeSpec, GeneratedUser, NowQuestion, PhrasingSet, Statement } from './model';
import { EVERYDAY_NOTES } from './dev';
import { seededRandom } from '../bench-stats';

export interface PartSpec {
  /** User ids start with it. */
  name: string;
  attributes: AttributeSpec[];
  phrasings: PhrasingSet;
  users: number;
  seed: number;
}

const CHANGED_PER_USER = 4;
const UNCHANGED_PER_USER = 2;
const NOTES_PER_USER = 16;
/** The days of the year the statements fall on; questions are asked on the day after. */
export const YEAR_DAYS = 365;
/** The year the statements fall in (day 0 is its 1 January). */
const YEAR = 2025;

/**
 * Questions about what held in a month ({N}, {M}: "March 2025"), for any part: the bench's own, not
 * a part's phrasings, so they are asked of the held-aside part too.
 */
const THEN_QUESTIONS = [
  'What was my {N} in {M}?',
  'Which {N} did I have in {M}?',
  'What {N} did I have back in {M}?',
];
const MONTH_NAMES =
  'January February March April May June July August September October November December'.split(' ');

/** A whole month inside the days [from, to) of the year, the middle one of those that fit ("March 2025"). */
function monthWithin(from: number, to: number): string | undefined {
  const firstDay = (m: number) => Math.round((Date.UTC(YEAR, m, 1) - Date.UTC(YEAR, 0, 1)) / 86_400_000);
  const fits = MONTH_NAMES.map((_, m) => m).filter((m) => firstDay(m) >= from && firstDay(m + 1) <= to);
  return fits.length ? `${MONTH_NAMES[fits[Math.floor(fits.length / 2)]]} ${YEAR}` : undefined;
}

const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(V|OLD|N)\}/g, (_, k: string) => slots[k]);
/** A sentence's first letter capitalized (a phrasing may start with a lower-case noun). */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function generateUsers(part: PartSpec): GeneratedUser[] {
  const rand = seededRandom(part.seed);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const day = (from: number, to: number) => from + Math.floor(rand() * (to - from));
  const users: GeneratedUser[] = [];
  for (let u = 0; u < part.users; u++) {
    const order = [...part.attributes].sort(() => rand() - 0.5);
    const changedAttrs = order.slice(0, CHANGED_PER_USER);
    const unchangedAttrs = order.slice(CHANGED_PER_USER, CHANGED_PER_USER + UNCHANGED_PER_USER);
    const statements: Statement[] = [];
    const changed: NowQuestion[] = [];
    const unchanged: NowQuestion[] = [];
    const then: NowQuestion[] = [];
    const question = (a: AttributeSpec) =>
      sentence(fill(pick([...a.now, ...part.phrasings.now]), { N: a.noun, V: '', OLD: '' }));
    for (const a of changedAttrs) {
      const values = [...a.values].sort(() => rand() - 0.5).slice(0, rand() < 0.4 ? 3 : 2);
      statements.push({
        day: day(0, 60),
        text: fill(pick(a.set), { V: values[0], N: a.noun, OLD: '' }),
        kind: 'set',
        attribute: a.id,
        value: values[0],
      });
      const changes = values.length === 3 ? [day(90, 200), day(220, 330)] : [day(100, 300)];
      values.slice(1).forEach((v, i) => {
        const text = fill(pick([...a.change, ...part.phrasings.change]), { V: v, OLD: values[i], N: a.noun });
        statements.push({ day: changes[i], text: sentence(text), kind: 'change', attribute: a.id, value: v });
      });
      // An earlier value named in passing after it changed, sometimes after the last change too.
      for (const old of values.slice(0, -1))
        if (rand() < 0.7)
          statements.push({
            day: day(changes[changes.length - 1] + 1, YEAR_DAYS - 1),
            text: fill(pick(part.phrasings.mention), { OLD: old, V: '', N: a.noun }),
            kind: 'mention',
            attribute: a.id,
            value: old,
          });
      changed.push({
        attribute: a.id,
        query: question(a),
        current: values[values.length - 1],
        earlier: values.slice(0, -1),
      });
      // What held in a month before the last change (no random draw: the users stay as they were).
      const heldFrom = [statements.find((x) => x.attribute === a.id && x.kind === 'set')!.day, ...changes];
      const month = monthWithin(heldFrom[0], heldFrom[1]);
      if (month)
        then.push({
          attribute: a.id,
          query: fill(THEN_QUESTIONS[(u + then.length) % THEN_QUESTIONS.length], {
            N: a.noun,
            V: '',
            OLD: '',
          }).replace('{M}', month),
          current: values[0],
          earlier: values.slice(1),
        });
    }
    for (const a of unchangedAttrs) {
      const value = pick(a.values);
      statements.push({
        day: day(0, 200),
        text: fill(pick(a.set), { V: value, N: a.noun, OLD: '' }),
        kind: 'set',
        attribute: a.id,
        value,
      });
      unchanged.push({ attribute: a.id, query: question(a), current: value, earlier: [] });
    }
    for (let n = 0; n < NOTES_PER_USER; n++)
      statements.push({ day: day(0, YEAR_DAYS - 1), text: pick(EVERYDAY_NOTES), kind: 'note' });
    statements.sort((x, y) => x.day - y.day);
    users.push({ id: `${part.name}-u${u + 1}`, statements, changed, unchanged, then });
  }
  return users;
}

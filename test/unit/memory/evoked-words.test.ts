/**
 * The evidence of what two statements evoke (domain/memory/supersede/evoked-words.ts), on given word
 * lists: which earlier statement a new one replaces, and what a memory keeps. The words a statement
 * evokes come from the model's word table, tried end to end in
 * test/integration/memory/memory-supersede.test.ts.
 */
import {
  EVOKED_METADATA_KEY,
  evokedWordsOf,
  mostEvokedAlike,
  withEvokedWords,
} from '../../../domain/memory/supersede/evoked-words';

/** Words near each other, as a word table would hold them. */
const NEAR: Record<string, string[]> = {
  hair: ['barber', 'salon', 'haircut'],
  barber: ['hair', 'salon', 'trim'],
  laptop: ['computer', 'browser'],
};
const related = (a: string, b: string) =>
  a === b || (NEAR[a] ?? []).includes(b) || (NEAR[b] ?? []).includes(a);

describe('which earlier statement a new one replaces by what both evoke', () => {
  const barber = { about: ['barber'], evoked: ['barber', 'salon', 'trim', 'spring'] };

  it('takes the one sharing words that are about what each says it is about', () => {
    const hairCut = { record: 'hair cut', earlier: { about: ['hair'], evoked: ['hair', 'salon', 'barber'] } };
    const laptop = { record: 'laptop', earlier: { about: ['laptop'], evoked: ['laptop', 'computer'] } };
    expect(mostEvokedAlike(barber, [laptop, hairCut], related)).toBe('hair cut');
  });

  it('does not count a word both evoke that is about neither ("in spring")', () => {
    const insurer = { record: 'insurer', earlier: { about: ['insurer'], evoked: ['insurance', 'spring'] } };
    expect(mostEvokedAlike(barber, [insurer], related)).toBeUndefined();
  });

  it('anchors a shared word by what each is about and the other is not: words both are about are their frame', () => {
    // "Turns out … works better as my …": "better" is about both, so it anchors neither.
    const mechanic = { about: ['turns', 'better', 'mechanic'], evoked: ['better', 'improvement'] };
    const bike = {
      record: 'bike',
      earlier: { about: ['turns', 'better', 'bike'], evoked: ['better', 'bikes'] },
    };
    expect(mostEvokedAlike(mechanic, [bike], related)).toBeUndefined();
    const hair = { record: 'hair', earlier: { about: ['better', 'hair'], evoked: ['salon'] } };
    expect(mostEvokedAlike({ about: ['better', 'barber'], evoked: ['salon'] }, [hair], related)).toBe('hair');
  });

  it('counts any shared word of a statement that names nothing it is about', () => {
    const unnamed = { record: 'unnamed', earlier: { about: [], evoked: ['salon'] } };
    expect(mostEvokedAlike(barber, [unnamed], related)).toBe('unnamed');
  });

  it('replaces nothing when two candidates share as much', () => {
    const one = { record: 'one', earlier: { about: ['hair'], evoked: ['salon'] } };
    const two = { record: 'two', earlier: { about: ['hair'], evoked: ['salon'] } };
    expect(mostEvokedAlike(barber, [one, two], related)).toBeUndefined();
  });

  it('compares words as roots, so a plural is the word', () => {
    const salons = { record: 'salons', earlier: { about: [], evoked: ['salons'] } };
    expect(mostEvokedAlike({ about: [], evoked: ['salon'] }, [salons], related)).toBe('salons');
  });

  it('replaces nothing when nothing was evoked', () => {
    const any = { record: 'any', earlier: { about: [], evoked: ['salon'] } };
    expect(mostEvokedAlike({ about: ['barber'], evoked: [] }, [any], related)).toBeUndefined();
  });
});

describe('what a memory keeps of what it evokes', () => {
  it("keeps its latest statement's words only", () => {
    const first = withEvokedWords({ note: 'kept' }, ['hair', 'salon']);
    expect(first).toEqual({ note: 'kept', [EVOKED_METADATA_KEY]: ['hair', 'salon'] });
    expect(withEvokedWords(first, ['barber'])).toEqual({ note: 'kept', [EVOKED_METADATA_KEY]: ['barber'] });
  });

  it('leaves the metadata as it is when nothing was evoked, but for what an older text evoked', () => {
    const metadata = { note: 'kept' };
    expect(withEvokedWords(metadata, [])).toBe(metadata);
    expect(withEvokedWords({ note: 'kept', [EVOKED_METADATA_KEY]: ['salon'] }, [])).toEqual({ note: 'kept' });
  });

  it('reads only words back, whatever the metadata holds', () => {
    expect(evokedWordsOf({ metadata: { [EVOKED_METADATA_KEY]: ['vet', 3, null, { x: 1 }] } })).toEqual([
      'vet',
    ]);
    expect(evokedWordsOf({ metadata: { [EVOKED_METADATA_KEY]: 'vet' } })).toEqual([]);
    expect(evokedWordsOf({ metadata: {} })).toEqual([]);
  });
});

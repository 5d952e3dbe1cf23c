/** Ordinary English words against names (docs/memory-supersede.md#by-evidence). */
import { isCommonWord } from '../../../domain/memory/vocabulary/common-words';

describe('common words', () => {
  it('knows any form of an ordinary word, in any case', () => {
    for (const w of ['Booked', 'finally', 'babysits', 'Remortgaged', 'took', 'Rent'])
      expect([w, isCommonWord(w)]).toEqual([w, true]);
  });

  it('takes names for no ordinary word, whether listed with a capital or not at all', () => {
    for (const w of ['Priya', 'Zoe', 'Halifax', 'Skipton', 'Specsavers', 'KeePassXC'])
      expect([w, isCommonWord(w)]).toEqual([w, false]);
  });

  it('reads no word in digits, signs or a made-up 100,000-letter run', () => {
    expect(isCommonWord('iPhone15')).toBe(false);
    expect(isCommonWord('a'.repeat(100_000))).toBe(false);
  });
});

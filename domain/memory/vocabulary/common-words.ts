/**
 * Whether a word is an ordinary English word: some form of one that the Hunspell English dictionary
 * (npm dictionary-en, SCOWL) lists in lower case, read by nspell, which knows its affixes
 * ("Booked", "Finally", "babysits"). Names are not ordinary words, whether listed only with a capital
 * ("Halifax", "Zoe") or not at all ("Priya", "Skipton"): docs/memory-supersede.md#by-evidence.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import nspell from 'nspell';

/**
 * Longer runs of letters are no word the dictionary lists, and checking one costs time that grows
 * with its length (a caller may send any text).
 */
const LONGEST_WORD = 40;

let speller: nspell | undefined;

/** Read once, on first use: about a quarter of a second and 40 MB. */
function englishSpeller(): nspell {
  if (!speller) {
    // The package is an ES module with a top-level await; its two files are read directly.
    const dir = path.dirname(require.resolve('dictionary-en'));
    speller = nspell({
      aff: fs.readFileSync(path.join(dir, 'index.aff')),
      dic: fs.readFileSync(path.join(dir, 'index.dic')),
    });
  }
  return speller;
}

/** Whether `word` (any case) is, in lower case, a form of a common English word. */
export function isCommonWord(word: string): boolean {
  if (word.length > LONGEST_WORD || !/^[\p{L}'’-]+$/u.test(word)) return false;
  return englishSpeller().correct(word.toLowerCase().replace(/’/g, "'"));
}

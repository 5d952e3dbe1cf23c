/**
 * Which earlier statement a new one is most alike, by the model's reading of the two rather than by
 * shared words (docs/memory-supersede.md#by-likeness): "Groceries come from Lidl" and "We do the
 * weekly shop at Tesco" share no word of what they are about, yet the model puts them near once what
 * every everyday sentence has in common is taken away.
 *
 * The new statement is embedded as a question (e5's `query: `, which the model is trained to match
 * to what answers it), less the everyday background (embedding/everyday-background.ts), and the
 * stored memories nearest that vector are its likeliest earlier statements of the same attribute.
 */
import type { Embedder } from '../embedding/embedder';
import { everydayBackground, lessBackground } from '../embedding/everyday-background';
import { dot } from '../embedding/vector-math';
import { root } from '../vocabulary/word-roots';
import { tokens } from './statement-names';

/**
 * The vector a statement is compared to stored memories by: its question vector less the
 * background, unit length. Undefined when the model has no likeness threshold (nothing is compared).
 */
export async function likenessVector(embedder: Embedder, text: string): Promise<Float32Array | undefined> {
  if (embedder.alikeStatements === undefined) return undefined;
  const [[question], background] = await Promise.all([
    embedder.embed([text], 'query'),
    everydayBackground(embedder),
  ]);
  return lessBackground(question, background);
}

const rootsOf = (text: string): Set<string> => new Set(tokens(text).map((w) => root(w.toLowerCase())));

/**
 * Whether two statements share most of their wording (at least half the words of the shorter, names
 * aside): "Our insurer changed to AXA in spring" and "Our mobile provider changed to Three in spring"
 * are alike by their frame, which says nothing of their attribute.
 */
export function shareTheirFrame(a: string, b: string, values: string[]): boolean {
  const named = new Set(values.flatMap((v) => tokens(v)).map((w) => root(w.toLowerCase())));
  const own = (text: string) => [...rootsOf(text)].filter((w) => !named.has(w));
  const [wordsA, wordsB] = [own(a), own(b)];
  const shared = wordsA.filter((w) => wordsB.includes(w)).length;
  return shared * 2 >= Math.min(wordsA.length, wordsB.length);
}

/**
 * The likeness of `newer` to `older` on the words they do not share ("mobile provider Three" against
 * "insurer AXA"): two inferences, asked only of two statements that share their frame.
 */
export async function likenessApart(embedder: Embedder, newer: string, older: string): Promise<number> {
  const apart = (text: string, other: string) => {
    const theirs = rootsOf(other);
    return tokens(text)
      .filter((w) => !theirs.has(root(w.toLowerCase())))
      .join(' ');
  };
  const [likeness, [stored]] = await Promise.all([
    likenessVector(embedder, apart(newer, older)),
    embedder.embed([apart(older, newer)]),
  ]);
  return likeness ? dot(likeness, stored) : 0;
}

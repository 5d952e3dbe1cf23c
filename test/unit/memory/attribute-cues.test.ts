/** Questions about a person's attributes (domain/memory/search/attribute-cues.ts) and the reranker's `attribute` feature. */
import { attributeCueTerms } from '../../../domain/memory/search/attribute-cues';
import { rerankFeatures } from '../../../domain/memory/search/rerank-features';
import { indexTerms, queryTerms } from '../../../domain/memory/search/text-terms';

describe('attributeCueTerms', () => {
  it('answers the other cue words of the attribute a question asks about, as index terms', () => {
    const home = attributeCueTerms('Where do I live?');
    for (const word of ['moved', 'relocated', 'reside']) expect(home).toContain(indexTerms(word)[0]);
    expect(home).not.toContain('live'); // the question's own term: the lexical signal weighs it
    const work = attributeCueTerms('Where does Ana work these days?');
    expect(work).toEqual(expect.arrayContaining(queryTerms('employer company')));
  });

  it('answers nothing for a question about no attribute, or no words at all', () => {
    expect(attributeCueTerms('What did Caroline paint last summer?')).toEqual([]);
    expect(attributeCueTerms('')).toEqual([]);
    expect(attributeCueTerms('?!… 東京')).toEqual([]);
  });

  it('reads a huge question in one pass over its terms', () => {
    expect(attributeCueTerms(`${'word '.repeat(100_000)}live`)).toContain(indexTerms('moved')[0]);
  });
});

describe('the attribute feature', () => {
  const asked = (question: string) => ({
    terms: queryTerms(question),
    entities: [],
    cues: attributeCueTerms(question),
  });
  const input = (text: string) => ({ text, fused: 0, semantic: 0, lexical: 0, inRange: false, neighbour: 0 });

  it('is 1 for a memory that states the attribute in other words, else 0', () => {
    expect(
      rerankFeatures(input('Actually I moved to Lisbon last month.'), asked('Where do I live?')).attribute,
    ).toBe(1);
    expect(rerankFeatures(input('I work at Siemens.'), asked('Where do I live?')).attribute).toBe(0);
    expect(rerankFeatures(input('I moved the couch.'), asked('What did I paint?')).attribute).toBe(0);
    expect(rerankFeatures(input('I moved to Lisbon.'), { terms: ['live'], entities: [] }).attribute).toBe(0);
  });
});

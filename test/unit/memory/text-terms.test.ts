/** Index and query terms with fixed inputs: stop words, stemming, joined codes, entities. */
import {
  entityTerms,
  indexTerms,
  queryTerms,
  stem,
  termWords,
} from '../../../domain/memory/search/text-terms';

describe('stem', () => {
  it.each([
    ['hiking', 'hik'],
    ['hikes', 'hik'],
    ['hiked', 'hik'],
    ['hike', 'hik'],
    ['running', 'run'],
    ['falling', 'fall'],
    ['studies', 'study'],
    ['studied', 'study'],
    ['studying', 'study'],
    ['painted', 'paint'],
    ['glass', 'glass'],
    ['boxes', 'box'],
    ['need', 'need'],
    ['2023', '2023'],
  ])('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe('indexTerms', () => {
  it('drops stop words and single letters, stems, and keeps repeats for term frequency', () => {
    expect(indexTerms('Caroline: I went hiking, and the hike was great! Hiking again?')).toEqual([
      'carolin',
      'went',
      'hik',
      'hik',
      'great',
      'hik',
    ]);
  });

  it('also indexes codes written with separators joined, so XR-7734 and xr7734 meet', () => {
    expect(indexTerms('Ordered part XR-7734 for v2.1')).toEqual([
      'order',
      'part',
      'xr',
      '7734',
      'v2',
      '1',
      'xr7734',
      'v21',
    ]);
    expect(queryTerms('where is xr7734?')).toEqual(['xr7734']);
  });

  it('reads a made-up run of 200,000 letters and codes at its end like any text', () => {
    // Was square time (a code pattern backtracking through the run from each of its letters).
    const run = 'q'.repeat(200_000);
    expect(indexTerms(`${run} AB-12`)).toEqual([run, 'ab', '12', 'ab12']);
  });

  it('queryTerms is the distinct set', () => {
    expect(queryTerms('dogs and dog and DOGS')).toEqual(['dog']);
    expect(queryTerms('what is it?')).toEqual([]);
  });
});

describe('entityTerms', () => {
  it('takes capitalized words, codes with digits and quoted phrases, not a leading question word', () => {
    expect(entityTerms('What did Caroline buy in New York?')).toEqual(['carolin', 'new', 'york']);
    expect(entityTerms('when was order 55-B shipped')).toEqual(['55', '55b']);
    expect(entityTerms('who said "green tea" first')).toEqual(['green', 'tea']);
    expect(entityTerms('how are you')).toEqual([]);
  });
});

describe('termWords', () => {
  it("maps each term back to the question's word, for showing matches", () => {
    expect(termWords('Which staging hosts run XR-7734?')).toEqual(
      new Map([
        ['stag', 'staging'],
        ['host', 'hosts'],
        ['run', 'run'],
        ['xr', 'xr-7734'],
        ['7734', 'xr-7734'],
        ['xr7734', 'xr-7734'],
      ]),
    );
  });
});

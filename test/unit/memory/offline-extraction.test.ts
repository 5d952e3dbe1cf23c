/**
 * The offline fact extractor (domain/memory/extraction/deterministic-extractor.ts): sentences kept
 * whole, questions and fillers dropped, and a topic the speaker asks and answers at once kept with
 * its answer (a sentence telling only what was left with the one saying what came instead), so the
 * statement still says what it is about.
 */
import { extractFactsOffline } from '../../../domain/memory/extraction/deterministic-extractor';

describe('offline extraction', () => {
  it('keeps a topic the speaker asks and answers with its answer', () => {
    expect(extractFactsOffline({ text: 'My piano teacher? Mrs Okafor, since the spring.' })).toEqual([
      'My piano teacher? Mrs Okafor, since the spring.',
    ]);
    expect(
      extractFactsOffline({ messages: [{ role: 'user', content: 'The new gym? Crunch, from Monday on.' }] }),
    ).toEqual(['The new gym? Crunch, from Monday on.']);
  });

  it('keeps a sentence telling only what was left with the next, which says what came instead', () => {
    expect(
      extractFactsOffline({ text: 'Switched over from Nest. Scottish Widows is our pension provider.' }),
    ).toEqual(['Switched over from Nest. Scottish Widows is our pension provider.']);
    expect(extractFactsOffline({ text: 'Cancelled Gousto. HelloFresh from now on.' })).toEqual([
      'Cancelled Gousto. HelloFresh from now on.',
    ]);
    // A move to somewhere, or what one did with something unnamed, stands alone.
    expect(extractFactsOffline({ text: 'Moved to Leeds. Loving it here now.' })).toEqual([
      'Moved to Leeds.',
      'Loving it here now.',
    ]);
    expect(extractFactsOffline({ text: 'Dropped the kids at school. Went to the gym.' })).toEqual([
      'Dropped the kids at school.',
      'Went to the gym.',
    ]);
  });

  it('drops a real question, which opens with an auxiliary or a wh-word, and keeps the answer alone', () => {
    expect(extractFactsOffline({ text: 'Do you like jazz? I love Miles Davis.' })).toEqual([
      'I love Miles Davis.',
    ]);
    expect(extractFactsOffline({ text: 'How are you? I moved to Lisbon in May.' })).toEqual([
      'I moved to Lisbon in May.',
    ]);
    // A long question is no topic, nor is one followed by another question.
    expect(extractFactsOffline({ text: 'My favourite of all the bands ever? Radiohead, by far.' })).toEqual([
      'Radiohead, by far.',
    ]);
    expect(extractFactsOffline({ text: 'My bank? Which one do you mean?' })).toEqual([]);
  });
});

/**
 * The offline fact extractor (domain/memory/extraction/deterministic-extractor.ts): sentences kept
 * whole, questions and fillers dropped, and a topic the speaker asks and answers at once kept with
 * its answer, so the statement still says what it is about.
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

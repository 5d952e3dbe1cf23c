/**
 * Questions about now (docs/memory-search.md#now-and-then): memories that cannot answer them keep
 * half their relevance, and relevances are taken relative to the best answer; other questions are
 * ranked as they came.
 */
import {
  ABOUT_ANOTHER_THING,
  ANSWER_FIRST,
  answerWeights,
  NOT_AN_ANSWER_NOW,
  NOT_HELD_THEN,
  REPLACED_IT_THEN,
} from '../../../domain/memory/search/answer-weights';
import { readRecord } from '../../../domain/memory/search/memory-reading';
import { timeRangeOf } from '../../../domain/memory/search/time-expressions';
import type { Candidate } from '../../../domain/memory/search/hybrid-retrieval';
import type { MemoryRecord } from '../../../shared/memory-model';

const candidate = (memory: string, relevance: number, metadata: Record<string, unknown> = {}): Candidate =>
  ({
    record: { id: memory, memory, metadata } as unknown as MemoryRecord,
    relevance,
    signals: {},
    features: { fused: relevance, gap: 0, logRank: 0 },
  }) as Candidate;

/** Each candidate's memory and relevance to three places, in the order ranked. */
const relevances = (ranked: Candidate[]) => ranked.map((c) => [c.record.memory, +c.relevance.toFixed(3)]);

/** A word table's relation: a word is near itself and the words `near` lists for it either way. */
const relatedBy = (near: Record<string, string[]>) => (a: string, b: string) =>
  a === b || (near[a] ?? []).includes(b) || (near[b] ?? []).includes(a);

describe('answer weights', () => {
  const found = [
    candidate('Walked past Iron Temple on the way home.', 0.5),
    candidate('Made pasta for dinner.', 0.45),
    candidate('New gym: Crunch.', 0.4),
    candidate('The gym near work closes at ten.', 0.3),
  ];

  it('ranks what can answer a question about now above mentions and notes, relative to the best', () => {
    const crunch = candidate('New gym: Crunch.', 0.9);
    const ranked = answerWeights('Which gym do I go to?')([found[0], found[1], crunch, found[3]]);
    expect(relevances(ranked)).toEqual([
      ['New gym: Crunch.', 1],
      ['The gym near work closes at ten.', +(0.3 / 0.9).toFixed(3)],
      ['Walked past Iron Temple on the way home.', +((0.5 * NOT_AN_ANSWER_NOW) / 0.9).toFixed(3)],
      ['Made pasta for dinner.', +((0.45 * NOT_AN_ANSWER_NOW) / 0.9).toFixed(3)],
    ]);
    expect(ranked.every((c) => c.relevance >= 0 && c.relevance <= 1)).toBe(true);
  });

  it('lets nothing but an assertion of what a question about now asks pass half its relevance', () => {
    const ranked = answerWeights('Which gym do I go to?')(found);
    // The rest scaled to stay below half of it, in their order: 0.3, 0.25, 0.225 → 0.2 at most.
    const scale = (0.4 * ANSWER_FIRST) / 0.3;
    expect(relevances(ranked)).toEqual([
      ['New gym: Crunch.', 1],
      ['The gym near work closes at ten.', ANSWER_FIRST],
      ['Walked past Iron Temple on the way home.', +((0.5 * NOT_AN_ANSWER_NOW * scale) / 0.4).toFixed(3)],
      ['Made pasta for dinner.', +((0.45 * NOT_AN_ANSWER_NOW * scale) / 0.4).toFixed(3)],
    ]);
    // With no assertion of a value of what it asks, nothing is held back but answers of another thing.
    const none = answerWeights('Which gym do I go to?')([found[3], candidate('My bank is ING.', 0.2)]);
    expect(relevances(none)).toEqual([
      ['The gym near work closes at ten.', 1],
      ['My bank is ING.', +((0.2 * ABOUT_ANOTHER_THING) / 0.3).toFixed(3)],
    ]);
  });

  it('reads an answer naming the word a question asks about, even within a name, as about the same', () => {
    const ranked = answerWeights('Which VPN are we with right now?')([
      candidate('My back is treated by Jo Whitfield.', 0.6),
      candidate('My laptop runs Mullvad for a VPN.', 0.4),
    ]);
    expect(relevances(ranked)).toEqual([
      ['My laptop runs Mullvad for a VPN.', 1],
      ['My back is treated by Jo Whitfield.', +((0.6 * ABOUT_ANOTHER_THING) / 0.4).toFixed(3)],
    ]);
  });

  it("takes another person's attribute for an answer only to a question about that person", () => {
    const neighbours = candidate('My neighbour moved her mortgage to Nationwide.', 0.9);
    const own = candidate('We pay the mortgage to Halifax every month.', 0.5);
    const mine = answerWeights('Who is our mortgage with?')([neighbours, own]);
    expect(mine.map((c) => c.record.memory)).toEqual([own.record.memory, neighbours.record.memory]);
    const theirs = answerWeights('Who is my neighbour with now?')([neighbours, own]);
    expect(theirs[0].record.memory).toBe(neighbours.record.memory);
  });

  it('lets an answer about another thing yield to one about what the question asks, by its words or its cues', () => {
    const ranked = answerWeights('Which city am I based in?')([
      candidate('I see Dr Eriksen for my teeth.', 0.126),
      candidate('I work out at Crunch.', 0.05),
      candidate('We relocated to Vienna last month.', 0.019),
    ]);
    // The move asserts a value of what is asked: first, the others scaled to half its relevance at most.
    expect(relevances(ranked)).toEqual([
      ['We relocated to Vienna last month.', 1],
      ['I work out at Crunch.', ANSWER_FIRST],
      ['I see Dr Eriksen for my teeth.', +(((0.126 * ABOUT_ANOTHER_THING) / 0.05) * ANSWER_FIRST).toFixed(3)],
    ]);
    const asked = answerWeights('What is my current gym?')([
      candidate('My current account is at ING.', 0.7),
      candidate('My gym is PureGym now.', 0.3),
    ]);
    expect(asked.map((c) => c.record.memory)).toEqual([
      'My gym is PureGym now.',
      'My current account is at ING.',
    ]);
  });

  it('weighs a huge made-up text like any other, without keeping it', () => {
    const huge = candidate(`My gym is ${'Zz'.repeat(50_000)} ${'a'.repeat(100_000)}.`, 0.9);
    const ranked = answerWeights('Which gym do I go to?')([huge, candidate('New gym: Crunch.', 0.4)]);
    expect(ranked.map((c) => c.record.memory.slice(0, 10))).toEqual(['My gym is ', 'New gym: C']);
  });

  it("takes a known attribute's value without a name for an answer that asserts ('I am vegetarian')", () => {
    const ranked = answerWeights('What diet am I on?')([
      candidate('I live in Lisbon.', 0.5),
      candidate('I am vegetarian.', 0.2),
    ]);
    expect(relevances(ranked)).toEqual([
      ['I am vegetarian.', 1],
      ['I live in Lisbon.', +((0.5 * ABOUT_ANOTHER_THING) / 0.2).toFixed(3)],
    ]);
  });

  it('reads a statement the model read as asserting (plat_asserts) as an assertion, as supersede did', () => {
    const trained = 'I trained at Crunch gym all through the spring.';
    const passedBy = candidate('Walked past Iron Temple gym on the way home.', 0.6);
    const rank = (metadata: Record<string, unknown>) =>
      relevances(answerWeights('Which gym do I go to?')([candidate(trained, 0.5, metadata), passedBy]));
    // The words take it for something that happened: nothing is held back for it.
    expect(readRecord({ memory: trained, metadata: {} }).asserts).toBe(false);
    expect(rank({})).toEqual([
      [trained, 1],
      [passedBy.record.memory, +((0.6 * NOT_AN_ANSWER_NOW) / 0.5).toFixed(3)],
    ]);
    // Read as asserting when it was stored: the mention passes no more than half of it.
    const asserted = readRecord({ memory: trained, metadata: { plat_asserts: true } });
    expect([asserted.asserts, asserted.mention]).toEqual([true, false]);
    expect(rank({ plat_asserts: true })).toEqual([
      [trained, 1],
      [passedBy.record.memory, ANSWER_FIRST],
    ]);
  });

  it('reads an answer that evokes a word the question asks about, or one near it in the word table, as about the same', () => {
    // "accountant" shares no word with either statement; the taxes one evokes "tax", which the
    // table holds near "accountant", the card one only words of cards and banks.
    const near: Record<string, string[]> = { accountant: ['accounting', 'tax', 'bookkeeping'] };
    const related = relatedBy(near);
    const taxes = candidate('This year Ledger Partners filed my taxes.', 0.2, {
      plat_asserts: true,
      plat_evokes: ['taxes', 'tax', 'irs', 'filing'],
    });
    const card = candidate("Finally sorted the credit card thing, it's Barclaycard from now on.", 0.4, {
      plat_evokes: ['card', 'credit', 'wallet', 'bank'],
    });
    const question = 'Remind me, which accountant am I using?';
    // Without the table nothing tells what either is about: they stay as they came.
    expect(answerWeights(question)([card, taxes]).map((c) => c.record.memory)).toEqual([
      card.record.memory,
      taxes.record.memory,
    ]);
    const ranked = answerWeights(question, undefined, related)([card, taxes]);
    expect(relevances(ranked)).toEqual([
      [taxes.record.memory, 1],
      [card.record.memory, +((0.4 * ABOUT_ANOTHER_THING) / 0.2).toFixed(3)],
    ]);
    // A memory's own name pieces are not evoked (supersede/evoked-words.ts); a word of the question
    // evoked as such counts without the table.
    const asWritten = candidate('Ledger Partners since June.', 0.1, { plat_evokes: ['accountants'] });
    expect(answerWeights(question, undefined, (a, b) => a === b)([card, asWritten])[0].record.memory).toBe(
      asWritten.record.memory,
    );
  });

  it('reads an answer whose words say nothing of what it is about by what it evokes', () => {
    const near: Record<string, string[]> = { team: ['club', 'football', 'league'] };
    const related = relatedBy(near);
    // "Upgraded" is the change, not what it is about; the phone words it evokes say that.
    const phone = candidate('Upgraded from the Fairphone 5 to a Galaxy S23.', 0.5, {
      plat_evokes: ['phone', 'smartphone', 'samsung'],
    });
    const team = candidate('Switched from Ajax to Arsenal.', 0.3, { plat_evokes: ['football', 'club'] });
    const ranked = answerWeights('What team do I follow now?', undefined, related)([phone, team]);
    expect(relevances(ranked)).toEqual([
      [team.record.memory, 1],
      [phone.record.memory, +((0.5 * ABOUT_ANOTHER_THING) / 0.3).toFixed(3)],
    ]);
  });

  it('reads a statement whose words, or those of the statement it replaced, are near what the question asks as about the same', () => {
    const near: Record<string, string[]> = {
      climbing: ['climb', 'boulder', 'ascent'],
      laptop: ['computer', 'email'],
    };
    const related = relatedBy(near);
    // The frame of the question ("Our new …? …") brings another attribute's statement closer.
    const notes = candidate('Our new notes app? Obsidian.', 0.7, { plat_evokes: ['notes', 'app'] });
    const boulder = candidate('I boulder at The Arch twice a week.', 0.2);
    const question = 'Tell me our current climbing wall.';
    expect(answerWeights(question, undefined, related)([notes, boulder]).map((c) => c.record.memory)).toEqual(
      [boulder.record.memory, notes.record.memory],
    );
    // Its words say nothing of climbing, the statement it replaced did (plat_about).
    const pass = candidate('Bought a pass at Vertical Chill; The Arch was always packed.', 0.2, {
      plat_about: ['boulder'],
    });
    expect(answerWeights(question, undefined, related)([notes, pass])[0].record.memory).toBe(
      pass.record.memory,
    );
    // A text that states nothing is not read so ("email" is near "laptop"): the statements keep their order.
    const survey = candidate('Hillside Primary sent me a survey by email.', 0.7);
    const energy = candidate("These days it's Octopus for my energy supplier.", 0.6, {
      plat_evokes: ['energy'],
    });
    const framework = candidate('I code on a Framework 13.', 0.3, { plat_evokes: ['coding'] });
    const ranked = answerWeights(
      "What's my laptop at the moment?",
      undefined,
      related,
    )([survey, energy, framework]);
    expect(relevances(ranked)).toEqual([
      [survey.record.memory, 1],
      [energy.record.memory, +(0.6 / 0.7).toFixed(3)],
      [framework.record.memory, +(0.3 / 0.7).toFixed(3)],
    ]);
  });

  it('puts an assertion its words tie to the question before one only its evoked words tie to it', () => {
    const near: Record<string, string[]> = { team: ['club', 'colleagues'], mows: ['lawn'] };
    const related = relatedBy(near);
    // "colleagues" is near "team", and evoked: weaker evidence than "club", which the statement says.
    const employer = candidate('My employer is Umbrella Labs now.', 0.6, {
      plat_evokes: ['employer', 'colleagues'],
    });
    const club = candidate('I switched my football club to Napoli.', 0.4, { plat_evokes: ['football'] });
    const ranked = answerWeights('What team do I follow now?', undefined, related)([employer, club]);
    expect(relevances(ranked)).toEqual([
      [club.record.memory, 1],
      [employer.record.memory, +((0.6 * ((ANSWER_FIRST * 0.4) / 0.6)) / 0.4).toFixed(3)],
    ]);
    // A text naming the lawn that states nothing does not push back the assertion its evoked words tie.
    const card = candidate('Got a Christmas card from Mow & Grow.', 0.7);
    const garden = candidate('Green Thumb looks after our garden.', 0.3, { plat_evokes: ['lawn', 'garden'] });
    expect(answerWeights('Who mows the lawn?', undefined, related)([card, garden])[0].record.memory).toBe(
      garden.record.memory,
    );
  });

  it('keeps answers about other things as they came when none is about what the question asks', () => {
    const ranked = answerWeights('Which dentist do I see?')([
      candidate('I see Dr Eriksen for my teeth.', 0.3),
      candidate('My gym is PureGym.', 0.2),
    ]);
    expect(relevances(ranked)).toEqual([
      ['I see Dr Eriksen for my teeth.', 1],
      ['My gym is PureGym.', +(0.2 / 0.3).toFixed(3)],
    ]);
  });

  it('lets a memory that replaced an earlier value yield to the earlier versions for a question about the past', () => {
    const at = (valid_from: string, valid_to: string | null) =>
      ({ created_at: '2025-01-01T00:00:00.000Z', valid_from, valid_to }) as Partial<MemoryRecord>;
    const now = {
      ...candidate('New gym: Crunch.', 0.6),
      record: { ...found[2].record, ...at('2025-06-01T00:00:00.000Z', null) },
    };
    const then = {
      ...candidate('My gym is Iron Temple.', 0.4),
      record: {
        ...found[2].record,
        memory: 'My gym is Iron Temple.',
        ...at('2025-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'),
      },
    };
    const ranked = answerWeights('Which gym did I go to before?')([now, then] as Candidate[]);
    expect(ranked.map((c) => [c.record.memory, c.relevance])).toEqual([
      ['My gym is Iron Temple.', 1],
      ['New gym: Crunch.', (0.6 * REPLACED_IT_THEN) / 0.4],
    ]);
  });

  describe('a question about a named time in the past', () => {
    const NOW = new Date('2026-01-02T00:00:00.000Z');
    const dated = (memory: string, relevance: number, valid_from: string, valid_to: string | null = null) => {
      const c = candidate(memory, relevance);
      return {
        ...c,
        record: {
          ...c.record,
          created_at: `${valid_from}T09:00:00.000Z`,
          valid_from: `${valid_from}T09:00:00.000Z`,
          valid_to: valid_to && `${valid_to}T09:00:00.000Z`,
        },
      } as Candidate;
    };
    const ask = (question: string, found: Candidate[]) =>
      answerWeights(
        question,
        timeRangeOf(question, NOW),
      )(found).map((c) => [c.record.memory, +c.relevance.toFixed(3)]);

    it('answers with the value that held then, however weak its match, before one that held at no time of it', () => {
      // The version that held in March, and the two values that replaced it later.
      const found = [
        dated('New gym: Crunch.', 0.6, '2025-06-01'),
        dated('Switched my gym to PureGym.', 0.5, '2025-05-01', '2025-06-01'),
        dated('My gym is Iron Temple.', 0.05, '2025-01-10', '2025-05-01'),
      ];
      expect(ask('Which gym did I go to in March 2025?', found)).toEqual([
        ['My gym is Iron Temple.', 1],
        ['New gym: Crunch.', ANSWER_FIRST],
        ['Switched my gym to PureGym.', +((ANSWER_FIRST * 0.5) / 0.6).toFixed(3)],
      ]);
      // In June, Crunch held.
      expect(ask('Which gym did I go to in June 2025?', found)[0][0]).toBe('New gym: Crunch.');
      // A value held then whose words are another thing's still comes before one that did not hold
      // (the memories recorded a change: a bank that ended in July).
      const told = [
        dated('New gym: Crunch.', 0.6, '2025-06-01'),
        dated('I train at Iron Temple.', 0.05, '2025-01-10'),
        dated('My bank is ING.', 0.01, '2025-02-01', '2025-07-01'),
      ];
      expect(ask('What was my gym in March 2025?', told)[0][0]).toBe('I train at Iron Temple.');
    });

    it('leaves a named period to the time list where the memories recorded no change', () => {
      // Validity then says no more than when each was said (a conversation's turns).
      const told = [
        dated('New gym: Crunch.', 0.6, '2025-06-01'),
        dated('I train at Iron Temple.', 0.06, '2025-01-10'),
      ];
      expect(ask('What was my gym in March 2025?', told)).toEqual([
        ['New gym: Crunch.', 1],
        ['I train at Iron Temple.', 0.1],
      ]);
    });

    it('weighs a value held at no time of the period by NOT_HELD_THEN, and leaves notes to when they were said', () => {
      const found = [
        dated('New gym: Crunch.', 0.6, '2025-06-01'),
        dated('Made pasta for dinner.', 0.3, '2025-09-01'),
        dated('My bank is ING.', 0.2, '2025-02-01', '2025-07-01'),
      ];
      // Nothing held in 2019: the later values keep their share, the note (no answer) its own.
      const note = 0.3 * NOT_AN_ANSWER_NOW;
      expect(ask('Which gym did I go to in 2019?', found)).toEqual([
        ['Made pasta for dinner.', 1],
        ['New gym: Crunch.', +((0.6 * NOT_HELD_THEN) / note).toFixed(3)],
        ['My bank is ING.', +((0.2 * NOT_HELD_THEN) / note).toFixed(3)],
      ]);
    });

    it('reads no period into a question about now, nor into one naming none', () => {
      const found = [
        dated('New gym: Crunch.', 0.6, '2025-06-01'),
        dated('My gym is Iron Temple.', 0.05, '2025-01-10', '2025-06-01'),
      ];
      expect(ask('Which gym do I go to now?', found)[0][0]).toBe('New gym: Crunch.');
      expect(ask('Which gym did I go to?', found)[0][0]).toBe('New gym: Crunch.');
    });
  });

  it('leaves questions of no time, and memories that never changed, as they came', () => {
    for (const q of ['Tell me about dinner', 'When did we meet?'])
      expect(answerWeights(q)(found)).toEqual(found);
    // About the past, nothing here replaced anything: relative to the best, in the same order.
    expect(answerWeights('Which gym did I go to before?')(found).map((c) => c.record.memory)).toEqual(
      found.map((c) => c.record.memory),
    );
    expect(answerWeights('Which gym do I go to?')([])).toEqual([]);
  });
});

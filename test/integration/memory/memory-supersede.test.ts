/**
 * Updates that supersede (docs/memory-supersede.md), offline, over HTTP with the real embedding
 * model: a conversation whose facts change over time (two moves, a new favourite food, a new
 * employer) updates the memories stating them, history keeps each old value and search answers
 * the current one first; facts that add (a second pet, a hobby) stay separate, `infer=false` merges
 * nothing, and each agent's memories are their own.
 */
import { apiCaller, type ApiCall } from '../../harness/api-caller';
import { startTestMemoryService } from '../../harness/memory-service';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

type Added = { id: string; memory: string; event: string; previous_memory?: string };
type Entry = { event: string; old_memory: string | null; new_memory: string | null; created_at: string };
type Memory = { id: string; memory: string; created_at: string; updated_at: string };

describe('memory updates that supersede', () => {
  let call: ApiCall;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const memory = await startTestMemoryService();
    call = apiCaller(memory.url);
    stop = memory.stop;
  });
  afterAll(async () => stop?.());

  const add = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/memory/add', body);
    expect(res.status).toBe(200);
    return res.body.results as Added[];
  };
  const said = (user_id: string, content: string, age: number) =>
    add({ user_id, messages: [{ role: 'user', content }], created_at: daysAgo(age) });
  const events = (results: Added[]) => results.map((r) => [r.event, r.memory]);
  /** What an add answers for memory `id`, updated from `previous_memory` to `memory`. */
  const updated = (id: string, previous_memory: string, memory: string): Added => ({
    id,
    memory,
    event: 'UPDATE',
    previous_memory,
  });
  const history = async (id: string) => (await call('GET', `/memory/history/${id}`)).body.results as Entry[];
  const search = async (user_id: string, query: string, extra: Record<string, unknown> = {}) =>
    (await call('POST', '/memory/search', { user_id, query, time_decay: false, ...extra })).body
      .results as Memory[];

  describe('a conversation where facts change over time', () => {
    const user = 'maya';
    let home: string;
    let work: string;
    let food: string;

    it('first session: every fact is new', async () => {
      const results = await said(
        user,
        "I live in Berlin. I work at Siemens. My favourite food is ramen. My dog's name is Rex. I love hiking.",
        300,
      );
      expect(events(results)).toEqual([
        ['ADD', 'I live in Berlin.'],
        ['ADD', 'I work at Siemens.'],
        ['ADD', 'My favourite food is ramen.'],
        ['ADD', "My dog's name is Rex."],
        ['ADD', 'I love hiking.'],
      ]);
      [home, work, food] = results.map((r) => r.id);
    });

    it('a move updates where she lives; a second pet and a new hobby are added', async () => {
      const results = await said(
        user,
        "Actually, I moved to Lisbon in March. My cat's name is Tom. I started learning the guitar.",
        200,
      );
      expect(results).toEqual([
        updated(home, 'I live in Berlin.', 'Actually, I moved to Lisbon in March.'),
        expect.objectContaining({ event: 'ADD', memory: "My cat's name is Tom." }),
        expect.objectContaining({ event: 'ADD', memory: 'I started learning the guitar.' }),
      ]);
    });

    it('a new favourite food and a new employer update theirs, in either sentence order', async () => {
      const results = await said(user, 'Sushi is my favourite food now. These days I work at Bosch.', 100);
      expect(results).toEqual([
        updated(food, 'My favourite food is ramen.', 'Sushi is my favourite food now.'),
        updated(work, 'I work at Siemens.', 'These days I work at Bosch.'),
      ]);
    });

    it('a second move updates the same memory again; saying the same place again changes nothing', async () => {
      const moved = await said(user, "I've relocated to Porto for a new role.", 30);
      expect(moved).toEqual([
        updated(home, 'Actually, I moved to Lisbon in March.', "I've relocated to Porto for a new role."),
      ]);
      expect(events(await said(user, 'I live in Porto now.', 20))).toEqual([
        ['NONE', "I've relocated to Porto for a new role."],
      ]);
    });

    it('history keeps every old value, at the time each was said', async () => {
      const changes = await history(home);
      expect(changes.map((h) => [h.event, h.old_memory, h.new_memory])).toEqual([
        ['ADD', null, 'I live in Berlin.'],
        ['UPDATE', 'I live in Berlin.', 'Actually, I moved to Lisbon in March.'],
        ['UPDATE', 'Actually, I moved to Lisbon in March.', "I've relocated to Porto for a new role."],
      ]);
      const [first, , last] = changes;
      const memory = (await call('GET', `/memory/${home}`)).body as Memory;
      expect(memory.created_at).toBe(first.created_at);
      expect(memory.updated_at).toBe(last.created_at);
      expect(Date.parse(memory.updated_at) - Date.parse(memory.created_at)).toBeGreaterThan(260 * DAY);
      expect((await history(food)).map((h) => h.event)).toEqual(['ADD', 'UPDATE']);
      expect((await history(work)).map((h) => h.event)).toEqual(['ADD', 'UPDATE']);
    });

    it('keeps one memory per single-valued fact and every added one', async () => {
      const list = (await call('GET', `/memory/list?user_id=${user}`)).body.results as Memory[];
      expect(list.map((m) => m.memory).sort()).toEqual(
        [
          "I've relocated to Porto for a new role.",
          'These days I work at Bosch.',
          'Sushi is my favourite food now.',
          "My dog's name is Rex.",
          "My cat's name is Tom.",
          'I love hiking.',
          'I started learning the guitar.',
        ].sort(),
      );
    });

    it.each([
      ['Where do I live?', "I've relocated to Porto for a new role."],
      ['Which city am I living in?', "I've relocated to Porto for a new role."],
      ['Where do I work?', 'These days I work at Bosch.'],
      ['What is my favourite food?', 'Sushi is my favourite food now.'],
    ])('search answers the current value first: %s', async (query, current) => {
      for (const mode of ['hybrid', 'semantic', 'lexical']) {
        const results = await search(user, query, { search_mode: mode });
        if (mode !== 'lexical' || results.length) expect([mode, results[0]?.memory]).toEqual([mode, current]);
        expect(results.map((r) => r.memory).join(' ')).not.toMatch(/Berlin|Lisbon|Siemens|ramen/);
      }
      // With decay (the default) too the current value comes first and no old one is found: the
      // memory is as fresh as its last change.
      const decayed = await search(user, query, { time_decay: true });
      expect(decayed[0]?.memory).toBe(current);
      expect(decayed.map((r) => r.memory).join(' ')).not.toMatch(/Berlin|Lisbon|Siemens|ramen/);
    });

    it('as_of answers what held then: each old value in its own time, never after it', async () => {
      const day = (age: number) => daysAgo(age).slice(0, 10);
      const livedThen = async (as_of: string) =>
        (await search(user, 'Where do I live?', { as_of }))[0] as Memory & {
          valid_from: string;
          valid_to: string | null;
        };
      // Berlin from 300 days ago until the move 200 days ago, Lisbon until 30 days ago, Porto since.
      expect((await livedThen(day(250))).memory).toBe('I live in Berlin.');
      expect((await livedThen(day(250))).valid_to).toBe((await history(home))[1].created_at);
      expect((await livedThen(day(150))).memory).toBe('Actually, I moved to Lisbon in March.');
      expect((await livedThen(day(10))).memory).toBe("I've relocated to Porto for a new role.");
      expect((await livedThen(day(10))).valid_to).toBeNull();
      // Before she said anything, nothing held; an instant works as a day does.
      expect(await search(user, 'Where do I live?', { as_of: day(310) })).toEqual([]);
      expect((await livedThen(daysAgo(250))).memory).toBe('I live in Berlin.');

      const listed = (await call('GET', `/memory/list?user_id=${user}&as_of=${day(150)}`)).body
        .results as Memory[];
      expect(listed.map((m) => m.memory).sort()).toEqual(
        [
          'Actually, I moved to Lisbon in March.',
          'I work at Siemens.',
          'My favourite food is ramen.',
          "My dog's name is Rex.",
          "My cat's name is Tom.",
          'I love hiking.',
          'I started learning the guitar.',
        ].sort(),
      );
    });

    it('a question about the past reads the earlier versions too, before what replaced them', async () => {
      const before = (
        await call('POST', '/memory/search', { user_id: user, query: 'Where did I live before?' })
      ).body.results as (Memory & { valid_to: string | null })[];
      expect(['I live in Berlin.', 'Actually, I moved to Lisbon in March.']).toContain(before[0].memory);
      expect(before[0].valid_to).not.toBeNull();
      const earlierJob = (
        await call('POST', '/memory/search', { user_id: user, query: 'Which company did I work for before?' })
      ).body.results as Memory[];
      expect(earlierJob[0].memory).toBe('I work at Siemens.');
    });

    it('a question naming a month in the past answers with what held that month, decay on', async () => {
      const monthOf = (age: number) =>
        new Date(daysAgo(age)).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
      // Berlin held through the month 250 days ago, Lisbon through the month 115 days ago.
      const livedIn = async (age: number) =>
        (await search(user, `Where did I live in ${monthOf(age)}?`, { time_decay: true }))[0]?.memory;
      expect(await livedIn(250)).toBe('I live in Berlin.');
      expect(await livedIn(115)).toBe('Actually, I moved to Lisbon in March.');
    });

    it('GET /memory/changes lists each value a newer statement replaced, in time order', async () => {
      const res = await call('GET', `/memory/changes?user_id=${user}`);
      expect(res.status).toBe(200);
      const changes = res.body.results as { memory_id: string; from: string; to: string; at: string }[];
      expect(changes.map((c) => [c.memory_id, c.from, c.to])).toEqual([
        [home, 'I live in Berlin.', 'Actually, I moved to Lisbon in March.'],
        ...[
          [food, 'My favourite food is ramen.', 'Sushi is my favourite food now.'],
          [work, 'I work at Siemens.', 'These days I work at Bosch.'],
        ].sort(([a], [b]) => a.localeCompare(b)),
        [home, 'Actually, I moved to Lisbon in March.', "I've relocated to Porto for a new role."],
      ]);
      expect(Date.parse(changes[0].at)).toBe(Date.parse((await history(home))[1].created_at));
      const since = (await call('GET', `/memory/changes?user_id=${user}&since=${daysAgo(50)}`)).body
        .results as { to: string }[];
      expect(since.map((c) => c.to)).toEqual(["I've relocated to Porto for a new role."]);
      // The first changes, in time order, up to the limit: an intermediate one says what came next.
      const first = (await call('GET', `/memory/changes?user_id=${user}&limit=1`)).body.results as {
        to: string;
      }[];
      expect(first.map((c) => c.to)).toEqual(['Actually, I moved to Lisbon in March.']);
    });

    it('the lexical index forgets the old values and knows the new ones', async () => {
      for (const old of ['Berlin', 'Lisbon', 'Siemens', 'ramen'])
        expect(await search(user, old, { search_mode: 'lexical' })).toEqual([]);
      expect((await search(user, 'Porto', { search_mode: 'lexical' }))[0].id).toBe(home);
    });
  });

  it('answers "where do I live?" with a move that shares no word with it, before other facts', async () => {
    for (const [text, age] of [
      ['I live in Berlin.', 60],
      ['My favourite food is ramen.', 50],
      ['I work at Siemens.', 40],
      ['I started learning the guitar.', 30],
    ] as const)
      await said('nova', text, age);
    const [moved] = await said('nova', 'Actually I moved to Lisbon last month.', 5);
    expect(moved.event).toBe('UPDATE');
    for (const time_decay of [false, true]) {
      const results = await search('nova', 'where do I live?', { time_decay });
      expect([time_decay, results[0]?.memory]).toEqual([
        time_decay,
        'Actually I moved to Lisbon last month.',
      ]);
    }
  });

  it('supersedes by evidence in the words where no sentence shape is known, and ranks assertions over mentions now', async () => {
    const [gym] = await said('ivo', 'My gym is Iron Temple.', 200);
    const [car] = await said('ivo', 'My car is a Mazda 3.', 190);
    expect(events(await said('ivo', 'New gym: Crunch.', 100))).toEqual([['UPDATE', 'New gym: Crunch.']]);
    expect(events(await said('ivo', 'Sold the Mazda 3 and bought a VW Golf.', 90))).toEqual([
      ['UPDATE', 'Sold the Mazda 3 and bought a VW Golf.'],
    ]);
    // A mention of an old value, and news about it, replace nothing.
    expect(events(await said('ivo', 'Walked past Iron Temple on the way home.', 5))).toEqual([
      ['ADD', 'Walked past Iron Temple on the way home.'],
    ]);
    expect(events(await said('ivo', 'Crunch opened a second branch near Sam.', 4))[0][0]).toBe('ADD');
    expect((await call('GET', `/memory/${gym.id}`)).body.memory).toBe('New gym: Crunch.');
    expect((await call('GET', `/memory/${car.id}`)).body.memory).toBe(
      'Sold the Mazda 3 and bought a VW Golf.',
    );
    // With the API's defaults (decay on), the assertion comes before the recent mention.
    const first = async (query: string) =>
      ((await call('POST', '/memory/search', { user_id: 'ivo', query })).body.results as Memory[])[0].memory;
    expect(await first('Which gym do I go to?')).toBe('New gym: Crunch.');
    expect(await first('What car do I drive now?')).toBe('Sold the Mazda 3 and bought a VW Golf.');
    // What held then is still there.
    expect(
      ((await search('ivo', 'Which gym do I go to?', { as_of: daysAgo(150).slice(0, 10) }))[0] as Memory)
        .memory,
    ).toBe('My gym is Iron Temple.');
  });

  it("reads what a memory said before, and a known attribute's cue words, for what a statement is about", async () => {
    const [phone] = await said('olu', 'I use a Pixel 8 as my phone.', 300);
    const [work] = await said('olu', 'Initech is where I work.', 250);
    expect(events(await said('olu', 'Got a Fairphone 5, the Pixel 8 screen cracked.', 200))[0][0]).toBe(
      'UPDATE',
    );
    // "phone" is in no word of the memory now, but in what it said before.
    expect(events(await said('olu', 'Changed my phone, it is a Galaxy S23 since last week.', 100))).toEqual([
      ['UPDATE', 'Changed my phone, it is a Galaxy S23 since last week.'],
    ]);
    // An employer's statement replaces one that holds an employer's cue word ("work")...
    expect(events(await said('olu', 'My employer is Umbrella Labs now.', 50))).toEqual([
      ['UPDATE', 'My employer is Umbrella Labs now.'],
    ]);
    // ...but not a phrasal verb, nor a clause of when.
    expect(events(await said('olu', 'I work out at Crunch since the move.', 40))[0][0]).toBe('ADD');
    // What it has been about stays with it, as the service wrote it.
    expect((await call('GET', `/memory/${phone.id}`)).body).toMatchObject({
      memory: expect.stringMatching(/Galaxy S23/),
      metadata: { plat_about: expect.arrayContaining(['phone', 'screen']) },
    });
    expect((await call('GET', `/memory/${work.id}`)).body.memory).toBe('My employer is Umbrella Labs now.');
    const first = async (query: string) =>
      ((await call('POST', '/memory/search', { user_id: 'olu', query })).body.results as Memory[])[0].memory;
    expect(await first('Which phone am I using now?')).toMatch(/Galaxy S23/);
    expect(await first('What is my current employer?')).toBe('My employer is Umbrella Labs now.');
    // No caller writes what a memory has been about: a claimed one is dropped, the rest kept.
    const [claimed] = (
      await call('POST', '/memory/add', {
        user_id: 'olu',
        text: 'My laptop is a ThinkPad X1.',
        metadata: { plat_about: ['employer'], plat_evokes: ['employer'], note: 'kept' },
      })
    ).body.results as Added[];
    // What it evokes is the service's reading of its text, not the caller's.
    expect((await call('GET', `/memory/${claimed.id}`)).body.metadata).toEqual({
      note: 'kept',
      plat_evokes: expect.arrayContaining(['laptop']),
    });
    expect((await call('GET', `/memory/${claimed.id}`)).body).not.toMatchObject({
      metadata: { plat_evokes: expect.arrayContaining(['employer']) },
    });
  });

  it('supersedes by what two statements evoke when they share no word, not across attributes said alike', async () => {
    // "hair cut" and "barber" share no word, but both evoke "barber", "salon" and "hair".
    const [cut] = await said('ines', 'I get my hair cut at Kutz.', 120);
    expect(await said('ines', 'My barber is Tony Rossi now.', 60)).toEqual([
      updated(cut.id, 'I get my hair cut at Kutz.', 'My barber is Tony Rossi now.'),
    ]);
    expect((await call('GET', `/memory/${cut.id}`)).body).toMatchObject({
      metadata: { plat_evokes: expect.arrayContaining(['barber']) },
    });
    // A correction's new text has evoked nothing yet: the old text's words go.
    expect(
      (await call('PUT', '/memory/update', { memory_id: cut.id, text: 'My barber is Tony Russo now.' }))
        .status,
    ).toBe(200);
    expect((await call('GET', `/memory/${cut.id}`)).body.metadata).not.toHaveProperty('plat_evokes');
    const [rent] = await said('ines', 'We rent from Foxtons.', 110);
    expect(await said('ines', 'Our landlord is Mr Patel now.', 50)).toEqual([
      updated(rent.id, 'We rent from Foxtons.', 'Our landlord is Mr Patel now.'),
    ]);
    // Said alike of two attributes: "changed … in spring" makes both evoke "spring", which is about neither.
    await said('jude', 'Our insurer changed to AXA in spring.', 40);
    expect(events(await said('jude', 'Our mobile provider changed to Three in spring.', 30))).toEqual([
      ['ADD', 'Our mobile provider changed to Three in spring.'],
    ]);
  });

  it('supersedes by likeness when no word links the two, and keeps statements of other things', async () => {
    // "plumber" against "pipes and boiler": no word in common; the model reads them alike once the
    // everyday background is taken away (docs/memory-supersede.md#by-likeness).
    const [sofa] = await said('pia', 'We bought a new sofa from Ikea.', 200);
    const [plumber] = await said('pia', 'Our plumber is Fixit Bros.', 150);
    const [coach] = await said('pia', 'My tennis coach is Ivan Petrov.', 140);
    expect(await said('pia', 'These days Drainmasters look after our pipes and boiler.', 20)).toEqual([
      updated(
        plumber.id,
        'Our plumber is Fixit Bros.',
        'These days Drainmasters look after our pipes and boiler.',
      ),
    ]);
    for (const kept of [sofa, coach])
      expect((await call('GET', `/memory/${kept.id}`)).body.memory).toBe(kept.memory);
    // A plain statement that says nothing of a change may be an attribute's first: likeness alone
    // replaces nothing with it (docs/memory-supersede.md#by-likeness).
    const [gym] = await said('pia', 'I train at Anytime Fitness.', 130);
    expect(events(await said('pia', 'I bank with ING.', 10))).toEqual([['ADD', 'I bank with ING.']]);
    expect((await call('GET', `/memory/${gym.id}`)).body.memory).toBe(gym.memory);
  });

  it('reads a statement its words take for an event as asserting in the model’s reading, and keeps the reading', async () => {
    const [dentist] = await said('ravi', 'My dentist is Dr Patel.', 150);
    // A mention stays one: the model reads it as such too.
    expect(events(await said('ravi', 'Saw an ad for Smile Studio on the bus.', 100))).toEqual([
      ['ADD', 'Saw an ad for Smile Studio on the bus.'],
    ]);
    // "looked after" is in the past: the words read an event; the model, what holds.
    expect(await said('ravi', 'Dr Amari has looked after my teeth since June.', 30)).toEqual([
      updated(dentist.id, 'My dentist is Dr Patel.', 'Dr Amari has looked after my teeth since June.'),
    ]);
    expect((await call('GET', `/memory/${dentist.id}`)).body.metadata).toMatchObject({ plat_asserts: true });
    // The reading stays with the memory, so a later statement replaces it in turn.
    expect(await said('ravi', 'Dr Okafor is my dentist now.', 10)).toEqual([
      updated(dentist.id, 'Dr Amari has looked after my teeth since June.', 'Dr Okafor is my dentist now.'),
    ]);
    expect((await call('GET', `/memory/${dentist.id}`)).body.metadata).not.toHaveProperty('plat_asserts');
    // Only the service writes it.
    const [claimed] = (
      await call('POST', '/memory/add', {
        user_id: 'ravi',
        text: 'Read a review of Smile Studio.',
        metadata: { plat_asserts: true, note: 'kept' },
      })
    ).body.results as Added[];
    expect((await call('GET', `/memory/${claimed.id}`)).body.metadata).toEqual({ note: 'kept' });
  });

  it('deleting a memory deletes what it said before too; a bad as_of is refused', async () => {
    const [first] = await said('noor', 'I live in Oslo.', 90);
    await said('noor', 'I moved to Bergen.', 40);
    const asOf = daysAgo(60).slice(0, 10);
    expect((await search('noor', 'Where do I live?', { as_of: asOf }))[0].memory).toBe('I live in Oslo.');
    expect((await call('DELETE', `/memory/${first.id}`)).status).toBe(200);
    expect(await search('noor', 'Where do I live?', { as_of: asOf })).toEqual([]);
    expect((await call('GET', '/memory/changes?user_id=noor')).body.results).toEqual([]);
    for (const as_of of ['2025-02-30', 'yesterday', "2025-01-01' OR 1=1 --", 12, '2025-01-01T00:00:00'])
      expect([
        as_of,
        (await call('POST', '/memory/search', { user_id: 'noor', query: 'home', as_of })).status,
      ]).toEqual([as_of, 400]);
    const soon = await call('GET', '/memory/list?user_id=noor&as_of=soon');
    expect(soon.status).toBe(400);
    expect(JSON.stringify(soon.body)).toContain('a day YYYY-MM-DD or an ISO 8601 datetime');
    expect((await call('GET', '/memory/changes?user_id=noor&since=%00')).status).toBe(400);
  });

  it('a backfilled fact older than the memory it contradicts supersedes nothing', async () => {
    const [now] = await said('late', 'I live in Oslo.', 10);
    const [older] = await said('late', 'I live in Bergen.', 400);
    expect(older.event).toBe('ADD');
    expect(older.id).not.toBe(now.id);
    expect((await history(now.id)).map((h) => h.event)).toEqual(['ADD']);
  });

  it('with infer=false nothing is merged, only the exact same text answers NONE', async () => {
    const raw = (text: string) => add({ user_id: 'raw', text, infer: false });
    const [berlin] = await raw('I live in Berlin.');
    const [lisbon] = await raw('I moved to Lisbon.');
    expect([berlin.event, lisbon.event]).toEqual(['ADD', 'ADD']);
    expect(lisbon.id).not.toBe(berlin.id);
    expect(events(await raw('I live in Berlin.'))).toEqual([['NONE', 'I live in Berlin.']]);
    expect((await history(berlin.id)).map((h) => h.event)).toEqual(['ADD']);
    expect(((await call('GET', '/memory/list?user_id=raw')).body.results as unknown[]).length).toBe(2);
  });

  it("one agent's memory is not superseded by another agent's fact", async () => {
    const [coach] = await add({ user_id: 'scoped', agent_id: 'coach', text: 'I live in Madrid.' });
    const [planner] = await add({ user_id: 'scoped', agent_id: 'planner', text: 'I moved to Rome.' });
    expect([coach.event, planner.event]).toEqual(['ADD', 'ADD']);
    const [again] = await add({ user_id: 'scoped', agent_id: 'coach', text: 'I moved to Seville.' });
    expect(again).toMatchObject({ id: coach.id, event: 'UPDATE', previous_memory: 'I live in Madrid.' });
    expect(((await call('GET', `/memory/${planner.id}`)).body as Memory).memory).toBe('I moved to Rome.');
  });

  it("third-person facts supersede per person: Ana's move does not touch Ben's city", async () => {
    const [ana] = await add({ user_id: 'team', text: 'Ana lives in Berlin.' });
    const [ben] = await add({ user_id: 'team', text: 'Ben lives in Berlin.' });
    expect([ana.event, ben.event]).toEqual(['ADD', 'ADD']);
    const [moved] = await add({ user_id: 'team', text: 'Ana moved to Vienna.' });
    expect(moved).toMatchObject({ id: ana.id, event: 'UPDATE', previous_memory: 'Ana lives in Berlin.' });
    expect(((await call('GET', `/memory/${ben.id}`)).body as Memory).memory).toBe('Ben lives in Berlin.');
  });
});

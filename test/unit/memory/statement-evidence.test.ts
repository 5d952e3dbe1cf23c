/**
 * Supersede by evidence (docs/memory-supersede.md#by-evidence): the names a statement gives, whether
 * it asserts or only mentions them, what it is about, and when a newer statement replaces an older
 * one's value; and how a question reads in time (docs/memory-search.md#now-and-then).
 */
import { aboutWords, contentWords } from '../../../domain/memory/supersede/statement-about';
import {
  attributeStatement,
  replacementEvidence,
  setsAnAttribute,
} from '../../../domain/memory/supersede/statement-evidence';
import {
  mentionsOnly,
  tellsOfAChange,
  tellsOfAnEvent,
} from '../../../domain/memory/supersede/statement-kind';
import {
  namedValues,
  otherPersonOf,
  peopleNamedIn,
  withoutNames,
} from '../../../domain/memory/supersede/statement-names';
import {
  asksForOneValue,
  asksForOneValueThen,
  periodAskedAbout,
  questionTime,
  questionWithoutWordsOfTime,
  withoutWordsOfAsking,
} from '../../../domain/memory/search/question-time';
import { wordsAskedAbout } from '../../../domain/memory/search/answer-weights';
import { timeRangeOf } from '../../../domain/memory/search/time-expressions';
import { queryTerms } from '../../../domain/memory/search/text-terms';
import { statementOf } from '../../../domain/memory/supersede/statement-of';
import { slotWordsOf, withSlotWords } from '../../../domain/memory/supersede/slot-words';

/** The evidence, or undefined when either sets no attribute. */
const replaces = (newer: string, older: string) => {
  const [n, o] = [attributeStatement(newer), attributeStatement(older)];
  return n && o ? replacementEvidence(n, o) : undefined;
};

describe('what a statement gives and is about', () => {
  it('reads names as runs of capitals and digits, a first word only when it names itself', () => {
    expect(namedValues('I switched my phone to iPhone 15 Pro.')).toEqual(['iphone 15 pro']);
    expect(namedValues('Dr Chen is my new dentist.')).toEqual(['dr chen']);
    expect(namedValues('Initech is where I work.')).toEqual(['initech']);
    expect(namedValues('Home is Toronto for me.')).toEqual(['toronto']);
    expect(namedValues('Booked flights for the summer.')).toEqual([]);
    expect(namedValues('My gym is Gold Gym.')).toEqual(['gold gym']);
    expect(namedValues('Cancelled Iron Temple and joined PureGym.')).toEqual(['iron temple', 'puregym']);
    expect(namedValues('Red Bull is what I drink.')).toEqual(['red bull']);
    expect(namedValues('Dropped AXA, Zurich were cheaper.')).toEqual(['axa', 'zurich']);
    // A first word alone is a name when it is no ordinary word; the speaker's "I'm" is no name.
    expect(namedValues('Priya took over as our babysitter.')).toEqual(['priya']);
    expect(namedValues('Halifax holds our mortgage now.')).toEqual(['halifax']);
    // Without the speaker in it, the first word says whose attribute it is.
    expect(namedValues('Ana lives in Berlin.')).toEqual(['berlin']);
    expect(namedValues('Finally moved the mortgage to Skipton.')).toEqual(['skipton']);
    expect(namedValues("I'm insured with Aviva.")).toEqual(['aviva']);
    expect(namedValues('I’ve been with Marta for a few weeks.')).toEqual(['marta']);
    // A full stop ends a name, unless it ends a short abbreviation.
    expect(namedValues('Switched over from Mindful Chef. Gousto is our meal kit.')).toEqual([
      'mindful chef',
      'gousto',
    ]);
    expect(namedValues('Dr. Chen is my dentist.')).toEqual(['dr. chen']);
  });

  it('tells a mention from an assertion', () => {
    for (const s of ['Talked about Ajax with Jo at lunch.', 'I used to love Ajax.', 'I might move to Porto.'])
      expect([s, mentionsOnly(s)]).toEqual([s, true]);
    for (const s of ['I support Ajax.', 'We moved to Porto in May.'])
      expect([s, mentionsOnly(s)]).toEqual([s, false]);
    // What anybody but the speaker says or likes, unless the speaker speaks in it too.
    for (const s of ['Someone at work swears Ryanair is overrated.', 'Everyone says Lidl is cheaper.'])
      expect([s, mentionsOnly(s)]).toEqual([s, true]);
    expect(mentionsOnly('Someone nicked the Brompton, so I got a Trek FX.')).toBe(false);
  });

  it('reads a name set against another as asserted, a denied name alone as no assertion', () => {
    for (const s of [
      'The car goes to Barlow Garage, not Mike Motors.',
      'We shop at Lidl, not Tesco, these days.',
    ])
      expect([s, mentionsOnly(s)]).toEqual([s, false]);
    for (const s of [
      "It's not Monzo anymore.",
      'I am not with Monzo, not since May.',
      'We do not go to Lidl, Tesco either.',
      // A denial before a colon reaches no further, and the clause after it may mention only.
      'No Netflix for me; I never liked it.',
      'I might move to Porto: Lisbon is too hot.',
    ])
      expect([s, mentionsOnly(s)]).toEqual([s, true]);
    // A name denied in a clause of its own before the one that asserts ("Not X any more: Y is …").
    const denied = 'Not Ryanair any more: Lufthansa is my airline.';
    expect([mentionsOnly(denied), attributeStatement(denied)?.values]).toEqual([
      false,
      ['ryanair', 'lufthansa'],
    ]);
    expect(replaces(denied, 'I always fly Ryanair for work trips.')).toBe('names the old value');
  });

  it('keeps the words of what it is about, without names, function words or common verbs', () => {
    expect([...aboutWords('New gym: Crunch.')]).toEqual(['gym']);
    expect([...aboutWords('I switched my bank to HSBC.')]).toEqual(['bank']);
    expect([...aboutWords('Bought a birthday present for Alex.')]).toEqual(['birthday', 'present']);
    // A short name is taken out as a word, not as a piece of others ("Co" in "accountant").
    expect([...aboutWords('Turns out Hart and Co works better as my accountant.')]).toEqual([
      'better',
      'account',
    ]);
    expect([...contentWords('EE is my mobile network.', ['ee'])]).toEqual(['mobil', 'network']);
  });

  it('tells an event in the past from a value that holds or a change to a new one', () => {
    for (const s of [
      'Read a review of Octopus in the paper.',
      'Jo recommended Aviva to a friend.',
      'Hillside Primary sent me a survey by email.',
      'There was a Mubi stand at the fair.',
      'Ajax beat PSV on Sunday.',
      'I drove a Golf back then.',
      'Octopus sent me a survey, it is annoying.',
      // "end" alone is no verb of change.
      'Ended the call with Vodafone early.',
    ])
      expect([s, tellsOfAnEvent(s), attributeStatement(s)]).toEqual([s, true, undefined]);
    for (const s of [
      "I'm insured with Aviva.",
      'The cat is registered at VetCare now.',
      'Dropped AXA, Zurich were cheaper.',
      'Work gave me a MacBook Air to replace the Dell XPS 13.',
      'Our insurer changed to AXA in spring.',
      'I support Ajax.',
      'I work out at Crunch since the move.',
      // A clause of its own in the present names what holds.
      "Finally sorted the bike thing, it's Trek from now on.",
      'Looked around for ages; that is Lidl for us now.',
      // Phrasal verbs of becoming, and of choice, tell of a value one came to have.
      'Ended up with Outlook for the email provider.',
      'Wound up at Lidl for the weekly shop.',
      'Opted for Aviva when the renewal came.',
    ])
      expect([s, tellsOfAnEvent(s)]).toEqual([s, false]);
    // The verb of becoming is the frame two such statements share, not what they are about.
    expect(
      replaces('Ended up with Kwik Fit for the mechanic.', 'Ended up with Outlook for the email provider.'),
    ).toBeUndefined();
    expect(replaces('Ended up with Tesco.', 'Ended up with Outlook for the email provider.')).toBeUndefined();
    expect(replaces('Ended up with Outlook for the email provider.', 'I read my email in Gmail.')).toBe(
      'same attribute word',
    );
    // Two events of one shape replace nothing.
    expect(
      replaces('Read a review of Zurich in the paper.', 'Read a review of Allianz in the paper.'),
    ).toBeUndefined();
  });

  it('reads no attribute from a question, a mention, a long account or a sentence without a name', () => {
    expect(attributeStatement('Which gym is Crunch?')).toBeUndefined();
    expect(attributeStatement('Walked past Crunch on the way home.')).toBeUndefined();
    expect(attributeStatement('Made pasta for dinner.')).toBeUndefined();
    expect(attributeStatement(`I met Ana ${'and talked for hours '.repeat(10)}`)).toBeUndefined();
    expect(attributeStatement('')).toBeUndefined();
    expect(attributeStatement('\u0000\u202e Ŧest ☃ 𝔘nicode')).toBeDefined();
  });
});

describe('when a newer statement replaces an older one', () => {
  it('replaces when it names the old value beside a new one, or shares what they are about', () => {
    expect(replaces('Sold the Mazda 3 and bought a VW Golf.', 'My car is a Mazda 3.')).toBe(
      'names the old value',
    );
    expect(replaces('New gym: Crunch.', 'My gym is Iron Temple.')).toBe('same attribute word');
    expect(replaces('I switched my bank to HSBC.', 'I bank with ING.')).toBe('same attribute word');
  });

  it('does not replace another attribute, the same value, or an event about the old value', () => {
    expect(replaces('New gym: Crunch.', 'I bank with ING.')).toBeUndefined();
    expect(replaces('My gym is Crunch now.', 'My gym is Crunch.')).toBeUndefined();
    expect(replaces('Ajax beat PSV on Sunday.', 'I support Ajax.')).toBeUndefined();
    expect(
      replaces('Sold the Mazda 3 and bought a VW Golf.', 'Bought a birthday present for Alex.'),
    ).toBeUndefined();
  });

  it("replaces a known attribute's statement by one holding its cue words, either way round", () => {
    const known = (newer: string, older: string) =>
      replacementEvidence(statementOf(newer)!, statementOf(older)!);
    expect(known('My employer is Umbrella Labs now.', 'Initech is where I work.')).toBe(
      'a cue of its attribute',
    );
    expect(known('I switched my employer to Globex.', 'Initech is where I work.')).toBe(
      'a cue of its attribute',
    );
    expect(known('We relocated to Porto last month.', 'I live in Toronto.')).toBe('a cue of its attribute');
  });

  it("reads whose attribute a possessive name says, not what it is about; two people's never replace each other", () => {
    expect([...aboutWords("Mia's school is Hillside Primary.")]).toEqual(['school']);
    expect(
      replaces("Moved my daughter's school over to St Marys.", "Mia's school is Hillside Primary."),
    ).toBe('same attribute word');
    expect(replaces("Ben's school is Oak Lane.", "Ana's school is Hillside Primary.")).toBeUndefined();
  });

  it("reads a person around the speaker as the subject: their attribute never replaces the speaker's, nor the other way", () => {
    expect(otherPersonOf('My neighbour signed up with Nationwide last week.')).toBe('neighbour');
    expect(otherPersonOf("My sister's school is Oak Lane.")).toBe('sister');
    // A household's attributes are often the speaker's own to keep.
    expect(otherPersonOf("My daughter's school is Oak Lane now.")).toBeUndefined();
    expect(otherPersonOf('My babysitter is Zoe.')).toBeUndefined();
    expect(otherPersonOf('My sister and I bank with HSBC.')).toBeUndefined();
    expect(
      replaces('My neighbour signed up with Nationwide for the mortgage.', 'Our mortgage is with Halifax.'),
    ).toBeUndefined();
    expect(
      replaces('Our mortgage is with Skipton now.', 'My sister has her mortgage with Halifax.'),
    ).toBeUndefined();
    expect(replaces('My sister banks with Monzo now.', 'My sister banks with HSBC.')).toBe(
      'same attribute word',
    );
    expect(peopleNamedIn('Which bank does my sister use?')).toEqual(['sister']);
  });

  it('reads greetings, farewells and words of time as nothing a statement is about; a farewell as a change', () => {
    expect([...aboutWords('The cleaning is done by Mrs Kowalska nowadays.')]).toEqual(['clean']);
    expect(aboutWords('Said goodbye to Specsavers; hello Leightons!').size).toBe(0);
    expect(tellsOfAnEvent('Said goodbye to Specsavers; hello Leightons!')).toBe(false);
    expect(tellsOfAnEvent('Said hello to Jo at the station.')).toBe(true);
  });

  it('reads no cue in a phrasal verb or a clause of when, and lets the keys decide two read attributes', () => {
    const known = (newer: string, older: string) =>
      replacementEvidence(statementOf(newer)!, statementOf(older)!);
    expect(known('I work at Umbrella Labs.', 'I work out at PureGym since the move.')).toBeUndefined();
    expect(known('New home city: Porto.', 'I work out at Crunch since the move.')).toBeUndefined();
    expect(known('I work at Acme Corp.', 'I work as a Nurse.')).toBeUndefined();
  });

  it('reads no cue in a word both statements hold: it is the frame they share', () => {
    const known = (newer: string, older: string) =>
      replacementEvidence(statementOf(newer)!, statementOf(older)!);
    // "turn" is a cue of one's age ("I turned 40"), and both say "Turns out".
    expect(
      known('Turns out Kwik Fit works better as my mechanic.', 'Turns out Trek FX works better as my bike.'),
    ).toBeUndefined();
  });

  it('reads a verb of change as what happened, not what a statement is about; the old value named wins', () => {
    // "Dropped" is no attribute two changes share.
    expect(aboutWords('Dropped Gousto and went with HelloFresh instead.').size).toBe(0);
    expect(
      replaces(
        'Dropped Bright Horizons and went with Little Acorns instead.',
        'Dropped Gousto and went with HelloFresh instead.',
      ),
    ).toBeUndefined();
    expect(
      replaces(
        'Dropped Bright Horizons and went with Little Acorns instead.',
        'Our nursery is Bright Horizons.',
      ),
    ).toBe('names the old value');
    // Common verbs in any form ("helps"), counts and days say nothing of it either.
    expect([...aboutWords('Tutor Doctor helps Mia with maths on Wednesdays.')]).toEqual(['math']);
    expect(attributeStatement('Leo goes to Little Acorns three days a week.')?.about.size).toBe(0);
    expect(namedValues('I see Ruth on Wednesdays.')).toEqual(['ruth']);
  });

  it('reads a short preface before a colon as nothing a statement is about, unless nothing follows it', () => {
    expect([...aboutWords('Quick one: plumber is Dave Corrigan now')]).toEqual(['plumber']);
    expect([...aboutWords('New gym: Crunch.')]).toEqual(['gym']);
    expect(replaces('Quick one: plumber is Dave Corrigan now', 'Our plumber is Pipe Dreams.')).toBe(
      'same attribute word',
    );
  });

  it('reads a verb and its particle as the noun English makes of them, so the two forms meet', () => {
    expect([...aboutWords('My photos are backed up to Dropbox.')]).toEqual(['photo', 'backup']);
    expect(replaces('My backups go to pCloud now.', 'My photos are backed up to Dropbox.')).toBe(
      'same attribute word',
    );
    // Not a common verb's idiom, nor a verb of change.
    expect(aboutWords('Turns out Trek works better.').has('turnout')).toBe(false);
    expect(aboutWords('Switched over to Trek.').size).toBe(0);
  });

  it('reads a person a statement opens with as whose attribute it is, in the other statement too', () => {
    const mia = attributeStatement('Mia does maths with Anna Kowalczyk now.')!;
    expect([mia.values, mia.possessors, [...mia.about]]).toEqual([['anna kowalczyk'], ['mia'], ['math']]);
    expect(
      replaces('Mia does maths with Anna Kowalczyk now.', 'Tutor Doctor helps Mia with maths on Wednesdays.'),
    ).toBe('same attribute word');
    // Mia is no value the older statement gave, so naming her names no old value.
    expect(
      replaces('Mia does maths with Anna Kowalczyk now.', 'Mia swims with Otters Club.'),
    ).toBeUndefined();
    expect(
      replaces("Ben's maths tutor is Mr Patel.", 'Mia does maths with Anna Kowalczyk now.'),
    ).toBeUndefined();
  });

  it('reads a mention in passing: a question put, a thing that went elsewhere, a change as a noun', () => {
    for (const s of [
      'Dad keeps asking whether we still use pCloud.',
      'An email from Dropbox went straight to spam.',
      'Compared prices with Aqua Pro again, no change.',
    ])
      expect([s, attributeStatement(s)]).toEqual([s, undefined]);
    // The name is the subject that changed, or a name follows the change.
    for (const s of [
      'Halifax became our lender.',
      'Priya took over as our babysitter.',
      'The mortgage moved to Halifax.',
    ])
      expect([s, tellsOfAnEvent(s)]).toEqual([s, false]);
    // A thing arriving every week is a habit, not a time of its own.
    expect(attributeStatement('A Gousto box arrives every Thursday.')?.values).toEqual(['gousto']);
  });

  it('reads a one-off thing got or bought from or for a name as an event, not a value one has', () => {
    for (const s of [
      'Got a leaflet from Vision Express through the door.',
      'Bought a birthday present for Alex.',
    ])
      expect([s, attributeStatement(s)]).toEqual([s, undefined]);
    for (const s of [
      'Bought a VW Golf.',
      'Opened an account with Monzo.',
      'Got my glasses from Specsavers.',
      // A word of a name is no verb.
      'News: our pet insurance is Bought By Many from this week.',
    ])
      expect([s, tellsOfAnEvent(s)]).toEqual([s, false]);
  });

  it('reads the person around the speaker whose attribute a statement gives as no word of what it is about', () => {
    expect([...attributeStatement('My neighbour signed up with Nationwide last week.')!.about]).toEqual([]);
    expect(
      replaces(
        'My neighbour signed up with Scrivens last week.',
        'My neighbour signed up with Hannah last week.',
      ),
    ).toBeUndefined();
  });

  it('tells a statement that says its value came after another from a plain one', () => {
    for (const s of [
      'My gym is Crunch now.',
      'Dropped Aviva and went with Zurich instead.',
      'Halifax became our lender.',
      'As of this month our plumber is Aqua Pro.',
      'Ended up with Outlook for the email provider.',
      'Turns out Kwik Fit works better as my mechanic.',
      "I've been with Scrivens for my optician for a few weeks.",
    ])
      expect([s, tellsOfAChange(s)]).toEqual([s, true]);
    // A habit in the present may be an attribute's first statement.
    for (const s of [
      'I bank with ING.',
      'I get my hair coloured at Kutz.',
      'Leo goes to Tiny Steps three days a week.',
    ])
      expect([s, tellsOfAChange(s)]).toEqual([s, false]);
  });

  it('reads a first clause that asserts as the statement, whatever a later clause mentions or did', () => {
    const s = 'Pipe Dreams sorts out our leaks now; Aqua Pro never called back.';
    expect([mentionsOnly(s), tellsOfAnEvent(s)]).toEqual([false, false]);
    expect(replaces(s, 'We call Aqua Pro when a pipe leaks.')).toBe('names the old value');
    // A first clause that denies is no assertion.
    expect(mentionsOnly('No Netflix for me; I never liked it.')).toBe(true);
  });

  it('reads a value named by the newer statement as the old one unless the two are about other things', () => {
    expect(
      replaces(
        'Work gave me a Framework 13 to replace the MacBook Air.',
        'Replaced the Dell XPS 13 with a MacBook Air.',
      ),
    ).toBe('names the old value');
    expect(
      replaces('My doctor is Dr Lee at Smile Clinic.', 'My dentist is Dr Chen at Smile Clinic.'),
    ).toBeUndefined();
  });

  it("keeps a common verb's -ing noun, and a count that names itself, as what a statement gives", () => {
    expect([...aboutWords('Ended up with Canal Joggers for the running club.')]).toEqual(['run', 'club']);
    expect(namedValues('Three is my mobile network now.')).toEqual(['three']);
    // A verb of change stays a change in any form.
    expect(aboutWords('Work trips are booked on Ryanair now, easyJet kept cancelling.').has('cancel')).toBe(
      false,
    );
  });

  it('reads a first clause in the present naming a value as what holds, whatever the next one did', () => {
    for (const s of [
      'Work trips are booked on Ryanair now, easyJet kept cancelling.',
      'Marcus runs my sessions now, Kasia went part-time.',
      'The Page Turners took over as my book club.',
    ])
      expect([s, tellsOfAnEvent(s)]).toEqual([s, false]);
    expect(tellsOfAnEvent('Octopus sent me a survey, it is annoying.')).toBe(true);
  });

  it('reads a participle after a form of "be" as a state, an irregular one too, an adverb between or not', () => {
    expect(tellsOfAnEvent('Our photo books are made by Printique.')).toBe(false);
    expect(tellsOfAnEvent('The kids are taught by Mrs Okafor.')).toBe(false);
    expect(tellsOfAnEvent('The shop is now run by Tesco.')).toBe(false);
    expect(attributeStatement('Our photo books are made by Printique.')?.values).toEqual(['printique']);
    // In the past, it is what happened.
    expect(tellsOfAnEvent('I was sent a leaflet by Octopus.')).toBe(true);
    expect(tellsOfAnEvent('Hillside Primary made us a cake.')).toBe(true);
  });

  it('reads a first word with a capital inside as a name, and a change from today or a search ended as a change', () => {
    expect(namedValues('ShineBright does the windows now.')).toEqual(['shinebright']);
    expect(namedValues('AXA insures the house.')).toEqual(['axa']);
    expect(namedValues('OK, the gym is Crunch.')).toEqual(['crunch']);
    expect(namedValues("I'm with Tesco.")).toEqual(['tesco']);
    expect(tellsOfAChange('From today our osteopath is Align Osteopathy.')).toBe(true);
    expect(tellsOfAChange('Starting this week the cleaner is Mike Dunn.')).toBe(true);
    expect(tellsOfAChange('Finally sorted the window cleaner: it is ShineBright.')).toBe(true);
    expect(tellsOfAChange('Our osteopath is Align Osteopathy.')).toBe(false);
    expect(tellsOfAChange('I heard from Tom today.')).toBe(false);
  });

  it('reads a name chosen over another, a later clause in the present and a participle of change as what holds; a thing got from a name as an event', () => {
    // A name set against the chosen one, whatever the verb.
    expect(tellsOfAnEvent('Booked the car in at Kwik Fit instead of Halfords.')).toBe(false);
    expect(tellsOfAnEvent('Printed the invitations at Moonpig rather than Papier.')).toBe(false);
    expect(tellsOfAChange('Printed the invitations at Moonpig rather than Papier.')).toBe(true);
    expect(tellsOfAnEvent('Printed the invitations at Moonpig.')).toBe(true);
    // A later clause in the present naming a value says what holds after a past one.
    expect(tellsOfAnEvent('Printed the tickets at home and use Trainline for rail fares.')).toBe(false);
    expect(tellsOfAnEvent('Printed the tickets at Ryman and met Alex.')).toBe(true);
    // An irregular participle of a verb of change tells of one as its past form does.
    expect(tellsOfAChange('Halifax has taken over the mortgage.')).toBe(true);
    expect(tellsOfAChange('We have chosen Aviva for the car.')).toBe(true);
    expect(tellsOfAnEvent('Halifax has taken over the mortgage.')).toBe(false);
    // "No more" ends a value as "no longer" does.
    expect(tellsOfAChange('No more Ryanair: easyJet for work trips.')).toBe(true);
    // A thing got from a name, the thing qualified by a name or not, is an event and no change.
    for (const s of ['Got a Valentine card from Monzo.', 'Got a leaflet from Octopus.']) {
      expect([s, tellsOfAnEvent(s), tellsOfAChange(s)]).toEqual([s, true, false]);
    }
    expect(tellsOfAChange('Got a Trek FX for commuting.')).toBe(true);
  });

  it('reads a verb in the past before its object as what was done, not what a statement is about', () => {
    expect(aboutWords('Finally sorted the window cleaner: it is Pane Perfect.')).toEqual(
      new Set(['window', 'cleaner']),
    );
    expect(aboutWords('Booked my back treatment with Align Osteopathy.')).toEqual(
      new Set(['back', 'treatment']),
    );
    // So it shares what the older statement of the attribute is about.
    expect(
      replaces(
        'Finally sorted the window cleaner: it is Pane Perfect.',
        "We'd been with Crystal Clear for years, but the window cleaner is Mike Dunn now.",
      ),
    ).toBe('same attribute word');
    // A word in -ed that is no verb before an object stays ("red" is too short to be one).
    expect(aboutWords('My bed is from Dreams.')).toEqual(new Set(['bed']));
  });

  it('reads an ampersand as joining a name, as written, and other punctuation as ending one', () => {
    expect(namedValues('Swapped Abel & Cole for Growing Communities for our vegetables.')).toEqual([
      'abel & cole',
      'growing communities',
    ]);
    expect(namedValues('We shop at M&S now.')).toEqual(['m&s']);
    expect(namedValues('Dropped AXA, Zurich were cheaper.')).toEqual(['axa', 'zurich']);
    expect(namedValues('Tom & I went to Lidl.')).toEqual(['tom', 'lidl']);
    // The name is taken out of the text whole: its words are not what the statement is about.
    expect(aboutWords('Crumbs & Co bakes our bread.')).toEqual(new Set(['bake', 'bread']));
    expect(
      replaces(
        'Swapped Abel & Cole for Growing Communities for our veg box.',
        'Since Riverford put their prices up, the veg box has been Abel & Cole.',
      ),
    ).toBe('names the old value');
  });

  it('reads a clause of why or when opening a statement as neither its names nor what it is about', () => {
    // The opener is no word of a name.
    expect(namedValues('Since Aviva put their prices up, the insurer is Direct Line.')).toEqual([
      'aviva',
      'direct line',
    ]);
    expect(namedValues('Because Tesco closed, we shop at Lidl.')).toEqual(['tesco', 'lidl']);
    // Two reasons alike are no attribute in common; the old value named is.
    const vpn = 'Since ProtonVPN put their prices up, the VPN has been Mullvad.';
    expect(
      replaces(vpn, 'Since Kings Hall put their prices up, the swimming pool has been Tooting Lido.'),
    ).toBe(undefined);
    expect(replaces(vpn, "We'd been with Surfshark for years, but the VPN is ProtonVPN now.")).toBe(
      'names the old value',
    );
    expect(
      aboutWords('Since Kings Hall put their prices up, the swimming pool has been Tooting Lido.'),
    ).toEqual(new Set(['swim', 'pool']));
    expect(contentWords('since kings hall put their prices up, the pool has been tooting lido.', [])).toEqual(
      new Set(['pool', 'toot', 'lido']),
    );
    // Without its comma, a clause opening with "since" is read whole, as before.
    expect(aboutWords('Since March my gym is Crunch.')).toEqual(new Set(['gym']));
  });

  it('takes names out of a text as whole words only, as the lookaround expression says, on random texts', () => {
    // The specification: each name, escaped, with no letter or digit either side.
    const byExpression = (text: string, values: string[]) =>
      values.reduce(
        (rest, v) =>
          rest.replace(
            new RegExp(
              `(?<![\\p{L}\\p{N}])${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
              'gu',
            ),
            ' ',
          ),
        text,
      );
    const pieces = ['co', 'hart', ' ', 'and', 'x', 'é', '𝔘', '1', '.', "'", 'coco', 'a', '-', 'ß', '日本'];
    let seed = 7;
    const pick = () => pieces[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % pieces.length];
    const differing: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: i % 12 }, pick).join('');
      const values = Array.from({ length: 1 + (i % 3) }, () => `${pick()}${pick()}`.trim()).filter(Boolean);
      if (withoutNames(text, values) !== byExpression(text, values)) differing.push({ text, values });
    }
    expect(differing).toEqual([]);
  });

  it('reads a made-up 300,000-letter word with no full stop in time that grows with its length', () => {
    // A check for a full stop after four letters, run at every letter, took minutes for this one.
    const word = 'z'.repeat(300_000);
    expect(namedValues(`My gym is Iron Temple ${word}`)).toEqual(['iron temple']);
    expect([tellsOfAnEvent(`Bought Iron Temple ${word}`), mentionsOnly(`Iron Temple ${word}`)]).toEqual([
      false,
      false,
    ]);
    expect(tellsOfAChange(word)).toBe(false);
  });

  it('reads a statement holding a made-up 100,000-letter word, the word its own root', () => {
    // The stemmer's time grows with the square of a word's length: minutes for this one.
    const word = 'zz'.repeat(50_000);
    expect(attributeStatement(`My gym is Iron Temple, ${word}.`)?.about).toEqual(new Set(['gym', word]));
    // A run of a million spaces inside a clause: its clauses are found in one pass (matching the
    // rest of the run again at every space took time growing with its square: hours for this one).
    const spaced = `Deleted Addison Lee and use Bolt for taxis${' '.repeat(1_000_000)}now.`;
    expect(tellsOfAnEvent(spaced)).toBe(false);
  });

  it("reads no attribute of the speaker in a thing's time, nor a number as a name", () => {
    expect(attributeStatement('The meeting with Acme is on Monday.')).toBeUndefined();
    expect(attributeStatement('The release train 2 leaves on Thursday.')).toBeUndefined();
    expect(attributeStatement('The Acme demo is tomorrow at 3pm.')).toBeUndefined();
    expect(attributeStatement('The flat I rent belongs to Canal Homes.')).toBeDefined();
    // A thing of the speaker's, with no time of its own: "the cat" is ours.
    expect(attributeStatement('The cat is registered at Paws Clinic now.')?.values).toEqual(['paws clinic']);
    expect(attributeStatement('The car goes to Halfords Autocentre for repairs.')).toBeDefined();
    // A day naming which kind of thing is no time it happens at.
    expect(attributeStatement('The Saturday paper comes from Press Stop.')?.values).toEqual(['press stop']);
    expect(attributeStatement('The paper comes from Press Stop on Saturday.')).toBeUndefined();
    expect(namedValues('We meet in room 12 at 9:30.')).toEqual([]);
    expect(namedValues('My phone is a Pixel 8.')).toEqual(['pixel 8']);
  });
});

describe('what a memory has been about', () => {
  it('keeps the words of each statement a newer one replaced, beside the metadata', () => {
    const first = { memory: 'I use a Pixel 8 as my phone.', metadata: { note: 'kept' } };
    const second = {
      memory: 'Got a Fairphone 5, the Pixel 8 screen cracked.',
      metadata: withSlotWords(first.metadata, first),
    };
    expect(second.metadata).toEqual({ note: 'kept', plat_about: ['phone'] });
    expect(slotWordsOf({ metadata: withSlotWords(second.metadata, second) })).toEqual([
      'screen',
      'cracked',
      'phone',
    ]);
    // Junk where the words would be reads as none.
    expect(slotWordsOf({ metadata: { plat_about: 'phone' } })).toEqual([]);
    expect(slotWordsOf({ metadata: { plat_about: [1, 'gym', null] } })).toEqual(['gym']);
  });
});

describe('a question in time', () => {
  it.each([
    ['Which gym do I go to?', 'now'],
    ['Where do I live now?', 'now'],
    ['Who is my landlord at the moment?', 'now'],
    ['Where did I live before?', 'then'],
    ['Which car did I drive in 2023?', 'then'],
    ['Which bank was I with last year?', 'then'],
    ['Where did I say I live now?', 'now'],
    ['Who supplies our electricity?', 'now'],
    ['Who was my landlord?', 'then'],
    ['Tell me about my week', 'either'],
    ['When did Melanie paint a sunrise?', 'either'],
    // A request for a value asks for it as a question does.
    ['Tell me my current coffee shop.', 'now'],
    ['Show me my bank these days', 'now'],
    ['Remind me which gym I went to before', 'then'],
    // How one does a thing of one's own is by the value one has.
    ['How do we pay for parking?', 'now'],
    ['How does Caroline feel about it?', 'either'],
  ])('%s reads as %s', (q, time) => expect(questionTime(q)).toBe(time));

  it('reads what a question asks about without a request leading it in a clause of its own, nor the verb of how one does a thing', () => {
    expect(wordsAskedAbout('Tell me, which dentist do I see?')).toEqual(['dentist']);
    expect(wordsAskedAbout('Remind me: who is the plumber?')).toEqual(['plumber']);
    expect(withoutWordsOfAsking('Remind me of my dentist')).toBe('Remind me of my dentist');
    // The verb of a question how one does a thing says how, not what it asks about.
    expect(wordsAskedAbout('How do we pay for parking?')).toEqual(['parking']);
  });

  it.each([
    ['Which gym do I go to?', true],
    ["Who is Mia's teacher now?", true],
    ['What is my current football club?', true],
    ['Which car have I got now?', true],
    ['Which bank have I been with lately?', true],
    ['What books does Ana like?', false],
    ['What kinds of music does Ana play?', false],
    ['Where has Melanie camped?', false],
    ['What career path has Caroline decided to pursue?', false],
    ['Where did I live before?', false],
  ])('%s asks for one value now: %s', (q, one) => expect(asksForOneValue(q)).toBe(one));

  it.each([
    ['Which gym did I go to in March 2025?', true],
    ['Who was my landlord back in 2023?', true],
    ['What books did Ana read in May 2023?', false],
    ['Which gym do I go to?', false],
  ])('%s asks for one value then: %s', (q, one) => expect(asksForOneValueThen(q)).toBe(one));

  it('reads the period a question about the past names, and none in a question about now', () => {
    const now = new Date('2026-01-02T00:00:00.000Z');
    const period = (q: string) => periodAskedAbout(q, timeRangeOf(q, now));
    expect(period('Which gym did I go to in March 2025?')).toEqual({
      from: '2025-03-01T00:00:00.000Z',
      to: '2025-04-01T00:00:00.000Z',
      text: 'in March 2025',
    });
    expect(period('Which gym do I go to this month?')).toBeUndefined();
    expect(period('Which gym did I go to before?')).toBeUndefined();
  });

  it('searches a question about now without the words that only say when', () => {
    const terms = (q: string) => queryTerms(questionWithoutWordsOfTime(q));
    expect(terms('What is my current gym?')).toEqual(['gym']);
    expect(terms('Which computer am I on these days?')).toEqual(['computer']);
    expect(terms("What's my insurer at the moment?")).toEqual(['insurer']);
    expect(terms('Which current account did I open?')).toEqual(['current', 'account', 'open']);
  });

  it('searches a question about the past without the words that only say it is the past', () => {
    const terms = (q: string) => queryTerms(questionWithoutWordsOfTime(q));
    expect(terms('What newsagent did I have back in April 2025?')).not.toContain('back');
    expect(terms('Which bank was I with back then?')).toEqual(['bank']);
    expect(terms('Who was my dentist at the time?')).toEqual(['dentist']);
    // The noun stays.
    expect(terms('Who treated my back in March?')).toContain('back');
    expect(terms('Who treats my back?')).toContain('back');
  });
});

describe('whether a statement sets an attribute, asked without reading what it is about', () => {
  const statements = [
    'I bank with Monzo now.',
    'My dentist is Dr Patel at Smile Studio.',
    'Walked past Ajax on the way home.',
    'I used to love Ajax.',
    'The meeting with Acme is on Monday.',
    'The Sunday roast comes from Field to Fork.',
    'The flat I rent is from Foxtons on Monday.',
    'Which gym do I go to?',
    'Made pasta for dinner.',
    'We went to Lisbon with Ana and Tom last week and saw the castle, then the tram, then the sea, then more.',
    '  I switched to Vodafone.  ',
    '',
    'I am vegetarian.',
    'Priya took over as our babysitter.',
    'Met Carla at Porto airport yesterday.',
  ];

  it('answers as reading the whole statement does, with or without what the caller read of it', () => {
    for (const text of statements) {
      const whole = attributeStatement(text) !== undefined;
      expect([text, setsAnAttribute(text)]).toEqual([text, whole]);
      const read = {
        mention: mentionsOnly(text),
        event: () => tellsOfAnEvent(text),
        values: namedValues(text),
      };
      expect([text, setsAnAttribute(text, read)]).toEqual([text, whole]);
    }
    expect(statements.filter((t) => setsAnAttribute(t)).length).toBeGreaterThan(2);
    expect(statements.filter((t) => !setsAnAttribute(t)).length).toBeGreaterThan(5);
  });
});

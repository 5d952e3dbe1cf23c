/**
 * A fourth part of `npm run bench:memory-updates` to develop on, written once `dev-3` had been
 * tuned against (issue #52, 2026-11-30): attributes none of the other parts has (a hairdresser is a
 * barber's cousin, the rest are new), said in the passive, in questions back, with a reason first,
 * so a rule fitted to the first three parts' words shows here. The measured part stays `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_4_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'piano teacher',
    noun: 'piano teacher',
    values: ['Mrs Okafor', 'Mr Lindqvist', 'Ms Duarte', 'Mr Haddad', 'Mrs Novak'],
    set: ['{V} teaches me piano on Thursdays.', 'My piano lessons are with {V}.'],
    change: ['Piano is with {V} now that {OLD} retired.', 'I take my piano lessons from {V} these days.'],
    now: ['Who teaches me piano?', 'Who gives me my piano lessons?'],
  },
  {
    id: 'coffee shop',
    noun: 'coffee shop',
    values: ['Bean There', 'Grind House', 'Kaffee Klatsch', 'Roast Republic', 'Daily Drip'],
    set: ['My morning flat white is from {V}.', 'I grab coffee at {V} before work.'],
    change: ['{OLD} got too busy, so my coffee comes from {V}.', 'These mornings my coffee is from {V}.'],
    now: ['Where do I get my morning coffee?', 'Which café do I go to before work?'],
  },
  {
    id: 'broadband',
    noun: 'broadband provider',
    values: ['Virgin Media', 'BT Broadband', 'Hyperoptic', 'Sky Broadband', 'Plusnet'],
    set: ['Our internet comes from {V}.', 'The wifi at home is {V}.'],
    change: ['The home internet was moved over from {OLD} to {V}.', 'We are on {V} for the internet now.'],
    now: ['Who provides our internet at home?', 'What broadband do we have?'],
  },
  {
    id: 'physio',
    noun: 'physiotherapist',
    values: ['Dr Malik', 'Dr Ferreira', 'Dr Chowdhury', 'Dr Keane', 'Dr Varga'],
    set: ['{V} treats my knee.', 'My physio sessions are with {V}.'],
    change: ['My knee is being treated by {V} after {OLD} moved away.', '{V} sees me for the knee now.'],
    now: ['Who treats my knee?', 'Which physio am I seeing?'],
  },
  {
    id: 'hairdresser',
    noun: 'hairdresser',
    values: ['Snip Studio', 'Curl Up and Dye', 'Fringe Benefits', 'Mane Street', 'Hair Affair'],
    set: ['I get my hair coloured at {V}.', 'My stylist works at {V}.'],
    change: ['Booked my next colour at {V} instead of {OLD}.', 'My hair gets done at {V} these days.'],
    now: ['Where do I get my hair done?', 'Which salon do I go to?'],
  },
  {
    id: 'choir',
    noun: 'choir',
    values: ['Harmony Voices', 'St Albans Chorale', 'The Singing Tree', 'Northside Choir', 'Vox Populi'],
    set: ['I sing alto with {V}.', 'Wednesday nights are choir practice with {V}.'],
    change: ['Quit {OLD}; I sing with {V} now.', 'My choir these days is {V}.'],
    now: ['Which choir do I sing in?', 'Who do I sing with?'],
  },
  {
    id: 'airline',
    noun: 'airline',
    values: ['KLM', 'easyJet', 'Lufthansa', 'Ryanair', 'Iberia'],
    set: ['I always fly {V} for work trips.', 'My frequent flyer miles are with {V}.'],
    change: ['Work trips are booked on {V} now, {OLD} kept cancelling.', 'I collect miles with {V} now.'],
    now: ['Which airline do I fly with?', 'Who do I collect miles with?'],
  },
  {
    id: 'coworking',
    noun: 'coworking space',
    values: ['Second Home', 'The Hive', 'Desk Lab', 'Work Nest', 'Office Garden'],
    set: ['I work from {V} on Mondays.', 'My hot desk is at {V}.'],
    change: ['The company pays for {V} now instead of {OLD}.', 'My desk moved to {V}.'],
    now: ['Where is my hot desk?', 'Which coworking space do I use?'],
  },
];

export const DEV_4_PHRASINGS: PhrasingSet = {
  change: [
    'Guess what, my {N} is {V} now.',
    'Not {OLD} any more: {V} is my {N}.',
    'My {N}? {V}, since the spring.',
    'For my {N} I now rely on {V}.',
  ],
  now: ['Who or what is my {N} right now?', 'Tell me my current {N}.'],
  mention: [
    'Heard a podcast ad for {OLD} on the way in.',
    'Jo was complaining about {OLD} again.',
    'Drove past {OLD} on Saturday.',
    'Someone at work swears {OLD} is overrated.',
  ],
};

/**
 * A fifth part of `npm run bench:memory-updates` to develop on, written once `dev-4` had been tuned
 * against (issue #52, 2026-11-30 eighth session), before any result on it was seen: attributes none
 * of the other parts has (people who work for the user, a group, software, a lender), changes told
 * as someone taking over, as a farewell, as a fresh start, and mentions of another person's choice.
 * The measured part stays `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_5_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'optician',
    noun: 'optician',
    values: ['Specsavers', 'Vision Express', 'Boots Opticians', 'Scrivens', 'Leightons'],
    set: ['My eye tests are done at {V}.', 'Got my glasses from {V}.'],
    change: ['Had my eyes checked at {V} this time, not {OLD}.', 'My contact lenses come from {V} now.'],
    now: ['Where do I get my eyes tested?', 'Who do I get my glasses from?'],
  },
  {
    id: 'babysitter',
    noun: 'babysitter',
    values: ['Hannah', 'Priya', 'Zoe', 'Marta', 'Chloe'],
    set: ['{V} looks after the kids on Friday nights.', 'Our babysitter is {V}.'],
    change: [
      '{OLD} left for uni, so {V} babysits for us now.',
      '{V} minds the kids when we go out these days.',
    ],
    now: ['Who looks after the kids when we go out?', 'Who babysits for us?'],
  },
  {
    id: 'counsellor',
    noun: 'counsellor',
    values: ['Dr Adeyemi', 'Ruth Marsh', 'Dr Lindgren', 'Sam Whitaker', 'Dr Osei'],
    set: ['I see {V} for therapy every other week.', 'My therapy sessions are with {V}.'],
    change: [
      'Therapy is with {V} now; {OLD} stopped taking clients.',
      'I talk things through with {V} these days.',
    ],
    now: ['Who is my therapist?', 'Who do I see for therapy?'],
  },
  {
    id: 'dog walker',
    noun: 'dog walker',
    values: ['Paws Plus', 'Happy Tails', 'Lead the Way', 'Woof Walkers', 'Barkley Bros'],
    set: ['{V} walks Biscuit at lunchtime.', 'Biscuit goes out with {V} on weekdays.'],
    change: [
      'Biscuit has been going out with {V} since {OLD} put their prices up.',
      '{V} walks the dog now.',
    ],
    now: ['Who walks Biscuit?', 'Who takes the dog out at lunchtime?'],
  },
  {
    id: 'cleaner',
    noun: 'cleaner',
    values: ['Sparkle Team', 'Mrs Kowalska', 'Fresh Start Cleaning', 'Maid in Leeds', 'Tidy Tina'],
    set: ['{V} cleans the flat on Tuesdays.', 'The flat gets cleaned by {V}.'],
    change: ['Let {OLD} go; {V} does the cleaning from now on.', 'The cleaning is done by {V} nowadays.'],
    now: ['Who cleans the flat?', 'Who does our cleaning?'],
  },
  {
    id: 'book club',
    noun: 'book club',
    values: ['Tuesday Readers', 'Spines and Wines', 'The Page Turners', 'Library Circle', 'Chapter One'],
    set: ['I read along with {V} every month.', 'My book club is {V}.'],
    change: ['Left {OLD} and joined {V} instead.', 'This year I read with {V}.'],
    now: ['Which book club am I in?', 'Who do I read with each month?'],
  },
  {
    id: 'password manager',
    noun: 'password manager',
    values: ['1Password', 'Bitwarden', 'LastPass', 'Dashlane', 'KeePassXC'],
    set: ['All my passwords live in {V}.', 'I keep my logins in {V}.'],
    change: ['Exported everything from {OLD} into {V}.', 'My passwords are kept in {V} now.'],
    now: ['Where do I keep my passwords?', 'Which password manager do I use?'],
  },
  {
    id: 'mortgage',
    noun: 'mortgage lender',
    values: ['Nationwide', 'Halifax', 'Santander', 'Skipton', 'Coventry Building Society'],
    set: ['Our mortgage is with {V}.', 'We pay the mortgage to {V} every month.'],
    change: ['Remortgaged with {V} when the {OLD} deal ended.', 'The mortgage moved to {V}.'],
    now: ['Who is our mortgage with?', 'Which lender do we have the mortgage with?'],
  },
];

export const DEV_5_PHRASINGS: PhrasingSet = {
  change: [
    '{V} took over as my {N}.',
    'Said goodbye to {OLD}; hello {V}!',
    'Fresh start with a new {N}: {V}.',
    "I've been with {V} for my {N} for a few weeks.",
  ],
  now: ['Who is my {N} these days?', 'Which {N} have I got currently?'],
  mention: [
    'My neighbour signed up with {OLD} last week.',
    'Got a leaflet from {OLD} through the door.',
    '{OLD} was in the news again.',
    'Is {OLD} still open on Sundays?',
  ],
};

/**
 * The measured part of `npm run bench:memory-updates` (issue #52): attributes and phrasings the
 * memory service's code is never written against. Written on 2026-11-28, before any change to how
 * memories supersede or rank; measured only, never edited afterwards (a new phrasing goes into a new
 * held-aside set, and the old one keeps being reported). `dev.ts` holds the part to develop on.
 *
 * Slots: {V} the value, {OLD} the value it replaces, {N} the attribute's noun.
 */
import type { AttributeSpec, PhrasingSet } from './model';

/** Single-valued attributes the supersede table names none of. */
export const HELD_ASIDE_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'laptop',
    noun: 'laptop',
    values: ['ThinkPad X1', 'MacBook Air', 'Dell XPS 13', 'Framework 13', 'Surface Laptop', 'ZenBook 14'],
    set: ['My laptop is a {V}.', 'I do all my work on a {V}.'],
    change: ['Got a new {V} for work, the {OLD} is retired.', 'Traded in the {OLD} and picked up a {V}.'],
    now: ['What laptop am I using these days?', 'Which computer do I work on now?'],
  },
  {
    id: 'school',
    noun: "daughter's school",
    values: [
      'Riverside Primary',
      'St Anne School',
      'Oakwood Academy',
      'Hillcrest Elementary',
      'Lakeview School',
    ],
    set: ['My daughter goes to {V}.', 'Mia is a pupil at {V}.'],
    change: [
      'Mia started at {V} this term after we took her out of {OLD}.',
      'We moved Mia to {V}; her last day at {OLD} was Friday.',
    ],
    now: ['Which school is my daughter at currently?', 'Where does Mia go to school now?'],
  },
  {
    id: 'landlord',
    noun: 'landlord',
    values: ['Harbour Lettings', 'Mr Okafor', 'Greystone Property', 'Mrs Lindqvist', 'Canal Homes'],
    set: ['My landlord is {V}.', 'The flat is rented from {V}.'],
    change: [
      'The building was sold, so {V} is our landlord from this month instead of {OLD}.',
      'Rent now goes to {V}; {OLD} handed the flat over.',
    ],
    now: ['Who do I rent from at the moment?', 'Who is my landlord now?'],
  },
  {
    id: 'internet',
    noun: 'internet provider',
    values: ['Fibrelink', 'Zephyr Broadband', 'NetWave', 'Skyline Fiber', 'Kestrel Telecom'],
    set: ['Our internet is through {V}.', 'We get broadband from {V}.'],
    change: [
      'Cancelled {OLD} after the outages and the engineer from {V} connected us today.',
      'Home internet runs on {V} now, no more {OLD}.',
    ],
    now: ['Which internet provider do we have currently?', 'Who supplies our broadband these days?'],
  },
  {
    id: 'hairdresser',
    noun: 'hairdresser',
    values: ['Salon Verde', 'Kim at Cut Above', 'The Barber Room', 'Studio Lumen', 'Jasper'],
    set: ['I get my hair cut by {V}.', 'My hairdresser is {V}.'],
    change: [
      'Tried {V} for a haircut and I am not going back to {OLD}.',
      'Booked my next three cuts with {V}, done with {OLD}.',
    ],
    now: ['Who cuts my hair these days?', 'Which hairdresser do I go to now?'],
  },
  {
    id: 'doctor',
    noun: 'family doctor',
    values: ['Dr Patel', 'Dr Moreau', 'Dr Nakamura', 'Dr Oyelaran', 'Dr Fischer'],
    set: ['My GP is {V}.', 'I see {V} for check-ups.'],
    change: [
      '{OLD} retired, so my check-ups are with {V} from now on.',
      'Registered with {V} at the new practice; {OLD} is too far away now.',
    ],
    now: ['Who is my family doctor at the moment?', 'Which doctor do I see for check-ups now?'],
  },
  {
    id: 'insurer',
    noun: 'car insurance',
    values: ['Harbor Mutual', 'Lionheart Insurance', 'Meridian Cover', 'BlueShield Auto', 'Tandem Direct'],
    set: ['The car is insured with {V}.', 'My car insurance is with {V}.'],
    change: [
      'Renewal from {OLD} was outrageous so the car is covered by {V} this year.',
      'Moved the car policy across to {V}, {OLD} wanted double.',
    ],
    now: ['Who insures my car currently?', 'Which company is my car insurance with now?'],
  },
  {
    id: 'studio',
    noun: 'yoga studio',
    values: ['Lotus Loft', 'Breathe Yoga', 'Sun Salutation Studio', 'Yoga Nest', 'Stillpoint'],
    set: ['I practise yoga at {V}.', 'My yoga studio is {V}.'],
    change: [
      'Bought a ten-class pass at {V}; {OLD} closed its morning classes.',
      'Doing my yoga at {V} lately since {OLD} got too crowded.',
    ],
    now: ['Where do I do yoga these days?', 'Which yoga studio do I go to now?'],
  },
];

/**
 * Phrasings of a change the code never saw, applied to every attribute's noun (dev and held aside):
 * the attribute-specific ones above are held aside with their attribute, these with their wording.
 */
export const HELD_ASIDE_PHRASINGS: PhrasingSet = {
  change: [
    'These days my {N} is {V}.',
    'Said goodbye to {OLD}; {V} is the {N} from now on.',
    'Ended up going with {V} for the {N} after all.',
    'Quick update: {V} replaced {OLD} as my {N}.',
  ],
  now: ['What is my {N} at present?', 'Tell me my current {N}.'],
  /** Mentions of an earlier value that assert nothing about the present. */
  mention: [
    'Bumped into someone from {OLD} at the station today.',
    'Sam asked whether {OLD} was any good; I told him the story.',
    'Found an old receipt from {OLD} in a drawer.',
    'Still miss how easy things were with {OLD} sometimes.',
  ],
};

/**
 * A seventh part of `npm run bench:memory-updates`, written once `dev-6` had been tuned against
 * (issue #52, 2026-11-30 ninth session), before any result on it was seen, to measure the code on
 * what it was never written against: attributes none of the other parts has (a bakery, a tailor, a
 * language app, a charity, a church, a boiler service, a car wash, a pet insurer), changes told as
 * news, as a preference, as something taken back, in the passive and in the second person, and
 * mentions that joke, complain and plan.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_7_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'bakery',
    noun: 'bakery',
    values: ['Gail’s', 'Bread Ahead', 'The Flour Pot', 'Crumbs & Co', 'Little Loaf'],
    set: ['Our Saturday sourdough comes from {V}.', 'I pick up bread at {V} on the way home.'],
    change: ['The sourdough is from {V} these days, {OLD} closed on weekends.', 'I buy my bread at {V} now.'],
    now: ['Where do I buy bread?', 'Where does our sourdough come from?'],
  },
  {
    id: 'tailor',
    noun: 'tailor',
    values: ['Stitch Perfect', 'Mr Okoro', 'The Alteration Room', 'Needle & Thread', 'Sew Right'],
    set: ['{V} takes in my suits.', 'My alterations are done by {V}.'],
    change: ['{V} handles my alterations since {OLD} retired.', 'Trousers get hemmed at {V} now.'],
    now: ['Who alters my clothes?', 'Who does my alterations?'],
  },
  {
    id: 'language app',
    noun: 'language app',
    values: ['Duolingo', 'Babbel', 'Memrise', 'Busuu', 'Rosetta Stone'],
    set: ['I practise Spanish on {V} every evening.', 'My Spanish lessons are on {V}.'],
    change: ['Gave up on {OLD}; Spanish practice is on {V} now.', 'I learn Spanish with {V} these days.'],
    now: ['Which app do I learn Spanish on?', 'Where do I practise Spanish?'],
  },
  {
    id: 'charity',
    noun: 'charity',
    values: ['Oxfam', 'Shelter', 'the Red Cross', 'Crisis', 'Save the Children'],
    set: ['My monthly donation goes to {V}.', 'I give to {V} every month.'],
    change: [
      'The monthly donation now goes to {V} instead of {OLD}.',
      'I support {V} with a direct debit now.',
    ],
    now: ['Which charity do I donate to?', 'Where does my monthly donation go?'],
  },
  {
    id: 'boiler',
    noun: 'boiler service',
    values: ['British Gas', 'HomeServe', 'Warm Homes Ltd', 'Heatwise', 'Corgi Care'],
    set: ['{V} services our boiler every autumn.', 'The boiler cover is with {V}.'],
    change: ['Boiler cover renewed with {V}, not {OLD}.', '{V} looks after the boiler now.'],
    now: ['Who services our boiler?', 'Who is our boiler cover with?'],
  },
  {
    id: 'car wash',
    noun: 'car wash',
    values: ['Splash Express', 'Shine On', 'Bubbles Hand Wash', 'Eco Wash', 'Waves'],
    set: ['The car gets washed at {V}.', 'I take the car to {V} for a wash.'],
    change: [
      'The car goes through {V} these days.',
      'Washing the car at {V} now, {OLD} scratched the paint.',
    ],
    now: ['Where do I get the car washed?', 'Which car wash do I use?'],
  },
  {
    id: 'pet insurer',
    noun: 'pet insurance',
    values: ['Petplan', 'Animal Friends', 'ManyPets', 'Bought By Many', 'Agria'],
    set: ['Biscuit is insured with {V}.', 'Our pet insurance is through {V}.'],
    change: ["Biscuit's cover moved to {V}.", 'Renewed the pet policy with {V} rather than {OLD}.'],
    now: ['Who insures Biscuit?', 'Who is our pet insurance with?'],
  },
  {
    id: 'podcast app',
    noun: 'podcast app',
    values: ['Pocket Casts', 'Overcast', 'Spotify', 'Apple Podcasts', 'Castbox'],
    set: ['I listen to podcasts on {V}.', 'My podcasts play through {V}.'],
    change: ['Podcasts are on {V} for me now.', 'I moved my podcast subscriptions from {OLD} to {V}.'],
    now: ['Which app do I listen to podcasts on?', 'Where do I listen to podcasts?'],
  },
];

export const DEV_7_PHRASINGS: PhrasingSet = {
  change: [
    'News: our {N} is {V} from this week.',
    'I prefer {V} for the {N} now.',
    'Went back to {V} for the {N}; {OLD} was a mistake.',
    "You'll find we use {V} as our {N} now.",
  ],
  now: ['Which {N} do we use these days?', 'Who is our {N}?'],
  mention: [
    'Joked with Sam that {OLD} should sponsor us.',
    'Complained to {OLD} about the last bill.',
    'Might look at {OLD} again next year.',
    "Mum's friend works at {OLD}.",
  ],
};

/**
 * A second part of `npm run bench:memory-updates` to develop on, written after the first (`dev.ts`)
 * had been tuned against: other attributes, other ways of setting, changing and mentioning them,
 * so that a rule fitted to the first part's words shows here. The measured part is `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_2_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'insurer',
    noun: 'insurer',
    values: ['Allianz', 'Aviva', 'Zurich', 'AXA', 'Direct Line'],
    set: ["I'm insured with {V}.", 'My insurance is with {V}.'],
    change: ['Dropped {OLD}, {V} were cheaper.', 'Renewed the policy with {V} instead of {OLD}.'],
    now: ['Who am I insured with?', 'Which insurance company do I have?'],
  },
  {
    id: 'vet',
    noun: 'vet',
    values: ['Paws Clinic', 'Greenfield Vets', 'Animal House', 'VetCare', 'Oakwood Vets'],
    set: ['I take the cat to {V}.', 'Our vet is {V}.'],
    change: ['The cat is registered at {V} now.', 'We take the cat to {V} since {OLD} closed.'],
    now: ['Where do I take the cat?', 'Who is our vet?'],
  },
  {
    id: 'laptop',
    noun: 'laptop',
    values: ['ThinkPad X1', 'MacBook Air', 'Dell XPS 13', 'Framework 13', 'Surface Laptop'],
    set: ['I code on a {V}.', 'My laptop is a {V}.'],
    change: ['Replaced the {OLD} with a {V}.', 'Work gave me a {V} to replace the {OLD}.'],
    now: ['What laptop do I use?', 'Which computer am I on these days?'],
  },
  {
    id: 'barber',
    noun: 'barber',
    values: ['Sharp Cuts', 'The Barber Shop', 'Fade Factory', 'Tony Barbers', 'Clip Joint'],
    set: ['{V} cuts my hair.', 'I get my hair cut at {V}.'],
    change: ['Trying {V} for haircuts from now on.', 'Gave up on {OLD}, going to {V} now.'],
    now: ['Where do I get my hair cut?', 'Who cuts my hair now?'],
  },
  {
    id: 'streaming',
    noun: 'streaming service',
    values: ['Netflix', 'Disney Plus', 'Apple TV', 'Prime Video', 'Mubi'],
    set: ['I watch shows on {V}.', 'We subscribe to {V}.'],
    change: ['Cancelled {OLD} and signed up for {V}.', 'We are on {V} these days.'],
    now: ['What streaming service do we have?', 'Where do I watch shows now?'],
  },
  {
    id: 'carrier',
    noun: 'mobile provider',
    values: ['Vodafone', 'O2', 'EE', 'Three', 'Giffgaff'],
    set: ['My phone contract is with {V}.', 'I am on {V} for mobile.'],
    change: ['Ported my number from {OLD} to {V}.', '{V} is my mobile network now.'],
    now: ['Which mobile network am I on?', 'Who is my phone contract with?'],
  },
  {
    id: 'school',
    noun: "daughter's school",
    values: ['Hillside Primary', 'St Marys', 'Riverside Academy', 'Oak Lane School', 'Northfield Primary'],
    set: ['Mia goes to {V}.', "Mia's school is {V}."],
    change: ['Mia started at {V} after the move.', 'We moved Mia from {OLD} to {V}.'],
    now: ['Which school does Mia go to?', "What is Mia's school now?"],
  },
  {
    id: 'energy',
    noun: 'energy supplier',
    values: ['Octopus', 'British Gas', 'EDF', 'Ovo', 'Bulb'],
    set: ['We get our electricity from {V}.', 'Our energy supplier is {V}.'],
    change: ['Switched the electricity to {V}.', 'Left {OLD} for {V}, the tariff is better.'],
    now: ['Who supplies our electricity?', 'Which energy company are we with?'],
  },
];

export const DEV_2_PHRASINGS: PhrasingSet = {
  change: [
    "These days it's {V} for my {N}.",
    'Moved my {N} over to {V}.',
    'Went with {V} as my {N} this time.',
    'Our {N} changed to {V} in spring.',
  ],
  now: ["What's my {N} at the moment?", 'Which {N} do I have these days?'],
  mention: [
    'Jo recommended {OLD} to a friend.',
    '{OLD} sent me a survey by email.',
    'Read a review of {OLD} in the paper.',
    'There was a {OLD} stand at the fair.',
  ],
};

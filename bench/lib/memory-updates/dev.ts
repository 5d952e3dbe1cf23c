/**
 * The part of `npm run bench:memory-updates` to develop on: attributes and phrasings the memory
 * service may be tuned against. The measured part is `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'city',
    noun: 'home city',
    values: ['Berlin', 'Lisbon', 'Porto', 'Vienna', 'Toronto', 'Melbourne'],
    set: ['I live in {V}.', 'Home is {V} for me.'],
    change: ['I moved to {V} from {OLD}.', 'We relocated to {V} last month.'],
    now: ['Where do I live now?', 'Which city am I based in?'],
  },
  {
    id: 'employer',
    noun: 'employer',
    values: ['Acme Corp', 'Globex', 'Initech', 'Umbrella Labs', 'Stark Industries', 'Wayne Logistics'],
    set: ['I work at {V}.', '{V} is where I work.'],
    change: ['I left {OLD} and joined {V}.', 'Started a new job at {V} this week.'],
    now: ['Where do I work now?', 'Who is my employer?'],
  },
  {
    id: 'gym',
    noun: 'gym',
    values: ['Iron Temple', 'PureGym', 'Anytime Fitness', 'Crunch', 'Gold Gym'],
    set: ['I train at {V}.', 'My gym is {V}.'],
    change: ['Cancelled {OLD} and joined {V}.', 'I work out at {V} since the move.'],
    now: ['Which gym do I go to?', 'Where do I train now?'],
  },
  {
    id: 'bank',
    noun: 'bank',
    values: ['Monzo', 'Barclays', 'ING', 'N26', 'Revolut', 'HSBC'],
    set: ['I bank with {V}.', 'My current account is at {V}.'],
    change: ['Closed my {OLD} account and opened one at {V}.', 'Switched banks to {V}.'],
    now: ['Which bank am I with?', 'Where is my bank account now?'],
  },
  {
    id: 'phone',
    noun: 'phone',
    values: ['Pixel 8', 'iPhone 15', 'Galaxy S23', 'Fairphone 5', 'OnePlus 12'],
    set: ['My phone is a {V}.', 'I use a {V} as my phone.'],
    change: ['Upgraded from the {OLD} to a {V}.', 'Got a {V}, the {OLD} screen cracked.'],
    now: ['What phone do I have?', 'Which phone am I using now?'],
  },
  {
    id: 'car',
    noun: 'car',
    values: ['Honda Civic', 'Tesla Model 3', 'VW Golf', 'Toyota Corolla', 'Mazda 3'],
    set: ['I drive a {V}.', 'My car is a {V}.'],
    change: ['Sold the {OLD} and bought a {V}.', 'We now drive a {V}.'],
    now: ['What car do I drive?', 'Which car do I have now?'],
  },
  {
    id: 'dentist',
    noun: 'dentist',
    values: ['Dr Alvarez', 'Dr Brennan', 'Dr Chen', 'Dr Dubois', 'Dr Eriksen'],
    set: ['My dentist is {V}.', 'I see {V} for my teeth.'],
    change: ['Changed dentists to {V}.', '{V} is my new dentist.'],
    now: ['Who is my dentist?', 'Which dentist do I see now?'],
  },
  {
    id: 'club',
    noun: 'football club',
    values: ['Arsenal', 'Benfica', 'Ajax', 'Celtic', 'Napoli'],
    set: ['I support {V}.', 'My football club is {V}.'],
    change: ['I follow {V} now, gave up on {OLD}.', 'Became a {V} fan this season.'],
    now: ['Which football club do I support?', 'What team do I follow now?'],
  },
];

export const DEV_PHRASINGS: PhrasingSet = {
  change: [
    'I switched my {N} to {V}.',
    'New {N}: {V}.',
    'My {N} is {V} now.',
    'Changed my {N}, it is {V} since last week.',
  ],
  now: ['What is my {N} now?', 'What is my current {N}?'],
  mention: [
    'Walked past {OLD} on the way home.',
    'Talked about {OLD} with Jo at lunch.',
    'I used to love {OLD}.',
    'Saw an advert for {OLD} on the bus.',
  ],
};

/** Everyday notes between the statements, in both parts. */
export const EVERYDAY_NOTES = [
  'Made pasta for dinner.',
  'It rained all afternoon, stayed in and read.',
  'Finished the quarterly report at last.',
  'Called mum in the evening.',
  'The train was twenty minutes late again.',
  'Watered the plants on the balcony.',
  'Booked flights for the summer holiday.',
  'Long meeting about the budget today.',
  'Tried a new recipe with lentils.',
  'Went for a walk by the river.',
  'Fixed the squeaky door hinge.',
  'Bought a birthday present for Alex.',
  'Slept badly, too much coffee.',
  'Cleaned out the garage over the weekend.',
  'Started reading a novel about sailors.',
  'The neighbours had a loud party.',
  'Paid the electricity bill.',
  'Picked up groceries on the way back.',
];

/**
 * A third part of `npm run bench:memory-updates` to develop on, written once `dev` and `dev-2` had
 * been tuned against and the evidence of what statements evoke was in (issue #52): attributes none of
 * the other parts has, said casually, so a rule fitted to the first two parts' words shows here. The
 * measured part stays `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_3_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'supermarket',
    noun: 'supermarket',
    values: ['Tesco', 'Lidl', 'Waitrose', 'Aldi', 'Sainsburys'],
    set: ['We do the weekly shop at {V}.', 'Groceries come from {V}.'],
    change: ['Gave {OLD} up, {V} is cheaper for the big shop.', 'The groceries are from {V} these days.'],
    now: ['Where do we buy groceries?', 'Which supermarket do we use?'],
  },
  {
    id: 'mechanic',
    noun: 'mechanic',
    values: ['Kwik Fit', 'Halfords Autocentre', 'Mike Motors', 'Barlow Garage', 'Speedy Fix'],
    set: ['{V} services my car.', 'The car goes to {V} for repairs.'],
    change: ['After the brakes fiasco the car goes to {V}, not {OLD}.', '{V} does the MOT now.'],
    now: ['Who fixes my car?', 'Which garage do I use?'],
  },
  {
    id: 'pharmacy',
    noun: 'pharmacy',
    values: ['Boots', 'Lloyds Pharmacy', 'Well Chemist', 'Superdrug', 'Rowlands'],
    set: ['My prescriptions are filled at {V}.', 'I pick up my medication at {V}.'],
    change: ['Prescriptions go to {V} since {OLD} cut its hours.', 'I collect my pills from {V} now.'],
    now: ['Where do I get my prescriptions?', 'Which chemist do I use?'],
  },
  {
    id: 'email',
    noun: 'email provider',
    values: ['Gmail', 'Outlook', 'Proton Mail', 'Fastmail', 'Yahoo Mail'],
    set: ['My mail is on {V}.', 'I read my email in {V}.'],
    change: ['Migrated my inbox from {OLD} to {V}.', 'Everything lands in {V} now.'],
    now: ['Which email service do I use?', 'Where is my inbox?'],
  },
  {
    id: 'bike',
    noun: 'bike',
    values: ['Brompton', 'Trek FX', 'Specialized Sirrus', 'Cannondale Quick', 'Giant Escape'],
    set: ['I cycle to work on a {V}.', 'I ride a {V}.'],
    change: ['Someone nicked the {OLD}, so I got a {V}.', 'My commute is on a {V} now.'],
    now: ['What bike do I ride?', 'Which bicycle do I have?'],
  },
  {
    id: 'running club',
    noun: 'running club',
    values: ['Parkside Harriers', 'City Striders', 'Riverside Runners', 'Hill Dashers', 'Canal Joggers'],
    set: ['I run with {V} on Tuesdays.', 'I am a member of {V}.'],
    change: ['Left {OLD} and joined {V}.', 'Tuesday runs are with {V} now.'],
    now: ['Which running club am I in?', 'Who do I run with?'],
  },
  {
    id: 'accountant',
    noun: 'accountant',
    values: ['Hart and Co', 'Mills Accounting', 'TaxAssist', 'Ledger Partners', 'Brightbooks'],
    set: ['{V} does my tax return.', 'My books are kept by {V}.'],
    change: ['This year {V} filed my taxes.', 'Handed the bookkeeping from {OLD} to {V}.'],
    now: ['Who does my taxes?', 'Who is my accountant?'],
  },
  {
    id: 'credit card',
    noun: 'credit card',
    values: ['Amex Gold', 'Barclaycard', 'Capital One', 'Halifax Clarity', 'Chase Freedom'],
    set: ['I pay with my {V}.', 'Most purchases go on the {V}.'],
    change: ['Cut up the {OLD}, everything goes on the {V} now.', 'The {V} is what I pay with these days.'],
    now: ['Which credit card do I use?', 'What card do I pay with?'],
  },
];

export const DEV_3_PHRASINGS: PhrasingSet = {
  change: [
    "Finally sorted the {N} thing, it's {V} from now on.",
    'Ended up with {V} for the {N}.',
    'Turns out {V} works better as my {N}.',
    'Since the summer my {N} is {V}.',
  ],
  now: ['Remind me, which {N} am I using?', 'What {N} do I go with nowadays?'],
  mention: [
    'Saw a billboard for {OLD} this morning.',
    'My sister still swears by {OLD}.',
    'There was a piece about {OLD} on the radio.',
    'A friend asked me about {OLD} yesterday.',
  ],
};

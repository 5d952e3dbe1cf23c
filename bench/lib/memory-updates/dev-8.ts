/**
 * An eighth part of `npm run bench:memory-updates`, written once `dev-7` had been tuned against
 * (issue #52, 2026-11-30 tenth session), before any result on it was seen, to measure the code on
 * what it was never written against: attributes none of the other parts has (a newsagent, a
 * swimming pool, an osteopath, a veg box, a child's driving instructor, a window cleaner, a photo
 * printer, a VPN), changes told with the reason first, as the end of a long habit, as a date or as
 * something finally settled, and mentions that are adverts, surveys, questions and memories.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_8_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'newsagent',
    noun: 'newsagent',
    values: ['Patel News', 'Martins', 'The Paper Shop', 'Corner News', 'Press Stop'],
    set: ['{V} delivers our Sunday paper.', 'The papers come from {V}.'],
    change: [
      'Our papers are delivered by {V} these days.',
      'Cancelled the paper round with {OLD}; {V} brings the papers now.',
    ],
    now: ['Who delivers our newspapers?', 'Where do the papers come from?'],
  },
  {
    id: 'swimming pool',
    noun: 'swimming pool',
    values: ['Kings Hall', 'London Fields Lido', 'the Aquatics Centre', 'Clissold Leisure', 'Tooting Lido'],
    set: ['I swim lengths at {V} before work.', 'My swims are at {V}.'],
    change: ['Swimming at {V} now that {OLD} is shut for repairs.', 'These days I do my lengths at {V}.'],
    now: ['Where do I swim?', 'Which pool do I go to?'],
  },
  {
    id: 'osteopath',
    noun: 'osteopath',
    values: ['Dr Haddad', 'Back in Balance', 'Align Osteopathy', 'Jo Whitfield', 'Core Clinic'],
    set: ['My back is treated by {V}.', '{V} sorts out my back.'],
    change: ['Seeing {V} for my back now.', 'Booked my back treatment with {V} instead of {OLD}.'],
    now: ['Who treats my back?', 'Who do I see for my back?'],
  },
  {
    id: 'veg box',
    noun: 'veg box',
    values: ['Riverford', 'Abel & Cole', 'Oddbox', 'Farm Direct', 'Growing Communities'],
    set: ['Our vegetables arrive in a {V} box on Tuesdays.', 'We get a weekly veg box from {V}.'],
    change: ['The veg box comes from {V} now.', 'Swapped {OLD} for {V} for our vegetables.'],
    now: ['Where do our vegetables come from?', 'Who delivers our veg box?'],
  },
  {
    id: 'driving instructor',
    noun: 'driving instructor',
    values: ['Pass First', 'Dave Collins', 'Red Driving School', 'Learn Smart', 'Bill Hart'],
    set: ['Ellie has driving lessons with {V}.', "Ellie's instructor is {V}."],
    change: [
      "Ellie's lessons are with {V} now.",
      'Ellie switched instructors to {V} after {OLD} cancelled twice.',
    ],
    now: ['Who teaches Ellie to drive?', "Who is Ellie's driving instructor?"],
  },
  {
    id: 'window cleaner',
    noun: 'window cleaner',
    values: ['Crystal Clear', 'Mike Dunn', 'ShineBright', 'ClearView', 'Pane Perfect'],
    set: ['{V} cleans our windows once a month.', 'The windows are done by {V}.'],
    change: ['{V} does the windows now.', 'Our windows are cleaned by {V} since {OLD} moved away.'],
    now: ['Who cleans our windows?', 'Who does the windows?'],
  },
  {
    id: 'photo printing',
    noun: 'photo printer',
    values: ['Snapfish', 'Photobox', 'CEWE', 'Boots Photo', 'Printique'],
    set: ['I print our photos with {V}.', 'Our photo books are made by {V}.'],
    change: [
      'Photo prints are ordered from {V} now.',
      'Ordered this year’s photo book from {V}, {OLD} was too slow.',
    ],
    now: ['Where do I print photos?', 'Who makes our photo books?'],
  },
  {
    id: 'vpn',
    noun: 'VPN',
    values: ['NordVPN', 'Mullvad', 'ProtonVPN', 'Surfshark', 'ExpressVPN'],
    set: ['My laptop runs {V} for a VPN.', 'I connect through {V} when travelling.'],
    change: ['The VPN is {V} now.', 'Let the {OLD} subscription lapse and signed up with {V}.'],
    now: ['Which VPN do I use?', 'What VPN am I on?'],
  },
];

export const DEV_8_PHRASINGS: PhrasingSet = {
  change: [
    'Since {OLD} put their prices up, the {N} has been {V}.',
    "We'd been with {OLD} for years, but the {N} is {V} now.",
    'From today our {N} is {V}.',
    'Finally sorted the {N}: it is {V}.',
  ],
  now: ['What is the {N} at present?', 'Which {N} are we with right now?'],
  mention: [
    'Saw an advert for {OLD} on the bus.',
    '{OLD} sent a survey about last year.',
    'Would {OLD} match the price, I wonder?',
    'Remember when {OLD} lost our order?',
  ],
};

/**
 * A ninth part of `npm run bench:memory-updates`, written once `dev-8` had been tuned against
 * (issue #52, 2026-11-30 eleventh session), before any result on it was seen: attributes none of
 * the other parts has (a gardener, a butcher, kennels, a taxi firm, a solicitor, a web host, a
 * tennis club, a financial adviser), changes told as an end ("no more …"), as official, as a
 * takeover or as a choice made last month, and mentions that are about someone else, a card, a
 * neighbour's question or a walk past.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_9_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'gardener',
    noun: 'gardener',
    values: ['Green Thumb', 'Tom Ashby', 'Evergreen Gardens', 'Mow & Grow', 'Lucy Barnes'],
    set: ['{V} looks after our garden.', 'Our hedges are trimmed by {V} every spring.'],
    change: ['{V} mows the lawn for us now.', 'Took on {V} for the garden when {OLD} retired.'],
    now: ['Who does our garden?', 'Who mows the lawn?'],
  },
  {
    id: 'butcher',
    noun: 'butcher',
    values: ['Hartley & Sons', 'The Meat Room', 'Dunns', 'Field to Fork', 'Ginger Pig'],
    set: ['We buy our meat at {V}.', 'The Sunday roast comes from {V}.'],
    change: ['Getting the meat from {V} these days.', 'Gave up on {OLD}; {V} has better sausages.'],
    now: ['Where do we buy meat?', 'Which butcher do we use?'],
  },
  {
    id: 'kennels',
    noun: 'kennels',
    values: ['Happy Paws', 'Oakwood Kennels', 'Barking Lot', 'Canine Lodge', 'Meadow Farm'],
    set: ['Rex stays at {V} when we travel.', 'When we are away the dog boards with {V}.'],
    change: ['Rex will board at {V} from now on.', 'Booked Rex into {V} for the summer rather than {OLD}.'],
    now: ['Where does Rex stay when we travel?', 'Which kennels do we use?'],
  },
  {
    id: 'taxi firm',
    noun: 'taxi firm',
    values: ['Addison Lee', 'Uber', 'Bolt', 'Station Cars', 'Green Cabs'],
    set: ['{V} takes me to the airport.', 'I book my cabs through {V}.'],
    change: ['My airport runs are with {V} now.', 'Deleted {OLD} from my phone and use {V} for taxis.'],
    now: ['Who do I call for a taxi?', 'How do I book a cab?'],
  },
  {
    id: 'solicitor',
    noun: 'solicitor',
    values: ['Harrison Law', 'Kemp & Co', 'Mills Solicitors', 'Ruth Pearce', 'Bright Legal'],
    set: ['Our wills were drawn up by {V}.', '{V} handles our legal paperwork.'],
    change: ['Moved our legal work to {V}.', '{V} is acting for us now, not {OLD}.'],
    now: ['Who is our solicitor?', 'Who does our legal work?'],
  },
  {
    id: 'web host',
    noun: 'web host',
    values: ['Netlify', 'DigitalOcean', 'Hetzner', 'Fly.io', 'Render'],
    set: ['My blog is hosted on {V}.', 'The website runs on {V}.'],
    change: ['Migrated the blog to {V} last weekend.', 'The site lives on {V} now; {OLD} kept going down.'],
    now: ['Where is my blog hosted?', 'What hosts the website?'],
  },
  {
    id: 'tennis club',
    noun: 'tennis club',
    values: ['Highbury Tennis', 'Parkside LTC', 'Queens Club', 'Riverside Racquets', 'Elm Court'],
    set: ['I play tennis at {V} on Saturdays.', 'My tennis membership is with {V}.'],
    change: ['Joined {V} for tennis this season.', 'My tennis is at {V} now that {OLD} raised the fees.'],
    now: ['Where do I play tennis?', 'Which tennis club am I in?'],
  },
  {
    id: 'financial adviser',
    noun: 'financial adviser',
    values: ['Sarah Okafor', 'Brook Wealth', 'Finch Advisers', 'Tom Riley', 'Harbour Planning'],
    set: ['{V} advises us on our savings.', 'Our investments are managed by {V}.'],
    change: ['Our savings are looked after by {V} now.', 'Let {OLD} go and hired {V} to manage our money.'],
    now: ['Who advises us on money?', 'Who manages our investments?'],
  },
];

export const DEV_9_PHRASINGS: PhrasingSet = {
  change: [
    'No more {OLD}: our {N} is {V}.',
    "It's official, {V} is our {N} from now on.",
    '{V} has taken over as our {N}.',
    'We changed {N} last month and went with {V}.',
  ],
  now: ['Remind me, who is our {N}?', 'Who is our {N} as of today?'],
  mention: [
    'My sister still swears by {OLD}.',
    'Got a Christmas card from {OLD}.',
    'A neighbour asked me about {OLD}.',
    'Walked past {OLD} on the way home.',
  ],
};

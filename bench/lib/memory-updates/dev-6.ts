/**
 * A sixth part of `npm run bench:memory-updates` to develop on, written once `dev-5` had been tuned
 * against (issue #52, 2026-11-30 ninth session), before any result on it was seen: attributes none
 * of the other parts has (tradespeople, a child's nursery, money kept for later, subscriptions),
 * changes told tersely, in American English, in lower case as a text message, as a move away from
 * something, and mentions that quote, price or compare an earlier value. The measured part stays
 * `held-aside.ts`.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_6_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'plumber',
    noun: 'plumber',
    values: ['Pipe Dreams', 'Dave Corrigan', 'FlowFix', 'Hartley Plumbing', 'Aqua Pro'],
    set: ['{V} fixed the boiler last winter and does all our plumbing.', 'We call {V} when a pipe leaks.'],
    change: [
      '{V} sorts out our leaks now; {OLD} never called back.',
      'Any plumbing job goes to {V} these days.',
    ],
    now: ['Who do we call when a pipe leaks?', 'Who does our plumbing?'],
  },
  {
    id: 'nursery',
    noun: 'nursery',
    values: ['Little Acorns', 'Sunflower Day Nursery', 'Bright Horizons', 'Tiny Steps', 'Rainbow Kids'],
    set: ['Leo goes to {V} three days a week.', 'We drop Leo at {V} in the mornings.'],
    change: ['Leo started at {V} this month.', 'Moved Leo from {OLD} to {V}.'],
    now: ['Where does Leo go during the day?', 'Which nursery is Leo at?'],
  },
  {
    id: 'pension',
    noun: 'pension provider',
    values: ['Aviva', 'Scottish Widows', 'Legal & General', 'Royal London', 'Nest'],
    set: ['My pension is with {V}.', 'I pay into a {V} pension every month.'],
    change: ['Transferred my pension out of {OLD} and into {V}.', 'My retirement savings sit with {V} now.'],
    now: ['Who holds my pension?', 'Where is my pension?'],
  },
  {
    id: 'tutor',
    noun: 'maths tutor',
    values: ['Mr Patel', 'Anna Kowalczyk', 'Tutor Doctor', 'Mrs Greene', 'Owen Price'],
    set: ['{V} helps Mia with maths on Wednesdays.', "Mia's maths tutor is {V}."],
    change: ['Mia does maths with {V} now.', '{V} tutors Mia since {OLD} moved away.'],
    now: ['Who helps Mia with maths?', "Who is Mia's tutor?"],
  },
  {
    id: 'pub',
    noun: 'local',
    values: ['The Red Lion', 'The Crown', 'The Fox and Hounds', 'The Railway Tavern', 'The Old Bell'],
    set: ['Friday drinks are always at {V}.', 'My local is {V}.'],
    change: ['We drink at {V} on Fridays since {OLD} closed.', 'Friday pints have moved to {V}.'],
    now: ['Where do we go for Friday drinks?', 'Which pub is my local?'],
  },
  {
    id: 'cloud storage',
    noun: 'cloud storage',
    values: ['Dropbox', 'Google Drive', 'iCloud', 'OneDrive', 'pCloud'],
    set: ['My photos are backed up to {V}.', 'All my files sync to {V}.'],
    change: ['Copied all my photos off {OLD} onto {V}.', 'My backups go to {V} now.'],
    now: ['Where are my photos backed up?', 'Which cloud storage do I use?'],
  },
  {
    id: 'meal kit',
    noun: 'meal kit',
    values: ['HelloFresh', 'Gousto', 'Mindful Chef', 'Green Chef', 'SimplyCook'],
    set: ['A {V} box arrives every Thursday.', 'We cook from {V} recipes most weeks.'],
    change: ['Cancelled {OLD}; the Thursday box is from {V} now.', 'Our recipe box comes from {V} now.'],
    now: ['Which recipe box do we get?', 'Where does our Thursday food box come from?'],
  },
  {
    id: 'trainer',
    noun: 'personal trainer',
    values: ['Marcus', 'Jade Fitness', 'Coach Ellie', 'Tom Brady PT', 'Kasia'],
    set: ['I train with {V} twice a week.', 'My workouts are planned by {V}.'],
    change: ['{V} runs my sessions now, {OLD} went part-time.', 'I do my workouts with {V} these days.'],
    now: ['Who do I train with?', 'Who plans my workouts?'],
  },
];

export const DEV_6_PHRASINGS: PhrasingSet = {
  change: [
    'quick one: {N} is {V} now',
    'Switched over from {OLD}. {V} is our {N}.',
    'Dropped {OLD} and went with {V} instead.',
    'As of this month our {N} is {V}.',
  ],
  now: ['Who do we use for the {N} now?', 'Which {N} are we with today?'],
  mention: [
    '{OLD} quoted way too much for the job.',
    'Compared prices with {OLD} again, no change.',
    'Dad keeps asking whether we still use {OLD}.',
    'An email from {OLD} went straight to spam.',
  ],
};

/**
 * A tenth part of `npm run bench:memory-updates`, written once `dev-9` had been tuned against
 * (issue #52, 2026-11-30 twelfth session), before any result on it was seen: attributes none of
 * the other parts has (an electrician, a florist, a dry cleaner, a fishmonger, a notes app, a
 * climbing wall, a nail salon, a letting agent), changes told as a farewell, as an answer to one's
 * own question, as "going forward" or as a cause, and mentions that are adverts, surveys, a
 * colleague's advice or a newspaper piece.
 */
import type { AttributeSpec, PhrasingSet } from './model';

export const DEV_10_ATTRIBUTES: AttributeSpec[] = [
  {
    id: 'electrician',
    noun: 'electrician',
    values: ['Spark Bright', 'Dave Jones', 'Volt Electrical', 'Amp Up', 'Kirsty Hale'],
    set: ['{V} sees to our electrics.', 'When a fuse blows we call {V}.'],
    change: [
      '{V} is who we ring about the wiring now.',
      'Stopped using {OLD} for electrics; {V} is cheaper.',
    ],
    now: ['Who do we call about the electrics?', 'Who is our electrician?'],
  },
  {
    id: 'florist',
    noun: 'florist',
    values: ['Petal & Stem', 'Bloom Room', 'Flower Barn', 'Wild Bunch', 'Rose Lane'],
    set: ['Our flowers come from {V}.', 'I order bouquets from {V}.'],
    change: ['Bouquets are from {V} these days.', '{V} does our flowers instead of {OLD} now.'],
    now: ['Where do I get flowers?', 'Which florist do I use?'],
  },
  {
    id: 'dry cleaner',
    noun: 'dry cleaner',
    values: ['Johnsons', 'Press Perfect', 'Clean Line', 'Valet Express', 'Spotless'],
    set: ['My suits go to {V} for cleaning.', '{V} does our dry cleaning.'],
    change: ['Dry cleaning goes to {V} since last month.', 'Switched the suits from {OLD} to {V}.'],
    now: ['Where do my suits get cleaned?', 'Who does the dry cleaning?'],
  },
  {
    id: 'fishmonger',
    noun: 'fishmonger',
    values: ['Catch of the Day', 'Moxon', 'Harbour Fish', 'Sea Shack', 'Jarvis'],
    set: ['Friday fish comes from {V}.', 'We get salmon at {V}.'],
    change: ['Buying fish at {V} now.', 'The fish is from {V} because {OLD} closed on Fridays.'],
    now: ['Where do we buy fish?', 'Who is our fishmonger?'],
  },
  {
    id: 'notes app',
    noun: 'notes app',
    values: ['Evernote', 'Notion', 'Obsidian', 'Bear', 'OneNote'],
    set: ['I keep my notes in {V}.', 'My to-do lists live in {V}.'],
    change: ['Moved all my notes over to {V}.', 'My notes are in {V} now after {OLD} got slow.'],
    now: ['Where do I keep my notes?', 'Which notes app do I use?'],
  },
  {
    id: 'climbing wall',
    noun: 'climbing wall',
    values: ['The Arch', 'Boulder Barn', 'Vertical Chill', 'Crux', 'High Point'],
    set: ['I boulder at {V} twice a week.', 'My climbing pass is for {V}.'],
    change: ['Climbing at {V} these days.', 'Bought a pass at {V}; {OLD} was always packed.'],
    now: ['Where do I climb?', 'Which climbing wall do I go to?'],
  },
  {
    id: 'nail salon',
    noun: 'nail salon',
    values: ['Polished', 'Nail Bar 9', 'Gloss', 'Tips & Toes', 'Luxe Nails'],
    set: ['I get my nails done at {V}.', 'My manicures are at {V}.'],
    change: ['Now going to {V} for my nails.', 'My nails are done at {V} now; {OLD} moved away.'],
    now: ['Where do I get my nails done?', 'Which nail salon do I go to?'],
  },
  {
    id: 'letting agent',
    noun: 'letting agent',
    values: ['Foxtons', 'Savills', 'Hunters', 'Bairstow Eves', 'Keys & Co'],
    set: ['The flat is managed by {V}.', 'We pay rent through {V}.'],
    change: ['{V} manages the flat now.', 'The landlord dropped {OLD} and went with {V}.'],
    now: ['Who manages our flat?', 'Who do we pay rent through?'],
  },
];

export const DEV_10_PHRASINGS: PhrasingSet = {
  change: [
    'Said goodbye to {OLD}; the {N} is {V} going forward.',
    'Our new {N}? {V}.',
    'As of this month, {V} is the {N} we use.',
    "We're with {V} for the {N} because {OLD} let us down.",
  ],
  now: ["Who's the {N} at the moment?", 'Tell me our current {N}.'],
  mention: [
    'Saw an advert for {OLD} on the bus.',
    '{OLD} sent me a survey.',
    'Jo from work recommends {OLD}.',
    'There was a piece about {OLD} in the paper.',
  ],
};

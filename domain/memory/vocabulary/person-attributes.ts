/**
 * The words of a person's single-valued attributes (docs/memory-supersede.md): the diets one follows,
 * and the cue words any statement of an attribute tends to hold. The supersede rules find earlier
 * statements of an attribute by them (extraction/), and search finds the memory that answers a
 * question about one (search/attribute-cues.ts).
 */

/** Diets a person follows (one at a time): "I am vegan", "I went pescatarian". */
export const DIETS = [
  'vegan',
  'vegetarian',
  'pescatarian',
  'pescetarian',
  'flexitarian',
  'omnivore',
  'omnivorous',
  'carnivore',
  'keto',
  'paleo',
  'gluten-free',
  'dairy-free',
  'lactose-free',
  'raw vegan',
  'halal',
  'kosher',
];

const PLACE_CUES = ['live', 'living', 'lives', 'reside', 'based', 'moved', 'relocated', 'city', 'home'];
const WORK_CUES = ['work', 'works', 'working', 'employed', 'employer', 'company', 'job'];
const JOB_CUES = ['work', 'works', 'job', 'title', 'role', 'position', 'occupation', 'profession'];

/** Words any statement of the attribute tends to hold, to find earlier ones lexically. */
export const ATTRIBUTE_CUES: Record<string, string[]> = {
  residence: PLACE_CUES,
  address: ['address', 'live', 'lives', ...PLACE_CUES],
  employer: WORK_CUES,
  job: JOB_CUES,
  age: ['age', 'old', 'turned', 'years'],
  diet: ['diet', 'eat', ...DIETS],
  name: ['name', 'call', 'called'],
};

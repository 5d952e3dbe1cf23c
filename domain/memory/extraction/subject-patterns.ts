/**
 * The statements that set a single-valued attribute of a person (docs/memory-supersede.md): a verb
 * after the person ("I live in …", "Ana works at …") or an attribute they own ("my address is …",
 * "Ana's favourite food is …"). Multi-valued ones (hobbies, pets owned, friends, allergies, likes)
 * have no rule here, so they never replace each other.
 */
import { stem } from '../search/text-terms';
import type { ValueKind } from './subject-values';
import { ATTRIBUTE_CUES, DIETS } from '../vocabulary/person-attributes';

/** A verb phrase after the person, first person ("I …") and third ("Ana …"), and what it sets. */
export interface VerbRule {
  attribute: string;
  first: string;
  third: string;
  kind: ValueKind;
}

const DIET_WORDS = DIETS.join('|');

/** Verb phrases (regex sources, matched case-insensitively, followed by a space and the value). */
export const VERB_RULES: VerbRule[] = [
  {
    attribute: 'residence',
    first: String.raw`(?:live|am living|reside|am residing|am based|am settled) in|(?:moved|have moved|relocated|have relocated) to`,
    third: String.raw`(?:lives|is living|resides|is residing|is based|is settled) in|(?:moved|has moved|relocated|has relocated) to`,
    kind: 'proper',
  },
  { attribute: 'address', first: 'live at', third: 'lives at', kind: 'proper' },
  {
    attribute: 'employer',
    first: String.raw`(?:work|am working|have been working|started working|have started working) (?:at|for)|am employed (?:at|by)|(?:got|have) a (?:new )?job (?:at|with)`,
    third: String.raw`(?:works|is working|has been working|started working|has started working) (?:at|for)|is employed (?:at|by)|(?:got|has) a (?:new )?job (?:at|with)`,
    kind: 'proper',
  },
  {
    attribute: 'job',
    first: '(?:work|am working|started working|have started working) as',
    third: '(?:works|is working|started working|has started working) as',
    kind: 'phrase',
  },
  {
    attribute: 'age',
    first: String.raw`am(?= \d)|(?:have )?turned`,
    third: String.raw`is(?= \d+ (?:years?|yrs?) old)|(?:has )?turned`,
    kind: 'number',
  },
  {
    attribute: 'diet',
    first: `am(?: a| an)?(?= (?:${DIET_WORDS})\\b)|(?:went|have gone|became|have become|eat|only eat)(?= (?:${DIET_WORDS})\\b)`,
    third: `is(?: a| an)?(?= (?:${DIET_WORDS})\\b)|(?:went|has gone|became|has become|eats|only eats)(?= (?:${DIET_WORDS})\\b)`,
    kind: 'diet',
  },
  { attribute: 'name', first: 'go by|am called', third: 'goes by', kind: 'proper' },
];

/** An attribute someone owns, and the value kind its statements give. */
export interface OwnedAttribute {
  attribute: string;
  kind: ValueKind;
  cues: string[];
}

/** Attribute nouns that hold one value at a time, to their attribute. */
const OWNED: Record<string, [string, ValueKind]> = {
  address: ['address', 'proper'],
  'home address': ['address', 'proper'],
  'postal address': ['address', 'proper'],
  'mailing address': ['address', 'proper'],
  'street address': ['address', 'proper'],
  'work address': ['work address', 'proper'],
  'office address': ['work address', 'proper'],
  email: ['email', 'phrase'],
  'email address': ['email', 'phrase'],
  'e-mail': ['email', 'phrase'],
  'e-mail address': ['email', 'phrase'],
  phone: ['phone', 'phrase'],
  'phone number': ['phone', 'phrase'],
  'mobile number': ['phone', 'phrase'],
  'cell number': ['phone', 'phrase'],
  'telephone number': ['phone', 'phrase'],
  name: ['name', 'proper'],
  'full name': ['name', 'proper'],
  nickname: ['nickname', 'proper'],
  age: ['age', 'number'],
  birthday: ['birthday', 'phrase'],
  'date of birth': ['birthday', 'phrase'],
  diet: ['diet', 'diet'],
  job: ['job', 'phrase'],
  'job title': ['job', 'phrase'],
  title: ['job', 'phrase'],
  role: ['job', 'phrase'],
  position: ['job', 'phrase'],
  occupation: ['job', 'phrase'],
  profession: ['job', 'phrase'],
  employer: ['employer', 'proper'],
  company: ['employer', 'proper'],
  workplace: ['employer', 'proper'],
  city: ['residence', 'proper'],
  'home city': ['residence', 'proper'],
  'current city': ['residence', 'proper'],
  'home town': ['hometown', 'proper'],
  hometown: ['hometown', 'proper'],
  timezone: ['timezone', 'phrase'],
  'time zone': ['timezone', 'phrase'],
  username: ['username', 'phrase'],
  salary: ['salary', 'phrase'],
  height: ['height', 'phrase'],
  weight: ['weight', 'phrase'],
  'shoe size': ['shoe size', 'phrase'],
  'blood type': ['blood type', 'phrase'],
  'native language': ['native language', 'phrase'],
  'first language': ['native language', 'phrase'],
  'mother tongue': ['native language', 'phrase'],
};

const QUALIFIER = /^(?:new|current|present|actual|real|official)\s+/i;
const FAVOURITE = /^(?:all-time\s+)?(?:favou?rite|fave)\s+(\p{L}+(?:\s\p{L}+){0,2})$/iu;
const NAME_OF = /^(\p{L}+(?:\s\p{L}+)?)'s\s+name$/iu;

const stemmed = (words: string) => words.toLowerCase().split(/\s+/).map(stem).join(' ');

/**
 * The attribute an owned noun phrase ("new home address", "favourite food", "dog's name") names, or undefined when it is not single-valued.
 */
export function ownedAttribute(phrase: string): OwnedAttribute | undefined {
  const noun = phrase.trim().replace(QUALIFIER, '').toLowerCase();
  const known = OWNED[noun];
  if (known) {
    const [attribute, kind] = known;
    return { attribute, kind, cues: [...noun.split(/\s+/), ...(ATTRIBUTE_CUES[attribute] ?? [])] };
  }
  const favourite = FAVOURITE.exec(noun);
  if (favourite)
    return {
      attribute: `favourite ${stemmed(favourite[1])}`,
      kind: 'phrase',
      cues: ['favourite', 'favorite', 'fave', ...favourite[1].split(/\s+/)],
    };
  const nameOf = NAME_OF.exec(noun);
  if (nameOf)
    return {
      attribute: `name of ${stemmed(nameOf[1])}`,
      kind: 'proper',
      cues: ['name', 'named', 'called', ...nameOf[1].split(/\s+/)],
    };
  return undefined;
}

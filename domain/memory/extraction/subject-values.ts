/**
 * The value part of a single-valued statement ("I moved to **Lisbon** in March"): the words up to
 * the first clause boundary, checked against what the attribute holds (docs/memory-supersede.md).
 */

import { DIETS } from '../vocabulary/person-attributes';

/** What an attribute's value must look like: a name, any short phrase, a number or a diet. */
export type ValueKind = 'proper' | 'phrase' | 'number' | 'diet';

/** Longest value kept: a longer one is a clause, not an attribute's value. */
const MAX_VALUE_WORDS = 6;

/**
 * Where a value ends: punctuation, a dash, or a word that starts a new clause, a place, a time or
 * a reason ("… Lisbon in March", "… Acme since May", "… ramen, but …").
 */
const BOUNDARY = new RegExp(
  String.raw`[,;:()[\]{}"!?]|\.(?:\s|$)|\s[-–—]\s|\s(?:and|but|or|because|since|as|so|for|with|from|until|after|before|when|while|which|who|where|in|on|at|near|by|last|this|next|ago|now|anymore|recently|though|although|nowadays|these|today|yesterday|too|again|already|instead|than|then|if|unless)(?=\s|$)|\s(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|many|some) (?:days?|weeks?|months?|years?|decades?)(?=\s|$)`,
  'iu',
);

/** Starts like a name: an upper-case letter (or a script without case), or a digit. */
const PROPER_START = /^[\p{Lu}\p{Lt}\p{Lo}\p{N}]/u;
/** A phrase that points elsewhere instead of stating a value. */
const NOT_A_VALUE =
  /^(?:a|an|my|your|our|his|her|their|its|this|that|these|those|it|them|him|me|you|something|nothing|anything|everything|someone|nobody|none|same|not|no)$/i;

/** `raw` up to its first clause boundary ("Lisbon in March" → "Lisbon"). */
export function beforeBoundary(raw: string): string {
  const cut = raw.search(BOUNDARY);
  return (cut < 0 ? raw : raw.slice(0, cut)).trim();
}

/** The value of an attribute at the start of `raw`, normalized for comparison; undefined when none fits `kind`. */
export function readValue(raw: string, kind: ValueKind): string | undefined {
  let value = beforeBoundary(raw);
  if (kind === 'diet') {
    const lower = value.toLowerCase().replace(/^(?:a|an)\s+/, '');
    return DIETS.includes(lower) ? lower : undefined;
  }
  if (kind === 'number') return /^\d{1,3}$/.test(value) ? value : undefined;
  if (kind === 'phrase') value = value.replace(/^(?:a|an|the)\s+/i, '');
  if (kind === 'proper') {
    // "the Netherlands", "the Bay Area": an article before a name, not before a common noun.
    value = value.replace(/^the\s+(?=[\p{Lu}\p{Lt}\p{Lo}\p{N}])/u, '');
    if (!PROPER_START.test(value)) return undefined;
  }
  const words = value.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > MAX_VALUE_WORDS || NOT_A_VALUE.test(words[0])) return undefined;
  const normalized = value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return normalized || undefined;
}

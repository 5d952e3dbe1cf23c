/** The shapes of `npm run bench:memory-updates`'s data: attributes a user sets and changes, and phrasings. */

/** A single-valued attribute of a person, with the words that set it, change it and ask for it. */
export interface AttributeSpec {
  id: string;
  /** How the attribute is named in generic phrasings ("my {N} is …"). */
  noun: string;
  /** Values it takes (two or three per user, never repeated within a user). */
  values: string[];
  /** Sentences that state it the first time ({V}). */
  set: string[];
  /** Sentences that change it ({V}, {OLD}), its own way of saying so. */
  change: string[];
  /** Questions about its value now. */
  now: string[];
}

/** Phrasings that apply to any attribute's noun ({N}). */
export interface PhrasingSet {
  change: string[];
  now: string[];
  /** Sentences that name an earlier value without saying anything of the present ({OLD}). */
  mention: string[];
}

/** One statement a user makes, when, and what it is (for measuring decisions, never sent). */
export interface Statement {
  day: number;
  text: string;
  /** `set` and `change` assert the attribute's value; a `mention` names an earlier one in passing. */
  kind: 'set' | 'change' | 'mention' | 'note';
  attribute?: string;
  value?: string;
}

/** A question with the value its answer must name first. */
export interface NowQuestion {
  attribute: string;
  query: string;
  /** The value the top result must name. */
  current: string;
  /** Values it held before (none for an attribute stated once). */
  earlier: string[];
}

export interface GeneratedUser {
  id: string;
  statements: Statement[];
  /** Questions about attributes that changed: current@1. */
  changed: NowQuestion[];
  /** Questions about attributes stated once: old@3. */
  unchanged: NowQuestion[];
  /** Questions about a month when an earlier value held: then@1 (`current` is the value then). */
  then: NowQuestion[];
}

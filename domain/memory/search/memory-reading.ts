/**
 * What answer-weights.ts reads in a memory's text, read once per text: a search weighs tens of
 * candidates and the same memories come back search after search, so each text's reading is kept
 * (at most READINGS_KEPT of them, the oldest dropped first).
 */
import { aboutWordList, aboutWords, contentWords } from '../supersede/statement-about';
import { root } from '../vocabulary/word-roots';
import { setsAnAttribute } from '../supersede/statement-evidence';
import { mentionsOnly, tellsOfAnEvent } from '../supersede/statement-kind';
import { namedValues, otherPersonOf } from '../supersede/statement-names';
import { readSubject } from '../extraction/fact-subject';
import { statementOf } from '../supersede/statement-of';
import { assertedOf } from '../supersede/asserted-statements';

/** What a memory's text says of itself. */
export interface MemoryReading {
  /** It only mentions a value (talk, sight, memory, doubt). */
  mention: boolean;
  /** It names a value. */
  named: boolean;
  /** The person around the speaker whose attribute it gives ("My neighbour signed up with …"), as a root. */
  otherPerson?: string;
  /** Roots of its words of what it is about, its names' words included. */
  aboutAnyWord: Set<string>;
  /** Roots of its words of what it is about, names left out. */
  about: Set<string>;
  /** The same words as written, lower case: the word table holds whole words. */
  aboutWritten: string[];
  /** Roots of every word of its main clause but names and function words. */
  content: Set<string>;
  /** Cue roots of the known attribute it sets, if any. */
  knownCues?: Set<string>;
  /** It asserts a value: neither a mention nor an event, and short, naming one or giving a known attribute's value. */
  asserts: boolean;
}

const READINGS_KEPT = 20_000;
/**
 * Longer texts are read, not kept: keys stay small whatever a tenant stores (an attribute's
 * statement is short; a long text is read again when it comes back).
 */
const LONGEST_KEPT = 300;
/** How much of a memory's text is read. */
const READ_CHARS = 2_000;
const readings = new Map<string, MemoryReading>();

export function readMemory(text: string): MemoryReading {
  const kept = readings.get(text);
  if (kept) return kept;
  const reading = new TextReading(text);
  if (text.length > LONGEST_KEPT) return reading;
  if (readings.size >= READINGS_KEPT) readings.delete(readings.keys().next().value!);
  readings.set(text, reading);
  return reading;
}

/**
 * A stored memory's reading: its text's, unless the model read its statement as asserting a value
 * when it was stored (`plat_asserts`, docs/memory-supersede.md#by-likeness), where the words took it
 * for a mention or an event. Search then reads it as supersede did.
 */
export function readRecord(record: { memory: string; metadata: Record<string, unknown> }): MemoryReading {
  const reading = readMemory(record.memory);
  return assertedOf(record) ? readAsAsserted(reading) : reading;
}

/** `reading`, but asserting its value: no mention. */
function readAsAsserted(reading: MemoryReading): MemoryReading {
  return {
    mention: false,
    asserts: true,
    named: reading.named,
    otherPerson: reading.otherPerson,
    get aboutAnyWord() {
      return reading.aboutAnyWord;
    },
    get about() {
      return reading.about;
    },
    get aboutWritten() {
      return reading.aboutWritten;
    },
    get content() {
      return reading.content;
    },
    get knownCues() {
      return reading.knownCues;
    },
  };
}

/** A reading whose parts are read when first asked for: most questions need only the first two. */
class TextReading implements MemoryReading {
  readonly mention: boolean;
  readonly named: boolean;
  readonly otherPerson?: string;
  private readonly values: string[];
  private cached: Partial<Omit<MemoryReading, 'mention' | 'named'>> & {
    known?: { cues?: Set<string> };
    /** It tells of an event (statement-kind.ts). */
    event?: boolean;
  } = {};

  private readonly text: string;

  constructor(text: string) {
    // Only the head is read: what a statement asserts is in its first words, and a tenant's huge
    // text must cost a search no more than a short one.
    this.text = text.length > READ_CHARS ? text.slice(0, READ_CHARS) : text;
    text = this.text;
    this.values = namedValues(text);
    this.mention = mentionsOnly(text);
    this.named = this.values.length > 0;
    this.otherPerson = otherPersonOf(text);
  }

  get aboutAnyWord(): Set<string> {
    return (this.cached.aboutAnyWord ??= aboutWords(this.text, []));
  }

  get about(): Set<string> {
    return (this.cached.about ??= new Set(this.aboutWritten.map(root)));
  }

  get aboutWritten(): string[] {
    return (this.cached.aboutWritten ??= aboutWordList(this.text, this.values));
  }

  get content(): Set<string> {
    return (this.cached.content ??= contentWords(this.text, this.values));
  }

  get knownCues(): Set<string> | undefined {
    return (this.cached.known ??= { cues: statementOf(this.text)?.cues }).cues;
  }

  get asserts(): boolean {
    // Read once: both tests below ask it.
    const event = () => (this.cached.event ??= tellsOfAnEvent(this.text));
    // A known attribute's value needs no name ("I am vegetarian", "I turned 35").
    return (this.cached.asserts ??=
      setsAnAttribute(this.text, { mention: this.mention, event, values: this.values }) ||
      (!this.mention && !event() && readSubject(this.text)?.value !== undefined));
  }
}

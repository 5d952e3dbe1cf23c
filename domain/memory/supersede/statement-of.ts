/**
 * A statement read for its attribute (statement-evidence.ts) together with what the subject reader
 * knows of it (docs/memory-supersede.md#by-evidence): the cue words of the attribute it reads in the
 * statement, or of the attribute a word of what it is about is a cue of. Pure, for exact unit tests.
 */
import { readSubject } from '../extraction/fact-subject';
import { cueRoots, cueRootsOf } from '../search/attribute-cues';
import { attributeStatement, type AttributeStatement } from './statement-evidence';

/**
 * A statement read for its attribute, with the cue words of the attribute the subject reader reads
 * in it, or else of the attribute a word of what it is about is a cue of ("my employer").
 */
export function statementOf(text: string, asserted = false): AttributeStatement | undefined {
  const statement = attributeStatement(text, asserted);
  if (!statement) return undefined;
  const read = readSubject(text)?.cues;
  const cues = read ? cueRoots(read) : cueRootsOf(statement.about);
  return cues ? { ...statement, cues, readBySubject: Boolean(read) } : statement;
}

/**
 * Pruning the change feed (docs/fleet.md#memory): changes older than a day are deleted, and the
 * newest number deleted is kept in `memory_changes_pruned`, so an instance whose cursor is below it
 * knows it missed changes (a gap) and reloads its users instead of skipping them.
 */
import { sql, type Kysely } from 'kysely';
import type { MemoryTables } from '../store/memory-schema';

/** Deletes the changes made before `before` and raises the pruned mark to the newest of them, in one statement. */
export async function pruneChanges(db: Kysely<MemoryTables>, before: Date): Promise<void> {
  await db
    .with('gone', (q) =>
      q.deleteFrom('memory_changes').where('at', '<', before.toISOString()).returning('seq'),
    )
    .insertInto('memory_changes_pruned')
    .columns(['id', 'through_seq'])
    .expression((eb) =>
      eb
        .selectFrom('gone')
        .select((gone) => [sql<number>`1`.as('id'), gone.fn.max('seq').as('through_seq')])
        // Nothing deleted: no row, the mark stays.
        .having((gone) => gone.fn.count('seq'), '>', 0),
    )
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        through_seq: sql<number>`greatest(memory_changes_pruned.through_seq, excluded.through_seq)`,
      }),
    )
    .execute();
}

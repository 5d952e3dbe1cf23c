/** What the pipelines remember between runs (journal offsets, memory-file hashes), in the metadata store. */
import type { MetadataDb } from '../../domain/metadata-store/metadata-db';

export class PipelineState {
  constructor(private readonly metadata: MetadataDb) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.metadata.db
      .selectFrom('memory_pipeline_state')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.metadata.db
      .insertInto('memory_pipeline_state')
      .values({ key, value, updated_at: new Date().toISOString() })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

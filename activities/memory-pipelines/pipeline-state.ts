/** What the pipelines remember between runs (journal offsets, memory-file hashes), in the metadata store. */
import type { MetadataDb } from '../../domain/metadata-store/metadata-db';

export class PipelineState {
  constructor(private readonly db: MetadataDb) {}

  get(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM memory_pipeline_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value;
  }

  set(key: string, value: string): void {
    this.db
      .prepare(
        `INSERT INTO memory_pipeline_state (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(key, value, new Date().toISOString());
  }
}

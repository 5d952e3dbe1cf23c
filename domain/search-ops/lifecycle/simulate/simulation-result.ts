/**
 * What a policy simulation answers (docs/search-lifecycle.md#simulating-a-policy): the timeline of
 * each index, a row per day of indices, documents and bytes per tier, and a summary; the same for the
 * REST API, the CLI's `--json` and the web page.
 */

/** Something that happened to an index, at a pass (or at the start, for the first index). */
export interface TimelineEvent {
  /** Simulated time, ISO. */
  at: string;
  /** Whole days since the start. */
  day: number;
  /** Time of day, `HH:MM`. */
  time: string;
  /** The pass (0: the start, before the first pass). */
  pass: number;
  index: string;
  kind: 'created' | 'rolled_over' | 'transitioned' | 'action_completed' | 'deleted' | 'failed';
  /** The index's state (tier) after the event. */
  state?: string;
  /** transitioned: the state left. */
  from?: string;
  /** transitioned: the state entered. */
  to?: string;
  action?: string;
  /** rolled_over: the index the alias writes to now. */
  new_index?: string;
  /** created: whether the policy manages it (its ism_template claims it). */
  managed?: boolean;
  /** The engine's message. */
  message: string;
  /** failed: the cause. */
  cause?: string;
}

/** One tier (the policy state indices are in) at the end of a day. */
export interface TierRow {
  tier: string;
  indices: number;
  docs: number;
  primary_bytes: number;
  /** Primary bytes times one plus the replicas. */
  total_bytes: number;
  /** Where its indices sit, when set: node attributes an allocation requires, or a managed storage tier. */
  placement?: string[];
}

export interface DayRow {
  /** Days since the start: the row is the cluster at the end of that day. */
  day: number;
  at: string;
  tiers: TierRow[];
  total: Omit<TierRow, 'tier' | 'placement'>;
}

export interface SimulationResult {
  policy_id: string;
  alias: string;
  days: number;
  start: string;
  pass_interval: string;
  managed_domain: boolean;
  shards: number;
  replicas: number;
  profile: {
    docs_per_day: number;
    bytes_per_day?: number;
    doc_bytes?: number;
    growth_percent: number;
  };
  /** What the numbers rest on, and anything the simulation noticed about the policy. */
  notes: string[];
  /** Every tier seen, in the policy's order (`unmanaged` last). */
  tiers: string[];
  timeline: TimelineEvent[];
  daily: DayRow[];
  summary: {
    indices_created: number;
    indices_deleted: number;
    first_rollover?: { day: number; time: string; index: string };
    first_deletion?: { day: number; time: string; index: string };
    peak: { day: number; indices: number; primary_bytes: number; total_bytes: number };
    last_day?: DayRow;
    /** Averages per tier from the first deletion on; absent while nothing is deleted. */
    steady_state?: {
      from_day: number;
      tiers: { tier: string; indices: number; primary_bytes: number; total_bytes: number }[];
      total_bytes: number;
    };
    failures: number;
  };
  /** The simulation stopped early, and why. */
  truncated?: { day: number; reason: string };
  stats: { passes: number; passes_run: number; engine_steps: number; elapsed_ms: number };
}

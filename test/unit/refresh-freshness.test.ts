/**
 * How fresh a built warehouse is: as of its last successful refresh (else its first copy), stale
 * when its last refresh failed or a running schedule has fallen two spacings behind.
 */
import { freshnessOf, scheduleSpacingMs, type ProjectRefreshState } from '../../shared/refresh-model';

const NOW = new Date('2026-12-01T12:00:00Z');
const copied = { data_ingestion: { ended_at: '2026-11-20T08:00:00Z' } };
const project = (refresh?: ProjectRefreshState, status = 'completed') => ({
  status,
  refresh,
  phase_details: copied,
});
const schedule = (every: string | undefined, cron?: string, paused = false) => ({
  every,
  cron,
  paused,
  schedule_id: 'refresh-p',
  updated_at: '2026-11-20T08:00:00Z',
});

describe('freshness', () => {
  it('has none until the warehouse is built', () => {
    expect(freshnessOf(project(undefined, 'running'), NOW)).toBeNull();
  });

  it('is the first copy until a refresh succeeds, and not stale without a schedule', () => {
    expect(freshnessOf(project(), NOW)).toEqual({ as_of: '2026-11-20T08:00:00Z', stale: false });
  });

  it('is stale with the reason when the last refresh failed', () => {
    const failed: ProjectRefreshState = {
      history: [],
      as_of: '2026-12-01T06:00:00Z',
      last: {
        refresh_id: 'r',
        trigger: 'schedule',
        status: 'failed',
        started_at: '',
        error: 'source unreachable',
      },
    };
    expect(freshnessOf(project(failed), NOW)).toEqual({
      as_of: '2026-12-01T06:00:00Z',
      stale: true,
      why: 'the last refresh failed: source unreachable',
    });
  });

  it('is stale when a running schedule left more than two spacings (and an hour) behind', () => {
    const at = (asOf: string, s = schedule('6h')) =>
      freshnessOf(project({ history: [], as_of: asOf, schedule: s }), NOW)!;
    expect(at('2026-12-01T00:00:00Z').stale).toBe(false); // 12 h: two spacings, within the hour
    expect(at('2026-11-30T22:30:00Z')).toMatchObject({
      stale: true,
      why: expect.stringMatching(/^behind its schedule/),
    });
    expect(at('2026-11-30T22:30:00Z', schedule('6h', undefined, true)).stale).toBe(false); // paused
    expect(at('2026-11-29T12:30:00Z', schedule(undefined, '0 6 * * *')).stale).toBe(false); // 47.5 h
    expect(at('2026-11-29T10:00:00Z', schedule(undefined, '0 6 * * *')).stale).toBe(true);
  });

  it('spaces a cron a day, or an hour when it runs every hour', () => {
    expect(scheduleSpacingMs({ cron: '0 6 * * 1-5' })).toBe(24 * 3_600_000);
    expect(scheduleSpacingMs({ cron: '15 * * * *' })).toBe(3_600_000);
    expect(scheduleSpacingMs({ every: '30m' })).toBe(30 * 60_000);
  });
});

/** ISM policies: the three built-in ones, and the checks every policy passes before it is written. */
import {
  retentionPolicy,
  selfManagedWarmPolicy,
  tieredPolicy,
} from '../../../domain/search-ops/builtin-policies';
import { validatePolicy, type IsmPolicy } from '../../../domain/search-ops/ism-policy';
import { parseDuration, parseSize } from '../../../domain/search-ops/ism-units';

const SELF_MANAGED = { managedDomain: false };
const MANAGED = { managedDomain: true };
const messages = (body: unknown, target = SELF_MANAGED) =>
  validatePolicy(body, target).problems.map((p) => `${p.path}: ${p.message}`);

describe('ISM policies', () => {
  it('accepts the three built-in policies where they can run', () => {
    expect(messages(tieredPolicy('app-logs'), MANAGED)).toEqual([]);
    expect(messages(retentionPolicy('app-logs'))).toEqual([]);
    expect(messages(selfManagedWarmPolicy('app-logs'))).toEqual([]);
    const retention = validatePolicy(retentionPolicy('app-logs', { days: 14 }), SELF_MANAGED).policy!;
    expect(retention.states[0].transitions[0]).toEqual({
      state_name: 'delete',
      conditions: { min_index_age: '14d' },
    });
    expect(retention.ism_template).toEqual({ index_patterns: ['app-logs-*'], priority: 100 });
  });

  it('refuses managed-domain actions on a self-managed cluster, saying what to use instead', () => {
    const problems = messages(tieredPolicy('app-logs'));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^states\.1\.actions\.0\.warm_migration: warm_migration exists only on a managed domain.*read_only, allocation/,
    );
    expect(problems.join('\n')).toContain('cold_migration');
    expect(problems.join('\n')).toContain('cold_delete');
  });

  it('finds broken state machines: unknown targets, unreachable and duplicate states, a missing default', () => {
    const policy = retentionPolicy('x') as IsmPolicy;
    const broken = {
      ...policy,
      default_state: 'start',
      states: [
        { name: 'hot', actions: [], transitions: [{ state_name: 'warm' }] },
        { name: 'delete', actions: [{ delete: {} }], transitions: [] },
        { name: 'delete', actions: [], transitions: [] },
      ],
    };
    expect(messages(broken)).toEqual([
      'states.2.name: state delete is defined twice',
      'default_state: default_state start is not one of the states (hot, delete, delete)',
      'states.0.transitions.0.state_name: state hot moves to warm, which is not one of the states',
    ]);
    const island = {
      ...policy,
      states: [...policy.states, { name: 'archive', actions: [], transitions: [] }],
    };
    expect(messages(island)).toEqual(['states.2: state archive cannot be reached from default_state hot']);
  });

  it('checks every action and its parameters, durations and sizes', () => {
    const withActions = (actions: unknown[], conditions: unknown = { min_index_age: '30d' }) => ({
      default_state: 'hot',
      states: [
        { name: 'hot', actions, transitions: [{ state_name: 'delete', conditions }] },
        { name: 'delete', actions: [{ delete: {} }] },
      ],
    });
    expect(messages(withActions([{ rollover: { min_index_age: '7days' } }]))).toEqual([
      'states.0.actions.0.rollover.min_index_age: a duration such as 30m, 12h or 7d',
    ]);
    expect(messages(withActions([{ rollover: { min_primary_shard_size: '40gigs' } }]))).toEqual([
      'states.0.actions.0.rollover.min_primary_shard_size: a size such as 500mb or 40gb',
    ]);
    expect(messages(withActions([{ shrinkz: {} }]))[0]).toMatch(
      /unknown action shrinkz \(known: rollover, delete/,
    );
    expect(messages(withActions([{ read_only: {}, delete: {} }]))[0]).toMatch(
      /exactly one of .*found read_only, delete/,
    );
    expect(messages(withActions([{ allocation: { wait_for: true } }]))[0]).toMatch(
      /allocation needs require, include or exclude/,
    );
    expect(messages(withActions([{ replica_count: { number_of_replicas: -1 } }]))[0]).toMatch(
      /number_of_replicas/,
    );
    expect(
      messages(withActions([{ rollover: { min_doc_count: 50_000_000 }, retry: { count: 3, delay: '1m' } }])),
    ).toEqual([]);
    expect(messages(withActions([], { min_index_age: 'soon' }))).toEqual([
      'states.0.transitions.0.conditions.min_index_age: a duration such as 30m, 12h or 7d',
    ]);
  });

  it('checks ism_template patterns and priority', () => {
    const policy = retentionPolicy('app-logs');
    expect(messages({ ...policy, ism_template: { index_patterns: ['app logs-*'], priority: 1 } })[0]).toMatch(
      /^ism_template/,
    );
    expect(messages({ ...policy, ism_template: { index_patterns: [], priority: 1 } })[0]).toMatch(
      /^ism_template/,
    );
    expect(messages({ ...policy, ism_template: [{ index_patterns: ['a-*'], priority: 5 }] })).toEqual([]);
  });

  it('parses the units OpenSearch accepts, and nothing else', () => {
    expect(parseDuration('7d')).toBe(7 * 86_400_000);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('7 days')).toBeUndefined();
    expect(parseSize('40gb')).toBe(40 * 1024 ** 3);
    expect(parseSize('512MB')).toBe(512 * 1024 ** 2);
    expect(parseSize('40g')).toBeUndefined();
  });
});

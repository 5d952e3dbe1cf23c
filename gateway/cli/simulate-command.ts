/**
 * `plat index simulate POLICY --days N ...` (docs/search-lifecycle.md#simulating-a-policy): a built-in
 * policy or a policy file is simulated right here, with no gateway; a stored policy's id goes to the
 * gateway (`POST /v1/search/simulate`), which reads it from the cluster. Both run the same code.
 */
import * as path from 'node:path';
import type { SimulationResult } from '../../domain/search-ops/lifecycle/simulate/simulation-result';
import { parseSize } from '../../domain/search-ops/ism-units';
import type { operations } from '../../shared/generated/platform-api';
import { ApiError, ok, type PlatformClient } from './api-client';

type SimulateBody = NonNullable<
  operations['simulateLifecyclePolicy']['requestBody']
>['content']['application/json'];
import { simulationText } from './simulate-render';

export const SIMULATE_USAGE = `  index simulate POLICY --days N --docs-per-day D (--bytes-per-day B | --doc-bytes B)
             [--growth PERCENT] [--pass-interval 5m] [--managed-domain] [--alias NAME]
             [--shards N] [--replicas N] [--file POLICY.json] [--json]
                                          a policy's effect over N days, by plat's engine on a
                                          simulated cluster: each index's rollover, transitions and
                                          deletion, indices and bytes per tier per day. POLICY: a
                                          built-in (retentionPolicy, tieredPolicy, selfManagedWarmPolicy,
                                          selfManagedTieredPolicy) or a stored policy's id (via the
                                          gateway); or --file. Sizes take units (600, 1.5kb, 40gb)`;

/** The options `plat index` parses for simulate. */
export interface SimulateFlags {
  days?: string;
  'docs-per-day'?: string;
  'bytes-per-day'?: string;
  'doc-bytes'?: string;
  growth?: string;
  'pass-interval'?: string;
  'managed-domain'?: boolean;
  alias?: string;
  shards?: string;
  replicas?: string;
}

const usage = (message: string) => new ApiError(2, 'usage', `${message}\n${SIMULATE_USAGE}`);

export async function simulateCommand(
  policyId: string | undefined,
  policyFile: { name: string; policy: unknown } | undefined,
  flags: SimulateFlags,
  api: () => PlatformClient['http'],
): Promise<{ data: SimulationResult; text: string }> {
  if (!policyId && !policyFile) throw usage('missing POLICY (or --file POLICY.json)');
  if (policyId && policyFile) throw usage('give POLICY or --file, not both');
  // Loaded here, not with the CLI: the simulator and its schemas would slow every other command.
  const [{ PolicyInvalid }, { needsStoredPolicy, runSimulation }, { simulationRequestSchema }] =
    await Promise.all([
      import('../../domain/search-ops/lifecycle/apply-policy'),
      import('../../domain/search-ops/lifecycle/simulate/run-simulation'),
      import('../../domain/search-ops/lifecycle/simulate/simulation-input'),
    ]);
  const parsed = simulationRequestSchema.safeParse({
    ...(policyFile ? { policy: policyFile.policy } : { policy_id: policyId }),
    days: number(flags.days, '--days'),
    profile: {
      docs_per_day: number(flags['docs-per-day'], '--docs-per-day'),
      ...(flags['bytes-per-day'] !== undefined
        ? { bytes_per_day: bytes(flags['bytes-per-day'], '--bytes-per-day') }
        : {}),
      ...(flags['doc-bytes'] !== undefined ? { doc_bytes: bytes(flags['doc-bytes'], '--doc-bytes') } : {}),
      ...(flags.growth !== undefined
        ? { growth_percent: number(flags.growth.replace(/%$/, ''), '--growth') }
        : {}),
    },
    ...(flags['pass-interval'] ? { pass_interval: flags['pass-interval'] } : {}),
    ...(flags['managed-domain'] ? { managed_domain: true } : {}),
    ...(flags.alias ? { alias: flags.alias } : {}),
    ...(flags.shards ? { shards: number(flags.shards, '--shards') } : {}),
    ...(flags.replicas ? { replicas: number(flags.replicas, '--replicas') } : {}),
  });
  if (!parsed.success)
    throw usage(parsed.error.issues.map((i) => `${flagOf(i.path.map(String))}: ${i.message}`).join('\n'));
  const req = parsed.data;
  let result: SimulationResult;
  if (needsStoredPolicy(req))
    // `req` passed the request schema the gateway checks; the answer is the SimulationResult a local
    // run gives, which the document describes with open objects, so it is read as that.
    result = (await ok(
      api().POST('/v1/search/simulate', { body: req as SimulateBody }),
    )) as unknown as SimulationResult;
  else
    try {
      result = await runSimulation(req, { name: policyFile?.name });
    } catch (err) {
      if (!(err instanceof PolicyInvalid)) throw err;
      // Managed-domain actions refused: say how to simulate the domain they are meant for.
      const managedOnly =
        !req.managed_domain && err.problems.some((p) => /only on a managed domain/.test(p.message));
      throw new ApiError(
        1,
        'policy_invalid',
        `policy ${err.policyId} is invalid${managedOnly ? ' here (for a managed domain: --managed-domain)' : ''}`,
        { problems: err.problems },
      );
    }
  return { data: result, text: simulationText(result) };
}

/** The name a policy file is shown under: its file name without `.json`. */
export const policyFileName = (file: string): string => path.basename(file).replace(/\.json$/i, '');

function number(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.replace(/_/g, ''));
  if (text.trim() === '' || !Number.isFinite(n)) throw usage(`${flag} ${text}: not a number`);
  return n;
}

/** Bytes, plain or with a unit as policies write sizes (1.5kb, 40gb). */
function bytes(text: string, flag: string): number {
  if (/^[\d_.e+]+$/i.test(text)) return number(text, flag)!;
  const size = parseSize(text);
  if (size === undefined)
    throw usage(`${flag} ${text}: a number of bytes, or a size such as 600b, 1.5kb or 40gb`);
  return size;
}

/** The flag a schema path came from. */
function flagOf(path: string[]): string {
  const key = path.at(-1) ?? '';
  const flags: Record<string, string> = {
    policy_id: 'POLICY',
    days: '--days',
    docs_per_day: '--docs-per-day',
    bytes_per_day: '--bytes-per-day (or --doc-bytes)',
    doc_bytes: '--doc-bytes',
    growth_percent: '--growth',
    pass_interval: '--pass-interval',
    alias: '--alias',
    shards: '--shards',
    replicas: '--replicas',
    profile: '--docs-per-day',
  };
  return flags[key] ?? (path.join('.') || 'options');
}

/**
 * The platform gateway's composition root: its real dependencies for a data directory. It reads
 * the same metadata database, parameter store and warehouse as the worker's activities, but wires
 * only those (docs/architecture.md#which-process-loads-what).
 */
import { hostId } from '../../domain/fleet/host-identity';
import * as path from 'node:path';
import { ProjectStore } from '../../domain/metadata-store/project-store';
import { openParameterStore } from '../../domain/secrets/open-parameter-store';
import { metadataLocation, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { warehouseEngine, type WarehouseSettings } from '../../domain/warehouse/engine-factory';
import type { PlatConfig } from '../../shared/config';
import { configuredOpenSearch, type OpenSearchSettings } from '../../domain/search-ops/cluster-connection';
import { LogShipper } from '../../domain/search-ops/plat-logs/log-shipper';
import { ACCESS_LOGS, ensurePlatLogIndices } from '../../domain/search-ops/plat-logs/plat-log-indices';
import { AlarmStore } from '../../domain/monitoring/alarm-store';
import { SourcePolicy, type SourcePolicySettings } from '../../domain/sources/source-policy';
import { IdTokens, externalIssuerOf, keyDirectory } from '../auth/id-tokens';
import { UserStore } from '../auth/user-store';
import { AttemptCounters } from '../../domain/metadata-store/attempt-counters';
import { LeaseSlots } from '../../domain/metadata-store/lease-slots';
import { SignInLimits } from '../auth/sign-in-limits';

export async function platformDeps(
  dataDir: string,
  config: Pick<
    PlatConfig,
    | 'PLAT_SECRET_KEY'
    | 'PLAT_SECRET_KEY_PREVIOUS'
    | 'PLAT_METADATA_URL'
    | 'PLAT_TOKEN_TTL_SECONDS'
    | 'PLAT_OIDC_ISSUER'
    | 'PLAT_OIDC_JWKS_URL'
    | 'PLAT_OIDC_AUDIENCE'
    | 'PLAT_OIDC_OPERATOR_GROUP'
    | 'PLAT_AUTH_ATTEMPTS_PER_IP'
    | 'PLAT_LOGIN_FAILURES_PER_USER'
    | 'PLAT_LOGIN_FAILURE_WINDOW_SECONDS'
  > &
    SourcePolicySettings &
    WarehouseSettings &
    OpenSearchSettings,
) {
  const db = await openMetadataDb(metadataLocation(dataDir, config.PLAT_METADATA_URL));
  const store = new ProjectStore(db);
  const secrets = await openParameterStore(
    db,
    dataDir,
    config.PLAT_SECRET_KEY,
    config.PLAT_SECRET_KEY_PREVIOUS,
  );
  const engine = warehouseEngine(config, path.join(dataDir, 'warehouse'));
  const users = new UserStore(db);
  const external = externalIssuerOf(config);
  // Shared metadata: the signing key is a shared secret too, so every gateway signs and verifies alike.
  const signingKeys =
    db.dialect === 'postgres'
      ? { putIfAbsent: (name: string, value: string) => secrets.putIfAbsent(`plat/${name}`, value) }
      : keyDirectory(path.join(dataDir, 'keys'));
  const tokens = await IdTokens.open(signingKeys, config.PLAT_TOKEN_TTL_SECONDS, external);
  const counters = new AttemptCounters(db);
  const signInLimits = new SignInLimits(counters, {
    attemptsPerAddress: config.PLAT_AUTH_ATTEMPTS_PER_IP,
    failuresPerUser: config.PLAT_LOGIN_FAILURES_PER_USER,
    failureWindowSeconds: config.PLAT_LOGIN_FAILURE_WINDOW_SECONDS,
  });
  const search = configuredOpenSearch(config);
  const accessLogs =
    search &&
    new LogShipper(search, ACCESS_LOGS, {
      ensure: () => ensurePlatLogIndices(search),
      onError: (err) =>
        console.warn(`access logs not shipped to OpenSearch yet (kept, retrying): ${String(err)}`),
    });
  return {
    store,
    secrets,
    engine,
    users,
    tokens,
    signInLimits,
    counters,
    // A user's queries at once, counted across every gateway (docs/security.md#cost-limits).
    querySlots: new LeaseSlots(db),
    search,
    accessLogs,
    alarms: new AlarmStore(db),
    // Checked before the probe of a new project's source (docs/security.md#sources).
    sources: SourcePolicy.fromConfig(config),
    hostId: hostId(dataDir),
  };
}

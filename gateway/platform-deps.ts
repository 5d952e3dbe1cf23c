/** The gateway's real dependencies for a data directory (shared with the worker's activities). */
import * as path from 'node:path';
import { dataDirDeps } from '../activities';
import { metadataDbPath, openMetadataDb } from '../activities/store/metadata-db';
import type { PlatConfig } from '../shared/config';
import type { WarehouseSettings } from '../activities/warehouse/engine-factory';
import { IdTokens } from './auth/id-tokens';
import { UserStore } from './auth/user-store';

export async function platformDeps(
  dataDir: string,
  config: Pick<
    PlatConfig,
    | 'PLAT_SECRET_KEY'
    | 'PLAT_TOKEN_TTL_SECONDS'
    | 'PLAT_OIDC_ISSUER'
    | 'PLAT_OIDC_JWKS_URL'
    | 'PLAT_OIDC_AUDIENCE'
  > &
    WarehouseSettings,
) {
  const { store, secrets, warehouseRoot, engine } = dataDirDeps(dataDir, {
    secretKey: config.PLAT_SECRET_KEY,
    warehouse: config,
  });
  const users = new UserStore(openMetadataDb(metadataDbPath(dataDir)));
  const external = config.PLAT_OIDC_ISSUER
    ? {
        issuer: config.PLAT_OIDC_ISSUER,
        jwksUrl: config.PLAT_OIDC_JWKS_URL,
        audience: config.PLAT_OIDC_AUDIENCE,
      }
    : undefined;
  const tokens = await IdTokens.open(path.join(dataDir, 'keys'), config.PLAT_TOKEN_TTL_SECONDS, external);
  return { store, secrets, warehouseRoot, engine, users, tokens };
}

/**
 * How the memory service verifies users' ID tokens (docs/security.md#memory): plat's with the public
 * keys the gateway serves (every gateway of a fleet serves the same), an external issuer's as the
 * gateway accepts them (PLAT_OIDC_*), so a user id means the same on both services.
 */
import type { PlatConfig } from '../../shared/config';
import { IdTokenVerifier, externalIssuerOf } from '../auth/id-tokens';

export function memoryTokenVerifier(
  config: Pick<
    PlatConfig,
    | 'PLAT_MEMORY_TOKEN_JWKS_URL'
    | 'PLAT_GATEWAY_PORT'
    | 'PLAT_OIDC_ISSUER'
    | 'PLAT_OIDC_JWKS_URL'
    | 'PLAT_OIDC_AUDIENCE'
    | 'PLAT_OIDC_OPERATOR_GROUP'
  >,
): IdTokenVerifier {
  const jwks =
    config.PLAT_MEMORY_TOKEN_JWKS_URL ?? `http://127.0.0.1:${config.PLAT_GATEWAY_PORT}/.well-known/jwks.json`;
  return IdTokenVerifier.fromJwksUrl(jwks, externalIssuerOf(config));
}

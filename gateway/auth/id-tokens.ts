/**
 * The built-in identity provider's ID tokens: ES256 JWTs signed with a key created once (its public
 * half served as JWKS), plus verification of tokens from an external OIDC issuer through that
 * issuer's JWKS. The key is kept where every gateway of the deployment reads it
 * (docs/fleet.md#tokens-and-limits): the data directory on one host, the shared parameter store in
 * a fleet, so a token issued by one gateway is accepted by all.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { PlatConfig } from '../../shared/config';
import { rolesFromGroups, rolesIn, type Role } from './roles';

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

export const LOCAL_ISSUER = 'plat';
export const LOCAL_AUDIENCE = 'plat-api';

export interface TokenSubject {
  user_id: string;
  username: string;
  /** None: a tenant. Fixed when the token is issued: a later grant or revoke shows in the next token. */
  roles: readonly Role[];
}

export interface ExternalIssuer {
  issuer: string;
  jwksUrl?: string;
  /** Required: {@link IdTokens.open} refuses an issuer without one. */
  audience?: string;
  /** The group (in `groups` or `cognito:groups`) whose members are operators (PLAT_OIDC_OPERATOR_GROUP). */
  operatorGroup?: string;
}

/** The external OIDC issuer the configuration names (PLAT_OIDC_*), if any: the gateway and the memory service trust the same one. */
export function externalIssuerOf(
  config: Pick<
    PlatConfig,
    'PLAT_OIDC_ISSUER' | 'PLAT_OIDC_JWKS_URL' | 'PLAT_OIDC_AUDIENCE' | 'PLAT_OIDC_OPERATOR_GROUP'
  >,
): ExternalIssuer | undefined {
  return config.PLAT_OIDC_ISSUER
    ? {
        issuer: config.PLAT_OIDC_ISSUER,
        jwksUrl: config.PLAT_OIDC_JWKS_URL,
        audience: config.PLAT_OIDC_AUDIENCE,
        operatorGroup: config.PLAT_OIDC_OPERATOR_GROUP,
      }
    : undefined;
}

/** Where the signing key is kept: the first process to store one wins, the others read it. */
export interface SigningKeyStore {
  putIfAbsent(name: string, value: string): Promise<string>;
}

const SIGNING_KEY = 'id-token-es256';

/** The embedded keeper: `<keyDir>/id-token-es256.jwk.json`, mode 0600. */
export function keyDirectory(keyDir: string): SigningKeyStore {
  return {
    async putIfAbsent(name, value) {
      fs.mkdirSync(keyDir, { recursive: true, mode: 0o700 });
      const file = path.join(keyDir, `${name}.jwk.json`);
      try {
        fs.writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      return fs.readFileSync(file, 'utf8');
    },
  };
}

export class IdTokens {
  /** Verification with the local key's JWKS, built once (it runs on every request). */
  private readonly verifier: IdTokenVerifier;

  private constructor(
    private readonly privateKey: SigningKey,
    readonly publicJwk: JWK,
    private readonly ttlSeconds: number,
    external?: ExternalIssuer,
  ) {
    this.verifier = new IdTokenVerifier(createLocalJWKSet(this.jwks()), external);
  }

  /** Loads the signing key from `keys`, creating it the first time (a key made by a racing process wins). */
  static async open(keys: SigningKeyStore, ttlSeconds: number, external?: ExternalIssuer): Promise<IdTokens> {
    // jose skips the audience check without one: any token of the issuer, for any client, would pass.
    if (external && !external.audience)
      throw new Error(`the OIDC issuer ${external.issuer} needs an audience (PLAT_OIDC_AUDIENCE)`);
    const { privateKey: fresh } = await generateKeyPair('ES256', { extractable: true });
    const candidate = {
      ...(await exportJWK(fresh)),
      alg: 'ES256',
      use: 'sig',
      kid: `plat-${Date.now().toString(36)}`,
    };
    const jwk = JSON.parse(await keys.putIfAbsent(SIGNING_KEY, JSON.stringify(candidate))) as JWK;
    const privateKey = await importJWK(jwk, 'ES256');
    const publicJwk: JWK = {
      kty: jwk.kty,
      crv: jwk.crv,
      x: jwk.x,
      y: jwk.y,
      alg: 'ES256',
      use: 'sig',
      kid: jwk.kid,
    };
    return new IdTokens(privateKey, publicJwk, ttlSeconds, external);
  }

  async issue(subject: TokenSubject): Promise<{ id_token: string; expires_in: number }> {
    const id_token = await new SignJWT({
      username: subject.username,
      token_use: 'id',
      roles: [...subject.roles],
    })
      .setProtectedHeader({ alg: 'ES256', kid: this.publicJwk.kid })
      .setSubject(subject.user_id)
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.privateKey);
    return { id_token, expires_in: this.ttlSeconds };
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  /** The token's subject, or throws with a reason (expired, bad signature, unknown issuer...). */
  verify(token: string): Promise<TokenSubject> {
    return this.verifier.verify(token);
  }
}

/**
 * Verifies plat's ID tokens with plat's public keys from wherever they are (the gateway's own key;
 * the memory service fetches the gateway's JWKS), and an external issuer's through its JWKS.
 */
export class IdTokenVerifier {
  constructor(
    private readonly localKeys: JWTVerifyGetKey,
    private readonly external?: ExternalIssuer,
  ) {
    // jose skips the audience check without one: any token of the issuer, for any client, would pass.
    if (external && !external.audience)
      throw new Error(`the OIDC issuer ${external.issuer} needs an audience (PLAT_OIDC_AUDIENCE)`);
  }

  /** A verifier of plat's tokens whose public keys are served at `jwksUrl` (`/.well-known/jwks.json`). */
  static fromJwksUrl(jwksUrl: string, external?: ExternalIssuer): IdTokenVerifier {
    return new IdTokenVerifier(createRemoteJWKSet(new URL(jwksUrl)), external);
  }

  /** The token's subject, or throws with a reason (expired, bad signature, unknown issuer...). */
  async verify(token: string): Promise<TokenSubject> {
    let payload: JWTPayload;
    const issuer = peekIssuer(token);
    if (issuer === LOCAL_ISSUER) {
      ({ payload } = await jwtVerify(token, this.localKeys, {
        issuer: LOCAL_ISSUER,
        audience: LOCAL_AUDIENCE,
        algorithms: ['ES256'],
        requiredClaims: ['exp'],
      }));
    } else if (this.external && issuer === this.external.issuer) {
      ({ payload } = await jwtVerify(token, this.remoteJwks(), {
        issuer: this.external.issuer,
        audience: this.external.audience,
        requiredClaims: ['exp'],
      }));
    } else {
      throw new Error(`tokens from issuer ${issuer ?? '(none)'} are not accepted`);
    }
    if (!payload.sub) throw new Error('token has no subject');
    const username = String(
      payload.username ??
        payload['cognito:username'] ??
        payload.preferred_username ??
        payload.email ??
        payload.sub,
    );
    // External users are namespaced by issuer so they never collide with local accounts, and get
    // their roles from the issuer's groups, never from a claim the issuer may use for its own ends.
    return issuer === LOCAL_ISSUER
      ? { user_id: payload.sub, username, roles: rolesIn(payload.roles) }
      : {
          user_id: `${issuer}#${payload.sub}`,
          username,
          roles: rolesFromGroups(payload, this.external?.operatorGroup),
        };
  }

  private remoteJwksSet?: ReturnType<typeof createRemoteJWKSet>;
  private remoteJwks() {
    const ext = this.external!;
    this.remoteJwksSet ??= createRemoteJWKSet(
      new URL(ext.jwksUrl ?? `${ext.issuer.replace(/\/$/, '')}/.well-known/jwks.json`),
    );
    return this.remoteJwksSet;
  }
}

function peekIssuer(token: string): string | undefined {
  try {
    const payload = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as JWTPayload;
    return payload.iss;
  } catch {
    return undefined;
  }
}

/** A stand-in external OIDC issuer (e.g. Cognito) for the tests of tokens it signs. */
import express from 'express';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { AddressInfo } from 'node:net';

/** An external issuer serving its JWKS on a local port. */
export interface OidcIssuer {
  /** The issuer URL (its JWKS is at `/.well-known/jwks.json`). */
  issuer: string;
  /** An RS256 ID token for `subject` with `claims`, valid for ten minutes. */
  sign(claims: Record<string, unknown>, subject: string, audience?: string): Promise<string>;
  close(): void;
}

/** Starts an issuer with a fresh RS256 key (kid `ext-1`); tokens are for audience `plat-client` by default. */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'ext-1', alg: 'RS256', use: 'sig' };
  const app = express();
  app.get('/.well-known/jwks.json', (_req, res) => void res.json({ keys: [jwk] }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    sign: (claims, subject, audience = 'plat-client') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'ext-1' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
    close: () => void server.close(),
  };
}

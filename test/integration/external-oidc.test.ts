/**
 * Tokens from an external OIDC issuer (e.g. Cognito) are accepted through the issuer's JWKS, and a
 * project can be cancelled through the API.
 */
import { IdTokens, keyDirectory } from '../../gateway/auth/id-tokens';
import { signUp } from '../harness/api-caller';
import { newTestDataDir } from '../harness/platform-gateway';
import { platformStackPerSuite } from '../harness/platform-stack';
import { harnessProjectRequest } from '../harness/sakila';
import { startOidcIssuer, type OidcIssuer } from './auth-fixtures';
import * as path from 'node:path';

describe('external OIDC issuer', () => {
  let oidc: OidcIssuer;
  const sign = (claims: Record<string, unknown>, aud?: string) => oidc.sign(claims, 'ext-user-42', aud);

  beforeAll(async () => {
    oidc = await startOidcIssuer();
  });
  afterAll(() => oidc?.close());

  it('verifies tokens through the issuer JWKS, checks the audience, and keeps users apart', async () => {
    const tokens = await IdTokens.open(keyDirectory(path.join(newTestDataDir(), 'keys')), 3600, {
      issuer: oidc.issuer,
      audience: 'plat-client',
    });
    const subject = await tokens.verify(await sign({ 'cognito:username': 'gina' }));
    expect(subject).toEqual({ user_id: `${oidc.issuer}#ext-user-42`, username: 'gina', roles: [] });
    await expect(tokens.verify(await sign({}, 'another-client'))).rejects.toThrow(/aud/);
    const stranger = await IdTokens.open(keyDirectory(path.join(newTestDataDir(), 'keys')), 3600);
    await expect(stranger.verify(await sign({}))).rejects.toThrow(/not accepted/);
  });
});

describe('cancelling a project through the API', () => {
  const { call } = platformStackPerSuite('cancel-test');

  it('cancels a project waiting for approval, then refuses to cancel it again', async () => {
    const token = await signUp(call, 'hugo', 'hugo-password');
    const id = (await call('POST', '/v1/projects', harnessProjectRequest(), token)).body.project_id as string;
    const status = async () => (await call('GET', `/v1/projects/${id}`, undefined, token)).body.status;
    for (let i = 0; i < 300 && (await status()) !== 'waiting_approval'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await call('POST', `/v1/projects/${id}/cancel`, undefined, token)).toEqual({
      status: 202,
      body: { project_id: id, status: 'cancelling' },
    });
    for (let i = 0; i < 300 && (await status()) !== 'cancelled'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe('cancelled');
    expect((await call('POST', `/v1/projects/${id}/cancel`, undefined, token)).status).toBe(409);
  });
});

/**
 * The operator role through the real gateway: the first account is the operator and later ones are
 * tenants; every operation the document marks as the operators' refuses a tenant with 403 and serves
 * an operator; `plat users grant|revoke` changes the role of the account's next sign-in; a token
 * forged to claim the role is 401; an external issuer's group makes operators.
 */
import { runPlat } from '../harness/plat-cli';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import * as path from 'node:path';
import { apiCaller, type ApiCall } from '../harness/api-caller';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerEnv } from '../harness/temporal-envs';
import { startOidcIssuer, type OidcIssuer } from './auth-fixtures';

interface Operation {
  'x-plat-role'?: string;
  responses: Record<string, unknown>;
}

/** Signs up or in and answers the ID token. */
async function tokenOf(call: ApiCall, how: 'signup' | 'login', username: string): Promise<string> {
  const res = await call('POST', `/auth/${how}`, { username, password: `${username} password` });
  expect(res.status).toBeLessThan(300);
  return res.body.id_token as string;
}

const rolesOf = (token: string) => decodeJwt(token).roles;

describe('the operator role', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  const call = apiCaller(() => gateway.base);
  let operator: string;
  let tenant: string;

  beforeAll(async () => {
    env = await devServerEnv();
    gateway = await startTestGateway({ client: env.client, taskQueue: 'operator-role-test' });
    operator = await tokenOf(call, 'signup', 'olga');
    tenant = await tokenOf(call, 'signup', 'tom');
  });
  afterAll(async () => {
    await gateway?.stop();
    await env?.teardown();
  });

  it('makes the first account the operator and later ones tenants', async () => {
    expect(rolesOf(operator)).toEqual(['operator']);
    expect(rolesOf(tenant)).toEqual([]);
    expect(rolesOf(await tokenOf(call, 'login', 'olga'))).toEqual(['operator']);
    expect(rolesOf(await tokenOf(call, 'signup', 'tess'))).toEqual([]);
  });

  it('refuses a tenant on every operation for operators, and serves the operator', async () => {
    const doc = (await call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path: p, method, op })),
    );
    const forOperators = operations.filter((o) => o.op['x-plat-role'] === 'operator');
    // The shared infrastructure is the operators' whole: a new route there is covered by this test.
    const shared = operations.filter((o) => /^\/v1\/(search|alarms|users)\b/.test(o.path));
    expect(shared.length).toBeGreaterThan(20);
    expect(forOperators.map((o) => `${o.method} ${o.path}`)).toEqual(
      shared.map((o) => `${o.method} ${o.path}`),
    );
    for (const { path: p, method, op } of forOperators) {
      expect(op.responses).toHaveProperty('403');
      // Any value will do: the role is checked before the request is.
      const route = p.replace(/\{\w+\}/g, 'not-there');
      const body = method === 'get' ? undefined : {};
      const asTenant = await call(method.toUpperCase(), route, body, tenant);
      expect({ route: `${method} ${p}`, status: asTenant.status, error: asTenant.body.error }).toEqual({
        route: `${method} ${p}`,
        status: 403,
        error: expect.objectContaining({
          code: 'forbidden',
          message: expect.stringMatching(/operator role/),
        }),
      });
      const asOperator = await call(method.toUpperCase(), route, body, operator);
      expect({ route: `${method} ${p}`, refused: [401, 403].includes(asOperator.status) }).toEqual({
        route: `${method} ${p}`,
        refused: false,
      });
      expect((await call(method.toUpperCase(), route, body)).status).toBe(401);
    }
    // A tenant's own routes stay a tenant's.
    expect((await call('GET', '/v1/projects', undefined, tenant)).status).toBe(200);
    expect(operations.filter((o) => o.path.startsWith('/v1/projects') && o.op['x-plat-role'])).toEqual([]);
  });

  it('grants and revokes through the CLI; the next sign-in carries the change, issued tokens keep theirs', async () => {
    const plat = (token: string, ...args: string[]) =>
      runPlat(args, {
        ...process.env,
        PLAT_URL: gateway.base,
        PLAT_TOKEN: token,
        PLAT_CREDENTIALS_FILE: path.join(gateway.dataDir, 'credentials.json'),
      });

    const refused = await plat(tenant, 'users', 'grant', 'tom');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/operator role/);

    const granted = await plat(operator, 'users', 'grant', 'tom');
    expect(granted).toMatchObject({ status: 0, stderr: '' });
    expect(granted.stdout).toMatch(/tom is now an operator/);
    expect((await call('GET', '/v1/alarms', undefined, tenant)).status).toBe(403);
    const promoted = await tokenOf(call, 'login', 'tom');
    expect(rolesOf(promoted)).toEqual(['operator']);
    expect((await call('GET', '/v1/alarms', undefined, promoted)).status).toBe(200);

    const revoked = await plat(operator, 'users', 'revoke', 'tom', '--json');
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ username: 'tom', roles: [] });
    // Until it expires, the token issued while tom was an operator still says so.
    expect((await call('GET', '/v1/alarms', undefined, promoted)).status).toBe(200);
    const demoted = await tokenOf(call, 'login', 'tom');
    expect(rolesOf(demoted)).toEqual([]);
    expect((await call('GET', '/v1/alarms', undefined, demoted)).status).toBe(403);
  });

  it('refuses revoking the only operator, unknown accounts and roles, and hostile names', async () => {
    const roles = (user: string, role = 'operator', method = 'PUT') =>
      call(method, `/v1/users/${user}/roles/${role}`, undefined, operator);
    expect(await roles('olga', 'operator', 'DELETE')).toMatchObject({
      status: 409,
      body: { error: { code: 'last_operator' } },
    });
    expect(rolesOf(await tokenOf(call, 'login', 'olga'))).toEqual(['operator']);
    expect((await roles('nobody-here')).status).toBe(404);
    expect((await roles('nobody-here', 'operator', 'DELETE')).status).toBe(404);
    expect((await roles('tom', 'admin')).status).toBe(400);
    expect((await roles('tom', 'Operator')).status).toBe(400);
    for (const hostile of [
      '..%2F..%2Folga',
      "o'brien%20OR%201=1",
      '%00olga',
      'x'.repeat(300),
      '%E2%80%AEolga',
    ])
      expect({ hostile, status: (await roles(hostile)).status }).toEqual({ hostile, status: 400 });
    expect(rolesOf(await tokenOf(call, 'login', 'tom'))).toEqual([]);
  });

  it('answers 401 to a token forged to claim the role', async () => {
    const [header, , signature] = tenant.split('.');
    const claims = { ...decodeJwt(tenant), roles: ['operator'] };
    const edited = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
    const { privateKey } = await generateKeyPair('ES256');
    const otherKey = await new SignJWT({ username: 'tom', token_use: 'id', roles: ['operator'] })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(String(claims.sub))
      .setIssuer('plat')
      .setAudience('plat-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    for (const forged of [edited, otherKey]) {
      const res = await call('GET', '/v1/alarms', undefined, forged);
      expect(res).toMatchObject({ status: 401, body: { error: { code: 'invalid_token' } } });
    }
  });
});

describe('operators of an external OIDC issuer', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let oidc: OidcIssuer;
  const sign = (claims: Record<string, unknown>) =>
    oidc.sign(claims, `ext-${String(claims['cognito:username'])}`);
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    oidc = await startOidcIssuer();
    env = await devServerEnv();
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: 'operator-oidc-test',
      env: {
        PLAT_OIDC_ISSUER: oidc.issuer,
        PLAT_OIDC_AUDIENCE: 'plat-client',
        PLAT_OIDC_OPERATOR_GROUP: 'plat-operators',
      },
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await env?.teardown();
    oidc?.close();
  });

  it('makes members of the mapped group operators, from groups or cognito:groups, and no one else', async () => {
    const alarms = async (claims: Record<string, unknown>) =>
      (await call('GET', '/v1/alarms', undefined, await sign(claims))).status;
    expect(await alarms({ 'cognito:username': 'ida', 'cognito:groups': ['staff', 'plat-operators'] })).toBe(
      200,
    );
    expect(await alarms({ 'cognito:username': 'ivo', groups: ['plat-operators'] })).toBe(200);
    // The issuer's own roles claim, a near name or no group at all: tenants.
    expect(await alarms({ 'cognito:username': 'ina', roles: ['operator'], groups: ['staff'] })).toBe(403);
    expect(await alarms({ 'cognito:username': 'ike', 'cognito:groups': ['plat-operators-x'] })).toBe(403);
    expect(await alarms({ 'cognito:username': 'ian' })).toBe(403);
    // An external operator is not a built-in account: the first sign-up here is still the operator.
    const first = await call('POST', '/auth/signup', { username: 'local', password: 'local password' });
    expect(decodeJwt(first.body.id_token as string).roles).toEqual(['operator']);
  });
});

/** POST /auth/signup, POST /auth/login, GET /.well-known/jwks.json, and the bearer-token guard. */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { HttpError } from '../http-errors';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { jwksSchema, tokenSchema } from '../projects/project-responses';
import type { IdTokens, TokenSubject } from './id-tokens';
import type { SignInLimits } from './sign-in-limits';
import { UserExists, type UserStore } from './user-store';
import { usernameSchema } from './username';

const credentialsSchema = z
  .object({
    username: usernameSchema,
    password: z.string().min(8, 'at least 8 characters').max(256),
  })
  .strict();
/** Signing in checks the password against the stored hash only, whatever its length. */
const loginSchema = credentialsSchema.extend({ password: z.string().min(1).max(256) });

const TOO_MANY = {
  description: 'too many attempts from this address, or failures for this user name (see Retry-After)',
};

export function authApi(deps: {
  users: UserStore;
  tokens: IdTokens;
  selfSignup: boolean;
  signInLimits: SignInLimits;
}): ApiRoute[] {
  const limits = deps.signInLimits;
  return [
    apiRoute({
      operationId: 'signup',
      method: 'post',
      path: '/auth/signup',
      summary: 'Create an account and sign in (only when PLAT_SELF_SIGNUP=true)',
      secured: false,
      body: credentialsSchema,
      responses: {
        201: { description: 'signed in', schema: tokenSchema },
        403: { description: 'self sign-up is disabled on this server' },
        409: { description: 'the username is taken' },
        429: TOO_MANY,
      },
      handle: async ({ body, req, res }) => {
        if (!deps.selfSignup)
          throw new HttpError(
            403,
            'signup_disabled',
            'self sign-up is disabled (PLAT_SELF_SIGNUP=true enables it)',
          );
        // Counted like a sign-in: a taken name is a failure of that name, as a wrong password is.
        await limits.attempt(req, body.username, res);
        try {
          const user = await deps.users.create(body.username, body.password);
          await limits.succeeded(body.username);
          return { ...(await deps.tokens.issue(user)), user_id: user.user_id };
        } catch (err) {
          if (err instanceof UserExists) throw new HttpError(409, 'username_taken', err.message);
          throw err;
        }
      },
    }),
    apiRoute({
      operationId: 'login',
      method: 'post',
      path: '/auth/login',
      summary: 'Sign in: an ID token for the Authorization header',
      secured: false,
      body: loginSchema,
      responses: {
        200: { description: 'signed in', schema: tokenSchema },
        401: { description: 'wrong username or password' },
        429: TOO_MANY,
      },
      handle: async ({ body, req, res }) => {
        // Counted before the password is checked: guesses racing on several gateways all count.
        await limits.attempt(req, body.username, res);
        const user = await deps.users.authenticate(body.username, body.password);
        if (!user) throw new HttpError(401, 'invalid_credentials', 'wrong username or password');
        await limits.succeeded(body.username);
        return { ...(await deps.tokens.issue(user)), user_id: user.user_id };
      },
    }),
    apiRoute({
      operationId: 'jwks',
      method: 'get',
      path: '/.well-known/jwks.json',
      summary: 'Public keys that verify the ID tokens',
      secured: false,
      responses: { 200: { description: 'the JSON Web Key Set', schema: jwksSchema } },
      handle: () => deps.tokens.jwks(),
    }),
  ];
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The signed-in user (set by {@link requireUser}). */
    user?: TokenSubject;
  }
}

/** Requires `Authorization: Bearer <ID token>`; answers 401 with the reason otherwise. */
export function requireUser(tokens: IdTokens): RequestHandler {
  return async (req, _res, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match)
      return next(
        new HttpError(
          401,
          'unauthorized',
          'sign in first: Authorization: Bearer <ID token> (POST /auth/login)',
        ),
      );
    try {
      req.user = await tokens.verify(match[1]);
      next();
    } catch (err) {
      next(new HttpError(401, 'invalid_token', `invalid ID token: ${(err as Error).message}`));
    }
  };
}

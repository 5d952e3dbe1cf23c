/** POST /auth/signup, POST /auth/login, GET /.well-known/jwks.json, and the bearer-token guard. */
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { HttpError } from '../http-errors';
import { parseBody } from '../validation';
import type { IdTokens, TokenSubject } from './id-tokens';
import { UserExists, type UserStore } from './user-store';

const credentialsSchema = z
  .object({
    username: z.string().regex(/^[A-Za-z0-9._@-]{3,64}$/, '3-64 characters: letters, digits, . _ @ -'),
    password: z.string().min(8, 'at least 8 characters').max(256),
  })
  .strict();

export function authRoutes(deps: { users: UserStore; tokens: IdTokens; selfSignup: boolean }): Router {
  const router = Router();
  router.post('/auth/signup', async (req, res) => {
    if (!deps.selfSignup)
      throw new HttpError(
        403,
        'signup_disabled',
        'self sign-up is disabled (PLAT_SELF_SIGNUP=true enables it)',
      );
    const { username, password } = parseBody(credentialsSchema, req.body);
    try {
      const user = await deps.users.create(username, password);
      res.status(201).json(await deps.tokens.issue(user));
    } catch (err) {
      if (err instanceof UserExists) throw new HttpError(409, 'username_taken', err.message);
      throw err;
    }
  });
  router.post('/auth/login', async (req, res) => {
    const { username, password } = parseBody(
      credentialsSchema.extend({ password: z.string().min(1) }),
      req.body,
    );
    const user = await deps.users.authenticate(username, password);
    if (!user) throw new HttpError(401, 'invalid_credentials', 'wrong username or password');
    res.json(await deps.tokens.issue(user));
  });
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.json(deps.tokens.jwks());
  });
  return router;
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

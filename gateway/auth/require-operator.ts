/** The guard of operator routes: after the bearer-token guard, a token without the operator role gets 403. */
import type { RequestHandler } from 'express';
import { HttpError } from '../http-errors';

export const requireOperator: RequestHandler = (req, _res, next) =>
  next(
    req.user?.roles.includes('operator')
      ? undefined
      : new HttpError(
          403,
          'forbidden',
          'this needs the operator role: an operator grants it (plat users grant <username>), then sign in again',
        ),
  );

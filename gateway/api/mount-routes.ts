/** Mounts ApiRoutes on an Express router: validation from their schemas, then 405 for other methods. */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { sendError } from '../http-errors';
import { parseBody } from '../validation';
import { expressPath, methodsByPath, successStatus, type ApiRoute } from './api-route';

export interface MountOptions {
  /** Authenticates secured routes before anything else runs (401 before 400). */
  guard?: RequestHandler;
  /** Refuses a signed-in user without the operator role (403), on the routes that need it. */
  operatorGuard?: RequestHandler;
}

export function mountRoutes(router: Router, routes: ApiRoute[], opts: MountOptions = {}): Router {
  for (const route of routes) {
    const guarded = opts.guard && route.secured !== false ? [opts.guard] : [];
    // An operator route mounted where no one checks the role would be open to all: refuse to start.
    if (route.role === 'operator' && !(guarded.length && opts.operatorGuard))
      throw new Error(`${route.operationId} needs the operator role but is mounted without its guards`);
    const before = [
      ...guarded,
      ...(route.role === 'operator' ? [opts.operatorGuard!] : []),
      ...(route.before ?? []),
    ];
    router[route.method](
      expressPath(route.path),
      ...before,
      async (req: Request, res: Response, next: NextFunction) => {
        try {
          const params = route.params ? parseBody(route.params, req.params) : req.params;
          const query = route.query ? parseBody(route.query, req.query) : req.query;
          const body = route.body ? parseBody(route.body, req.body) : undefined;
          const answer = await route.handle({ params, query, body, req, res });
          if (!res.headersSent) res.status(successStatus(route)).json(answer);
        } catch (err) {
          next(err);
        }
      },
    );
  }
  return router;
}

/** 405 with `Allow` for a method a known path does not serve (after every route is mounted). */
export function mountMethodNotAllowed(router: Router, routes: ApiRoute[]): Router {
  for (const [path, methods] of methodsByPath(routes)) {
    const allow = [...new Set(methods.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()])))];
    router.all(expressPath(path), (req, res) => {
      res.set('Allow', allow.join(', '));
      sendError(
        res,
        405,
        'method_not_allowed',
        `${req.method} is not allowed on ${path} (allowed: ${allow.join(', ')})`,
      );
    });
  }
  return router;
}

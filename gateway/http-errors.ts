/** The platform's error format: `{"error": {"code", "message", "details"}}` (docs/requirements.md#api). */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  details?: unknown,
): void {
  res.status(status).json({ error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/** 404 for any route nothing else answered. */
export const notFound: RequestHandler = (req, res) =>
  sendError(res, 404, 'not_found', `no route for ${req.method} ${req.path}`);

/** Turns thrown errors into the error format; never echoes internals of unexpected errors. */
export function errorHandler(log: { error: (obj: object, msg: string) => void }): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof HttpError) return sendError(res, err.status, err.code, err.message, err.details);
    const status =
      typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) log.error({ err, path: req.path }, 'request failed');
    const code = status === 413 ? 'payload_too_large' : status === 400 ? 'bad_request' : 'internal';
    sendError(res, status, code, status === 500 ? 'internal error' : String(err.message ?? 'bad request'));
  };
}

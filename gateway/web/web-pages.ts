/**
 * The web front end: the pages the gateway serves and the one setting they need before sign-in
 * (docs/web-ui.md). Pages are static files under `web/`; each fetches its data with the user's token.
 */
import express, { type Express, type Request } from 'express';
import * as path from 'node:path';
import { z } from 'zod';
import { PHASE_LABELS, PHASES, STAGE_REPORTS } from '../../shared/analysis-stages';
import { repoRoot } from '../../shared/paths';
import { ENDED_PROJECT_STATUSES } from '../../shared/project-model';
import { apiRoute, type ApiRoute } from '../api/api-route';

/** Where the Temporal Web UI is, for the monitor page's link to a project's workflow. */
export interface TemporalUiSettings {
  namespace: string;
  /** An explicit URL (TEMPORAL_UI_URL). */
  url?: string;
  /** The embedded dev server's UI port: the UI is on the gateway's own host. */
  embeddedPort?: number;
}

const uiConfigSchema = z.object({
  self_signup: z.boolean(),
  temporal_ui_url: z.string().nullable(),
  temporal_namespace: z.string(),
  /** An analysis project's phases in the order they run, with the names the pages show (the stage table). */
  phases: z.array(z.object({ phase: z.enum(PHASES), label: z.string() })),
  /** The statuses a project ends in: a page stops following a project in one. */
  ended_statuses: z.array(z.string()),
  /** Every report a stage keeps (the stage table): its route under a project, the phase that writes it, what it holds. */
  reports: z.array(z.object({ path: z.string(), phase: z.enum(PHASES), summary: z.string() })),
});

/** `GET /v1/ui-config`: what the pages need to know before anyone signs in. */
export function uiConfigRoute(deps: { selfSignup: boolean; temporalUi?: TemporalUiSettings }): ApiRoute {
  return apiRoute({
    operationId: 'uiConfig',
    method: 'get',
    path: '/v1/ui-config',
    summary:
      "The web pages' settings: whether sign-up is open, where the Temporal Web UI is, and a project's phases",
    secured: false,
    responses: { 200: { description: 'the settings', schema: uiConfigSchema } },
    handle: ({ req }) => ({
      self_signup: deps.selfSignup,
      temporal_ui_url: temporalUiUrl(req, deps.temporalUi),
      temporal_namespace: deps.temporalUi?.namespace ?? 'default',
      phases: PHASE_LABELS,
      ended_statuses: [...ENDED_PROJECT_STATUSES],
      reports: STAGE_REPORTS.map(({ path, phase, summary }) => ({ path, phase, summary })),
    }),
  });
}

function temporalUiUrl(req: Request, ui?: TemporalUiSettings): string | null {
  if (ui?.url) return ui.url.replace(/\/+$/, '');
  if (!ui?.embeddedPort) return null;
  // The browser reaches the dev server's UI on the host it reached the gateway on.
  const host = new URL(`http://${req.get('host') ?? 'localhost'}`).hostname;
  return `${req.protocol}://${host.includes(':') ? `[${host}]` : host}:${ui.embeddedPort}`;
}

/** Page paths and their files; a project's pages take its id from the path. */
const PAGES: [string, string][] = [
  ['/ui/signin', 'signin.html'],
  ['/ui/projects', 'index.html'],
  ['/ui/alarms', 'alarms.html'],
  ['/ui/simulate', 'simulate.html'],
  ['/ui/projects/:id', 'project.html'],
  ['/ui/projects/:id/monitor', 'monitor.html'],
  ['/ui/projects/:id/cost', 'cost.html'],
  ['/ui/projects/:id/result', 'result.html'],
  ['/ui/projects/:id/dashboard', 'dashboard.html'],
  ['/ui/projects/:id/profile', 'profile.html'],
];

/** Third-party browser code, from npm, served by the gateway so no page loads anything from elsewhere. */
const VENDOR: [string, string][] = [
  ['/vendor/echarts.min.js', 'echarts/dist/echarts.common.min.js'],
  // The typed API client (web/plat.js `http()`): one self-contained ES module.
  ['/vendor/openapi-fetch.mjs', 'openapi-fetch/dist/index.mjs'],
];

/** Serves the pages, `web/`'s static files (stylesheet, client library) and the vendored chart library. */
export function mountWebPages(app: Express): void {
  const web = path.join(repoRoot, 'web');
  for (const [route, file] of VENDOR) {
    const resolved = require.resolve(file);
    app.get(route, (_req, res) => res.sendFile(resolved, { maxAge: '1d' }));
  }
  for (const [route, file] of PAGES) app.get(route, (_req, res) => res.sendFile(path.join(web, file)));
  // The project list is the home page at `/`; `/ui` is where people guess it is.
  app.get('/ui', (_req, res) => res.redirect(302, '/'));
  // Browsers ask for /favicon.ico before reading the pages' <link rel="icon">.
  app.get('/favicon.ico', (_req, res) => res.redirect(301, '/favicon.svg'));
  app.use(express.static(web, { index: 'index.html' }));
}

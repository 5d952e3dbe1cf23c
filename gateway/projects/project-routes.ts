/** REST routes of analysis projects (docs/requirements.md#api), served under every configured prefix. */
import { Router } from 'express';
import { z } from 'zod';
import type { ProjectStore } from '../../activities/analysis/project-store';
import { HttpError } from '../http-errors';
import { perUserRateLimit } from '../rate-limit';
import { queryWarehouse, warehouseQuerySchema } from './warehouse-query';
import type { WarehouseEngine } from '../../activities/warehouse/warehouse-engine';
import { addArtifactRoutes } from './artifact-routes';
import { parseBody } from '../validation';
import { createProjectRequestSchema } from './create-project-request';
import type { ProjectService } from './project-service';

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
const rejectBody = z.object({ reason: z.string().max(2000).optional() }).strict();
const sinceQuery = z.object({ since: z.coerce.number().int().min(0).default(0) });

/** `/projects`, `/v1/projects` and, with a stage, `/<stage>/projects` and `/<stage>/v1/projects`. */
export function projectPrefixes(stage?: string): string[] {
  const base = ['/projects', '/v1/projects'];
  return stage ? [...base, ...base.map((p) => `/${stage}${p}`)] : base;
}

export function projectRoutes(
  service: ProjectService,
  store: ProjectStore,
  engine: WarehouseEngine,
  createsPerMinute = 20,
): Router {
  const r = Router();
  r.post('/', perUserRateLimit(createsPerMinute), async (req, res) => {
    const body = parseBody(createProjectRequestSchema, req.body);
    const view = await service.create(req.user!, body);
    res.status(201).json({
      project_id: view.project_id,
      status: view.status,
      message: view.message,
      created_at: view.created_at,
    });
  });
  r.get('/', (req, res) => {
    const { limit, offset } = parseBody(pageQuery, req.query);
    const { total, projects } = service.list(req.user!, limit, offset);
    res.json({ projects: projects.map(summary), total, limit, offset });
  });
  r.get('/:id', (req, res) => {
    res.json(service.get(req.user!, req.params.id));
  });
  r.post('/:id/hitl/approve', async (req, res) => {
    res.json(await service.decide(req.user!, req.params.id, 'approve', {}));
  });
  r.post('/:id/hitl/modify', async (req, res) => {
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) {
      throw new HttpError(400, 'validation_failed', 'body: the edited PRD (a JSON object)');
    }
    res.json(await service.decide(req.user!, req.params.id, 'modify', { prd: req.body }));
  });
  r.post('/:id/hitl/reject', async (req, res) => {
    const { reason } = parseBody(rejectBody, req.body);
    res.json(await service.decide(req.user!, req.params.id, 'reject', { reason }));
  });
  r.post('/:id/cancel', async (req, res) => {
    res.status(202).json(await service.cancel(req.user!, req.params.id));
  });
  r.post('/:id/query', async (req, res) => {
    service.get(req.user!, req.params.id);
    const query = parseBody(warehouseQuerySchema, req.body);
    res.json(await queryWarehouse(engine, req.params.id, query));
  });
  addArtifactRoutes(r, service, store);
  r.get('/:id/agent-logs', (req, res) => {
    service.get(req.user!, req.params.id);
    res.json({ project_id: req.params.id, entries: store.agentLogs(req.params.id) });
  });
  r.get('/:id/events', (req, res) => {
    service.get(req.user!, req.params.id);
    const { since } = parseBody(sinceQuery, req.query);
    res.json({ project_id: req.params.id, events: store.eventsSince(req.params.id, since) });
  });
  return r;
}

function summary(v: import('../../shared/project-model').ProjectView) {
  const { project_id, status, phase, message, created_at, updated_at, cost_usd, duration_seconds } = v;
  return {
    project_id,
    status,
    phase,
    message,
    created_at,
    updated_at,
    cost_usd,
    duration_seconds,
    industry: v.prd?.industry.name ?? null,
  };
}

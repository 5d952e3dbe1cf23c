/** The memory API (docs/requirements.md#memory-api). */
import { Router } from 'express';
import { MemoryNotFoundError, type MemoryService } from '../../activities/memory/memory-service';
import {
  addMemoryRequestSchema,
  contextQuerySchema,
  listQuerySchema,
  searchCombinedRequestSchema,
  searchRequestSchema,
  updateRequestSchema,
} from '../../shared/memory-requests';
import { HttpError } from '../http-errors';
import { parseBody } from '../validation';

/** Unknown ids answer 404 in the platform's error format. */
function notFoundAs404<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((err: unknown) => {
    if (err instanceof MemoryNotFoundError) throw new HttpError(404, 'not_found', err.message);
    throw err;
  });
}

export function memoryRoutes(service: MemoryService): Router {
  const r = Router();
  r.post('/memory/add', async (req, res) => {
    res.json(await service.add(parseBody(addMemoryRequestSchema, req.body)));
  });
  r.post('/memory/search', async (req, res) => {
    res.json(await service.search(parseBody(searchRequestSchema, req.body)));
  });
  r.post('/memory/search_combined', async (req, res) => {
    res.json(await service.searchCombined(parseBody(searchCombinedRequestSchema, req.body)));
  });
  r.get('/memory/list', async (req, res) => {
    res.json(await service.list(parseBody(listQuerySchema, req.query)));
  });
  r.get('/memory/context', async (req, res) => {
    res.json(await service.context(parseBody(contextQuerySchema, req.query)));
  });
  r.put('/memory/update', async (req, res) => {
    const body = parseBody(updateRequestSchema, req.body);
    res.json(await notFoundAs404(() => service.update(body)));
  });
  r.get('/memory/history/:id', async (req, res) => {
    res.json(await notFoundAs404(() => service.history(req.params.id)));
  });
  r.get('/memory/:id', async (req, res) => {
    res.json(await notFoundAs404(() => service.get(req.params.id)));
  });
  r.delete('/memory/:id', async (req, res) => {
    const removed = await notFoundAs404(() => service.delete(req.params.id));
    res.json({ message: 'memory deleted', id: removed.id });
  });
  return r;
}

/**
 * The alarms (docs/monitoring.md#delivery): Alertmanager's webhook of the `plat-alerts` receiver
 * posts each firing and resolution here, and operators read every alarm's state and history (the
 * health of the shared infrastructure, with Alertmanager's labels: hosts and task queues, nothing a
 * tenant needs). The webhook authenticates with its own bearer token (PLAT_ALERTS_WEBHOOK_TOKEN).
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ALARMS } from '../../domain/monitoring/alarm-catalog';
import type { AlarmState, AlarmStore } from '../../domain/monitoring/alarm-store';
import { alarmCondition, durationSeconds, periodsForHour } from '../../domain/monitoring/alert-rules';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { queryInteger } from '../api/query-integer';
import { HttpError } from '../http-errors';

/** Alertmanager's webhook payload (version 4), the parts plat keeps. */
const webhookSchema = z.object({
  version: z.string(),
  receiver: z.string(),
  status: z.enum(['firing', 'resolved']),
  alerts: z
    .array(
      z.object({
        status: z.enum(['firing', 'resolved']),
        labels: z.record(z.string(), z.string()).refine((l) => typeof l.alertname === 'string', {
          message: 'every alert needs an alertname label',
        }),
        annotations: z.record(z.string(), z.string()).default({}),
        startsAt: z.string().datetime({ offset: true }),
        endsAt: z.string(),
        fingerprint: z.string().min(1),
      }),
    )
    .max(1000),
});

const alarmStateSchema = z.object({
  name: z.string(),
  metric: z.string(),
  threshold: z.string(),
  period: z.string(),
  severity: z.enum(['warning', 'critical']),
  hint: z.string(),
  condition: z.string().describe('when it fires, with the periods Prometheus evaluates'),
  state: z.enum(['firing', 'ok']),
  since: z.string().nullable(),
  summary: z.string().nullable(),
  notifications: z.number().int(),
});

const notificationSchema = z.object({
  alarm: z.string(),
  fingerprint: z.string(),
  status: z.enum(['firing', 'resolved']),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  summary: z.string(),
  labels: z.record(z.string(), z.string()),
  received_at: z.string(),
});

export function alarmRoutes(
  store: AlarmStore,
  webhookToken: string | undefined,
  alarmHour = '1h',
): ApiRoute[] {
  // Each alarm with the condition in force (a shortened PLAT_ALARM_HOUR says so).
  const periods = periodsForHour(durationSeconds(alarmHour));
  const states = async () =>
    (await store.states()).map((a) => ({ ...a, condition: alarmCondition(a, periods) }));
  return [receiveAlertsRoute(store, webhookToken), ...alarmReadRoutes(store, states)];
}

/** Alertmanager's webhook: what fires and resolves, recorded. */
function receiveAlertsRoute(store: AlarmStore, webhookToken: string | undefined): ApiRoute {
  return apiRoute({
    operationId: 'receiveAlerts',
    method: 'post',
    path: '/v1/alerts',
    summary: "Alertmanager's webhook (receiver plat-alerts): records each firing and resolution",
    secured: false,
    before: [requireWebhookToken(webhookToken)],
    body: webhookSchema,
    responses: {
      200: {
        description: 'the notifications stored (repeats of a stored one are not)',
        schema: z.object({ received: z.number().int(), recorded: z.number().int() }),
      },
      401: { description: 'missing or wrong webhook token' },
      503: { description: 'no webhook token is configured (PLAT_ALERTS_WEBHOOK_TOKEN)' },
    },
    handle: async ({ body }) => {
      const recorded = await store.record(
        body.alerts.map((a) => ({
          alarm: a.labels.alertname,
          fingerprint: a.fingerprint,
          status: a.status,
          starts_at: a.startsAt,
          ends_at: a.status === 'resolved' ? a.endsAt : null,
          summary: a.annotations.summary ?? a.labels.alertname,
          labels: a.labels,
        })),
      );
      return { received: body.alerts.length, recorded };
    },
  });
}

/** What operators read: every alarm's state, and one alarm's history. */
function alarmReadRoutes(
  store: AlarmStore,
  states: () => Promise<(AlarmState & { condition: string })[]>,
): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'listAlarms',
      role: 'operator',
      method: 'get',
      path: '/v1/alarms',
      summary: 'Every alarm with its state: firing or ok, since when, and its latest summary',
      responses: {
        200: {
          description: 'the alarms',
          schema: z.object({ firing: z.number().int(), alarms: z.array(alarmStateSchema) }),
        },
      },
      handle: async () => {
        const alarms = await states();
        return { firing: alarms.filter((a) => a.state === 'firing').length, alarms };
      },
    }),
    apiRoute({
      operationId: 'alarmHistory',
      role: 'operator',
      method: 'get',
      path: '/v1/alarms/{name}',
      summary: "One alarm's state and its notifications, newest first",
      params: z.object({ name: z.string().min(1).max(200) }),
      query: z.object({ limit: queryInteger({ min: 1, max: 1000, fallback: 100 }) }),
      responses: {
        200: {
          description: 'the alarm and its history',
          schema: z.object({ alarm: alarmStateSchema, history: z.array(notificationSchema) }),
        },
        404: { description: 'no such alarm' },
      },
      handle: async ({ params, query }) => {
        const alarm = (await states()).find((a) => a.name === params.name);
        if (!alarm) {
          throw new HttpError(
            404,
            'not_found',
            `no alarm ${params.name}; the alarms are ${ALARMS.map((a) => a.name).join(', ')}`,
          );
        }
        return { alarm, history: await store.history(params.name, query.limit) };
      },
    }),
  ];
}

function requireWebhookToken(token: string | undefined): RequestHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return (req, _res, next) => {
    if (!expected) {
      return next(
        new HttpError(503, 'not_configured', 'the alarm webhook needs PLAT_ALERTS_WEBHOOK_TOKEN to be set'),
      );
    }
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return next(new HttpError(401, 'unauthorized', 'the alarm webhook needs its bearer token'));
    }
    next();
  };
}

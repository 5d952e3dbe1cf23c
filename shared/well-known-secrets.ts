/**
 * The secrets docker-compose.yml once defaulted to, and compose.demo.env still offers for a local
 * try-out: published, so anyone may know them. Every process refuses them unless PLAT_DEMO_SECRETS
 * says the deployment is a try-out (shared/config.ts).
 */

/** The try-out key of the parameter store ("plat-compose-default-key-change!"). */
export const DEMO_SECRET_KEY = 'cGxhdC1jb21wb3NlLWRlZmF1bHQta2V5LWNoYW5nZSE=';
/** The try-out API key of the memory service. */
export const DEMO_MEMORY_API_KEY = 'change-me';
/** The try-out bearer token of the alarm webhook. */
export const DEMO_ALERTS_WEBHOOK_TOKEN = 'change-me-alerts-webhook-token';
/** The try-out password of plat's PostgreSQL in compose. */
export const DEMO_DB_PASSWORD = 'plat';

/** The password of a `postgres://user:password@…` URL, decoded; undefined without one. */
function urlPassword(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.password ? decodeURIComponent(parsed.password) : undefined;
  } catch {
    return undefined;
  }
}

const isWellKnown: Record<string, (value: string) => boolean> = {
  PLAT_SECRET_KEY: (v) => v.trim() === DEMO_SECRET_KEY,
  PLAT_MEMORY_API_KEYS: (v) => v.split(',').some((k) => k.trim() === DEMO_MEMORY_API_KEY),
  PLAT_MEMORY_API_KEY: (v) => v.trim() === DEMO_MEMORY_API_KEY,
  PLAT_ALERTS_WEBHOOK_TOKEN: (v) => v.trim() === DEMO_ALERTS_WEBHOOK_TOKEN,
  PLAT_METADATA_URL: (v) => urlPassword(v) === DEMO_DB_PASSWORD,
};

/** The variables of `env` that hold a well-known try-out secret. */
export function wellKnownSecretsIn(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(isWellKnown)
    .filter(([name, test]) => {
      const value = env[name];
      return value !== undefined && value !== '' && test(value);
    })
    .map(([name]) => name);
}

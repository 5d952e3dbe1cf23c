/** Where users reach the gateway and where plat's processes reach the memory service, from the configuration. */
import type { PlatConfig } from './config';

/** The gateway's address as users reach it. */
export function publicUrl(config: Pick<PlatConfig, 'PLAT_PUBLIC_URL' | 'PLAT_GATEWAY_PORT'>): string {
  return config.PLAT_PUBLIC_URL ?? `http://localhost:${config.PLAT_GATEWAY_PORT}`;
}

/** Where the pipelines and the CLI reach the memory service. */
export function memoryUrl(
  config: Pick<PlatConfig, 'PLAT_MEMORY_URL' | 'PLAT_MEMORY_HOST' | 'PLAT_MEMORY_PORT'>,
): string {
  if (config.PLAT_MEMORY_URL) return config.PLAT_MEMORY_URL.replace(/\/$/, '');
  const host = ['0.0.0.0', '::'].includes(config.PLAT_MEMORY_HOST) ? '127.0.0.1' : config.PLAT_MEMORY_HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PLAT_MEMORY_PORT}`;
}

import type { PlatConfig } from './config';

/** The Temporal frontend plat talks to: TEMPORAL_ADDRESS, else the embedded dev server. */
export function temporalAddress(config: Pick<PlatConfig, 'TEMPORAL_ADDRESS' | 'TEMPORAL_DEV_PORT'>): string {
  return config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_DEV_PORT}`;
}

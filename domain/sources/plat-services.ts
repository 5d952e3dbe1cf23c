/**
 * plat's own services as the configuration places them: a source may not be one of them, or the
 * gateway would let a user talk to plat's metadata database or Temporal (docs/security.md#sources).
 */
import type { PlatConfig } from '../../shared/config';
import { memoryUrl } from '../../shared/service-urls';
import { temporalAddress } from '../../shared/temporal-address';

/** One service's address: a host name or IP literal, and its port. */
export interface PlatService {
  name: string;
  host: string;
  port: number;
}

/** The settings the services' addresses come from. */
export type PlatServiceSettings = Pick<
  PlatConfig,
  | 'PLAT_METADATA_URL'
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_DEV_PORT'
  | 'TEMPORAL_UI_PORT'
  | 'PLAT_MEMORY_URL'
  | 'PLAT_MEMORY_HOST'
  | 'PLAT_MEMORY_PORT'
  | 'OPENSEARCH_URL'
  | 'QDRANT_URL'
  | 'PLAT_GATEWAY_HOST'
  | 'PLAT_GATEWAY_PORT'
  | 'PLAT_WORKER_METRICS_HOST'
  | 'PLAT_WORKER_METRICS_PORT'
  | 'PROMETHEUS_PORT'
  | 'ALERTMANAGER_PORT'
>;

const DEFAULT_PORTS: Record<string, number> = {
  'http:': 80,
  'https:': 443,
  'postgres:': 5432,
  'postgresql:': 5432,
};

/** A service URL's host and port (the scheme's port when it names none). */
function fromUrl(name: string, url: string | undefined): PlatService[] {
  if (!url) return [];
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  return port ? [{ name, host: parsed.hostname.replace(/^\[|\]$/g, ''), port }] : [];
}

/** `host:port`, the last colon separating them (`[::1]:7233` too). */
function fromHostPort(name: string, address: string): PlatService {
  const colon = address.lastIndexOf(':');
  return {
    name,
    host: address.slice(0, colon).replace(/^\[|\]$/g, ''),
    port: Number(address.slice(colon + 1)),
  };
}

/** Every service of this deployment a source must not be, as this process's configuration sees them. */
export function platServices(config: PlatServiceSettings): PlatService[] {
  return [
    ...fromUrl('metadata database', config.PLAT_METADATA_URL),
    fromHostPort('Temporal', temporalAddress(config)),
    // The embedded dev server's web UI; harmless to keep out when a cluster is configured.
    { name: 'Temporal UI', host: '127.0.0.1', port: config.TEMPORAL_UI_PORT },
    ...fromUrl('memory service', memoryUrl(config)),
    { name: 'memory service', host: config.PLAT_MEMORY_HOST, port: config.PLAT_MEMORY_PORT },
    ...fromUrl('OpenSearch', config.OPENSEARCH_URL),
    ...fromUrl('Qdrant', config.QDRANT_URL),
    { name: 'gateway', host: config.PLAT_GATEWAY_HOST, port: config.PLAT_GATEWAY_PORT },
    { name: 'worker metrics', host: config.PLAT_WORKER_METRICS_HOST, port: config.PLAT_WORKER_METRICS_PORT },
    { name: 'Prometheus', host: '127.0.0.1', port: config.PROMETHEUS_PORT },
    { name: 'Alertmanager', host: '127.0.0.1', port: config.ALERTMANAGER_PORT },
  ];
}

/** The memory service's auth policy (docs/requirements.md#memory-api): loopback needs no key; any other bind needs keys. */

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Throws when the service would be reachable from other machines without any API key. */
export function assertBindAllowed(host: string, apiKeys: string[]): void {
  if (!isLoopback(host) && apiKeys.length === 0) {
    throw new Error(
      `refusing to bind the memory service to ${host} without API keys: set PLAT_MEMORY_API_KEYS ` +
        '(comma-separated) or bind to 127.0.0.1 (PLAT_MEMORY_HOST)',
    );
  }
}

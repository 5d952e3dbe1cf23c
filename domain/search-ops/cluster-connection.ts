/**
 * The configured OpenSearch cluster as a client (docs/search-lifecycle.md#connecting): SigV4-signed
 * when OPENSEARCH_AWS_REGION is set (a managed domain, or a serverless collection), basic auth from
 * OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD or the URL, a bearer token from OPENSEARCH_TOKEN.
 */
import type { PlatConfig } from '../../shared/config';
import { OpenSearchClient } from './opensearch-client';

/** The settings that say where the cluster is and how to sign in to it. */
export type OpenSearchSettings = Partial<
  Pick<
    PlatConfig,
    | 'OPENSEARCH_URL'
    | 'OPENSEARCH_USERNAME'
    | 'OPENSEARCH_PASSWORD'
    | 'OPENSEARCH_TOKEN'
    | 'OPENSEARCH_AWS_REGION'
    | 'OPENSEARCH_AWS_SERVICE'
  >
>;

/** The client of the configured cluster; undefined when OPENSEARCH_URL is not set. */
export function configuredOpenSearch(settings: OpenSearchSettings): OpenSearchClient | undefined {
  const url = settings.OPENSEARCH_URL;
  if (!url) return undefined;
  return new OpenSearchClient({
    url,
    username: settings.OPENSEARCH_USERNAME,
    password: settings.OPENSEARCH_PASSWORD,
    bearerToken: settings.OPENSEARCH_TOKEN,
    aws: settings.OPENSEARCH_AWS_REGION
      ? {
          region: settings.OPENSEARCH_AWS_REGION,
          service: settings.OPENSEARCH_AWS_SERVICE ?? serviceOfUrl(url),
        }
      : undefined,
  });
}

/** Serverless collection endpoints end in `.aoss.amazonaws.com`; everything else signs as `es`. */
function serviceOfUrl(url: string): 'es' | 'aoss' {
  return /\.aoss\.amazonaws\.com(\.cn)?$/i.test(new URL(url).hostname) ? 'aoss' : 'es';
}

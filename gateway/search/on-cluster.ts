/**
 * Runs a search operation on the configured cluster and turns its refusals into HTTP answers
 * (docs/search-lifecycle.md#rest): no cluster, an unreachable one or one refusing plat's credentials
 * 503, a missing index or policy 404, an invalid policy 422 with each problem, any other refusal 422
 * with the cluster's reason.
 */
import { PolicyInvalid } from '../../domain/search-ops/lifecycle/apply-policy';
import { LifecycleRequestError } from '../../domain/search-ops/lifecycle/lifecycle-manager';
import {
  OpenSearchError,
  OpenSearchUnreachable,
  type OpenSearchClient,
} from '../../domain/search-ops/opensearch-client';
import { NotAggregatableError } from '../../domain/search-ops/term-statistics';
import type { ApiResponse } from '../api/api-route';
import { HttpError } from '../http-errors';

export const UNAVAILABLE: ApiResponse = {
  description:
    "no OpenSearch is configured (OPENSEARCH_URL), it cannot be reached, or it refused plat's credentials",
};
export const REFUSED: ApiResponse = {
  description: 'the cluster refused the request: its reason (no such index, analyzer or field)',
};

/** 422 naming each problem of an invalid policy (error.details.problems). */
export const policyInvalid = (err: PolicyInvalid) =>
  new HttpError(
    422,
    'policy_invalid',
    `policy ${err.policyId} is invalid: ${err.problems.length} problem(s), each in error.details.problems`,
    { problems: err.problems },
  );

export async function onCluster<T>(
  client: OpenSearchClient | undefined,
  work: (c: OpenSearchClient) => Promise<T>,
): Promise<T> {
  if (!client)
    throw new HttpError(
      503,
      'search_unavailable',
      'no OpenSearch is configured: set OPENSEARCH_URL, or run npm start -- --with-opensearch',
    );
  try {
    return await work(client);
  } catch (err) {
    if (err instanceof NotAggregatableError) throw new HttpError(422, 'not_aggregatable', err.message);
    if (err instanceof PolicyInvalid) throw policyInvalid(err);
    if (err instanceof LifecycleRequestError)
      throw new HttpError(err.status, err.status === 404 ? 'not_found' : 'lifecycle_refused', err.message);
    if (err instanceof OpenSearchError && (err.status === 401 || err.status === 403))
      throw new HttpError(
        503,
        'search_unauthorized',
        `the cluster refused plat's credentials (${err.status}): ${err.reason}. Check OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD, OPENSEARCH_TOKEN, or OPENSEARCH_AWS_REGION and the AWS credentials`,
      );
    if (err instanceof OpenSearchUnreachable) throw new HttpError(503, 'search_unreachable', err.message);
    if (err instanceof OpenSearchError && err.status === 404)
      throw new HttpError(404, 'not_found', `${err.type}: ${err.reason}`);
    if (err instanceof OpenSearchError && err.status === 409)
      throw new HttpError(409, 'conflict', `${err.type}: ${err.reason}`);
    if (err instanceof OpenSearchError && err.status < 500)
      throw new HttpError(422, 'search_refused', `${err.type}: ${err.reason}`);
    throw err;
  }
}

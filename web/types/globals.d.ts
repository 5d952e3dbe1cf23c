/**
 * What the web pages' scripts share through `window`, typed from the scripts themselves (each
 * library's top-level `…Lib`), and the API's types generated from its OpenAPI document
 * (docs/architecture.md#one-contract-per-service), for the pages' JSDoc.
 */
import type { ReportPath } from '../../shared/analysis-stages';
import type { components, paths } from '../../shared/generated/platform-api';

/**
 * A library object as its script builds it, closed: an object literal of a JS file takes any
 * property, so a misspelt member would pass unnoticed.
 */
type Closed<T> = { [K in keyof T]: T[K] };

declare global {
  interface Window {
    plat: Closed<typeof platLib>;
    platCharts: Closed<typeof platChartsLib>;
    platDownloads: Closed<typeof platDownloadsLib>;
    platPrdEditor: Closed<typeof platPrdEditorLib>;
    platPrd: Closed<typeof platPrdLib>;
    platRefresh: Closed<typeof platRefreshLib>;
    /** The project page's live stream (for its tests). */
    platProjectStream: unknown;
    /** Apache ECharts, served from its npm package (`/vendor/echarts.min.js`), untyped here. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a vendor script without our types
    echarts: any;
  }

  /**
   * What `plat.h` and `plat.svg` append: nodes as they are, the rest as text, nothing for null,
   * undefined and false, arrays flattened (a type of its own: a JSDoc typedef cannot nest itself).
   */
  type PlatChild = Node | string | number | boolean | null | undefined | PlatChild[];

  /** Every operation of the platform API (the typed client's paths). */
  type ApiPaths = paths;
  /** A project as `GET /v1/projects/{id}` answers it. */
  type ApiProject = components['schemas']['Project'];
  /** The pages' settings (`GET /v1/ui-config`). */
  type ApiUiConfig = paths['/v1/ui-config']['get']['responses'][200]['content']['application/json'];
  /** An answer in plat's error format (`{"error": {code, message, details}}`). */
  type ApiErrorBody = components['schemas']['Error'];
  /** A report a stage keeps (`GET /v1/projects/{id}/{path}`), from the stage table. */
  type ApiReportPath = ReportPath;
  /** A report's route in the typed client: one operation of the document per report of the stage table. */
  type ApiReportRoute = `/v1/projects/{project_id}/${ReportPath}`;
  /** The JSON body of a 200 answer: `ApiAnswer<'/v1/alarms'>`, `ApiAnswer<'/v1/search/simulate', 'post'>`. */
  type ApiAnswer<
    P extends keyof paths,
    M extends keyof paths[P] = 'get' & keyof paths[P],
  > = paths[P][M] extends {
    responses: { 200: { content: { 'application/json': infer B } } };
  }
    ? B
    : never;
  /** The JSON body a route takes: `ApiBody<'/v1/projects/{project_id}/query', 'post'>`. */
  type ApiBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? B
    : never;
  /** A project's PRD (`ApiProject['prd']`, once written). */
  type ApiPrd = NonNullable<ApiProject['prd']>;
  /**
   * A project event, as `GET /v1/projects/{id}/events` lists it and the live stream sends it, with
   * the payload fields the pages read (workflows/analysis/project-progress.ts puts them beside the others).
   */
  type ApiEvent = ApiAnswer<'/v1/projects/{project_id}/events'>['events'][number] & {
    /** `phase_changed`: the phase's new status and when it started and ended. */
    phase_status?: ApiProject['phases'][keyof ApiProject['phases']];
    started_at?: string;
    ended_at?: string;
    /** `cost_update`: the project's cost record. */
    cost?: ApiProject['cost'];
  };
}

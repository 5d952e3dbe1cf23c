/**
 * What the web pages' scripts share through `window`, typed from the scripts themselves (each
 * library's top-level `…Lib`), and the API's types generated from its OpenAPI document
 * (docs/architecture.md#one-contract-per-service), for the pages' JSDoc.
 */
import type { ReportPath } from '../../shared/analysis-stages';
import type { components, paths } from '../../shared/api-types/platform-api';

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
    /** The project page's live stream (for its tests). */
    platProjectStream: unknown;
    /** Apache ECharts, served from its npm package (`/vendor/echarts.min.js`), untyped here. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a vendor script without our types
    echarts: any;
  }

  /** Every operation of the platform API (the typed client's paths). */
  type ApiPaths = paths;
  /** A project as `GET /v1/projects/{id}` answers it. */
  type ApiProject = components['schemas']['Project'];
  /** The pages' settings (`GET /v1/ui-config`). */
  type ApiUiConfig = paths['/v1/ui-config']['get']['responses'][200]['content']['application/json'];
  /** A report a stage keeps (`GET /v1/projects/{id}/{path}`), from the stage table. */
  type ApiReportPath = ReportPath;
}

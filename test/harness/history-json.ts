/**
 * Workflow histories to and from the JSON that Temporal's tools write (the `temporal workflow show
 * --output json` form). The SDK's own `historyToJSON`/`historyFromJSON` fail here ("type must be a
 * Type") because npm installs two copies of protobufjs, one under @temporalio/common and one under
 * @temporalio/proto; this uses the copy that built the History type.
 */
import type { temporal } from '@temporalio/proto';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import * as path from 'node:path';

type History = temporal.api.history.v1.IHistory;
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
}

const protoDir = path.dirname(require.resolve('@temporalio/proto/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const protojson = require(require.resolve('protobufjs/ext/protojson', { paths: [protoDir] })) as ProtoJson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

/** A fetched history as proto-JSON (camelCase fields, enum names, RFC 3339 times). */
export function historyToJson(history: History): unknown {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

/** A history read back from proto-JSON, ready for `Worker.runReplayHistories`. */
export function historyFromJson(json: unknown): History {
  const loaded = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (!loaded) throw new TypeError('not a workflow history');
  return loaded as History;
}

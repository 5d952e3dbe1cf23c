/**
 * The gateway's libuv thread pool: DuckDB's calls for `/query` run on it beside password hashing and
 * file I/O, so the gateway starts with more threads than Node's four and lets queries use all but two
 * (docs/security.md#cost-limits). libuv reads the size when the pool first starts, so this module is
 * the entry point's first import, before anything touches the pool. A size set by the deployment wins.
 */
process.env.UV_THREADPOOL_SIZE ??= '16';

export {};

/** Every workflow the platform worker registers (the worker bundles this file). */
export * from './health/ping-workflow';
export * from './analysis/analysis-project';
export * from './cost/cost-reporter';
export * from './memory-pipelines/memory-pipelines';
export * from './search-ops/search-lifecycle';
export * from './analysis/agent-runner-warmup';
export * from './retention/retention';
export * from './fleet/warehouse-query';
export * from './analysis/project-refresh';

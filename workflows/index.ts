/** Every workflow the platform worker registers (the worker bundles this file). */
export * from './ping-workflow';
export * from './analysis-project';
export * from './cost-reporter';
export * from './memory-pipelines';
export * from './search-lifecycle';
export * from './agent-runner-warmup';
export * from './retention';
export * from './warehouse-query';

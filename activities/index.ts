/** Every activity the platform worker registers. */
export * from './health/ping-activities';

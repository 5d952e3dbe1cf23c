/** The shape of a schema-zoo entry. */
import type { GeneratedDatabase } from '../generated-database';

export interface ZooOptions {
  /** PRNG seed (default 1). The dates are fixed per schema, so a seed fully determines the data. */
  seed?: number;
}

/** One zoo database: a small schema of a given shape, with its ground truth. */
export interface ZooSchema {
  /** Database name, prefixed `zoo_`. */
  name: string;
  /** One line: the business and the shapes it covers. */
  summary: string;
  generate(options?: ZooOptions): GeneratedDatabase;
}

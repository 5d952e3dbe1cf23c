/**
 * The code files of the production-pipeline templates: the TypeScript in ./template (typechecked
 * with the rest of plat), copied as is next to the generated pipeline.json and SQL it reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

/** A file of the pipeline's code, by its path in the pipeline. */
export interface PipelineFile {
  path: string;
  content: string;
}

/** From the repository, not beside this file: a compiled copy of plat holds no template. */
const TEMPLATE_DIR = path.join(repoRoot, 'domain', 'pipeline', 'template');

export function pipelineCode(): PipelineFile[] {
  return fs
    .readdirSync(TEMPLATE_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ path: f, content: fs.readFileSync(path.join(TEMPLATE_DIR, f), 'utf8') }));
}

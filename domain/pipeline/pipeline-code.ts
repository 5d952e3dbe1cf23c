/**
 * The code files of the production-pipeline templates: the TypeScript in ./template (typechecked
 * with the rest of plat), copied as is next to the generated pipeline.json and SQL it reads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PipelineFile } from './pipeline-templates';

const TEMPLATE_DIR = path.join(__dirname, 'template');

export function pipelineCode(): PipelineFile[] {
  return fs
    .readdirSync(TEMPLATE_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ path: f, content: fs.readFileSync(path.join(TEMPLATE_DIR, f), 'utf8') }));
}

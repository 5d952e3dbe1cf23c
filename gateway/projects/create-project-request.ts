/** The create-project request (docs/requirements.md#create-request), validated at the edge. */
import { z } from 'zod';
import { JDBC_URL_PATTERN, parseJdbcUrl } from '../../shared/mysql-source';

export const createProjectRequestSchema = z
  .object({
    jdbc_url: z
      .string({ error: 'required: jdbc:mysql://<host>:<port>/<database>' })
      .max(2000)
      .regex(JDBC_URL_PATTERN, 'expected jdbc:mysql://<host>:<port>/<database>?<options> (port 1-65535)')
      .meta({ examples: ['jdbc:mysql://127.0.0.1:3307/demo_store'] }),
    username: z.string({ error: 'required' }).min(1, 'required'),
    password: z.string({ error: 'required (may be empty only if the database allows it)' }).max(1024),
    description: z.string().max(4000).default(''),
    reuse_ods: z.boolean().default(false),
  })
  .strict()
  // The one place the URL becomes a typed target, carried from here to every connection.
  .transform((req) => ({ ...req, target: parseJdbcUrl(req.jdbc_url) }));

export type CreateProjectRequest = z.output<typeof createProjectRequestSchema>;

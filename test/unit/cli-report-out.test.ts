/**
 * `plat projects report ID pipeline --out DIR` writes the files the server lists; their paths are the
 * server's data, so a path that would leave DIR (or is not a plain relative path) writes nothing.
 * The answers come from a small HTTP server playing a hostile gateway.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError, platformClient, type PlatformClient } from '../../gateway/cli/api-client';
import { outputFile, report } from '../../gateway/cli/report-commands';

describe('report --out', () => {
  let server: http.Server;
  let files: { path: string; content: string }[] = [];
  let api: PlatformClient;
  let root: string;
  let out: string;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ project_id: 'proj-20261201-paths', files }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = platformClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-cli-out-'));
    out = path.join(root, 'out');
  });

  /** Every file under `dir`, relative to it. */
  const written = (dir: string) =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];

  it('writes the listed files below the chosen directory', async () => {
    files = [
      { path: 'README.md', content: 'read me' },
      { path: 'sql/extract/a%2Fb.sql', content: 'SELECT 1' },
      { path: 'dbt/models/ods/%2E%2E.sql', content: 'SELECT 2' },
    ];
    await report(api, 'proj-20261201-paths', 'pipeline', out);
    expect(fs.readFileSync(path.join(out, 'sql', 'extract', 'a%2Fb.sql'), 'utf8')).toBe('SELECT 1');
    expect(written(root)).toEqual([
      'out',
      'out/README.md',
      'out/dbt',
      'out/dbt/models',
      'out/dbt/models/ods',
      'out/dbt/models/ods/%2E%2E.sql',
      'out/sql',
      'out/sql/extract',
      'out/sql/extract/a%2Fb.sql',
    ]);
  });

  it.each([
    '../escape.txt',
    'sql/../../escape.txt',
    '/tmp/plat-cli-absolute.txt',
    'sql//x.sql',
    'sql/./x.sql',
    '..',
    '',
    'a\\..\\..\\escape.txt',
    'x\u001b[2Jcleared.sql',
    'x\0y.sql',
  ])('refuses %j and writes none of the files', async (hostile) => {
    files = [
      { path: 'README.md', content: 'first' },
      { path: hostile, content: 'owned' },
    ];
    await expect(report(api, 'proj-20261201-paths', 'pipeline', out)).rejects.toMatchObject({
      code: 'unsafe_path',
    });
    expect(written(root)).toEqual([]);
  });

  it('refuses --out for a report that has no files, and asks the server nothing', async () => {
    let asked = 0;
    const count = () => asked++;
    server.on('request', count);
    await expect(report(api, 'proj-20261201-paths', 'quality', out)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringContaining('only pipeline and dbt'),
    });
    server.off('request', count);
    expect(asked).toBe(0);
    expect(written(root)).toEqual([]);
  });

  it('refuses a path through a symbolic link that leads out of the directory', () => {
    fs.mkdirSync(out);
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(out, 'sql'));
    expect(() => outputFile(out, 'sql/x.sql')).toThrow(ApiError);
    expect(outputFile(out, 'dbt/x.sql')).toBe(path.join(out, 'dbt', 'x.sql'));
  });
});

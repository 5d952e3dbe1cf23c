/**
 * docker-compose.yml stays valid for users with Docker (validation needs no engine), and starts only
 * with secrets of the user's own or the try-out ones of compose.demo.env, which plat accepts only there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig } from '../../shared/config';
import { repoRoot } from '../../shared/paths';
import { REQUIRED_PERIODS } from '../../domain/monitoring/alert-rules';
import { prometheusConfig } from '../../scripts/lib/monitoring-config';

let command: string[] | undefined;

/** Secrets of a deployment's own, as a user sets them before `docker compose up`. */
const OWN_SECRETS = {
  PLAT_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  PLAT_DB_PASSWORD: 'db-password-of-our-own',
  TEMPORAL_DB_PASSWORD: 'temporal-password-of-our-own',
  PLAT_MEMORY_API_KEYS: 'memory-key-of-our-own',
  PLAT_ALERTS_WEBHOOK_TOKEN: 'webhook-token-of-our-own-0123456789',
};

/** The environment compose runs in: this process's, without any secret of the caller's shell. */
function composeEnv(extra: Record<string, string> = OWN_SECRETS): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [...Object.keys(OWN_SECRETS), 'PLAT_DEMO_SECRETS']) delete env[name];
  return { ...env, ...extra };
}

/** `docker compose`, else `docker-compose` (Debian's, which provisioning installs); found once. */
function composeCommand(): string[] {
  if (command) return command;
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
    return (command = ['docker', 'compose']);
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0)
    return (command = ['docker-compose']);
  throw new Error(
    'neither `docker compose` nor `docker-compose` is installed: run `bash scripts/provision.sh --tests`',
  );
}

let resolved: string | undefined;

/**
 * The resolved file (`config`), read once: each run of docker-compose 1.29 is a Python start of
 * about a second.
 */
function resolvedConfig(file: string): string {
  const [cmd, ...args] = composeCommand();
  return (resolved ??= execFileSync(cmd, [...args, '-f', file, 'config'], {
    encoding: 'utf8',
    env: composeEnv(),
  }));
}

describe('docker-compose.yml', () => {
  const file = path.join(repoRoot, 'docker-compose.yml');

  it('passes `docker compose config -q`', () => {
    const [cmd, ...args] = composeCommand();
    expect(() =>
      execFileSync(cmd, [...args, '-f', file, 'config', '-q'], { stdio: 'pipe', env: composeEnv() }),
    ).not.toThrow();
  });

  it('refuses to start without each secret, naming the one missing', () => {
    const [cmd, ...args] = composeCommand();
    for (const name of Object.keys(OWN_SECRETS)) {
      const rest = Object.fromEntries(Object.entries(OWN_SECRETS).filter(([n]) => n !== name));
      const run = spawnSync(cmd, [...args, '-f', file, 'config', '-q'], {
        encoding: 'utf8',
        env: composeEnv(rest),
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain(`set ${name}`);
    }
  });

  it("passes the user's secrets through, and its try-out file's only with PLAT_DEMO_SECRETS=true", () => {
    const services = resolvedConfig(file).split(/\n {2}(?=[a-z-]+:\n)/);
    const gateway = services.find((s) => s.startsWith('gateway:'))!;
    expect(gateway).toContain(`PLAT_SECRET_KEY: ${OWN_SECRETS.PLAT_SECRET_KEY}`);
    expect(gateway).toMatch(/PLAT_DEMO_SECRETS: ['"]?false/);
    const demoFile = path.join(repoRoot, 'compose.demo.env');
    const [cmd, ...args] = composeCommand();
    const demo = execFileSync(cmd, [...args, '--env-file', demoFile, '-f', file, 'config'], {
      encoding: 'utf8',
      env: composeEnv({}),
    });
    expect(demo).toMatch(/PLAT_DEMO_SECRETS: ['"]?true/);
    // What plat's services see with the try-out file: refused without its flag, accepted with it.
    const values = parseEnv(fs.readFileSync(demoFile, 'utf8'));
    const seen = {
      PLAT_SECRET_KEY: values.PLAT_SECRET_KEY,
      PLAT_METADATA_URL: `postgres://plat:${values.PLAT_DB_PASSWORD}@postgres:5432/plat`,
      PLAT_MEMORY_API_KEYS: values.PLAT_MEMORY_API_KEYS,
      PLAT_ALERTS_WEBHOOK_TOKEN: values.PLAT_ALERTS_WEBHOOK_TOKEN,
    };
    expect(() => loadConfig({ ...seen, PLAT_DEMO_SECRETS: values.PLAT_DEMO_SECRETS })).not.toThrow();
    let refused: unknown;
    try {
      loadConfig(seen);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems.map((p) => p.variable).sort()).toEqual(Object.keys(seen).sort());
  });

  it('runs every component the platform needs, with pinned images', () => {
    const [cmd, ...args] = composeCommand();
    const services = execFileSync(cmd, [...args, '-f', file, 'config', '--services'], {
      encoding: 'utf8',
      env: composeEnv(),
    }).split('\n');
    for (const name of [
      'temporal',
      'temporal-ui',
      'postgres',
      'qdrant',
      'opensearch',
      'gateway',
      'memory',
      'worker',
      'prometheus',
      'alertmanager',
      'monitoring-config',
    ]) {
      expect(services).toContain(name);
    }
    const images = [...fs.readFileSync(file, 'utf8').matchAll(/image:\s*(\S+)/g)].map((m) => m[1]);
    for (const image of images.filter((i) => !i.startsWith('plat:'))) expect(image).toMatch(/:[\w.-]+$/);
    expect(images.some((i) => i.endsWith(':latest'))).toBe(false);
  });

  it('runs the official OpenSearch image (ISM included), wired to the gateway and the worker', () => {
    // docker-compose 1.29 prints only YAML: the resolved file, anchors expanded per service.
    const config = resolvedConfig(file);
    expect(config).toMatch(/image: opensearchproject\/opensearch:2\.[\d.]+/);
    const services = config.split(/\n {2}(?=[a-z-]+:\n)/);
    for (const name of ['gateway', 'worker'])
      expect(services.find((s) => s.startsWith(`${name}:`))).toContain(
        'OPENSEARCH_URL: http://opensearch:9200',
      );
  });

  it('points every service of plat at the shared PostgreSQL, with one secret key (docs/fleet.md)', () => {
    const config = resolvedConfig(file);
    const services = config.split(/\n {2}(?=[a-z-]+:\n)/);
    for (const name of ['gateway', 'worker', 'memory']) {
      const service = services.find((s) => s.startsWith(`${name}:`));
      expect(service).toMatch(/PLAT_METADATA_URL: postgres:\/\/plat:[^@]+@postgres:5432\/plat/);
      expect(service).toMatch(/PLAT_SECRET_KEY: \S+/);
    }
    expect(config).not.toMatch(/MYSQL_URL/);
  });

  it('scales the worker: no fixed name or host port, a drain grace, every replica scraped (docs/fleet.md)', () => {
    const services = resolvedConfig(file).split(/\n {2}(?=[a-z-]+:\n)/);
    const worker = services.find((s) => s.startsWith('worker:'))!;
    expect(worker).not.toMatch(/container_name|\n {4}ports:/);
    expect(worker).toMatch(/PLAT_WORKER_SHUTDOWN_GRACE_SECONDS: ['"]30['"]/);
    // Longer than the grace time, so a drained worker is not killed first.
    expect(worker).toMatch(/stop_grace_period: 45s/);
    expect(services.find((s) => s.startsWith('monitoring-config:'))).toContain('worker=dns+worker:9464');
  });

  it('writes a Prometheus configuration that discovers every worker replica by DNS', () => {
    const scrape = JSON.parse(
      prometheusConfig({
        targets: { worker: 'dns+worker:9464', gateway: 'gateway:8080' },
        alertmanager: 'alertmanager:9093',
        rulesFile: '/rules.yml',
        periods: REQUIRED_PERIODS,
      }),
    ).scrape_configs;
    expect(scrape).toEqual([
      {
        job_name: 'worker',
        dns_sd_configs: [{ names: ['worker'], type: 'A', port: 9464, refresh_interval: '30s' }],
      },
      { job_name: 'gateway', static_configs: [{ targets: ['gateway:8080'] }] },
    ]);
  });
});

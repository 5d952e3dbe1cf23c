/** docker-compose.yml stays valid for users with Docker (validation needs no engine). */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { REQUIRED_PERIODS } from '../../domain/monitoring/alert-rules';
import { prometheusConfig } from '../../scripts/lib/monitoring-config';

let command: string[] | undefined;

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
  return (resolved ??= execFileSync(cmd, [...args, '-f', file, 'config'], { encoding: 'utf8' }));
}

describe('docker-compose.yml', () => {
  const file = path.join(repoRoot, 'docker-compose.yml');

  it('passes `docker compose config -q`', () => {
    const [cmd, ...args] = composeCommand();
    expect(() => execFileSync(cmd, [...args, '-f', file, 'config', '-q'], { stdio: 'pipe' })).not.toThrow();
  });

  it('runs every component the platform needs, with pinned images', () => {
    const [cmd, ...args] = composeCommand();
    const services = execFileSync(cmd, [...args, '-f', file, 'config', '--services'], {
      encoding: 'utf8',
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

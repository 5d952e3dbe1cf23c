/**
 * Writes Prometheus's and Alertmanager's configuration for a deployment that runs them itself
 * (docker-compose's `monitoring-config` service; docs/monitoring.md#running-them):
 *
 *   node --import tsx scripts/write-monitoring-config.ts <dir> \
 *     --targets worker=dns+worker:9464,gateway=gateway:8080,memory=memory:8230 \
 *     --alertmanager alertmanager:9093 --webhook http://gateway:8080/v1/alerts [--seen-at /etc/plat-monitoring]
 *
 * The webhook token (PLAT_ALERTS_WEBHOOK_TOKEN), ALERT_EMAIL, the SMTP or SNS settings and
 * PLAT_ALARM_HOUR come from the environment, as for the gateway.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfigOrExit } from '../shared/load-config-or-exit';
import { alertsReceiver } from './lib/alerts-receiver';
import { writeMonitoringConfig } from './lib/monitoring-stack';

async function main(): Promise<void> {
  const [dir, ...rest] = process.argv.slice(2);
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) flags.set(rest[i], rest[i + 1] ?? '');
  const need = (flag: string) => {
    const value = flags.get(flag);
    if (!value) throw new Error(`missing ${flag} (see the usage at the top of this script)`);
    return value;
  };
  if (!dir)
    throw new Error('usage: write-monitoring-config.ts <dir> --targets ... --alertmanager ... --webhook ...');
  const config = loadConfigOrExit();
  if (!config.PLAT_ALERTS_WEBHOOK_TOKEN)
    throw new Error('set PLAT_ALERTS_WEBHOOK_TOKEN: the gateway checks it');
  const seenAt = flags.get('--seen-at') ?? dir;
  fs.mkdirSync(dir, { recursive: true });
  // Readable by the engines' own users (Alertmanager runs as nobody); the volume is theirs alone.
  const secret = (name: string, value: string) => {
    fs.writeFileSync(path.join(dir, name), value, { mode: 0o644 });
    return path.join(seenAt, name);
  };
  const targets = Object.fromEntries(
    need('--targets')
      .split(',')
      .map((t) => t.split('=') as [string, string]),
  );
  const plan = await alertsReceiver(config, { webhookUrl: need('--webhook'), secretFile: secret });
  const files = writeMonitoringConfig({
    dir,
    seenAt,
    targets,
    alertmanager: need('--alertmanager'),
    alarmHour: config.PLAT_ALARM_HOUR,
    receiver: plan.receiver,
  });
  for (const file of Object.values(files)) fs.chmodSync(file, 0o644);
  console.log(`wrote ${Object.values(files).join(', ')}; plat-alerts delivers to ${plan.summary}`);
}

main().catch((err) => {
  console.error(`write-monitoring-config: ${(err as Error).message}`);
  process.exit(2);
});

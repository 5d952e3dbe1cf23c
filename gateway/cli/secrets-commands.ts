/**
 * `plat secrets rotate`: seals every stored secret again under PLAT_SECRET_KEY
 * (docs/fleet.md#rotating-the-secret-key). An administrator's command, run on a host that has plat's
 * settings (PLAT_DATA_DIR or PLAT_METADATA_URL, PLAT_SECRET_KEY and PLAT_SECRET_KEY_PREVIOUS): it
 * opens the parameter store itself, as the gateway and worker do, rather than asking the gateway,
 * so no API route hands a process the keys. It prints counts, never a value or a key.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../shared/config';
import { dataDir } from '../../shared/paths';
import { answering, groupWithoutSubcommand } from './command-kit';

export const SECRETS_USAGE = `  secrets rotate                          seal every stored secret again under PLAT_SECRET_KEY (run on a
                                          host with plat's settings, the old key as PLAT_SECRET_KEY_PREVIOUS)`;

/** Registers `plat secrets rotate`. */
export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets');
  secrets.command('rotate').action(answering(() => rotateStoredSecrets()));
  groupWithoutSubcommand(secrets, 'secrets', SECRETS_USAGE);
}

/** Seals every stored secret again under the configured key; counts only, never a value. */
export async function rotateStoredSecrets(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ data: unknown; text: string }> {
  // Loaded here, not with the CLI: the metadata store's drivers would slow every other command.
  const [{ metadataLocation, openMetadataDb }, { openParameterStore }, { rotateSecrets }, sealed] =
    await Promise.all([
      import('../../domain/metadata-store/metadata-db'),
      import('../../domain/secrets/open-parameter-store'),
      import('../../domain/secrets/rotate-secrets'),
      import('../../domain/secrets/sealed-value'),
    ]);
  const config = loadConfig(env);
  const dir = dataDir(config);
  const location = metadataLocation(dir, config.PLAT_METADATA_URL);
  const metadata = await openMetadataDb(location);
  try {
    const store = await openParameterStore(
      metadata,
      dir,
      config.PLAT_SECRET_KEY,
      config.PLAT_SECRET_KEY_PREVIOUS,
    );
    const report = await rotateSecrets(store);
    const current = config.PLAT_SECRET_KEY
      ? sealed.keyId(sealed.decodeSecretKey(config.PLAT_SECRET_KEY))
      : undefined;
    const lines = [
      `secrets in ${metadata.location}${current ? ` now under key ${current}` : ''}:`,
      `  ${report.total} stored, ${report.resealed} sealed again, ${report.already_current} under the current key already, ${report.gone} deleted meanwhile`,
    ];
    if (config.PLAT_SECRET_KEY_PREVIOUS)
      lines.push(
        'Once every gateway and worker runs with this PLAT_SECRET_KEY, remove PLAT_SECRET_KEY_PREVIOUS from their settings.',
      );
    return { data: { ...report, ...(current ? { key_id: current } : {}) }, text: lines.join('\n') };
  } finally {
    await metadata.close();
  }
}

/**
 * The source policy: which MySQL sources plat may connect to, decided on the addresses a source's
 * host resolves to, every one of them, before anything is sent (docs/security.md#sources). The
 * gateway checks it before its probe of a new project's source and the worker before every
 * connection, and both connect to the address they checked, never to the name again: a name that
 * resolves elsewhere a moment later (DNS rebinding) gains nothing.
 */
import * as dns from 'node:dns/promises';
import * as os from 'node:os';
import type { PlatConfig } from '../../shared/config';
import type { MysqlTarget } from '../../shared/mysql-source';
import {
  nat64Target,
  normalizeHostName,
  parseIp,
  parseSourceRules,
  ruleMatchesAddress,
  ruleMatchesHost,
  type IpAddress,
  type SourceRule,
} from '../../shared/source-rules';
import { platServices, type PlatService, type PlatServiceSettings } from './plat-services';
import { SourceNotAllowedError } from './source-errors';

/** The addresses a host name (or IP literal) resolves to, in the order a connection would try them. */
export type Resolver = (host: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as the MySQL driver would use it. */
export const systemResolver: Resolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Denied whatever the settings say: link-local (where clouds serve instance credentials), the
 * cloud metadata services, and the addresses that are no single host (unspecified, broadcast,
 * multicast; 0.0.0.0 even reaches this machine).
 */
export const ALWAYS_DENIED: readonly SourceRule[] = parseSourceRules(
  [
    '169.254.0.0/16',
    'fe80::/10',
    '169.254.169.254',
    'fd00:ec2::254',
    '100.100.100.200',
    'metadata.google.internal',
    '0.0.0.0/8',
    '::',
    '255.255.255.255',
    '224.0.0.0/4',
    'ff00::/8',
  ].join(','),
);

const LOOPBACK = parseSourceRules('127.0.0.0/8,::1');
const UNSPECIFIED = parseSourceRules('0.0.0.0,::');

export interface SourcePolicyOptions {
  /** PLAT_SOURCE_ALLOW: when set, only these (still minus the denials). */
  allow?: string;
  /** PLAT_SOURCE_DENY: denied besides {@link ALWAYS_DENIED}. */
  deny?: string;
  /** plat's own services: their address and port are denied. */
  services?: readonly PlatService[];
  resolve?: Resolver;
}

/** The settings {@link SourcePolicy.fromConfig} reads. */
export type SourcePolicySettings = PlatServiceSettings &
  Pick<PlatConfig, 'PLAT_SOURCE_ALLOW' | 'PLAT_SOURCE_DENY'>;

/** A service's port and the addresses it answers at. */
interface ResolvedService {
  service: PlatService;
  addresses: IpAddress[];
}

export class SourcePolicy {
  private readonly allow?: SourceRule[];
  private readonly deny: SourceRule[];
  private readonly services: readonly PlatService[];
  private readonly resolve: Resolver;

  constructor(opts: SourcePolicyOptions = {}) {
    this.allow = opts.allow?.trim() ? parseSourceRules(opts.allow) : undefined;
    this.deny = [...ALWAYS_DENIED, ...parseSourceRules(opts.deny ?? '')];
    this.services = opts.services ?? [];
    this.resolve = opts.resolve ?? systemResolver;
  }

  /** The policy of this process's configuration, plat's services included. */
  static fromConfig(config: SourcePolicySettings, resolve?: Resolver): SourcePolicy {
    return new SourcePolicy({
      allow: config.PLAT_SOURCE_ALLOW,
      deny: config.PLAT_SOURCE_DENY,
      services: platServices(config),
      resolve,
    });
  }

  /**
   * Resolves the target's host (as parsed from the JDBC URL, nothing else) and checks every address
   * it resolves to; answers the address to connect to. Throws {@link SourceNotAllowedError} when the
   * name or any address is refused, and the resolver's error (ENOTFOUND) when the name resolves to
   * nothing; resolution longer than `timeoutMs` fails with ETIMEDOUT.
   */
  async admit(target: Pick<MysqlTarget, 'host' | 'port'>, timeoutMs = 10_000): Promise<string> {
    const name = parseIp(target.host) ? undefined : normalizeHostName(target.host);
    const deniedName = name === undefined ? undefined : this.deny.find((r) => ruleMatchesHost(r, name));
    // Refused by its name, it is never even resolved.
    if (deniedName)
      throw new SourceNotAllowedError(target, `host name ${name} is denied by ${deniedName.text}`);
    const namedService = this.services.find(
      (s) => s.port === target.port && name !== undefined && normalizeHostName(s.host) === name,
    );
    if (namedService)
      throw new SourceNotAllowedError(target, `${name}:${target.port} is plat's ${namedService.name}`);
    const addresses = await within(this.resolve(target.host), timeoutMs, target.host);
    if (addresses.length === 0)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${target.host}`), { code: 'ENOTFOUND' });
    const services = await this.resolvedServices();
    const allowedName = name !== undefined && this.allow?.some((r) => ruleMatchesHost(r, name));
    for (const address of addresses) {
      const reason = this.refusal(address, target.port, services, allowedName === true);
      if (reason) throw new SourceNotAllowedError(target, reason);
    }
    return addresses[0];
  }

  /** Why `address:port` is refused, or undefined when it is allowed. */
  private refusal(
    address: string,
    port: number,
    services: ResolvedService[],
    allowedName: boolean,
  ): string | undefined {
    const ip = parseIp(address);
    if (!ip) return `${address} is not an address the policy can check`;
    const reached = [ip, nat64Target(ip)].filter((a): a is IpAddress => a !== undefined);
    const denied = this.deny.find((r) => reached.some((a) => ruleMatchesAddress(r, a)));
    if (denied) return `${address} is denied by ${denied.text}`;
    const local = this.isLocal(ip);
    for (const { service, addresses } of services) {
      if (service.port !== port) continue;
      if (addresses.some((a) => sameAddress(a, ip) || (local && this.isLocal(a))))
        return `${address}:${port} is plat's ${service.name}`;
    }
    if (this.allow && !allowedName && !this.allow.some((r) => ruleMatchesAddress(r, ip)))
      return `${address} is not in PLAT_SOURCE_ALLOW`;
    return undefined;
  }

  /** This machine: loopback, unspecified, or one of its interfaces' addresses. */
  private isLocal(ip: IpAddress): boolean {
    if ([...LOOPBACK, ...UNSPECIFIED].some((r) => ruleMatchesAddress(r, ip))) return true;
    return Object.values(os.networkInterfaces()).some((infos) =>
      (infos ?? []).some((info) => {
        const own = parseIp(info.address.replace(/%.*$/, ''));
        return own !== undefined && sameAddress(own, ip);
      }),
    );
  }

  /** Each service with the addresses its host resolves to now (none when it does not resolve). */
  private resolvedServices(): Promise<ResolvedService[]> {
    return Promise.all(
      this.services.map(async (service) => {
        const literal = parseIp(service.host);
        if (literal) return { service, addresses: [literal] };
        const found = await within(this.resolve(service.host), 5_000, service.host).catch(() => []);
        return {
          service,
          addresses: found.map((a) => parseIp(a)).filter((a): a is IpAddress => a !== undefined),
        };
      }),
    );
  }
}

function sameAddress(a: IpAddress, b: IpAddress): boolean {
  return a.family === b.family && a.value === b.value;
}

/** The resolver's answer, or ETIMEDOUT after `ms` (the lookup itself cannot be cancelled). */
async function within(lookup: Promise<string[]>, ms: number, host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`resolving ${host} took longer than ${ms / 1000} s`), {
            code: 'ETIMEDOUT',
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

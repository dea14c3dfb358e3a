// Hub entries: from BEEKEEPER_HUBS (`east=/etc/kube/east.yaml#context,west=in-cluster`) or the file's `hubs:` list.
import { readBool, readInt, readNumber, readString, type Issues, type Source } from './fields.js';
import { limits } from './schema.js';

/** A DNS label: hub names appear in URLs, job ids and queue names, so `.`, `/` and `:` are ruled out. */
export const HUB_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface HubConfig {
  name: string;
  /** Path to a kubeconfig file (never its content). */
  kubeconfig?: string;
  /** Context inside that kubeconfig; its current context when absent. */
  context?: string;
  /** Use the pod's service account instead of a kubeconfig. */
  inCluster: boolean;
  /** Inline kubeconfig YAML. Only the embedded mode sets this (from the simulator); never read from env. */
  kubeconfigData?: string;
  /** Interactive jobs (what API callers wait on) one worker process runs at once for this hub. */
  concurrency: number;
  /** Interactive jobs all replicas together run at once for this hub (BullMQ global concurrency). */
  globalConcurrency: number;
  /** Background jobs (the scheduler's: sweeps, warnings, policies, heartbeats), in slots of their own. */
  backgroundConcurrency: number;
  backgroundGlobalConcurrency: number;
  /** Client-side Kubernetes request rate limit for this hub. */
  qps: number;
  burst: number;
}

export interface HubDefaults {
  concurrency: number;
  globalConcurrency: number;
  backgroundConcurrency: number;
  backgroundGlobalConcurrency: number;
  qps: number;
  burst: number;
}

export function readHubs(src: Source | undefined, defaults: HubDefaults, issues: Issues): HubConfig[] {
  if (src === undefined) return [];
  const hubs =
    typeof src.value === 'string' ? fromEnv(src.value, src.from, defaults, issues) : fromFile(src, defaults, issues);
  const seen = new Set<string>();
  for (const hub of hubs) {
    if (seen.has(hub.name)) issues.add(src.from, `hub ${hub.name} is listed twice`);
    seen.add(hub.name);
  }
  return hubs;
}

function fromEnv(text: string, from: string, defaults: HubDefaults, issues: Issues): HubConfig[] {
  const out: HubConfig[] = [];
  for (const item of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    const name = eq > 0 ? item.slice(0, eq) : '';
    const where = eq > 0 ? item.slice(eq + 1) : '';
    if (!HUB_NAME.test(name) || where === '') {
      issues.add(
        from,
        `${JSON.stringify(item)} must be name=/path/to/kubeconfig[#context] or name=in-cluster (name a DNS label)`,
      );
      continue;
    }
    if (where === 'in-cluster') out.push({ name, inCluster: true, ...defaults });
    else {
      const hash = where.indexOf('#');
      const kubeconfig = hash >= 0 ? where.slice(0, hash) : where;
      const context = hash >= 0 ? where.slice(hash + 1) : undefined;
      out.push({ name, kubeconfig, ...(context ? { context } : {}), inCluster: false, ...defaults });
    }
  }
  return out;
}

function fromFile(src: Source, defaults: HubDefaults, issues: Issues): HubConfig[] {
  if (!Array.isArray(src.value)) {
    issues.add(src.from, 'must be a list of hubs');
    return [];
  }
  return src.value.flatMap((raw, i): HubConfig[] => {
    const at = (key: string): Source | undefined => {
      const v = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
      return v === undefined || v === null
        ? undefined
        : { value: v, from: src.from.replace(/^hubs/, `hubs[${i}].${key}`) };
    };
    if (!raw || typeof raw !== 'object') {
      issues.add(src.from.replace(/^hubs/, `hubs[${i}]`), 'must be a mapping');
      return [];
    }
    for (const key of Object.keys(raw)) {
      if (
        ![
          'name',
          'kubeconfig',
          'context',
          'inCluster',
          'concurrency',
          'globalConcurrency',
          'backgroundConcurrency',
          'backgroundGlobalConcurrency',
          'qps',
          'burst',
        ].includes(key)
      ) {
        issues.add(src.from.replace(/^hubs/, `hubs[${i}].${key}`), 'unknown key');
      }
    }
    const name = readString(
      at('name') ?? { value: undefined, from: src.from.replace(/^hubs/, `hubs[${i}].name`) },
      issues,
      {
        fallback: '',
        pattern: HUB_NAME,
        rule: 'a DNS label (lowercase letters, digits, -)',
      },
    );
    const inCluster = readBool(at('inCluster'), issues, false);
    const kubeconfig = at('kubeconfig') ? readString(at('kubeconfig'), issues, { fallback: '' }) : undefined;
    const context = at('context') ? readString(at('context'), issues, { fallback: '' }) : undefined;
    if (inCluster === Boolean(kubeconfig)) {
      issues.add(src.from.replace(/^hubs/, `hubs[${i}]`), 'set exactly one of kubeconfig (a path) or inCluster: true');
    }
    return [
      {
        name,
        ...(kubeconfig ? { kubeconfig } : {}),
        ...(context ? { context } : {}),
        inCluster,
        // The same limits as the settings they override (schema.ts), the configured values as defaults.
        concurrency: readInt(at('concurrency'), issues, limits('concurrency.perHub', defaults.concurrency)),
        globalConcurrency: readInt(
          at('globalConcurrency'),
          issues,
          limits('concurrency.global', defaults.globalConcurrency),
        ),
        backgroundConcurrency: readInt(
          at('backgroundConcurrency'),
          issues,
          limits('concurrency.background', defaults.backgroundConcurrency),
        ),
        backgroundGlobalConcurrency: readInt(
          at('backgroundGlobalConcurrency'),
          issues,
          limits('concurrency.backgroundGlobal', defaults.backgroundGlobalConcurrency),
        ),
        qps: readNumber(at('qps'), issues, limits('rateLimits.qps', defaults.qps)),
        burst: readInt(at('burst'), issues, limits('rateLimits.burst', defaults.burst)),
      },
    ];
  });
}

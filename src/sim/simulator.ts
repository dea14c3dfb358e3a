import { stringify as toYaml } from 'yaml';
import { systemClock, type Clock } from '../clock.js';
import { startApiServer, type ApiServer, type FaultSpec } from './apiserver/index.js';
import { hiveCrds } from './crds/index.js';
import { hiveAdmission } from './admission/index.js';
import { R, createKubeClient } from './client/index.js';
import { type Durations, resolveDurations } from './durations.js';
import { startHiveControllers, type HiveControllers } from './hive/index.js';
import { createMetricsRegistry } from './metrics.js';
import { seedHub, type SeedName } from './seed.js';

export interface SimulatorOptions {
  hubs?: number;
  /** Default hub-1..hub-N. */
  hubNames?: string[];
  clock?: Clock;
  /** Divides every duration: 1000 turns a ~40-minute install into ~2.4 s. Default 1. */
  speed?: number;
  /** Per-phase overrides in simulated milliseconds (before `speed`). */
  durations?: Partial<Durations>;
  seed?: SeedName;
  faults?: FaultSpec;
  /** Every hub's APF-like limit: beyond this many requests in flight, 429 with Retry-After: 1 (startApiServer). */
  maxInFlight?: number;
  /** false: API servers only, no Hive controllers (e.g. to test a client against a Hive-less server). */
  controllers?: boolean;
  /**
   * false: without Hive's validating admission webhooks, a bare kube-apiserver with the Hive CRDs (what the
   * recorded exchanges in test/fixtures/kube-golden were made against). Default true.
   */
  webhooks?: boolean;
  log?: (obj: object, msg: string) => void;
  /** HiveConfig deleteProtection: annotate CDs with protected-delete when their install completes. */
  deleteProtection?: boolean;
  /** Default for CDs without `sim.hive.openshift.io/install-failures`: fail the first n attempts, or 'always'. */
  installFailures?: number | 'always';
  host?: string;
  /** Serve HTTPS with a self-signed certificate (kubeconfig: insecure-skip-tls-verify). kubectl needs it: client-go
   * never sends a bearer token over plain HTTP. Default false. */
  tls?: boolean;
  /** First hub's port; hub i listens on port + i. Default 0 (random free ports). */
  port?: number;
  /** The host clients elsewhere reach the hubs by (e.g. a compose service name): in the kubeconfig and the certificate. */
  advertiseHost?: string;
}

export interface SimulatorHub {
  name: string;
  url: string;
  token: string;
  server: ApiServer;
}

export interface Simulator {
  hubs: SimulatorHub[];
  /** All contexts, current = first hub; servers at the advertised host, or at `host` when given. */
  kubeconfig(host?: string): Record<string, unknown>;
  kubeconfigYaml(host?: string): string;
  close(): Promise<void>;
}

/** Starts N API server doubles with the Hive CRDs and admission, each driven by its own Hive controllers. */
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const count = opts.hubNames?.length ?? opts.hubs ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new Error(`hubs must be a positive integer, got ${count}`);
  const names = opts.hubNames ?? Array.from({ length: count }, (_, i) => `hub-${i + 1}`);
  if (new Set(names).size !== names.length) throw new Error('hub names must be unique');
  const clock = opts.clock ?? systemClock;
  const durations = resolveDurations(opts.durations, opts.speed ?? 1);
  const log = opts.log ?? (() => {});

  const hubs: SimulatorHub[] = [];
  const controllers: HiveControllers[] = [];
  const close = async () => {
    await Promise.all(controllers.map((c) => c.close()));
    await Promise.all(hubs.map((h) => h.server.close()));
  };
  try {
    for (const [i, name] of names.entries()) {
      const metrics = createMetricsRegistry();
      const server = await startApiServer({
        host: opts.host ?? '127.0.0.1',
        port: opts.port ? opts.port + i : 0,
        clock,
        name,
        crds: hiveCrds(),
        admission: opts.webhooks === false ? [] : hiveAdmission,
        faults: opts.faults,
        ...(opts.maxInFlight ? { maxInFlight: opts.maxInFlight } : {}),
        metrics,
        tls: opts.tls ?? false,
        advertiseHost: opts.advertiseHost,
      });
      hubs.push({ name, url: server.url, token: server.token, server });
      const client = createKubeClient({ server: server.url, token: server.token, insecureSkipTLSVerify: true });
      // Every Hive hub has its HiveConfig `hive`; the controllers read deleteProtection from it.
      await client.create(R.hiveConfig, {
        metadata: { name: 'hive' },
        spec: opts.deleteProtection ? { deleteProtection: 'enabled' } : {},
      });
      await seedHub(client, opts.seed ?? 'none');
      if (opts.controllers !== false) {
        const c = startHiveControllers({
          hub: name,
          client,
          clock,
          durations,
          log,
          metrics,
          options: { deleteProtection: opts.deleteProtection ?? false, installFailures: opts.installFailures ?? 0 },
        });
        controllers.push(c);
        await c.synced;
      }
    }
  } catch (e) {
    await close();
    throw e;
  }

  const kubeconfig = (host?: string) => {
    const parts = hubs.map((h) => h.server.kubeconfig(h.name, host) as any);
    return {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: parts.flatMap((p) => p.clusters),
      users: parts.flatMap((p) => p.users),
      contexts: parts.flatMap((p) => p.contexts),
      'current-context': hubs[0]!.name,
    };
  };
  return { hubs, kubeconfig, kubeconfigYaml: (host?: string) => toYaml(kubeconfig(host)), close };
}

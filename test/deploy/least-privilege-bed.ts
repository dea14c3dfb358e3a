// The least-privilege run's bed: Beekeeper on two simulated hubs with only the shipped RBAC, a ci token in the
// tokens Secret, a webhook receiver, and the few calls the flows make through its API.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { JobView } from '../../src/services/ports.js';
import { EAST, WEST, prerequisites, startTwoHubBed, type TwoHubBed } from '../relocations/support.js';
import { asAdmin } from '../support/least-privilege.js';

export const TOKEN = `lp-${randomUUID()}`;
export const HOUR = 3_600_000;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * Grants this run does not exercise: Hive deleting a differing copy on the destination and copying kinds the simulated
 * clusters do not have (MachinePools, SyncSets, SyncIdentityProviders, DNSZones); reading an Operation live (only
 * when Redis lost the job) and the resync deleting one; deleting a Relocation whose create failed half way; the
 * delivery status of expiry warnings on a webhook endpoint.
 */
export const NOT_EXERCISED_HERE = new Set([
  'delete /configmaps',
  'get hive.openshift.io/machinepools',
  'create hive.openshift.io/machinepools',
  'delete hive.openshift.io/machinepools',
  'get hive.openshift.io/syncsets',
  'create hive.openshift.io/syncsets',
  'delete hive.openshift.io/syncsets',
  'get hive.openshift.io/syncidentityproviders',
  'create hive.openshift.io/syncidentityproviders',
  'delete hive.openshift.io/syncidentityproviders',
  'get hive.openshift.io/dnszones',
  'create hive.openshift.io/dnszones',
  'delete hive.openshift.io/dnszones',
  'get beekeeper.io/operations',
  'delete beekeeper.io/operations',
  'delete beekeeper.io/relocations',
  'patch beekeeper.io/webhookendpoints/status',
]);

/** Starts the bed (the tokens Secret written before Beekeeper reads it) and a webhook receiver that answers 200. */
export async function startLeastPrivilegeBed(): Promise<{ bed: TwoHubBed; receiver: Server }> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // What started is closed again if a later step fails, since the caller never gets it to close.
  let bed: TwoHubBed | undefined;
  try {
    bed = await startTwoHubBed({
      leastPrivilege: true,
      roles: ['api', 'worker', 'scheduler'],
      env: {
        BEEKEEPER_RESYNC_INTERVAL_SECONDS: '5',
        BEEKEEPER_API_TOKENS_SECRET: `${EAST}/beekeeper/api-tokens`,
        BEEKEEPER_TOKENREVIEW_HUB: EAST,
        BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
        BEEKEEPER_RATE_LIMIT_PER_MINUTE: '0',
      },
      // The tokens Secret, in the state namespace, before Beekeeper reads it at start.
      beforeStart: async (sim) => {
        const res = await asAdmin(sim.hubs[0]!, 'POST', '/api/v1/namespaces/beekeeper/secrets', {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'api-tokens' },
          data: { 'tokens.yaml': b64(`- {name: ci, token: ${TOKEN}}\n`) },
        });
        expect(res.status).toBe(201);
      },
    });
    await prerequisites(bed, EAST, 'lp-apps');
    await prerequisites(bed, WEST, 'lp-pools');
    return { bed, receiver };
  } catch (err) {
    await bed?.close();
    await new Promise((r) => receiver.close(r));
    throw err;
  }
}

/** The API calls and waits of the flows, on the bed `current` returns once it is started. */
export function flows(current: () => TwoHubBed) {
  const api = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    token = TOKEN,
  ) =>
    current().app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function job(method: 'POST' | 'DELETE' | 'PUT', url: string, payload?: unknown): Promise<JobView> {
    const res = await api(method, `${url}${url.includes('?') ? '&' : '?'}wait=60`, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ job: JobView }>().job;
  }

  const cd = (hub: string, namespace: string, name: string) =>
    current().system.store.cached<ClusterDeployment>('ClusterDeployment', { hub, namespace, name });

  function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
    const deadline = Date.now() + ms;
    return (async () => {
      for (;;) {
        const v = await probe();
        if (v !== undefined && v !== false) return v;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
  }

  const power = (hub: string, namespace: string, name: string, state: string) =>
    until(
      `${hub}/${namespace}/${name} ${state}`,
      () => cd(hub, namespace, name)?.status?.powerState === state || undefined,
    );
  return { api, job, cd, until, power };
}

// The relocation API on two simulated hubs (api-scene.ts): the Relocation and its job on acceptance, reading,
// streaming a real move to its end, and aborting one. Refusals and preflight: relocation-preflight.test.ts; the
// moves themselves, wave by wave, are the relocation job's (relocation-run.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/services/ports.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { EAST, WEST, type TwoHubBed } from './support.js';
import { checksOf, sceneKit, startScene } from './api-scene.js';

let bed: TwoHubBed;
const { post, relocations } = sceneKit(() => bed);

beforeAll(async () => {
  bed = await startScene();
}, 120_000);

afterAll(() => bed?.close());

describe('an accepted relocation', () => {
  let id: string;
  const firstBody = {
    from: EAST,
    to: WEST,
    clusters: [
      { namespace: 'shared', name: 'one' },
      { namespace: 'clash', name: 'twin' },
      { namespace: 'shared', name: 'two' },
      { namespace: 'alpha', name: 'mover' },
    ],
    waves: { size: 2, pauseSeconds: 60 },
    skipFailed: true,
  };

  it('answers 202 with the Relocation (status seeded in waves) and its relocation.run job', async () => {
    const res = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(res.statusCode, res.body).toBe(202);
    const { relocation, job } = res.json();
    id = relocation.id;
    expect(res.headers.location).toBe(`/v1/relocations/${id}`);
    expect(job.type).toBe('relocation.run');
    expect(relocation).toMatchObject({
      from: EAST,
      to: WEST,
      phase: 'Pending',
      skipFailed: true,
      job: job.id,
      waves: { size: 2, pauseSeconds: 60, total: 2, done: 0 },
      progress: { total: 4, pending: 3, 'preflight-failed': 1 },
      links: { job: `/v1/jobs/${encodeURIComponent(job.id)}` },
    });
    expect(
      relocation.clusters.map((c: { name: string; wave: number; state: string; hub: string }) => [
        c.name,
        c.wave,
        c.state,
        c.hub,
      ]),
    ).toEqual([
      ['one', 1, 'pending', EAST],
      ['twin', 1, 'preflight-failed', EAST],
      ['two', 1, 'pending', EAST],
      ['mover', 2, 'pending', EAST],
    ]);
    expect(relocation.clusters[1].reason).toBe('name-conflict');

    // Durable in Kubernetes: the Relocation and the Operation behind the job.
    const stored = await bed.system.store.get<KubeObject>('Relocation', {
      hub: EAST,
      namespace: bed.config.stateNamespace,
      name: id,
    });
    expect(stored?.spec).toMatchObject({ from: EAST, to: WEST, skipFailed: true, waves: { size: 2 } });
    expect(['Pending', 'Running']).toContain((stored?.status as { phase: string }).phase);
    expect(
      await bed.system.store.get('Operation', { hub: EAST, namespace: bed.config.stateNamespace, name: job.id }),
    ).toBeDefined();

    // An Event on the Relocation says what was accepted (recorded off the request's path: look until it is there).
    let accepted: KubeObject | undefined;
    for (let i = 0; i < 50 && !accepted; i++) {
      const events = await bed.system.store.list<KubeObject>('Event', EAST, { namespace: bed.config.stateNamespace });
      accepted = events.find(
        (e) => e.reason === 'RelocationAccepted' && (e.involvedObject as { name: string }).name === id,
      );
      if (!accepted) await new Promise((r) => setTimeout(r, 100));
    }
    expect(accepted?.message).toBe('3 of 4 clusters to move from east to west in 2 wave(s), requested by anonymous');

    // The same Idempotency-Key and body: the same relocation, not a second one.
    const again = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().relocation.id).toBe(id);

    // Redis loses its record of the key: the Relocation in Kubernetes still answers, with the same relocation.
    const redis = createRedis(bed.config.redis, 'producer');
    await waitReady(redis);
    const keys = await redis.keys(`${bed.config.redis.prefix}:idem:*`);
    if (keys.length) await redis.del(...keys);
    await closeRedis(redis);
    const durable = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(durable.statusCode, durable.body).toBe(202);
    expect(durable.headers['idempotent-replayed']).toBe('true');
    expect(durable.json()).toMatchObject({ relocation: { id }, job: { id: job.id } });
    expect(relocations()).toHaveLength(1);
  });

  it('holds its clusters: another relocation of them fails preflight', async () => {
    const res = await post({ from: EAST, to: WEST, dryRun: true, clusters: [{ namespace: 'alpha', name: 'mover' }] });
    expect(res.statusCode).toBe(200);
    expect(checksOf(res.json().report, 'alpha', 'mover').checks).toContainEqual(
      expect.objectContaining({ check: 'other-relocation', message: expect.stringContaining(id) }),
    );
  });

  it('is listed newest first, filtered by phase, and read by id; an unknown id is 404', async () => {
    const list = await bed.app.inject({ method: 'GET', url: '/v1/relocations' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0].id).toBe(id);
    const one = await bed.app.inject({ method: 'GET', url: `/v1/relocations/${id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id, terminal: false, progress: { total: 4 } });
    const phase = one.json().phase as string;
    expect(['Pending', 'Running']).toContain(phase);
    const same = await bed.app.inject({ method: 'GET', url: `/v1/relocations?phase=${phase}` });
    expect(same.json().items.map((r: { id: string }) => r.id)).toContain(id);
    const done = await bed.app.inject({ method: 'GET', url: '/v1/relocations?phase=Succeeded' });
    expect(done.json().items).toEqual([]);
    const missing = await bed.app.inject({ method: 'GET', url: '/v1/relocations/reloc-nothere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect((await bed.app.inject({ method: 'GET', url: '/v1/relocations/reloc-nothere/events' })).statusCode).toBe(404);
    expect((await bed.app.inject({ method: 'POST', url: '/v1/relocations/reloc-nothere/abort' })).statusCode).toBe(404);
  });

  it('abort stops it, waits for Aborted and answers where each cluster is: on exactly one hub', async () => {
    // Wave 1 is moving or done and wave 2 waits out its pause: the abort lands in one or the other.
    const res = await bed.app.inject({
      method: 'POST',
      url: `/v1/relocations/${id}/abort?wait=60`,
      payload: { by: 'ops' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({ id, phase: 'Aborted', terminal: true, abort: { by: 'ops' } });
    for (const c of view.clusters as Array<{ namespace: string; name: string; state: string; hub: string }>) {
      expect(['aborted', 'moved', 'preflight-failed']).toContain(c.state);
      const on = [EAST, WEST].filter((hub) =>
        bed.system.store.cached('ClusterDeployment', { hub, namespace: c.namespace, name: c.name }),
      );
      // clash/twin exists on both hubs from the start (that is why it failed preflight).
      if (c.name !== 'twin') expect(on, `${c.namespace}/${c.name}`).toEqual([c.hub]);
    }
    expect(view.clusters.find((c: { name: string }) => c.name === 'mover')).toMatchObject({
      state: 'aborted',
      hub: EAST,
    });

    const finished = await bed.app.inject({ method: 'POST', url: `/v1/relocations/${id}/abort` });
    expect(finished.statusCode).toBe(409);
    expect(finished.json().detail).toContain('already ended (Aborted)');
  });

  it('streams the relocation as Server-Sent Events while it moves the cluster, until it ends', async () => {
    const res = await post({ from: EAST, to: WEST, clusters: [{ namespace: 'solo', name: 'one' }] });
    expect(res.statusCode, res.body).toBe(202);
    const next = res.json().relocation.id as string;
    const body = (await bed.app.inject({ method: 'GET', url: `/v1/relocations/${next}/events` })).body;
    const views = [...body.matchAll(/event: relocation\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
    expect(views.length).toBeGreaterThan(0);
    const last = views.at(-1);
    expect(last, body).toMatchObject({ id: next, phase: 'Succeeded', terminal: true, progress: { moved: 1 } });
    expect(last.clusters[0]).toMatchObject({ namespace: 'solo', name: 'one', state: 'moved', hub: WEST });
    expect(bed.system.store.cached('ClusterDeployment', { hub: WEST, namespace: 'solo', name: 'one' })).toBeDefined();
  }, 60_000);

  it('two requests at once for the same cluster never both create a relocation', async () => {
    // alpha/mover is free again (its relocation was aborted): both requests pass preflight from the same cache.
    const body = { from: EAST, to: WEST, clusters: [{ namespace: 'alpha', name: 'mover' }] };
    const answers = await Promise.all([post(body), post(body), post(body)]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 202).length, codes.join(' ')).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.statusCode !== 202)) {
      expect([409, 422]).toContain(a.statusCode);
      expect(a.body).toMatch(/relocation reloc-\w+ (also holds alpha\/mover|is already moving this cluster)/);
    }
    const holding = (
      await bed.system.store.list<KubeObject>('Relocation', EAST, { namespace: bed.config.stateNamespace })
    )
      .filter((r) => !['Succeeded', 'Failed', 'Aborted'].includes((r.status as { phase?: string }).phase ?? ''))
      .filter((r) => JSON.stringify(r.status).includes('"mover"'));
    expect(holding.length).toBeLessThanOrEqual(1);
  });
});

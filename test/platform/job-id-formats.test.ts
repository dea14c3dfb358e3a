// Job ids are durable: Operations are named after them, Redis keeps them across versions, and replicas and the
// resync must derive the same one for the same work. These are the exact formats; a change here is a migration.
import { describe, expect, it } from 'vitest';
import { jobIds } from '../../src/services/job-ids.js';

const c1 = { hub: 'hub-1', namespace: 'team-a', name: 'c1.x' };
const at = 1_767_225_600_000;

describe('job id formats', () => {
  it('deterministic parts join their fields with dots, every other character of a field becoming _', () => {
    expect(jobIds.sweep('nightly.eu', at)).toBe('sweep.nightly_eu.1767225600000');
    expect(jobIds.sweepChild(c1)).toBe('hub-1.team-a.c1_x');
    expect(jobIds.lapse(c1, at)).toBe('lapse.hub-1.team-a.c1_x.1767225600000');
    expect(jobIds.enforce(c1)).toBe('enforce.hub-1.team-a.c1_x');
    expect(jobIds.expiryPolicy({ ...c1, name: 'c1' })).toBe('expiry-policy.hub-1.team-a.c1');
    expect(jobIds.heartbeatExpired({ ...c1, name: 'claim-1' }, at)).toBe(
      'claim-heartbeat.hub-1.team-a.claim-1.1767225600000',
    );
    expect(jobIds.warn({ kind: 'ClusterDeployment', ...c1, name: 'c1', expiresAtMs: at }, '24h')).toBe(
      'warn.cd.hub-1.team-a.c1.24h.1767225600000',
    );
    expect(jobIds.warn({ kind: 'ClusterClaim', ...c1, name: 'c1', expiresAtMs: at }, '1h')).toBe(
      'warn.claim.hub-1.team-a.c1.1h.1767225600000',
    );
  });

  it('a long deterministic part keeps a readable head of 129 characters and a hash of the whole', () => {
    const name = `c${'.x'.repeat(125)}1`;
    expect(jobIds.warn({ kind: 'ClusterClaim', ...c1, name, expiresAtMs: at }, '24h')).toBe(
      `warn.claim.hub-1.team-a.c${'_x'.repeat(52)}.cbec804fb677048c41d4`,
    );
  });

  it('a job id is its hub, a dot and its part; a child adds its key to its parent id', () => {
    expect(jobIds.fresh('hub-1', 'abc')).toBe('hub-1.abc');
    expect(jobIds.fresh('hub-1')).toMatch(/^hub-1\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(jobIds.child('hub-1', 'hub-1.sweep.nightly_eu.1767225600000', 'hub-1.team-a.c1_x')).toBe(
      'hub-1.hub-1.sweep.nightly_eu.1767225600000.hub-1.team-a.c1_x',
    );
    expect(jobIds.child('hub-1', `hub-1.${'p'.repeat(150)}`, 'k'.repeat(100))).toBe(
      `hub-1.hub-1.${'p'.repeat(150)}.${'k'.repeat(18)}.98325f44f45720555f3b465f`,
    );
    expect([jobIds.hubOf('hub-1.abc'), jobIds.hubOf('abc'), jobIds.hubOf('.abc')]).toEqual([
      'hub-1',
      undefined,
      undefined,
    ]);
    expect(jobIds.split('hub-1.a.b')).toEqual({ hub: 'hub-1', part: 'a.b' });
  });

  it('a fixed part BullMQ would refuse is Invalid, naming the field', () => {
    expect(() => jobIds.check('dedupId', 'a:b')).toThrow(/reserved by BullMQ/);
    expect(() => jobIds.child('hub-1', 'hub-1.p', 'a b')).toThrow(/letters, digits/);
  });
});

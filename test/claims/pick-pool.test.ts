import { describe, expect, it } from 'vitest';
import { isPoolChoice, pickPool, type PoolCandidate } from '../../src/hive/pools/pick-pool.js';
import { releaseInfo } from '../../src/hive/pools/pool-attributes.js';
import { imageSet, pool } from './builders.js';

const v414 = imageSet('openshift-v4.14.3', 'quay.io/openshift-release-dev/ocp-release:4.14.3-x86_64');
const v415arm = imageSet('openshift-v4.15.1', 'quay.io/openshift-release-dev/ocp-release:4.15.1-aarch64');

describe('picking a pool by attributes', () => {
  it('prefers more ready clusters, then larger size, then larger maxSize, and says why', () => {
    const candidates: PoolCandidate[] = [
      { hub: 'hub-1', pool: pool('few-ready', { ready: 1, size: 5 }), imageSet: v414 },
      { hub: 'hub-2', pool: pool('many-ready', { ready: 3, size: 3 }), imageSet: v414 },
    ];
    const choice = pickPool(candidates, { platform: 'aws' });
    expect(isPoolChoice(choice) && choice.hub).toBe('hub-2');
    expect(choice.reason).toContain('most ready clusters (3 free against 1 in hub-1/pools/few-ready)');

    const equalReady = pickPool(
      [
        { hub: 'hub-1', pool: pool('small', { ready: 1, size: 2 }), imageSet: v414 },
        { hub: 'hub-2', pool: pool('big', { ready: 1, size: 4 }), imageSet: v414 },
      ],
      {},
    );
    expect(isPoolChoice(equalReady) && equalReady.pool.metadata.name).toBe('big');
    expect(equalReady.reason).toContain('larger size (4 against 2');

    const headroom = pickPool(
      [
        { hub: 'hub-1', pool: pool('capped', { ready: 1, size: 2, maxSize: 4 }), imageSet: v414 },
        { hub: 'hub-1', pool: pool('uncapped', { ready: 1, size: 2 }), imageSet: v414 },
      ],
      {},
    );
    expect(isPoolChoice(headroom) && headroom.pool.metadata.name).toBe('uncapped');
    expect(headroom.reason).toContain('more headroom (no maxSize against maxSize 4');
  });

  it('counts ready clusters already promised to queued claims as taken', () => {
    const choice = pickPool(
      [
        { hub: 'hub-1', pool: pool('busy', { ready: 2 }), imageSet: v414, queuedClaims: 2 },
        { hub: 'hub-2', pool: pool('quiet', { ready: 1 }), imageSet: v414 },
      ],
      {},
    );
    expect(isPoolChoice(choice) && choice.pool.metadata.name).toBe('quiet');
  });

  it('matches platform, region, version prefix, architecture aliases, team and labels, naming each mismatch', () => {
    const candidates: PoolCandidate[] = [
      {
        hub: 'hub-1',
        pool: pool('x86', { ready: 5, labels: { 'beekeeper.io/team': 'payments', tier: 'ci' } }),
        imageSet: v414,
      },
      {
        hub: 'hub-2',
        pool: pool('arm', { ready: 0, region: 'eu-west-1', labels: { 'beekeeper.io/team': 'payments', tier: 'ci' } }),
        imageSet: v415arm,
      },
    ];
    const choice = pickPool(candidates, {
      version: '4.15',
      architecture: 'arm64',
      team: 'payments',
      labels: { tier: 'ci' },
    });
    expect(isPoolChoice(choice) && choice.pool.metadata.name).toBe('arm');
    expect(choice.considered.find((c) => c.id === 'hub-1/pools/x86')?.verdict).toBe(
      'not used: OpenShift version is 4.14.3, not 4.15; architecture is x86_64, not aarch64',
    );

    const none = pickPool(candidates, { region: 'ap-south-1', labels: { tier: 'prod' } });
    expect(isPoolChoice(none)).toBe(false);
    expect(none.reason).toBe('no pool matches region=ap-south-1, tier=prod');
    expect(none.considered[0]?.verdict).toContain('label tier is ci, not prod');
  });

  it('never picks a pool that is being deleted or missing dependencies', () => {
    const choice = pickPool(
      [
        { hub: 'hub-1', pool: pool('going', { ready: 9, deleting: true }), imageSet: v414 },
        {
          hub: 'hub-1',
          pool: pool('broken', {
            ready: 9,
            conditions: [{ type: 'MissingDependencies', status: 'True', message: 'pull secret missing' }],
          }),
          imageSet: v414,
        },
      ],
      {},
    );
    expect(isPoolChoice(choice)).toBe(false);
    expect(choice.considered.map((c) => c.verdict)).toEqual([
      'not used: being deleted, it fills no new claims',
      'not used: missing dependencies (pull secret missing)',
    ]);
  });

  it('reads version and architecture from the release image, falling back to the image set name', () => {
    expect(releaseInfo(v414)).toEqual({ version: '4.14.3', architecture: 'x86_64' });
    expect(
      releaseInfo(imageSet('img4.16.2-multi-appsub', 'quay.io/openshift-release-dev/ocp-release@sha256:abc')),
    ).toEqual({ version: '4.16.2', architecture: 'multi' });
  });
});

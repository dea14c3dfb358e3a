// Small builders for Hive objects as the informer cache holds them.
import type { PowerState, SpecPowerState } from '../../src/hive/constants.js';
import type {
  ClusterClaim,
  ClusterDeployment,
  ClusterImageSet,
  ClusterPool,
  Condition,
} from '../../src/hive/pools/types.js';

export const T0 = Date.parse('2026-11-21T10:00:00Z');
export const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

export function pool(
  name: string,
  over: Partial<ClusterPool['spec']> & {
    labels?: Record<string, string>;
    ready?: number;
    conditions?: Condition[];
    deleting?: boolean;
    region?: string;
    platform?: string;
  } = {},
): ClusterPool {
  const { labels, ready, conditions, deleting, region = 'us-east-1', platform = 'aws', ...spec } = over;
  return {
    metadata: {
      name,
      namespace: 'pools',
      labels,
      creationTimestamp: at(0),
      deletionTimestamp: deleting ? at(1) : undefined,
    },
    spec: {
      platform: { [platform]: { region, credentialsSecretRef: { name: 'creds' } } },
      size: 2,
      baseDomain: 'example.com',
      imageSetRef: { name: 'openshift-v4.14.3' },
      ...spec,
    },
    status: { size: spec.size ?? 2, ready: ready ?? 0, standby: 0, conditions },
  };
}

export function imageSet(name: string, releaseImage: string): ClusterImageSet {
  return { metadata: { name }, spec: { releaseImage } };
}

export function claim(
  name: string,
  createdMin: number,
  over: {
    pool?: string;
    namespace?: string;
    conditions?: Condition[];
    lifetime?: string;
    statusLifetime?: string;
    deleting?: boolean;
  } = {},
): ClusterClaim {
  return {
    metadata: {
      name,
      namespace: 'pools',
      creationTimestamp: at(createdMin),
      deletionTimestamp: over.deleting ? at(createdMin + 1) : undefined,
    },
    spec: { clusterPoolName: over.pool ?? 'small', namespace: over.namespace, lifetime: over.lifetime },
    status: { conditions: over.conditions ?? [], lifetime: over.statusLifetime },
  };
}

/** Where an install is, as the CD shows it (install-step.ts): images resolved, provision started, infraID known. */
export type InstallStage = 'images' | 'initializing' | 'provisioning';

export function cd(
  name: string,
  createdMin: number,
  over: {
    installed?: boolean;
    spec?: SpecPowerState;
    status?: PowerState;
    claim?: string;
    deleting?: boolean;
    conditions?: Condition[];
    installedMin?: number;
    stage?: InstallStage;
  } = {},
): ClusterDeployment {
  const stage = over.stage ?? (over.installed === false ? 'provisioning' : undefined);
  return {
    metadata: {
      name,
      namespace: name,
      creationTimestamp: at(createdMin),
      deletionTimestamp: over.deleting ? at(createdMin + 1) : undefined,
    },
    spec: {
      clusterName: name,
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1' } },
      installed: over.installed ?? true,
      powerState: over.spec,
      clusterPoolRef: { namespace: 'pools', poolName: 'small', claimName: over.claim },
      ...(stage === 'provisioning'
        ? {
            clusterMetadata: {
              clusterID: 'id',
              infraID: `${name}-x1y2z`,
              adminKubeconfigSecretRef: { name: `${name}-kubeconfig` },
            },
          }
        : {}),
    },
    status: {
      powerState: over.status,
      conditions: over.conditions,
      ...(over.installedMin !== undefined ? { installedTimestamp: at(over.installedMin) } : {}),
      ...(stage && stage !== 'images'
        ? { installerImage: 'quay.io/installer', provisionRef: { name: `${name}-0-abcde` } }
        : {}),
    },
  };
}

/** A running cluster whose last start went from `startedMin` to `readyMin` (Hibernating -> False/ResumingOrRunning, Ready -> True). */
export function started(c: ClusterDeployment, startedMin: number, readyMin: number): ClusterDeployment {
  c.status = {
    ...c.status,
    powerState: 'Running',
    conditions: [
      { type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning', lastTransitionTime: at(startedMin) },
      { type: 'Ready', status: 'True', reason: 'Running', lastTransitionTime: at(readyMin) },
    ],
  };
  return c;
}

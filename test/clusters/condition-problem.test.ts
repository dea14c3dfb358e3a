// Which ClusterDeployment conditions are problems (REFERENCE.md §2.3, §2.5): Hive's polarity, except for the types
// that describe a state (Hibernating, Ready, Provisioned, Unreachable), where only a failure is one.
import { describe, expect, it } from 'vitest';
import { isProblem } from '../../src/hive/condition-problem.js';
import type { ClusterDeployment, Condition } from '../../src/hive/types.js';

const cd = (powerState?: string, installed = true): ClusterDeployment =>
  ({
    metadata: { name: 'c', namespace: 'c' },
    spec: { clusterName: 'c', baseDomain: 'example.com', platform: {}, installed },
    status: { powerState },
  }) as ClusterDeployment;
const c = (type: string, status: Condition['status'], reason: string): Condition => ({ type, status, reason });

describe('condition problems', () => {
  it('power conditions are the power state: only a failed stop or start is a problem', () => {
    expect(isProblem(cd('Running'), c('Hibernating', 'False', 'ResumingOrRunning'))).toBe(false);
    expect(isProblem(cd('Hibernating'), c('Ready', 'False', 'StoppingOrHibernating'))).toBe(false);
    expect(isProblem(cd('WaitingForNodes'), c('Ready', 'False', 'WaitingForNodes'))).toBe(false);
    expect(isProblem(cd('Running'), c('Hibernating', 'False', 'Unsupported'))).toBe(false);
    expect(isProblem(cd('FailedToStop'), c('Hibernating', 'False', 'FailedToStop'))).toBe(true);
    expect(isProblem(cd('FailedToStartMachines'), c('Ready', 'False', 'FailedToStartMachines'))).toBe(true);
  });

  it('Provisioned=False is the install or the deprovision going on, unless Hive stopped or failed', () => {
    expect(isProblem(cd(undefined, false), c('Provisioned', 'False', 'Provisioning'))).toBe(false);
    expect(isProblem(cd(), c('Provisioned', 'False', 'Deprovisioning'))).toBe(false);
    expect(isProblem(cd(undefined, false), c('Provisioned', 'False', 'ProvisionStopped'))).toBe(true);
    expect(isProblem(cd(), c('Provisioned', 'False', 'DeprovisionFailed'))).toBe(true);
  });

  it('Unreachable=True is expected unless Hive reports the cluster running', () => {
    expect(isProblem(cd('Hibernating'), c('Unreachable', 'True', 'ErrorConnectingToCluster'))).toBe(false);
    expect(isProblem(cd('WaitingForMachines'), c('Unreachable', 'True', 'ErrorConnectingToCluster'))).toBe(false);
    expect(isProblem(cd('Running'), c('Unreachable', 'True', 'ErrorConnectingToCluster'))).toBe(true);
  });

  it("everything else follows Hive's polarity; Unknown is never a problem", () => {
    expect(isProblem(cd(), c('ProvisionFailed', 'True', 'AWSInsufficientCapacity'))).toBe(true);
    expect(isProblem(cd(), c('DNSNotReady', 'False', 'DNSReady'))).toBe(false);
    expect(isProblem(cd(), c('RequirementsMet', 'False', 'ClusterImageSetNotFound'))).toBe(true);
    expect(isProblem(cd(), c('SyncSetFailed', 'Unknown', 'Initialized'))).toBe(false);
  });
});

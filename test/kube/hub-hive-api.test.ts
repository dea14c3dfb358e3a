// A hub whose Hive lacks a kind Beekeeper uses (an old Hive without ClusterRelocate, say) is reported as such by the
// hub status behind GET /v1/hubs, naming what is missing (docs/upgrades.md#supported-hive-versions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createTestClock } from '../../src/clock.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { quietLog } from './support.js';

let complete: ApiServer;
let old: ApiServer;
let gw: KubeGateway;

beforeAll(async () => {
  complete = await startApiServer({ crds: hiveCrds() });
  const withoutRelocate = hiveCrds().filter((c: any) => c.spec.names.plural !== 'clusterrelocates');
  old = await startApiServer({ crds: withoutRelocate });
  gw = await createKubeGateway({
    hubs: [
      { name: 'complete', kubeconfigData: stringify(complete.kubeconfig('complete')) },
      { name: 'old', kubeconfigData: stringify(old.kubeconfig('old')) },
    ],
    log: quietLog,
    clock: createTestClock(),
    cachedKinds: [],
  });
});
afterAll(async () => {
  await gw?.close();
  await complete?.close();
  await old?.close();
});

describe('the Hive API a hub serves', () => {
  it('is complete only with every kind Beekeeper uses; a missing one is named', async () => {
    const byName = Object.fromEntries((await gw.hubStatus()).map((h) => [h.name, h]));
    expect(byName.complete).toMatchObject({ reachable: true, hiveCrdsPresent: true });
    expect(byName.complete!.message).toBeUndefined();
    expect(byName.old).toMatchObject({
      reachable: true,
      hiveCrdsPresent: false,
      message:
        'the hive.openshift.io/v1 API does not serve clusterrelocates (docs/upgrades.md#supported-hive-versions)',
    });
  });
});

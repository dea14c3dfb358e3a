// Event field selectors as kubectl describe and `kubectl get events --field-selector` use them, on core/v1 and on
// events.k8s.io/v1 (which names the same fields regarding.* and reportingController).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreV1Api, EventsV1Api } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, failure } from './support/k8s.js';

describeTargets('Event field selectors on %s', (targetName) => {
  let t: Target;
  let core: CoreV1Api;
  let uid = '';
  const names = (list: any) => list.items.map((e: any) => e.metadata.name).sort();
  beforeAll(async () => {
    t = await startTarget(targetName);
    core = t.kc.makeApiClient(CoreV1Api);
    const created: any = await customObjects(t.kc).createNamespacedCustomObject({ ...HIVE, namespace: t.namespace, body: cd('ev1', t.namespace) });
    uid = created.metadata.uid;
    const ref = { apiVersion: 'hive.openshift.io/v1', kind: 'ClusterDeployment', name: 'ev1', namespace: t.namespace, uid };
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await core.createNamespacedEvent({ namespace: t.namespace, body: {
      metadata: { name: 'core-ev' }, involvedObject: ref, reason: 'ProvisionStarted', message: 'started', type: 'Normal',
      source: { component: 'hive-controllers' }, firstTimestamp: now as any, lastTimestamp: now as any, count: 1,
    } });
    await t.kc.makeApiClient(EventsV1Api).createNamespacedEvent({ namespace: t.namespace, body: {
      metadata: { name: 'v1-ev' }, regarding: { ...ref, name: 'ev1' }, reason: 'PowerStateChange', note: 'stopping', type: 'Warning',
      action: 'Hibernate', reportingController: 'hive.openshift.io/hibernation', reportingInstance: 'hive-0', eventTime: new Date() as any,
    } });
    await core.createNamespacedEvent({ namespace: t.namespace, body: {
      metadata: { name: 'other-ev' }, involvedObject: { kind: 'Secret', name: 'x', namespace: t.namespace }, reason: 'Other', message: 'm', type: 'Normal',
    } });
  });
  afterAll(async () => { await t?.close(); });

  it('selects core/v1 Events by involvedObject, reason, type and source as kubectl describe does', async () => {
    const describeSelector = `involvedObject.name=ev1,involvedObject.namespace=${t.namespace},involvedObject.kind=ClusterDeployment,involvedObject.uid=${uid}`;
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: describeSelector }))).toEqual(['core-ev', 'v1-ev']);
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'reason=PowerStateChange' }))).toEqual(['v1-ev']);
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'type!=Normal' }))).toEqual(['v1-ev']);
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'source=hive-controllers' }))).toEqual(['core-ev']);
    // An event without source.component is selected by its reporting controller.
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'source=hive.openshift.io/hibernation' }))).toEqual(['v1-ev']);
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'reportingComponent=hive.openshift.io/hibernation' }))).toEqual(['v1-ev']);
  });

  it('selects events.k8s.io/v1 Events by regarding.* and reportingController, and refuses the core names there', async () => {
    const events = t.kc.makeApiClient(EventsV1Api);
    expect(names(await events.listNamespacedEvent({ namespace: t.namespace, fieldSelector: `regarding.name=ev1,regarding.uid=${uid}` }))).toEqual(['core-ev', 'v1-ev']);
    expect(names(await events.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'reportingController=hive.openshift.io/hibernation' }))).toEqual(['v1-ev']);
    const refused = await failure(events.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'involvedObject.name=ev1' }));
    expect(refused.code).toBe(400);
    expect(refused.status.message).toBe('field label not supported: involvedObject.name');
  });
});

// Event field selectors as kubectl describe and `kubectl get events --field-selector` use them, on core/v1 and on
// events.k8s.io/v1 (which names the same fields regarding.* and reportingController), and Event timestamps as the
// decoder reads them (eventTime is a MicroTime: RFC 3339 with exactly six fraction digits).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreV1Api, EventsV1Api, V1MicroTime } from '@kubernetes/client-node';
import { describeTargets, startTarget, type Target } from './support/target.js';
import { HIVE, cd, customObjects, failure } from './support/k8s.js';
import { kubeHttp } from './support/kube-http.js';

const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';

describeTargets('Event field selectors on %s', (targetName) => {
  let t: Target;
  let core: CoreV1Api;
  let uid = '';
  const names = (list: any) => list.items.map((e: any) => e.metadata.name).sort();
  beforeAll(async () => {
    t = await startTarget(targetName);
    core = t.kc.makeApiClient(CoreV1Api);
    const created: any = await customObjects(t.kc).createNamespacedCustomObject({
      ...HIVE,
      namespace: t.namespace,
      body: cd('ev1', t.namespace),
    });
    uid = created.metadata.uid;
    const ref = {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      name: 'ev1',
      namespace: t.namespace,
      uid,
    };
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await core.createNamespacedEvent({
      namespace: t.namespace,
      body: {
        metadata: { name: 'core-ev' },
        involvedObject: ref,
        reason: 'ProvisionStarted',
        message: 'started',
        type: 'Normal',
        source: { component: 'hive-controllers' },
        firstTimestamp: now as any,
        lastTimestamp: now as any,
        count: 1,
      },
    });
    await t.kc.makeApiClient(EventsV1Api).createNamespacedEvent({
      namespace: t.namespace,
      body: {
        metadata: { name: 'v1-ev' },
        regarding: { ...ref, name: 'ev1' },
        reason: 'PowerStateChange',
        note: 'stopping',
        type: 'Warning',
        // client-node writes a plain Date with milliseconds, which a real server refuses; V1MicroTime has six digits.
        action: 'Hibernate',
        reportingController: 'hive.openshift.io/hibernation',
        reportingInstance: 'hive-0',
        eventTime: new V1MicroTime(),
      },
    });
    await core.createNamespacedEvent({
      namespace: t.namespace,
      body: {
        metadata: { name: 'other-ev' },
        involvedObject: { kind: 'Secret', name: 'x', namespace: t.namespace },
        reason: 'Other',
        message: 'm',
        type: 'Normal',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('selects core/v1 Events by involvedObject, reason, type and source as kubectl describe does', async () => {
    const describeSelector = `involvedObject.name=ev1,involvedObject.namespace=${t.namespace},involvedObject.kind=ClusterDeployment,involvedObject.uid=${uid}`;
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: describeSelector }))).toEqual([
      'core-ev',
      'v1-ev',
    ]);
    expect(
      names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'reason=PowerStateChange' })),
    ).toEqual(['v1-ev']);
    expect(names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'type!=Normal' }))).toEqual([
      'v1-ev',
    ]);
    expect(
      names(await core.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'source=hive-controllers' })),
    ).toEqual(['core-ev']);
    // An event without source.component is selected by its reporting controller.
    expect(
      names(
        await core.listNamespacedEvent({
          namespace: t.namespace,
          fieldSelector: 'source=hive.openshift.io/hibernation',
        }),
      ),
    ).toEqual(['v1-ev']);
    expect(
      names(
        await core.listNamespacedEvent({
          namespace: t.namespace,
          fieldSelector: 'reportingComponent=hive.openshift.io/hibernation',
        }),
      ),
    ).toEqual(['v1-ev']);
  });

  it('selects events.k8s.io/v1 Events by regarding.* and reportingController, and refuses the core names there', async () => {
    const events = t.kc.makeApiClient(EventsV1Api);
    expect(
      names(
        await events.listNamespacedEvent({
          namespace: t.namespace,
          fieldSelector: `regarding.name=ev1,regarding.uid=${uid}`,
        }),
      ),
    ).toEqual(['core-ev', 'v1-ev']);
    expect(
      names(
        await events.listNamespacedEvent({
          namespace: t.namespace,
          fieldSelector: 'reportingController=hive.openshift.io/hibernation',
        }),
      ),
    ).toEqual(['v1-ev']);
    const refused = await failure(
      events.listNamespacedEvent({ namespace: t.namespace, fieldSelector: 'involvedObject.name=ev1' }),
    );
    expect(refused.code).toBe(400);
    expect(refused.status.message).toBe('field label not supported: involvedObject.name');
  });

  it("refuses an eventTime that is not a MicroTime with the decoder's 400, on both Event APIs", async () => {
    const http = kubeHttp(t.kc);
    const post = async (path: string, body: unknown) => {
      const res = await http.call({
        method: 'POST',
        path,
        body: JSON.stringify(body),
        contentType: 'application/json',
      });
      return { code: res.status, body: JSON.parse(res.text) };
    };
    const v1 = (name: string, eventTime: unknown) =>
      post(`/apis/events.k8s.io/v1/namespaces/${t.namespace}/events`, {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name },
        eventTime,
        reportingController: 'example.com/c',
        reportingInstance: 'c-0',
        action: 'Test',
        reason: 'Test',
        type: 'Normal',
        regarding: { kind: 'ClusterDeployment', namespace: t.namespace, name: 'ev1' },
      });
    const core = (name: string, eventTime: unknown) =>
      post(`/api/v1/namespaces/${t.namespace}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name },
        eventTime,
        reportingComponent: 'example.com/c',
        reportingInstance: 'c-0',
        action: 'Test',
        reason: 'Test',
        type: 'Normal',
        involvedObject: { kind: 'ClusterDeployment', namespace: t.namespace, name: 'ev1' },
      });
    const refusal = (message: string) => ({
      code: 400,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Event in version "v1" cannot be handled as a Event: ${message}`,
        reason: 'BadRequest',
        code: 400,
      },
    });

    expect(await v1('bad-1', 'not-a-time')).toEqual(
      refusal(`parsing time "not-a-time" as ${MICRO}: cannot parse "not-a-time" as "2006"`),
    );
    expect(await v1('bad-2', '2026-11-21T13:31:00.123Z')).toEqual(
      refusal(`parsing time "2026-11-21T13:31:00.123Z" as ${MICRO}: cannot parse ".123Z" as ".000000"`),
    );
    expect(await core('bad-3', '2026-11-21T13:31:00Z')).toEqual(
      refusal(`parsing time "2026-11-21T13:31:00Z" as ${MICRO}: cannot parse "Z" as ".000000"`),
    );
    expect(await core('bad-4', 1700000000)).toEqual(
      refusal('json: cannot unmarshal number into Go struct field Event.eventTime of type string'),
    );
    expect((await v1('good-1', '2026-11-21T13:31:00.123456+01:00')).code).toBe(201);
    expect((await core('good-2', null)).code).toBe(201);
  });

  it('refuses a patch that leaves eventTime unparsable, naming the patch and keeping the Event', async () => {
    const http = kubeHttp(t.kc);
    const path = `/apis/events.k8s.io/v1/namespaces/${t.namespace}/events/v1-ev`;
    const res = await http.call({
      method: 'PATCH',
      path,
      body: JSON.stringify({ eventTime: '2026-11-21T13:31:00Z' }),
      contentType: 'application/merge-patch+json',
    });
    const body = JSON.parse(res.text);
    expect([res.status, body.reason, body.details.causes.map((c: any) => [c.reason, c.field])]).toEqual([
      422,
      'Invalid',
      [['FieldValueInvalid', 'patch']],
    ]);
    expect(body.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{.*\}": parsing time "2026-11-21T13:31:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"$/,
    );
    const kept = JSON.parse((await http.call({ method: 'GET', path })).text);
    expect(kept.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});

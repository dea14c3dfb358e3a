// Shared by the simulator scenario tests: wait on watch events (never sleep) and build Hive objects.
import { R, createInformer, type KubeClient, type KubeObject, type ApiResource } from '../../src/sim/client/index.js';

/** Resolves with the first state of ns/name (undefined once deleted) that satisfies `pred`, as seen by a watch. */
export async function waitFor(
  client: KubeClient,
  r: ApiResource,
  ns: string | undefined,
  name: string,
  pred: (obj: KubeObject | undefined) => boolean,
  timeoutMs = 20_000,
): Promise<KubeObject | undefined> {
  const list = await client.list(r, ns, { fieldSelector: `metadata.name=${name}` });
  const current = list.items[0];
  if (pred(current)) return current;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      watch.stop();
      reject(
        new Error(
          `timed out waiting for ${r.kind} ${ns ?? ''}/${name}; last seen: ${JSON.stringify(last)?.slice(0, 1500)}`,
        ),
      );
    }, timeoutMs);
    let last: KubeObject | undefined = current;
    const watch = client.watch(r, ns, {
      resourceVersion: list.metadata.resourceVersion,
      onEvent(type, obj) {
        if (obj.metadata.name !== name) return;
        last = type === 'DELETED' ? undefined : obj;
        if (pred(last)) {
          clearTimeout(timer);
          watch.stop();
          resolve(last);
        }
      },
      onGone: () => reject(new Error('watch expired')),
    });
  });
}

/** Records every distinct value `pick` returns for ns/name while it changes, until `stop` says so. */
export function recordChanges(
  client: KubeClient,
  r: ApiResource,
  ns: string,
  name: string,
  pick: (obj: KubeObject) => unknown,
) {
  const seen: unknown[] = [];
  const watch = client.watch(r, ns, {
    onEvent(type, obj) {
      if (obj.metadata.name !== name || type === 'DELETED') return;
      const v = pick(obj);
      if (v !== undefined && seen[seen.length - 1] !== v) seen.push(v);
    },
    onGone() {},
  });
  return { seen, stop: () => watch.stop() };
}

export const condition = (obj: KubeObject | undefined, type: string) =>
  obj?.status?.conditions?.find((c: any) => c.type === type);

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A namespace with the Secrets an AWS ClusterDeployment or ClusterPool needs, plus a ClusterImageSet. */
export async function createPrerequisites(client: KubeClient, ns: string): Promise<void> {
  await client.create(R.namespace, { metadata: { name: ns } });
  await client.create(R.secret, {
    metadata: { name: 'aws-creds', namespace: ns },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  await client.create(R.secret, {
    metadata: { name: 'pull-secret', namespace: ns },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  });
  await client.create(R.secret, {
    metadata: { name: 'install-config', namespace: ns },
    data: { 'install-config.yaml': b64('apiVersion: v1\nmetadata:\n  name: x\nbaseDomain: example.com\n') },
  });
  try {
    await client.create(R.clusterImageSet, {
      metadata: { name: 'openshift-v4.16.3' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
    });
  } catch (e: any) {
    if (e.reason !== 'AlreadyExists') throw e;
  }
}

export function awsClusterDeployment(
  ns: string,
  name: string,
  extra: { annotations?: Record<string, string>; spec?: Record<string, unknown>; labels?: Record<string, string> } = {},
): KubeObject {
  return {
    metadata: { name, namespace: ns, annotations: extra.annotations, labels: extra.labels },
    spec: {
      clusterName: name,
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: { installConfigSecretRef: { name: 'install-config' }, imageSetRef: { name: 'openshift-v4.16.3' } },
      ...extra.spec,
    },
  };
}

export function awsPool(ns: string, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    metadata: { name, namespace: ns },
    spec: {
      baseDomain: 'example.com',
      imageSetRef: { name: 'openshift-v4.16.3' },
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      installConfigSecretTemplateRef: { name: 'install-config' },
      size: 1,
      ...spec,
    },
  };
}

/** Resolves once `pred` holds for all objects of a kind (kept current by an informer), with those objects. */
export async function waitForAll(
  client: KubeClient,
  r: ApiResource,
  pred: (objs: KubeObject[]) => boolean,
  timeoutMs = 20_000,
): Promise<KubeObject[]> {
  const informer = createInformer(client, r);
  try {
    await informer.synced;
    if (pred(informer.list())) return informer.list();
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting on ${r.plural}`)), timeoutMs);
      informer.onEvent(() => {
        if (!pred(informer.list())) return;
        clearTimeout(timer);
        resolve(informer.list());
      });
    });
  } finally {
    informer.stop();
  }
}

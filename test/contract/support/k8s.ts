// Small helpers over @kubernetes/client-node for the contract suites.
import {
  ApiException,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';

export const HIVE = { group: 'hive.openshift.io', version: 'v1', plural: 'clusterdeployments' };
export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export function cd(
  name: string,
  namespace: string,
  extra: { labels?: Record<string, string>; finalizers?: string[]; ownerReferences?: any[] } = {},
): any {
  return {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: { name, namespace, ...extra },
    spec: {
      baseDomain: 'example.com',
      clusterName: name,
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: {
        installConfigSecretRef: { name: 'install-config' },
        releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64',
      },
    },
  };
}

/** The Status body of a failed call, and its HTTP code. */
export async function failure(
  p: Promise<unknown>,
): Promise<{ code: number; status: any; headers: Record<string, string> }> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
    return { code: err.code, status: body, headers: err.headers };
  }
  throw new Error('expected the call to fail');
}

export const customObjects = (kc: KubeConfig) => kc.makeApiClient(CustomObjectsApi);

/** Polls `check` until it returns a truthy value (for controllers that act asynchronously, here and upstream). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

export const isNotFound = async (p: Promise<unknown>) => {
  try {
    await p;
    return false;
  } catch (err) {
    return err instanceof ApiException && err.code === 404;
  }
};

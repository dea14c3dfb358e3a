// One KubeConfig per hub: a kubeconfig file and optional context, inline kubeconfig text (the embedded simulator),
// or the pod's service account (in-cluster).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HubKubeConfig } from './hub-kubeconfig.js';
import { impersonationOf } from './impersonation.js';

/** Where the kubelet mounts the pod's projected ServiceAccount token and CA (client-node's loadFromCluster reads them). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface HubConnection {
  name: string;
  /** Path of a kubeconfig file. */
  kubeconfig?: string;
  /** Kubeconfig YAML/JSON text, for hubs started in-process (the simulator). */
  kubeconfigData?: string;
  context?: string;
  inCluster?: boolean;
  /** In-cluster only: a directory standing in for `/`, where the service account files are found (tests). */
  inClusterRoot?: string;
  /** This hub's optional client-side rate cap, when it differs from the gateway default (none). */
  qps?: number;
  burst?: number;
  /** This hub's in-flight window ceiling, when it differs from the gateway default. */
  maxInFlight?: number;
}

/**
 * The files whose content is the hub's credentials, fingerprinted to notice a change (hub-credentials.ts): the
 * kubeconfig file, or for in-cluster hubs the projected token and CA the kubelet rotates. Inline kubeconfig text has
 * none. Files a kubeconfig refers to (client-certificate, token-file) are not followed: a kubeconfig from a Secret is
 * self-contained.
 */
export function credentialFiles(hub: HubConnection): string[] {
  if (hub.inCluster) {
    const dir = join(hub.inClusterRoot ?? '/', SERVICE_ACCOUNT_DIR);
    return [join(dir, 'token'), join(dir, 'ca.crt')];
  }
  if (hub.kubeconfigData) return [];
  return hub.kubeconfig ? [hub.kubeconfig] : [];
}

export function loadKubeConfig(hub: HubConnection): HubKubeConfig {
  const kc = new HubKubeConfig();
  if (!hub.inCluster && !hub.kubeconfigData && !hub.kubeconfig)
    throw new Error(`hub ${hub.name}: give a kubeconfig path, kubeconfig text or inCluster`);
  try {
    // client-node reads the token file itself, again at most once a minute (FileAuth); a rotation is picked up at
    // once because a changed token file loads a new KubeConfig (hub-credentials.ts).
    if (hub.inCluster) kc.loadFromCluster(hub.inClusterRoot?.replace(/\/+$/, ''));
    else {
      // As loadFromFile does, with the text kept for the impersonation fields client-node drops.
      const text = hub.kubeconfigData ?? readFileSync(hub.kubeconfig!, 'utf8');
      kc.loadFromString(text);
      if (!hub.kubeconfigData) kc.makePathsAbsolute(dirname(hub.kubeconfig!));
      kc.impersonation = impersonationOf(text);
    }
  } catch (err) {
    throw new Error(`hub ${hub.name}: ${describeLoadError(err, hub)}`, { cause: err });
  }
  if (hub.context) {
    if (!kc.getContextObject(hub.context))
      throw new Error(`hub ${hub.name}: context "${hub.context}" is not in the kubeconfig`);
    kc.setCurrentContext(hub.context);
  }
  if (!kc.getCurrentCluster()) throw new Error(`hub ${hub.name}: the kubeconfig has no current cluster`);
  return kc;
}

/**
 * A load failure said without the kubeconfig's content: js-yaml's message quotes the lines around the fault
 * (a token or client key among them), and it ends up in logs and in /v1/hubs.
 */
function describeLoadError(err: unknown, hub: HubConnection): string {
  const e = (err ?? {}) as { code?: unknown; reason?: unknown; mark?: { line?: number } };
  const source = hub.inCluster
    ? 'the in-cluster service account'
    : ((hub.kubeconfigData ? undefined : hub.kubeconfig) ?? 'the kubeconfig');
  if (typeof e.code === 'string') return `cannot read ${source} (${e.code})`;
  if (typeof e.reason === 'string' && typeof e.mark?.line === 'number')
    return `cannot parse ${source}: ${e.reason} at line ${e.mark.line + 1}`;
  return `cannot load ${source} (not a valid kubeconfig)`;
}

// One KubeConfig per hub: a kubeconfig file and optional context, inline kubeconfig text (the embedded simulator),
// or the pod's service account (in-cluster).
import { KubeConfig } from '@kubernetes/client-node';

export interface HubConnection {
  name: string;
  /** Path of a kubeconfig file. */
  kubeconfig?: string;
  /** Kubeconfig YAML/JSON text, for hubs started in-process (the simulator). */
  kubeconfigData?: string;
  context?: string;
  inCluster?: boolean;
  /** This hub's client-side rate limit, when it differs from the gateway default. */
  qps?: number;
  burst?: number;
}

export function loadKubeConfig(hub: HubConnection): KubeConfig {
  const kc = new KubeConfig();
  if (hub.inCluster) kc.loadFromCluster();
  else if (hub.kubeconfigData) kc.loadFromString(hub.kubeconfigData);
  else if (hub.kubeconfig) kc.loadFromFile(hub.kubeconfig);
  else throw new Error(`hub ${hub.name}: give a kubeconfig path, kubeconfig text or inCluster`);
  if (hub.context) {
    if (!kc.getContextObject(hub.context)) throw new Error(`hub ${hub.name}: context "${hub.context}" is not in the kubeconfig`);
    kc.setCurrentContext(hub.context);
  }
  if (!kc.getCurrentCluster()) throw new Error(`hub ${hub.name}: the kubeconfig has no current cluster`);
  return kc;
}

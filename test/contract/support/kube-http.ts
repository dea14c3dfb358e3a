// Raw requests to whatever server a kubeconfig names (the double or a real API server), as the admin the
// kubeconfig describes, with another bearer token, or with no credentials at all.
import type { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { rawCall, type RawRequest, type RawResponse } from './raw-http.js';

export type Auth = 'admin' | 'anonymous' | { token: string };

export interface KubeHttp {
  url: string;
  call(r: Omit<RawRequest, 'url' | 'token' | 'tls' | 'headers'> & { path: string; auth?: Auth }): Promise<RawResponse>;
}

export function kubeHttp(kc: KubeConfig): KubeHttp {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = cluster.server.replace(/\/$/, '');
  const ca = cluster.caData
    ? Buffer.from(cluster.caData, 'base64')
    : cluster.caFile
      ? readFileSync(cluster.caFile)
      : undefined;
  const serverTls = { ca, rejectUnauthorized: !cluster.skipTLSVerify, servername: cluster.tlsServerName };
  return {
    url,
    async call({ path, auth = 'admin', ...rest }) {
      if (auth === 'anonymous') return rawCall({ ...rest, url: url + path, tls: serverTls });
      if (typeof auth === 'object') return rawCall({ ...rest, url: url + path, token: auth.token, tls: serverTls });
      const opts: any = { headers: {} };
      await kc.applyToHTTPSOptions(opts);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') headers[k] = v;
      return rawCall({
        ...rest,
        url: url + path,
        headers,
        tls: {
          ...serverTls,
          cert: opts.cert,
          key: opts.key,
          ...(opts.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
        },
      });
    },
  };
}

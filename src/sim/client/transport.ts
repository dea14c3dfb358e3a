import http from 'node:http';
import https from 'node:https';
import { KubeApiError } from './errors.js';

/** The connection facts a kubeconfig context boils down to. */
export interface KubeTarget {
  server: string;
  token?: string;
  insecureSkipTLSVerify?: boolean;
  /** PEM text of the CA that signed the server certificate. */
  ca?: string;
}

export interface RawRequest {
  method: string;
  path: string; // path + query
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
}

/** Opens a request and hands back the live response; the caller reads the body. */
export function openRequest(target: KubeTarget, req: RawRequest): Promise<http.IncomingMessage> {
  const url = new URL(req.path, target.server);
  const isHttps = url.protocol === 'https:';
  const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (payload) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const options: https.RequestOptions = { method: req.method, headers, signal: req.signal };
  if (isHttps) {
    options.rejectUnauthorized = !target.insecureSkipTLSVerify;
    if (target.ca) options.ca = target.ca;
  }
  return new Promise((resolve, reject) => {
    const r = (isHttps ? https : http).request(url, options, resolve);
    r.on('error', reject);
    if (payload) r.write(payload);
    r.end();
  });
}

async function readBody(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a request and returns the parsed JSON body, or throws KubeApiError for a non-2xx answer. */
export async function requestJson<T = any>(target: KubeTarget, req: RawRequest): Promise<T> {
  const res = await openRequest(target, req);
  const text = await readBody(res);
  const code = res.statusCode ?? 0;
  if (code < 200 || code >= 300) throw toApiError(code, text, res.headers['retry-after']);
  return (text ? JSON.parse(text) : undefined) as T;
}

export function toApiError(code: number, text: string, retryAfter?: string | string[]): KubeApiError {
  let status: Record<string, any> | undefined;
  try {
    const parsed = JSON.parse(text);
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // plain-text bodies ("404 page not found") stay undefined
  }
  const ra = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  return new KubeApiError(code, status, text, ra ? Number(ra) : undefined);
}

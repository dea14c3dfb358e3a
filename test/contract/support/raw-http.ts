// Plain HTTP(S) calls (node:http, so repeated headers such as Warning stay separate) against a server double or a
// real API server, the way the golden exchanges were recorded with curl.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
  lines?: string[];
}

export interface RawRequest {
  method: string;
  url: string;
  token?: string;
  contentType?: string;
  body?: string;
  userAgent?: string;
  accept?: string;
  /** TLS settings and extra headers (client certificates, a CA, an Authorization from a kubeconfig). */
  tls?: Pick<RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;
  headers?: Record<string, string>;
  /** For watches: called once the response headers arrived. */
  onStart?: () => void;
}

export function rawCall(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      accept: r.accept ?? 'application/json',
      'user-agent': r.userAgent ?? 'curl/7.88.1',
      ...r.headers,
    };
    if (r.token) headers.authorization = `Bearer ${r.token}`;
    if (r.contentType) headers['content-type'] = r.contentType;
    // Node does not chunk DELETE bodies: without a length the body would be read as the next request.
    if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
    const https = r.url.startsWith('https:');
    const send = https ? httpsRequest : httpRequest;
    const req = send(r.url, { method: r.method, headers, ...(https ? r.tls : {}) }, (res) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headersDistinct)) if (v) out[k] = v.length === 1 ? v[0]! : v;
      r.onStart?.();
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

// Requests the fuzz found answered wrongly, kept as they were sent, so they stay fixed whatever the seed.
import { createBody } from '../clusters/support.js';
import type { FuzzCase } from './fuzz-cases.js';
import { SAMPLES } from './fuzz-samples.js';
import { HUB, NS } from './fuzz-world.js';

const json = (op: string, what: string, method: string, url: string, body: unknown): Omit<FuzzCase, 'headers'> => ({
  op,
  what,
  method,
  url,
  payload: JSON.stringify(body),
  refused: true,
});

const with_ = (key: string, patch: Record<string, unknown>) => ({ ...(SAMPLES[key] as object), ...patch });
const cluster = `/v1/clusters/${HUB}/${NS}/fz-cluster`;

export const CORPUS: Array<Omit<FuzzCase, 'headers'>> = [
  // 500: the unpaired surrogate reached the hub call's URL (encodeURIComponent throws URIError).
  json(
    'POST /v1/pools',
    'namespace "\\ud800" (was 500)',
    'POST',
    '/v1/pools',
    with_('POST /v1/pools', { namespace: '\ud800' }),
  ),
  // 201: the pool was created with a base domain every install would fail on.
  json(
    'POST /v1/pools',
    'baseDomain ".." (was 201)',
    'POST',
    '/v1/pools',
    with_('POST /v1/pools', { baseDomain: '..' }),
  ),
  // 202: the pattern took a 302-character label; DNS labels end at 63.
  json('POST /v1/clusters', 'baseDomain of one 302-character label (was 202)', 'POST', '/v1/clusters', {
    ...createBody(NS, 'fz-regress'),
    baseDomain: `${'x'.repeat(302)}.com`,
  }),
  // 202 / 201: 300 KB of free text was written to the hub as it came.
  json('POST /v1/clusters', 'a 300 KB region (was 202)', 'POST', '/v1/clusters', {
    ...createBody(NS, 'fz-regress'),
    platform: { aws: { region: 'r'.repeat(300_000), credentialsSecretRef: 'aws-creds' } },
  }),
  json(
    'POST /v1/clusters/{hub}/{namespace}/{name}/overrides',
    'a 300 KB reason (was 201)',
    'POST',
    `${cluster}/overrides`,
    {
      type: 'keepAwake',
      for: '1h',
      by: 'fuzz',
      reason: 'r'.repeat(300_000),
    },
  ),
  // 201: target and selector names no namespace can have matched nothing, silently.
  json('POST /v1/schedules', 'targets.namespaces ["\\t"] (was 201)', 'POST', '/v1/schedules', {
    ...with_('POST /v1/schedules', { name: 'fz-regress' }),
    targets: { namespaces: ['\t'] },
  }),
  json('POST /v1/expiry-policies', 'selector.namespaces [".."] (was 201)', 'POST', '/v1/expiry-policies', {
    ...with_('POST /v1/expiry-policies', { name: 'fz-regress' }),
    selector: { namespaces: ['..'], hubs: ['-dash'] },
  }),
  json(
    'POST /v1/expiry-policies',
    'teamLabel ".." (was 201)',
    'POST',
    '/v1/expiry-policies',
    with_('POST /v1/expiry-policies', { name: 'fz-regress', teamLabel: '..' }),
  ),
  json(
    'POST /v1/expiry-policies',
    'selector.teams ["${jndi:ldap://x}"] (was 201)',
    'POST',
    '/v1/expiry-policies',
    with_('POST /v1/expiry-policies', { name: 'fz-regress', selector: { teams: ['${jndi:ldap://x}'] } }),
  ),
  json(
    'POST /v1/pools',
    'pullSecretRef ".." (was 201)',
    'POST',
    '/v1/pools',
    with_('POST /v1/pools', { pullSecretRef: '..' }),
  ),
  // 201 / 200: counts beyond Hive's int32 were stored.
  json(
    'POST /v1/pools',
    'maxConcurrent 2^53+2 (was 201)',
    'POST',
    '/v1/pools',
    with_('POST /v1/pools', { maxConcurrent: 2 ** 53 + 2 }),
  ),
  json(
    'PATCH /v1/pools/{hub}/{namespace}/{name}',
    'maxSize 2^32+1 (was 200)',
    'PATCH',
    `/v1/pools/${HUB}/${NS}/fz-pool`,
    {
      maxSize: 4294967297,
    },
  ),
  json('POST /v1/clusters', 'installAttemptsLimit 2^53+2 (was 202)', 'POST', '/v1/clusters', {
    ...createBody(NS, 'fz-regress'),
    installAttemptsLimit: 2 ** 53 + 2,
  }),
  // 200: the body's name was ignored and the policy in the path replaced.
  json('PUT /v1/expiry-policies/{name}', 'body name "other" (was 200)', 'PUT', '/v1/expiry-policies/fz-policy', {
    ...with_('PUT /v1/expiry-policies/{name}', { name: 'other' }),
  }),
  // A misspelt query parameter was ignored: the request ran as if it were not there (a real hibernation).
  {
    op: 'POST /v1/clusters/{hub}/{namespace}/{name}/hibernate',
    what: 'unknown query parameter dryrun (was ignored)',
    method: 'POST',
    url: `${cluster}/hibernate?dryrun=true`,
    refused: true,
  },
];

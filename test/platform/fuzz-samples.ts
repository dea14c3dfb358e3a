// Valid bodies to start from, so a case with one hostile field reaches the service behind the schema. Optional: an
// operation without a sample starts from a body built from its schema (fuzz-openapi.ts sampleOf).
import { HUB, NS } from './fuzz-world.js';

export const SAMPLES: Record<string, unknown> = {
  'POST /v1/clusters': {
    hub: HUB,
    namespace: NS,
    name: 'fz-new',
    baseDomain: 'example.com',
    platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
    imageSet: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    labels: { team: 'fuzz' },
  },
  'PUT /v1/clusters/{hub}/{namespace}/{name}/expiry': { expiresIn: '8h' },
  'POST /v1/clusters/{hub}/{namespace}/{name}/expiry/extend': { extendBy: '2h', by: 'alice', reason: 'demo' },
  'POST /v1/clusters/{hub}/{namespace}/{name}/overrides': { type: 'keepAwake', for: '4h', by: 'alice', reason: 'demo' },
  'POST /v1/pools': {
    hub: HUB,
    namespace: NS,
    name: 'fz-new',
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'example.com',
    imageSetName: 'openshift-v4.16.3',
    size: 0,
  },
  'PATCH /v1/pools/{hub}/{namespace}/{name}': { size: 2, labels: { team: 'payments' } },
  'POST /v1/claims': { pool: `${HUB}/${NS}/fz-pool`, lifetime: '2h', heartbeatTimeout: '5m' },
  'PATCH /v1/claims/{hub}/{namespace}/{name}': { extendBy: '1h' },
  'POST /v1/claims/{hub}/{namespace}/{name}/heartbeat': { holder: 'ci-runner-7' },
  'POST /v1/schedules': {
    name: 'fz-new',
    timeZone: 'Europe/Berlin',
    targets: { namespaces: [NS] },
    windows: [{ days: ['Mon'], start: '07:00', end: '19:00' }],
    dryRun: true,
  },
  'PUT /v1/schedules/{name}': {
    timeZone: 'Europe/Berlin',
    cron: { hibernate: '0 19 * * 1-5', resume: '0 7 * * 1-5' },
    enforce: false,
  },
  'POST /v1/expiry-policies': { name: 'fz-new', selector: { namespaces: [NS] }, maxLifetime: '72h', warnings: ['1h'] },
  'PUT /v1/expiry-policies/{name}': { maxLifetime: '48h', dryRun: true },
  'PUT /v1/webhooks/{name}': { url: 'https://hooks.example.com/other', format: 'generic' },
  'POST /v1/relocations': { from: HUB, to: HUB, selector: { namespaces: [NS] }, skipFailed: true, dryRun: true },
  'POST /v1/relocations/{id}/abort': { by: 'alice' },
};

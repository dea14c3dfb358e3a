// The operationId of every API operation, by `METHOD route`: what generated clients name their methods, so an id
// never changes once published. test/platform/openapi.test.ts fails on a described operation without one.
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  'GET /v1/jobs': 'listJobs',
  'GET /v1/jobs/:id': 'getJob',
  'GET /v1/jobs/:id/events': 'streamJobEvents',

  'GET /v1/clusters': 'listClusters',
  'POST /v1/clusters': 'createCluster',
  'GET /v1/clusters/:hub/:namespace/:name': 'getCluster',
  'DELETE /v1/clusters/:hub/:namespace/:name': 'deleteCluster',
  'POST /v1/clusters/:hub/:namespace/:name/hibernate': 'hibernateCluster',
  'POST /v1/clusters/:hub/:namespace/:name/resume': 'resumeCluster',
  'GET /v1/clusters/:hub/:namespace/:name/kubeconfig': 'getClusterKubeconfig',
  'GET /v1/clusters/:hub/:namespace/:name/credentials': 'getClusterCredentials',
  'GET /v1/clusters/:hub/:namespace/:name/expiry': 'getClusterExpiry',
  'PUT /v1/clusters/:hub/:namespace/:name/expiry': 'setClusterExpiry',
  'POST /v1/clusters/:hub/:namespace/:name/expiry/extend': 'extendClusterExpiry',
  'GET /v1/clusters/:hub/:namespace/:name/schedule': 'getClusterSchedule',
  'GET /v1/clusters/:hub/:namespace/:name/overrides': 'listClusterOverrides',
  'POST /v1/clusters/:hub/:namespace/:name/overrides': 'createClusterOverride',
  'DELETE /v1/clusters/:hub/:namespace/:name/overrides': 'deleteClusterOverrides',

  'GET /v1/hubs': 'listHubs',

  'GET /version': 'getVersion',

  'GET /v1/me': 'getMe',
  'GET /v1/teams': 'listTeams',
  'GET /v1/teams/:name': 'getTeam',

  'GET /v1/pools': 'listPools',
  'POST /v1/pools': 'createPool',
  'GET /v1/pools/:hub/:namespace/:name': 'getPool',
  'PATCH /v1/pools/:hub/:namespace/:name': 'updatePool',
  'DELETE /v1/pools/:hub/:namespace/:name': 'deletePool',

  'GET /v1/claims': 'listClaims',
  'POST /v1/claims': 'createClaim',
  'GET /v1/claims/:hub/:namespace/:name': 'getClaim',
  'PATCH /v1/claims/:hub/:namespace/:name': 'extendClaim',
  'DELETE /v1/claims/:hub/:namespace/:name': 'releaseClaim',
  'GET /v1/claims/:hub/:namespace/:name/events': 'streamClaimEvents',
  'GET /v1/claims/:hub/:namespace/:name/kubeconfig': 'getClaimKubeconfig',
  'GET /v1/claims/:hub/:namespace/:name/credentials': 'getClaimCredentials',
  'POST /v1/claims/:hub/:namespace/:name/heartbeat': 'renewClaimHeartbeat',

  'GET /v1/schedules': 'listSchedules',
  'POST /v1/schedules': 'createSchedule',
  'GET /v1/schedules/:name': 'getSchedule',
  'PUT /v1/schedules/:name': 'replaceSchedule',
  'DELETE /v1/schedules/:name': 'deleteSchedule',
  'GET /v1/schedules/:name/preview': 'previewSchedule',
  'POST /v1/schedules/:name/run': 'runSchedule',

  'GET /v1/warnings': 'listWarnings',
  'POST /v1/expiry/sweep': 'sweepExpiry',
  'GET /v1/expiry-policies': 'listExpiryPolicies',
  'POST /v1/expiry-policies': 'createExpiryPolicy',
  'GET /v1/expiry-policies/:name': 'getExpiryPolicy',
  'PUT /v1/expiry-policies/:name': 'replaceExpiryPolicy',
  'DELETE /v1/expiry-policies/:name': 'deleteExpiryPolicy',

  'GET /v1/webhooks': 'listWebhooks',
  'GET /v1/webhooks/:name': 'getWebhook',
  'PUT /v1/webhooks/:name': 'putWebhook',
  'DELETE /v1/webhooks/:name': 'deleteWebhook',

  'GET /v1/resync': 'getResync',

  'GET /v1/audit': 'listAuditRecords',

  'GET /v1/relocations': 'listRelocations',
  'POST /v1/relocations': 'createRelocation',
  'GET /v1/relocations/:id': 'getRelocation',
  'GET /v1/relocations/:id/events': 'streamRelocationEvents',
  'POST /v1/relocations/:id/abort': 'abortRelocation',
};

export * from './deps.js';
export * from './targets.js';
export * from './policy-store.js';
export * from './cluster-expiry.js';
export * from './warn.js';
export * from './warnings-list.js';
export * from './policy-sweep.js';
export * from './expiry-service.js';

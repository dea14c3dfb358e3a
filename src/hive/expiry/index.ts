export * from './policy.js';
export * from './expiry-change.js';
export * from './history.js';
export * from './warnings.js';

export * from './schedule-timers.js';
export * from './expiry-timers.js';

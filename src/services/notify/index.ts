export * from './webhook-endpoint.js';
export * from './notice.js';
export * from './deliver.js';
export * from './webhook-service.js';
export * from './webhook-url.js';

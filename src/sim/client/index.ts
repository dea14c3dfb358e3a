export * from './errors.js';
export * from './resources.js';
export * from './transport.js';
export * from './kube-client.js';
export * from './watch.js';
export * from './informer.js';
export * from './work-queue.js';
export * from './kubeconfig.js';

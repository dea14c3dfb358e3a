// Kubernetes' own schemas for the kinds deploy/ uses, from schema packages (devDependencies), in the form the
// simulator takes: built-in kinds as SchemaKinds (ApiServerOptions.kinds), the Prometheus Operator's kinds as the
// CustomResourceDefinitions they are on a real cluster.
//   kubernetes-models 4.3.1: the Kubernetes 1.27 OpenAPI definitions (the last major version that ships them as
//   JSON schemas rather than compiled validators), each registered by id with $refs between them.
//   @kubernetes-models/prometheus-operator 4.0.0: the monitoring.coreos.com/v1 CRD schemas (operator v0.57).
// The packages register their schemas with @kubernetes-models/validate when a model module loads; the loader below
// runs those CommonJS modules with a `register` that collects the schemas instead, and resolves the $refs.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { SchemaKind } from '../../src/sim/apiserver/index.js';
import type { SchemaNode } from '../../src/sim/apiserver/schema/schema-node.js';
import { routeSchema } from './route-crd.js';

const fromRepo = createRequire(import.meta.url);

function collectSchemas(modules: string[]): Map<string, any> {
  const registry = new Map<string, any>();
  const stubs: Record<string, unknown> = {
    '@kubernetes-models/validate': { register: (id: string, s: unknown) => registry.set(id, s), validate() {} },
    // Model classes call setSchema(Class, id, addSchema); only the addSchema part matters here.
    '@kubernetes-models/base': {
      Model: class {},
      createTypeMetaGuard: () => () => false,
      setSchema: (_model: unknown, _id: string, add: () => void) => add(),
    },
  };
  const cache = new Map<string, { exports: any }>();
  const load = (file: string): any => {
    const hit = cache.get(file);
    if (hit) return hit.exports;
    const module = { exports: {} as any };
    cache.set(file, module);
    const req = createRequire(file);
    const require = (spec: string) => stubs[spec] ?? (spec === 'tslib' ? req(spec) : load(req.resolve(spec)));
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the package's own CommonJS module
    new Function('exports', 'require', 'module', readFileSync(file, 'utf8'))(module.exports, require, module);
    return module.exports;
  };
  for (const m of modules) load(fromRepo.resolve(m));
  return registry;
}

/** Inlines `$ref`s, unwraps the packages' `oneOf: [X, {type: null}]`, and marks each referenced node's Go type. */
function resolver(registry: Map<string, any>, opts: { keepNullable: boolean }) {
  const resolve = (node: any, stack: string[]): SchemaNode => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, stack)) as any;
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node.oneOf) && node.oneOf.length === 2 && node.oneOf.some((o: any) => o.type === 'null')) {
      const inner = resolve(
        node.oneOf.find((o: any) => o.type !== 'null'),
        stack,
      );
      return opts.keepNullable ? { ...inner, nullable: true } : inner;
    }
    if (typeof node.$ref === 'string') return ref(node.$ref.replace(/#$/, ''), stack);
    const out: any = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'nullable' && !opts.keepNullable) continue;
      out[k] = k === 'enum' || k === 'required' || k === 'default' ? v : resolve(v, stack);
    }
    if (out.properties && !out.type) out.type = 'object';
    return out;
  };
  const ref = (id: string, stack: string[]): SchemaNode => {
    // IntOrString and Quantity have unmarshalers of their own: a string or a number.
    if (id === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return { 'x-kubernetes-int-or-string': true };
    if (id === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return { 'x-kubernetes-int-or-string': true };
    if (stack.includes(id)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const target = registry.get(id);
    if (!target) throw new Error(`schema ${id} is not in the package`);
    const parts = id.split('.');
    return { ...resolve(target, [...stack, id]), 'x-go-type': `${parts.at(-2)}.${parts.at(-1)}` };
  };
  return (id: string) => ref(id, []);
}

const BUILTINS = [
  {
    module: 'kubernetes-models/apps/v1/Deployment',
    id: 'io.k8s.api.apps.v1.Deployment',
    group: 'apps',
    resource: 'deployments',
    shortNames: ['deploy'],
  },
  {
    module: 'kubernetes-models/v1/Service',
    id: 'io.k8s.api.core.v1.Service',
    group: '',
    resource: 'services',
    shortNames: ['svc'],
    generation: false,
  },
  {
    module: 'kubernetes-models/policy/v1/PodDisruptionBudget',
    id: 'io.k8s.api.policy.v1.PodDisruptionBudget',
    group: 'policy',
    resource: 'poddisruptionbudgets',
    shortNames: ['pdb'],
  },
  {
    module: 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy',
    id: 'io.k8s.api.networking.v1.NetworkPolicy',
    group: 'networking.k8s.io',
    resource: 'networkpolicies',
    shortNames: ['netpol'],
  },
  {
    module: 'kubernetes-models/networking.k8s.io/v1/Ingress',
    id: 'io.k8s.api.networking.v1.Ingress',
    group: 'networking.k8s.io',
    resource: 'ingresses',
    shortNames: ['ing'],
  },
];

/** apps/v1 Deployment, v1 Service, policy/v1 PodDisruptionBudget, networking.k8s.io/v1 NetworkPolicy and Ingress. */
export function builtinKinds(): SchemaKind[] {
  const registry = collectSchemas(BUILTINS.map((b) => b.module));
  const resolve = resolver(registry, { keepNullable: true });
  return BUILTINS.map((b) => ({
    group: b.group,
    version: 'v1',
    resource: b.resource,
    kind: b.id.split('.').at(-1)!,
    namespaced: true,
    shortNames: b.shortNames,
    schema: resolve(b.id),
    generation: b.generation ?? true,
  }));
}

const MONITORING = [
  {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
    kind: 'ServiceMonitor',
    plural: 'servicemonitors',
    shortNames: ['smon'],
  },
  {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
    kind: 'PrometheusRule',
    plural: 'prometheusrules',
    shortNames: ['promrule'],
  },
];

/** The CRDs of monitoring.coreos.com/v1 ServiceMonitor and PrometheusRule, and of route.openshift.io/v1 Route. */
export function crds(): object[] {
  const registry = collectSchemas(MONITORING.map((m) => m.module));
  const resolve = resolver(registry, { keepNullable: false });
  const monitoring = MONITORING.map((m) => {
    const schema: any = resolve(`monitoring.coreos.com.v1.${m.kind}`);
    delete schema['x-go-type'];
    // A CRD's root: apiVersion, kind and metadata are the API server's (the package adds enums and ObjectMeta).
    schema.properties.apiVersion = { type: 'string' };
    schema.properties.kind = { type: 'string' };
    schema.properties.metadata = { type: 'object' };
    schema.required = ['spec'];
    return crd('monitoring.coreos.com', m.kind, m.plural, m.shortNames, schema);
  });
  return [...monitoring, crd('route.openshift.io', 'Route', 'routes', [], routeSchema())];
}

export function crd(group: string, kind: string, plural: string, shortNames: string[], schema: object): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), shortNames },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

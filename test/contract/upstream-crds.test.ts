import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSchema, type StatusCause } from '../../src/sim/apiserver/schema/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { needs } from '../support/needs.js';
import { upstreamCrds, upstreamCrdsMissing } from '../support/upstream-crds.js';
import { startTarget, type Target } from './support/target.js';
import { kubeHttp } from './support/kube-http.js';
import type { Sample } from './support/crd-sample.js';
import { configSamples } from './support/crd-samples-config.js';
import { deploymentSamples } from './support/crd-samples-deployments.js';
import { installSamples } from './support/crd-samples-install.js';
import { poolSamples } from './support/crd-samples-pools.js';

// The upstream Hive CRDs (test data outside the repository, test/support/upstream-crds.ts). Our own CRDs must
// accept and reject the same objects, with the same causes, for every field we model; both go through the same
// engine.
const loadUpstream = () => new Map<string, any>(upstreamCrds().map((crd) => [crd.spec.names.kind, crd]));

const schemaOf = (crd: any) => compileSchema(crd.spec.versions[0].schema.openAPIV3Schema);
const sorted = (causes: StatusCause[]) =>
  [...causes].sort((a, b) => `${a.field}|${a.message}`.localeCompare(`${b.field}|${b.message}`));

const samples: Record<string, Sample[]> = {
  ...deploymentSamples,
  ...poolSamples,
  ...installSamples,
  ...configSamples,
};

describe('our Hive CRDs against the upstream CRDs', needs(upstreamCrdsMissing), () => {
  const upstream = loadUpstream();
  const ours = new Map(hiveCrds().map((crd: any) => [crd.spec.names.kind, crd]));

  it('serve every kind with upstream group, version, names, scope, subresources and printer columns', () => {
    expect([...ours.keys()].sort()).toEqual(Object.keys(samples).sort());
    for (const [kind, crd] of ours as Map<string, any>) {
      const up = upstream.get(kind);
      expect(up, kind).toBeDefined();
      expect({ group: crd.spec.group, names: crd.spec.names, scope: crd.spec.scope }).toEqual({
        group: up.spec.group,
        names: up.spec.names,
        scope: up.spec.scope,
      });
      const [ov, uv] = [crd.spec.versions[0], up.spec.versions[0]];
      expect({
        name: ov.name,
        served: ov.served,
        storage: ov.storage,
        sub: ov.subresources,
        cols: ov.additionalPrinterColumns,
      }).toEqual({
        name: uv.name,
        served: uv.served,
        storage: uv.storage,
        sub: uv.subresources,
        cols: uv.additionalPrinterColumns,
      });
    }
  });

  for (const [kind, list] of Object.entries(samples)) {
    describe(kind, () => {
      it.each(list.map((s) => [s.name, s] as const))('%s', (_name, sample) => {
        const up = schemaOf(upstream.get(kind)).validate(sample.obj, { fieldValidation: 'Warn' });
        const mine = schemaOf(ours.get(kind)).validate(sample.obj, { fieldValidation: 'Warn' });
        // The corpus says what upstream does; if upstream disagrees, the sample is wrong, not our CRD.
        expect(up.causes.length === 0, `upstream verdict on "${sample.name}"`).toBe(sample.valid);
        expect(sorted(mine.causes)).toEqual(sorted(up.causes));
        if (sample.valid) {
          expect(mine.value).toEqual(up.value);
          expect(mine.unknownFields).toEqual(up.unknownFields);
        }
      });
    });
  }
});

// The same corpus sent to a real API server and to the double with our CRDs, as dry-run creates: the real server's
// validator (with whichever Hive CRDs it serves) and the double must give the same verdict, the same Status and
// the same defaulted and pruned object, warnings included.
if (process.env.KUBE_CONTRACT_KUBECONFIG) {
  describe('the corpus on the real server and on the double with our CRDs', () => {
    let real: Target;
    let double: Target;
    const crdOf = new Map(hiveCrds().map((crd: any) => [crd.spec.names.kind, crd]));
    beforeAll(async () => {
      [real, double] = await Promise.all([startTarget('real'), startTarget('double/project')]);
    });
    afterAll(async () => {
      await Promise.all([real?.close(), double?.close()]);
    });

    async function dryRunCreate(t: Target, sample: Sample) {
      const crd = crdOf.get(sample.obj.kind)!;
      const obj = structuredClone(sample.obj);
      let path = `/apis/${obj.apiVersion}`;
      if (crd.spec.scope === 'Namespaced') {
        obj.metadata.namespace = t.namespace;
        path += `/namespaces/${t.namespace}`;
      } else {
        obj.metadata.name = `${obj.metadata.name}-${real.namespace}`; // cluster-scoped: a name of this run only
      }
      const res = await kubeHttp(t.kc).call({
        method: 'POST',
        path: `${path}/${crd.spec.names.plural}?dryRun=All`,
        body: JSON.stringify(obj),
        contentType: 'application/json',
      });
      const body = JSON.parse(res.text);
      if (body.metadata?.namespace) body.metadata.namespace = '<ns>';
      return {
        status: res.status,
        warning: res.headers.warning,
        body: res.status === 201 ? { spec: body.spec, status: body.status } : body,
      };
    }

    for (const [kind, list] of Object.entries(samples)) {
      it.each(list.map((s) => [s.name, s] as const))(`${kind}: %s`, async (_name, sample) => {
        const [onReal, onDouble] = [await dryRunCreate(real, sample), await dryRunCreate(double, sample)];
        // The order of causes is not stable upstream (README of the recordings): compare them sorted, and the
        // message up to its bracketed list of them.
        for (const x of [onReal, onDouble]) {
          if (!x.body.details?.causes) continue;
          x.body.details.causes = sorted(x.body.details.causes);
          x.body.message = String(x.body.message).replace(/\[.*\]$/, '[...]');
        }
        expect(onDouble).toEqual(onReal);
      });
    }
  });
}

import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/sim/apiserver/schema/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';

function compiledWithScale(kind: string) {
  const crd: any = hiveCrds().find((c: any) => c.spec.names.kind === kind);
  const version = crd.spec.versions[0];
  return compileSchema(version.schema.openAPIV3Schema, { scale: version.subresources.scale });
}

const nilCause = {
  reason: 'FieldValueInvalid',
  message:
    'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  field: '<nil>',
};

describe('schema engine: scale subresource replica checks', () => {
  const machinePool = compiledWithScale('MachinePool');
  const base = { apiVersion: 'hive.openshift.io/v1', kind: 'MachinePool', metadata: { name: 'c1-worker' } };
  const spec = { clusterDeploymentRef: { name: 'c1' }, name: 'worker', platform: {} };

  it('accepts absent and non-negative replicas', () => {
    expect(machinePool.validate({ ...base, spec }, { fieldValidation: 'Strict' }).causes).toEqual([]);
    expect(
      machinePool.validate(
        { ...base, spec: { ...spec, replicas: 3 }, status: { replicas: 2 } },
        { fieldValidation: 'Strict' },
      ).causes,
    ).toEqual([]);
  });

  it('refuses negative replicas with the dotted JSONPath as the field', () => {
    expect(
      machinePool.validate({ ...base, spec: { ...spec, replicas: -1 } }, { fieldValidation: 'Strict' }).causes,
    ).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: should be a non-negative integer',
        field: '.spec.replicas',
      },
    ]);
  });

  it('reports a non-integer as an accessor error next to the type error', () => {
    expect(
      machinePool.validate({ ...base, spec: { ...spec, replicas: 'three' } }, { fieldValidation: 'Strict' }).causes,
    ).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
        field: 'spec.replicas',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64',
        field: '.spec.replicas',
      },
      nilCause,
    ]);
  });

  it('ClusterPool size: the schema minimum and the scale check both speak', () => {
    const pool = compiledWithScale('ClusterPool');
    const obj = {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterPool',
      metadata: { name: 'p' },
      spec: { platform: { aws: { region: 'r' } }, baseDomain: 'b', imageSetRef: { name: 'i' }, size: -2 },
    };
    expect(pool.validate(obj, { fieldValidation: 'Strict' }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -2: spec.size in body should be greater than or equal to 0',
        field: 'spec.size',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -2: should be a non-negative integer',
        field: '.spec.size',
      },
    ]);
  });
});

describe('schema engine: causes found by the server', () => {
  const crd: any = hiveCrds().find((c: any) => c.spec.names.kind === 'ClusterDeployment');
  const cd = compileSchema(crd.spec.versions[0].schema.openAPIV3Schema);
  const valid = { spec: { baseDomain: 'b', clusterName: 'c', platform: { aws: { region: 'r' } } } };

  it('come first, and a blocking one adds the skipped-CEL cause like on a real server', () => {
    const required = {
      reason: 'FieldValueRequired',
      message: 'Required value: name or generateName is required',
      field: 'metadata.name',
    };
    expect(cd.validate(valid, { fieldValidation: 'Warn', extraCauses: [required] }).causes).toEqual([
      required,
      nilCause,
    ]);
  });

  it('a non-blocking one is just listed', () => {
    const invalidName = { reason: 'FieldValueInvalid', message: 'Invalid value: "A": bad', field: 'metadata.name' };
    expect(cd.validate(valid, { fieldValidation: 'Warn', extraCauses: [invalidName] }).causes).toEqual([invalidName]);
  });
});

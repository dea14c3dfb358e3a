import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/sim/apiserver/schema/index.js';

const DURATION = '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$';
const specSchema = {
  type: 'object',
  properties: {
    baseDomain: { type: 'string' },
    powerState: { type: 'string', enum: ['', 'Running', 'Hibernating'] },
    level: { type: 'integer', enum: [1, 2] },
    installed: { type: 'boolean' },
    size: { type: 'integer', format: 'int32', minimum: 0, maximum: 10 },
    ratio: { type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true, exclusiveMinimum: true },
    hibernateAfter: { type: 'string', pattern: DURATION },
    name: { type: 'string', minLength: 2, maxLength: 5 },
    when: { type: 'string', format: 'date-time' },
    blob: { type: 'string', format: 'byte' },
    timeout: { type: 'string', format: 'duration' },
    count: { type: 'integer', format: 'int32' },
    port: { 'x-kubernetes-int-or-string': true },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
    uniq: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    set: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    conditions: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      items: {
        type: 'object',
        required: ['status', 'type'],
        properties: { type: { type: 'string' }, status: { type: 'string' } },
      },
    },
    resources: {
      type: 'array',
      items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    },
    either: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] },
    notEmpty: { type: 'string', not: { enum: [''] } },
  },
  required: ['baseDomain'],
};

function causesOf(spec: unknown, withCel = false) {
  const schemaDoc: any = { type: 'object', properties: { spec: structuredClone(specSchema) } };
  if (withCel)
    schemaDoc.properties.spec.properties.guarded = {
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'self > 0' }],
    };
  return compileSchema(schemaDoc).validate({ spec }, { fieldValidation: 'Strict' }).causes;
}
const ok = { baseDomain: 'example.com' };

describe('schema engine: error causes match kube-apiserver 1.26', () => {
  it('accepts a valid object', () => {
    expect(
      causesOf({
        ...ok,
        powerState: '',
        installed: true,
        size: 3,
        port: 'http',
        tags: ['a'],
        conditions: [{ type: 'A', status: 'True' }],
      }),
    ).toEqual([]);
  });

  it('enum: FieldValueNotSupported listing the supported values (golden 13)', () => {
    expect(causesOf({ ...ok, powerState: 'Bogus', level: 3 })).toEqual([
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: 3: supported values: "1", "2"',
        field: 'spec.level',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Bogus": supported values: "", "Running", "Hibernating"',
        field: 'spec.powerState',
      },
    ]);
  });

  it('required: FieldValueRequired (golden 14)', () => {
    expect(causesOf({})).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.baseDomain' },
    ]);
  });

  it('type: FieldValueTypeInvalid naming the JSON type received (golden 15)', () => {
    expect(causesOf({ ...ok, installed: 'yes', size: 1.5, port: true })).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "string": spec.installed in body must be of type boolean: "string"',
        field: 'spec.installed',
      },
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
        field: 'spec.port',
      },
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "number": spec.size in body must be of type integer: "number"',
        field: 'spec.size',
      },
    ]);
  });

  it('pattern, minLength and format: FieldValueInvalid / TypeInvalid with the kube-openapi sentence', () => {
    expect(causesOf({ ...ok, hibernateAfter: '1d', name: 'a', when: 'yesterday' })).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "1d": spec.hibernateAfter in body should match '${DURATION}'`,
        field: 'spec.hibernateAfter',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "a": spec.name in body should be at least 2 chars long',
        field: 'spec.name',
      },
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
        field: 'spec.when',
      },
    ]);
  });

  it('formats: known ones are checked (byte, duration), int32/int64 are not', () => {
    expect(
      causesOf({ ...ok, blob: 'eyJhIjoxfQ==', timeout: '1m30s', count: 2 ** 40, when: '2026-01-02T03:04:05Z' }),
    ).toEqual([]);
    expect(causesOf({ ...ok, blob: '{x}', timeout: '5' })).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "{x}": spec.blob in body must be of type byte: "{x}"',
        field: 'spec.blob',
      },
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "5": spec.timeout in body must be of type duration: "5"',
        field: 'spec.timeout',
      },
    ]);
  });

  it('maxLength: FieldValueTooLong without the value', () => {
    expect(causesOf({ ...ok, name: 'toolong' })).toEqual([
      { reason: 'FieldValueTooLong', message: 'Too long: may not be longer than 5', field: 'spec.name' },
    ]);
  });

  it('minimum and maximum, inclusive and exclusive', () => {
    expect(causesOf({ ...ok, size: 11, ratio: 1 })).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 1: spec.ratio in body should be less than 1',
        field: 'spec.ratio',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 11: spec.size in body should be less than or equal to 10',
        field: 'spec.size',
      },
    ]);
    expect(causesOf({ ...ok, size: -1, ratio: 0 })).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: spec.ratio in body should be greater than 0',
        field: 'spec.ratio',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: spec.size in body should be greater than or equal to 0',
        field: 'spec.size',
      },
    ]);
  });

  it('array sizes: maxItems is FieldValueTooMany, minItems and uniqueItems are FieldValueInvalid', () => {
    expect(causesOf({ ...ok, tags: ['a', 'b', 'c'], uniq: ['x', 'x'] })).toEqual([
      { reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items', field: 'spec.tags' },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "": spec.uniq in body shouldn\'t contain duplicates',
        field: 'spec.uniq',
      },
    ]);
    expect(causesOf({ ...ok, tags: [] })).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: spec.tags in body should have at least 1 items',
        field: 'spec.tags',
      },
    ]);
  });

  it('list-type set and map: FieldValueDuplicate at the second appearance', () => {
    expect(
      causesOf({
        ...ok,
        set: ['a', 'b', 'a', 'a'],
        conditions: [
          { type: 'A', status: 'x' },
          { type: 'A', status: 'y' },
        ],
      }),
    ).toEqual([
      {
        reason: 'FieldValueDuplicate',
        message: 'Duplicate value: map[string]interface {}{"type":"A"}',
        field: 'spec.conditions[1]',
      },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"', field: 'spec.set[2]' },
    ]);
  });

  it('nested required fields carry the item index (golden 40)', () => {
    expect(causesOf({ ...ok, conditions: [{ type: 'Ready' }] })).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.conditions[0].status' },
    ]);
  });

  it('embedded resources must name their kind and apiVersion', () => {
    expect(causesOf({ ...ok, resources: [{ metadata: { name: 'x' } }] })).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: must not be empty', field: 'spec.resources[0].kind' },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: must not be empty',
        field: 'spec.resources[0].apiVersion',
      },
    ]);
  });

  it('anyOf and not are value validations', () => {
    expect(causesOf({ ...ok, either: 'b-ok', notEmpty: 'x' })).toEqual([]);
    const causes = causesOf({ ...ok, either: 'c', notEmpty: '' });
    expect(causes[0]).toEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "c": spec.either in body must validate at least one schema (anyOf)',
      field: 'spec.either',
    });
    expect(causes.at(-1)).toEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "": spec.notEmpty in body must not validate the schema (not)',
      field: 'spec.notEmpty',
    });
  });
});

describe('schema engine: the "<nil>" cause for skipped CEL rules', () => {
  const nilCause = {
    reason: 'FieldValueInvalid',
    message:
      'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    field: '<nil>',
  };

  it('is added after a blocking error when the schema has x-kubernetes-validations (goldens 14-16)', () => {
    expect(causesOf({}, true)).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.baseDomain' },
      nilCause,
    ]);
    expect(causesOf({ ...ok, name: 'toolong' }, true).at(-1)).toEqual(nilCause);
  });

  it('is not added for enum errors alone in 1.26 (golden 13) nor for pattern errors', () => {
    expect(causesOf({ ...ok, powerState: 'Bogus' }, true)).toHaveLength(1);
    expect(causesOf({ ...ok, hibernateAfter: '1d' }, true)).toHaveLength(1);
  });

  it('is never added when the schema has no CEL rules', () => {
    expect(causesOf({})).toHaveLength(1);
  });
});

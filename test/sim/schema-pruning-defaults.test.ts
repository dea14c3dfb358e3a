import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/sim/apiserver/schema/index.js';

const ref = { type: 'object', properties: { name: { type: 'string', default: '' } } };
const schema = compileSchema({
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        pullSecretRef: ref,
        absentRef: ref,
        mode: { type: 'string', default: 'Auto' },
        note: { type: 'string' },
        maybe: { type: 'string', nullable: true },
        items: {
          type: 'array',
          items: { type: 'object', properties: { kind: { type: 'string', default: 'Plain' }, n: { type: 'integer' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        opaque: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        resources: {
          type: 'array',
          items: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    },
  },
});
const warn = { fieldValidation: 'Warn' } as const;

describe('schema engine: defaults', () => {
  it('fills defaults inside objects that are present, but never creates absent objects (golden 07)', () => {
    const { value, causes } = schema.validate({ spec: { pullSecretRef: {} } }, warn);
    expect(causes).toEqual([]);
    expect(value.spec.pullSecretRef).toEqual({ name: '' });
    expect(value.spec).not.toHaveProperty('absentRef');
    expect(value.spec.mode).toBe('Auto');
  });

  it('keeps values that were sent and defaults each array item', () => {
    const { value } = schema.validate({ spec: { mode: 'Manual', items: [{ n: 1 }, { kind: 'Fancy' }] } }, warn);
    expect(value.spec.mode).toBe('Manual');
    expect(value.spec.items).toEqual([{ kind: 'Plain', n: 1 }, { kind: 'Fancy' }]);
  });

  it('replaces a null with the default, drops other non-nullable nulls silently, keeps nullable nulls', () => {
    const { value, causes } = schema.validate({ spec: { mode: null, note: null, maybe: null } }, warn);
    expect(causes).toEqual([]);
    expect(value.spec).toEqual({ mode: 'Auto', maybe: null });
  });

  it('does not touch the caller object', () => {
    const sent = { spec: { pullSecretRef: {}, bogus: 1 } };
    schema.validate(sent, warn);
    expect(sent).toEqual({ spec: { pullSecretRef: {}, bogus: 1 } });
  });
});

describe('schema engine: pruning', () => {
  it('drops unknown fields at any depth and reports their paths, sorted', () => {
    const { value, unknownFields } = schema.validate(
      {
        apiVersion: 'x/v1',
        kind: 'X',
        spec: { zzz: 1, items: [{ n: 1, extra: true }], pullSecretRef: { name: 'a', more: 'b' } },
      },
      warn,
    );
    expect(unknownFields).toEqual(['spec.items[0].extra', 'spec.pullSecretRef.more', 'spec.zzz']);
    expect(value).toEqual({
      apiVersion: 'x/v1',
      kind: 'X',
      spec: { items: [{ kind: 'Plain', n: 1 }], mode: 'Auto', pullSecretRef: { name: 'a' } },
    });
  });

  it('treats metadata as ObjectMeta: unknown metadata fields and top-level fields are dropped (golden 19)', () => {
    const { value, unknownFields } = schema.validate(
      {
        apiVersion: 'x/v1',
        kind: 'X',
        metadata: { name: 'a', labels: { k: 'v' }, notAMetaField: 'x', ownerReferences: [{ name: 'o', color: 'red' }] },
        notATopLevelField: 1,
      },
      warn,
    );
    expect(unknownFields).toEqual(['metadata.notAMetaField', 'metadata.ownerReferences[0].color', 'notATopLevelField']);
    expect(value.metadata).toEqual({ name: 'a', labels: { k: 'v' }, ownerReferences: [{ name: 'o' }] });
    expect(value).not.toHaveProperty('notATopLevelField');
  });

  it('keeps map values and unknown fields under x-kubernetes-preserve-unknown-fields, pruning known children', () => {
    const { value, unknownFields } = schema.validate(
      {
        spec: { labels: { a: 'b' }, opaque: { anything: { deep: 1 }, known: { a: 'x', b: 'pruned' } } },
      },
      warn,
    );
    expect(value.spec.labels).toEqual({ a: 'b' });
    expect(value.spec.opaque).toEqual({ anything: { deep: 1 }, known: { a: 'x' } });
    expect(unknownFields).toEqual(['spec.opaque.known.b']);
  });

  it('coerces the metadata of embedded resources too', () => {
    const { value, unknownFields } = schema.validate(
      {
        spec: {
          resources: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', junk: 1 }, data: { a: 'b' } }],
        },
      },
      warn,
    );
    expect(unknownFields).toEqual(['spec.resources[0].metadata.junk']);
    expect(value.spec.resources[0]).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { a: 'b' },
    });
  });

  it('still prunes with fieldValidation=Ignore but reports nothing', () => {
    const { value, unknownFields } = schema.validate({ spec: { zzz: 1 } }, { fieldValidation: 'Ignore' });
    expect(unknownFields).toEqual([]);
    expect(value.spec).not.toHaveProperty('zzz');
  });

  it('prefixes every reported path with `root`', () => {
    const { unknownFields } = schema.validate({ spec: { zzz: 1 } }, { fieldValidation: 'Strict', root: 'items[3]' });
    expect(unknownFields).toEqual(['items[3].spec.zzz']);
  });
});

import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { toStructural } from '../../src/hive/resources/crd.js';
import { HibernationScheduleSpecSchema } from '../../src/hive/resources/hibernation-schedule.js';
import { apiOnly, crdOnly } from '../../src/hive/resources/shared.js';
import { requestShape } from '../../src/http/request-shape.js';

const Sample = Type.Object({
  mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
  deadline: Type.Optional(Type.String({ ...crdOnly({ pattern: '^[0-9]+h$', default: '1h' }), description: 'd' })),
  names: Type.Optional(Type.Array(Type.String(), apiOnly({ minItems: 1 }))),
  labels: Type.Optional(Type.Record(Type.String(), Type.String())),
  nested: Type.Optional(Type.Object({ x: Type.Integer() })),
});

describe('a resource schema declared once', () => {
  it('becomes a structural CRD schema: enums for unions of literals, maps as additionalProperties, the CRD-only rules and none of the API-only ones', () => {
    expect(toStructural(Sample)).toEqual({
      type: 'object',
      required: ['mode'],
      properties: {
        mode: { type: 'string', enum: ['a', 'b'] },
        deadline: { type: 'string', default: '1h', pattern: '^[0-9]+h$', description: 'd' },
        names: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        nested: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } },
      },
    });
  });

  it('becomes a request body closed at every level, with the API-only rules and without the CRD-only ones', () => {
    const body = JSON.parse(JSON.stringify(requestShape(Sample)));
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.nested.additionalProperties).toBe(false);
    expect(body.required).toEqual(['mode']);
    expect(body.properties.deadline).toEqual({ type: 'string', description: 'd' });
    expect(body.properties.names.minItems).toBe(1);
    expect(body.properties.labels.additionalProperties).toBeUndefined();
  });

  it('keeps which properties are optional, so a body built from its properties requires the same ones', () => {
    const body = Type.Object({ name: Type.String(), ...requestShape(HibernationScheduleSpecSchema).properties });
    expect(body.required).toEqual(['name', 'timeZone']);
  });
});

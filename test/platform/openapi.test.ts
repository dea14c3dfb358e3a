import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { describeApi } from '../../src/system.js';
import { quietLog } from './support.js';

describe('the committed OpenAPI description', () => {
  it('matches what the API serves (run `npm run openapi` after changing a route)', async () => {
    const served = await describeApi(loadConfig({}), quietLog, systemClock);
    const committed = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));
    expect(served).toEqual(committed);
  });

  it('describes every route under /v1 (and GET /version) with its errors as problem+json', async () => {
    const spec = (await describeApi(loadConfig({}), quietLog, systemClock)) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    expect(spec.openapi).toBe('3.1.0');
    const paths = Object.keys(spec.paths);
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.filter((p) => !p.startsWith('/v1/'))).toEqual(['/version']);
    const notFound = spec.paths['/v1/jobs/{id}']!.get!.responses['404']!;
    expect(Object.keys(notFound.content ?? {})).toEqual(['application/problem+json']);
  });

  it("describes a claim's lifetimeHistory and a cluster's expiry history entry by entry, with the one entry shape", async () => {
    const spec = (await describeApi(loadConfig({}), quietLog, systemClock)) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: any }> }> }>
      >;
      components: { schemas: Record<string, any> };
    };
    const entry = { $ref: '#/components/schemas/ExpiryHistoryEntry' };
    expect(spec.components.schemas.Claim.properties.lifetimeHistory.items).toEqual(entry);
    expect(spec.components.schemas.Claim.required).toContain('lifetimeHistory');
    const expiryRef =
      spec.paths['/v1/clusters/{hub}/{namespace}/{name}/expiry']!.get!.responses['200']!.content['application/json']!
        .schema;
    expect(expiryRef).toEqual({ $ref: '#/components/schemas/GetClusterExpiryResponse' });
    expect(spec.components.schemas.GetClusterExpiryResponse.properties.history.items).toEqual(entry);
    const shape = spec.components.schemas.ExpiryHistoryEntry;
    expect(Object.keys(shape.properties).sort()).toEqual([
      'action',
      'at',
      'by',
      'from',
      'principal',
      'reason',
      'to',
      'via',
    ]);
    expect([...shape.required].sort()).toEqual(['action', 'at', 'by', 'via']);
    expect(shape.additionalProperties).toBe(false);
    expect(shape.properties.action.enum).toEqual(['set', 'extend', 'shorten', 'clear', 'default', 'cap']);
  });

  it('names every operation and every request and response body, and closes every request body', async () => {
    type Media = Record<string, { schema: { $ref?: string } }>;
    const spec = (await describeApi(loadConfig({}), quietLog, systemClock)) as {
      servers: unknown[];
      paths: Record<
        string,
        Record<
          string,
          { operationId?: string; requestBody?: { content: Media }; responses: Record<string, { content?: Media }> }
        >
      >;
      components: {
        schemas: Record<
          string,
          { additionalProperties?: boolean; anyOf?: Array<{ type?: string; additionalProperties?: boolean }> }
        >;
      };
    };
    expect(spec.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const operations = Object.values(spec.paths).flatMap((ops) => Object.values(ops));
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const ref = (media: Media | undefined) => Object.values(media ?? {}).map((m) => m.schema.$ref);
    for (const op of operations) {
      const bodies = [...ref(op.requestBody?.content), ...Object.values(op.responses).flatMap((r) => ref(r.content))];
      expect(
        bodies.every((r) => r?.startsWith('#/components/schemas/')),
        op.operationId,
      ).toBe(true);
      for (const name of ref(op.requestBody?.content).map((r) => r!.split('/').pop()!)) {
        const schema = spec.components.schemas[name]!;
        const objects = schema.anyOf ? schema.anyOf.filter((s) => s.type === 'object') : [schema];
        expect(
          objects.every((s) => s.additionalProperties === false),
          name,
        ).toBe(true);
      }
    }
  });
});

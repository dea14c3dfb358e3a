// Audit lines are never filtered out by a raised log level: an operator who sets LOG_LEVEL=warn to quiet the log
// still gets every audit record (only `silent` turns them off).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HUB, startBed, type Bed } from './support.js';

let bed: Bed;

beforeAll(async () => {
  bed = await startBed({ level: 'warn' });
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

it('with the log level at warn, a request still writes its audit line at info, and nothing else at info', async () => {
  const res = await bed.as('otto', { method: 'POST', url: `/v1/clusters/${HUB}/a-ns/missing/hibernate` });
  expect(res.statusCode).toBe(404);
  const line = await bed.auditLine(res.headers['x-request-id'] as string);
  expect(line).toMatchObject({ level: 30, audit: true, action: 'hibernateCluster', result: { status: 404 } });
  await bed.app.auditTrail.settled();
  expect(bed.lines.filter((l) => l.level === 30 && l.audit !== true)).toEqual([]);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

describe('the two-hub test bed', () => {
  let bed: TwoHubBed;
  beforeAll(async () => {
    bed = await startTwoHubBed();
  }, 60_000);
  afterAll(() => bed?.close());

  it('serves both hubs and installs a cluster on the source', async () => {
    const hubs = await bed.app.inject({ method: 'GET', url: '/v1/hubs' });
    expect(hubs.statusCode).toBe(200);
    expect(JSON.stringify(hubs.json())).toContain(WEST);
    await prerequisites(bed, EAST, 'team-a');
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/clusters?wait=60',
      payload: createBody(EAST, 'team-a', 'mover'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().job.state).toBe('completed');
  }, 90_000);
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

describe('logger', () => {
  it('redacts tokens, kubeconfigs, passwords, pull secrets and Secret data wherever they appear', async () => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
    const log = createLogger({ level: 'info', destination: out }).child({ hub: 'east', jobId: 'east.1' });
    log.info(
      {
        req: { headers: { authorization: 'Bearer sekret-1' } },
        connection: { kubeconfig: 'apiVersion: v1 sekret-2' },
        payload: { platform: { aws: { password: 'sekret-3' } }, pullSecret: 'sekret-4' },
        secret: { data: { '.dockerconfigjson': 'sekret-5' } },
        token: 'sekret-6',
        cluster: 'c1',
      },
      'did something',
    );
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ hub: 'east', jobId: 'east.1', cluster: 'c1', msg: 'did something' });
    expect(lines[0]).not.toMatch(/sekret/);
    expect(line.payload.platform.aws.password).toBe('[redacted]');
  });
});

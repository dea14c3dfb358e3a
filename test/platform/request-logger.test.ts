// request.log is made lazily (src/http/request-logger.ts): what it writes still carries the request's id, and what
// the level leaves out is not written.
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from '../../src/http/request-logger.js';
import { createLogger } from '../../src/logger.js';

describe('request.log', () => {
  it('writes at enabled levels with reqId and the redaction of the root logger, nothing below the level', async () => {
    const out = new PassThrough();
    const lines: Array<Record<string, unknown>> = [];
    out.on('data', (chunk: Buffer) => {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
    });
    const app = Fastify({
      loggerInstance: createLogger({ level: 'warn', destination: out }),
      childLoggerFactory: lazyRequestLogger,
      genReqId: () => 'req-7',
    });
    app.get('/x', async (request) => {
      request.log.info({ n: 1 }, 'below the level');
      request.log.warn({ token: 's3cr3t' }, 'sign-in failed');
      request.log.child({ step: 'two' }).error('from a child');
      return { level: request.log.level };
    });
    const res = await app.inject({ url: '/x' });
    await app.close();
    expect(res.json()).toEqual({ level: 'warn' });
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['sign-in failed', 'from a child']);
    expect(lines[0]).toMatchObject({ reqId: 'req-7', token: '[redacted]', level: 40 });
    expect(lines[1]).toMatchObject({ reqId: 'req-7', step: 'two', level: 50 });
  });
});

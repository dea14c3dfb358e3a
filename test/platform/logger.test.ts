import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger, isoTimeOncePerMs } from '../../src/logger.js';
import { stdoutLines } from '../../src/stdout-lines.js';

/** A logger writing to memory, and the lines it wrote so far, parsed. */
function capture() {
  const out = new PassThrough();
  const raw: string[] = [];
  out.on('data', (d: Buffer) => raw.push(...d.toString().trim().split('\n')));
  const log = createLogger({ level: 'info', destination: out });
  const lines = async () => {
    await new Promise((r) => setImmediate(r));
    return raw;
  };
  return { log, lines };
}

describe('logger', () => {
  it('redacts tokens, kubeconfigs, passwords, pull secrets and Secret data wherever they appear', async () => {
    const { log: root, lines } = capture();
    const log = root.child({ hub: 'east', jobId: 'east.1' });
    log.info(
      {
        req: { headers: { authorization: 'Bearer sekret-1', cookie: 'session=sekret-7', accept: '*/*' } },
        connection: { kubeconfig: 'apiVersion: v1 sekret-2' },
        payload: { platform: { aws: { password: 'sekret-3' } }, pullSecret: 'sekret-4' },
        secret: { data: { '.dockerconfigjson': 'sekret-5' } },
        hubs: [{ name: 'west', token: 'sekret-8' }],
        config: { auth: { tokens: ['sekret-9'], open: false } },
        token: 'sekret-6',
        cluster: 'c1',
      },
      'did something',
    );
    const [text] = await lines();
    const line = JSON.parse(text!);
    expect(line).toMatchObject({ hub: 'east', jobId: 'east.1', cluster: 'c1', msg: 'did something' });
    expect(text).not.toMatch(/sekret/);
    expect(line.payload.platform.aws.password).toBe('[redacted]');
    expect(line.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' });
    expect(line.hubs).toEqual([{ name: 'west', token: '[redacted]' }]);
    expect(line.config.auth).toEqual({ tokens: '[redacted]', open: false });
  });

  it("redacts a child's bindings and a logged error's fields, keeping the error's message and stack", async () => {
    const { log: root, lines } = capture();
    const log = root.child({ hub: 'east', connection: { token: 'sekret-1' } });
    const err = Object.assign(new Error('the hub refused the request'), {
      code: 'Forbidden',
      request: { headers: { authorization: 'Bearer sekret-2' } },
    });
    log.warn({ err, cluster: 'c1' }, 'failed');
    const [text] = await lines();
    const line = JSON.parse(text!);
    expect(text).not.toMatch(/sekret/);
    expect(line.connection).toEqual({ token: '[redacted]' });
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'the hub refused the request',
      code: 'Forbidden',
      request: { headers: { authorization: '[redacted]' } },
    });
    expect(line.err.stack).toContain('the hub refused the request');
  });

  it('leaves what was logged as it was, and logs lines without secrets unchanged', async () => {
    const { log, lines } = capture();
    const logged = { cluster: 'c1', spec: { token: 'sekret-1', labels: { team: 'a' } }, at: new Date(0) };
    log.info(logged, 'first');
    log.info({ cluster: 'c2', counts: [1, 2] }, 'second');
    const [first, second] = await lines();
    expect(logged.spec.token).toBe('sekret-1');
    expect(JSON.parse(first!)).toMatchObject({
      cluster: 'c1',
      spec: { token: '[redacted]', labels: { team: 'a' } },
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(JSON.parse(second!)).toMatchObject({ cluster: 'c2', counts: [1, 2] });
  });

  it('stamps each line with the millisecond it was written in, formatted once per millisecond', async () => {
    let now = Date.parse('2026-12-02T10:00:00.000Z');
    const time = isoTimeOncePerMs(() => now);
    expect(time()).toBe(',"time":"2026-12-02T10:00:00.000Z"');
    expect(time()).toBe(',"time":"2026-12-02T10:00:00.000Z"');
    now += 1;
    expect(time()).toBe(',"time":"2026-12-02T10:00:00.001Z"');
    now += 86_400_000;
    expect(time()).toBe(',"time":"2026-12-03T10:00:00.001Z"');

    const { log, lines } = capture();
    const logAt = () => {
      const before = Date.now();
      log.info('a line');
      return [before, Date.now()] as const;
    };
    const first = logAt();
    // Until the wall clock the lines carry has moved on 5 ms: timers run on the monotonic clock, which the wall
    // clock need not follow (a clock being slewed).
    while (Date.now() < first[1] + 5) await new Promise((r) => setImmediate(r));
    const second = logAt();
    const [one, two] = (await lines()).map((l) => Date.parse(JSON.parse(l).time as string));
    expect(one).toBeGreaterThanOrEqual(first[0]);
    expect(one).toBeLessThanOrEqual(first[1]);
    expect(two).toBeGreaterThanOrEqual(second[0]);
    expect(two).toBeLessThanOrEqual(second[1]);
    expect(two! - one!).toBeGreaterThanOrEqual(5);
  });

  it('has written a line to standard output when the call returns: a SIGKILL right after loses none', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/log-then-kill.ts', import.meta.url));
    // `node --import tsx` (not npx): the process that logs is the one killed. stdout is a pipe, as in a container.
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const signal = await new Promise((r) => child.once('close', (_code, s) => r(s)));
    expect(signal).toBe('SIGKILL');
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; msg: string });
    expect(lines.map((l) => [l.line, l.msg])).toEqual([0, 1, 2].map((i) => [i, 'before the kill']));
  });

  it('never waits for a reader that has stopped reading, and every line arrives once it reads again', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/log-burst-unread.ts', import.meta.url));
    // 20,000 lines are about 3 MB, far more than a pipe holds (64 KiB): a writer that waits for the pipe would
    // still be writing when the reader starts, and the test would time out waiting for "logged".
    const count = 20_000;
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    let err = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes(`logged ${count}`)) resolve();
      });
      child.once('close', (code) => reject(new Error(`exited ${code} before it had logged: ${err}`)));
      setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('still logging 15 s after it started, with its reader stopped: logging waits for the reader'));
      }, 15_000).unref();
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdout.resume();
    await new Promise((r) => child.once('close', r));
    const lines = out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { line: number }).line);
    expect(lines).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it('drops lines past its backlog while the reader is stopped, and says how many once it has drained', async () => {
    let release: (() => void) | undefined;
    const written: string[] = [];
    // A reader that takes each chunk only when released, as a stopped pipe reader would.
    const out = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        release = done;
      },
    });
    const dropped: number[] = [];
    const dest = stdoutLines({ out, maxBacklogBytes: 100, onDropped: (n) => dropped.push(n) });
    for (let i = 0; i < 10; i++) dest.write(`line ${i} ${'x'.repeat(30)}\n`);
    // Lines of 38 bytes: the queue (the line being written included) passes 100 bytes with the third; the
    // seven after it are dropped, and nothing is said of them until the queue has drained.
    expect(dropped).toEqual([]);
    while (release) {
      const r = release;
      release = undefined;
      r();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(written.map((w) => w.split(' ')[1])).toEqual(['0', '1', '2']);
    expect(dropped).toEqual([7]);
    dest.write('after\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.at(-1)).toBe('after\n');
  });
});

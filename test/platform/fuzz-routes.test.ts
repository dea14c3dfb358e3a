// Every route of the OpenAPI document, fed random and hostile input: wrong types, missing and unknown fields,
// oversized values and bodies, deep nesting, prototype keys, traversal and odd names in the path, bad JSON and
// content types, bad query values, bad methods and credentials, control characters in headers. Every answer is a
// 4xx (never a 5xx, never a hang) with a problem+json body, and nothing is written: no object of any kind in any
// namespace of the hub, no job. Operations come from the served document, so a new route is fuzzed unedited.
//
// FUZZ_SEED=<n> replays a run (the seed is printed with every failure); FUZZ_ROUNDS=<n> runs more random cases per
// operation (default 20, plus one case of each kind); FUZZ_LOG=<file> appends every request and its status there.
// "Nothing is written" is watched on the simulator's own store (its change feed: every kind, every namespace), so
// a write is caught at the request that made it.
import { appendFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode, everyKind, randomCases, show, type CaseContext, type FuzzCase } from './fuzz-cases.js';
import { HOSTILE_STRINGS, ODD_METHODS } from './fuzz-inputs.js';
import { CORPUS } from './fuzz-corpus.js';
import { operationsOf, type Operation, type Schema } from './fuzz-openapi.js';
import { createRandom, fuzzRounds, fuzzSeed } from './fuzz-random.js';
import { SAMPLES } from './fuzz-samples.js';
import { startWorld, TOKEN, type World } from './fuzz-world.js';

const REQUEST_TIMEOUT_MS = 15_000;
const seed = fuzzSeed();
const rounds = fuzzRounds();

let world: World;
let operations: Operation[];
let resolve: (s: Schema) => Schema;

beforeAll(async () => {
  world = await startWorld();
  const res = await world.app.inject({ url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  ({ operations, resolve } = operationsOf(res.json()));
  // GET /version takes no input at all (no parameters, no token, like /healthz): nothing there to refuse.
  operations = operations.filter((o) => o.path.startsWith('/v1/'));
}, 120_000);
afterAll(async () => world?.close());

interface Outcome {
  status: number;
  type: string;
  body: string;
}

async function send(c: FuzzCase): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    const res = await Promise.race([
      world.app.inject({
        method: c.method as 'GET',
        url: c.url,
        headers: c.headers,
        ...(c.payload !== undefined ? { payload: c.payload } : {}),
      }),
      timeout,
    ]);
    return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), body: res.body };
  } finally {
    clearTimeout(timer);
  }
}

function contextFor(op: Operation): CaseContext {
  const resource = op.path.split('/')[2]!;
  const pathParams = op.params.filter((p) => p.in === 'path').map((p) => p.name);
  // A route of a kind the world has no object of (a new one) is attacked at a name that exists nowhere.
  const known = world.params[resource] ?? {};
  const params = Object.fromEntries(pathParams.map((p) => [p, known[p] ?? world.params.clusters![p] ?? 'fz-none']));
  return {
    op,
    target: { params, ...(SAMPLES[op.key] !== undefined ? { body: SAMPLES[op.key] } : {}) },
    token: TOKEN,
    resolve,
    pathMethods: new Set(operations.filter((o) => o.path === op.path).map((o) => o.method)),
  };
}

/** Runs the cases, one at a time, and returns what went wrong with each (empty when all held). */
async function attack(cases: FuzzCase[], opts: { problemBodies?: boolean } = {}): Promise<string[]> {
  const problems: string[] = [];
  const jobsBefore = await world.jobs();
  world.takeWrites();
  for (const c of cases) {
    const where = `${c.op} [${c.method} ${show(c.url)}] ${c.what}`;
    let out: Outcome;
    try {
      out = await send(c);
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
      continue;
    }
    if (process.env.FUZZ_LOG) appendFileSync(process.env.FUZZ_LOG, `${out.status} ${where}\n`);
    const wrong: string[] = [];
    if (out.status >= 500) wrong.push(`answered ${out.status}: ${out.body.slice(0, 300)}`);
    // A rate limit would answer before validation and hide everything this suite looks for.
    if (out.status === 429) wrong.push('answered 429: give the fuzz world a rate limit it does not reach');
    else if (c.refused && (out.status < 400 || out.status >= 500)) wrong.push(`answered ${out.status}, not 4xx`);
    if (
      opts.problemBodies !== false &&
      out.status >= 400 &&
      out.body.length > 0 &&
      !out.type.startsWith('application/problem+json')
    )
      wrong.push(`answered ${out.status} as ${out.type || 'no content type'}: ${out.body.slice(0, 200)}`);
    const writes = world.takeWrites();
    if (writes.length) wrong.push(`wrote to the hub: ${writes.join('; ')}`);
    // What it started (an install, a pool growing for a claim) must not be blamed on the next request.
    if (writes.length) await world.settle(15_000);
    const jobsAfter = await world.jobs();
    const newJobs = jobsAfter.filter((j) => !jobsBefore.includes(j));
    if (newJobs.length) {
      wrong.push(`enqueued or changed jobs: ${newJobs.join('; ')}`);
      jobsBefore.splice(0, jobsBefore.length, ...jobsAfter);
    }
    if (wrong.length) {
      const body = typeof c.payload === 'string' ? ` body ${c.payload.slice(0, 400)}` : '';
      problems.push(`${where}: ${wrong.join('; ')}${body}`);
    }
  }
  return problems;
}

const report = (problems: string[]) =>
  `${problems.length} request(s) misbehaved (FUZZ_SEED=${seed} FUZZ_ROUNDS=${rounds} replays them):\n${problems.join('\n')}`;

describe(`fuzz of every route (FUZZ_SEED=${seed})`, () => {
  it('reads the operations from the served OpenAPI document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(50);
    expect(operations.filter((o) => o.body).length).toBeGreaterThanOrEqual(14);
  });

  it('the requests it found answered wrongly are refused, and nothing changes', async () => {
    const cases = CORPUS.map((c) => ({
      ...c,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(c.payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
    }));
    const problems = await attack(cases);
    expect(problems, report(problems)).toEqual([]);
  });

  it('every operation refuses each kind of hostile input with a 4xx problem, and nothing changes', async () => {
    const random = createRandom(seed);
    const cases = operations.flatMap((op) => everyKind(contextFor(op), random));
    const problems = await attack(cases);
    expect(problems, report(problems)).toEqual([]);
  }, 120_000);

  it('every operation refuses random hostile input with a 4xx problem, and nothing changes', async () => {
    const random = createRandom(seed + 1);
    const cases = operations.flatMap((op) => randomCases(contextFor(op), random, rounds));
    const problems = await attack(cases);
    expect(problems, report(problems)).toEqual([]);
  }, 300_000);
});

describe('paths outside the OpenAPI document', () => {
  // Probes, metrics, the document itself and the queue dashboard's API (bull-board, platform admins only).
  const paths = ['/healthz', '/readyz', '/metrics', '/openapi.json', '/admin/queues/api/queues'];

  it('hostile query values and odd methods never answer 5xx, and nothing changes', async () => {
    const random = createRandom(seed + 2);
    const cases: FuzzCase[] = [];
    for (const path of paths) {
      for (const name of ['status', 'activeQueue', 'page', 'jobsPerPage', 'x', '__proto__']) {
        for (const value of ['\u0000', 'a\u0000b', '..', '-1', '1e400', random.pick(HOSTILE_STRINGS)]) {
          cases.push({
            op: path,
            what: `query ${name}=${show(value)}`,
            method: 'GET',
            url: `${path}?${name}=${encode(value)}`,
            headers: { authorization: `Bearer ${TOKEN}` },
            // The dashboard's own API may answer its own 400 (not problem+json); a 5xx is what must not happen.
            refused: false,
          });
        }
      }
      for (const method of ['PUT', 'PATCH', 'DELETE', ...ODD_METHODS])
        cases.push({ op: path, what: `method ${method}`, method, url: path, headers: {}, refused: true });
    }
    const problems = await attack(cases, { problemBodies: false });
    expect(problems, report(problems)).toEqual([]);
  });

  it("a NUL in the dashboard API's query is a 400 problem (bull-board answered 500)", async () => {
    const res = await world.app.inject({
      url: '/admin/queues/api/queues?status=%00',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('control characters in headers on the wire', () => {
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await world.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });

  /** A raw HTTP/1.1 exchange: Node's parser, not the test's HTTP client, decides what a header is. */
  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      socket.on('data', (d) => {
        text += d.toString('latin1');
        // One answer is enough: keep-alive would hold the socket open.
        if (/\r\n\r\n/.test(text) && answerComplete(text)) socket.end();
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on('error', (err) => {
        clearTimeout(timer);
        if (text) resolve(text);
        else reject(err);
      });
    });
  }

  function answerComplete(text: string): boolean {
    const head = text.slice(0, text.indexOf('\r\n\r\n'));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    return !length || Buffer.byteLength(text.slice(head.length + 4), 'latin1') >= Number(length[1]);
  }

  const hostile = ['a\u0000b', 'a\rb', 'a\nb', 'a\r\n\r\nGET /v1/hubs HTTP/1.1', 'ü\u0001', 'x\u007f'];
  const headers = ['Idempotency-Key', 'X-Request-Id', 'Authorization'];

  it('CR, LF and NUL in Idempotency-Key, X-Request-Id and Authorization are refused, and nothing changes', async () => {
    const problems: string[] = [];
    world.takeWrites();
    const jobsBefore = await world.jobs();
    for (const header of headers) {
      for (const value of hostile) {
        const auth = header === 'Authorization' ? '' : `Authorization: Bearer ${TOKEN}\r\n`;
        // A body the API refuses anyway (a cluster without its fields), so only the header is on trial: if the
        // parser took the header apart, the request must still fail, never create.
        const body = '{"name":"raw"}';
        const text = await raw(
          `POST /v1/clusters HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\n${header}: ${value}\r\nConnection: close\r\n\r\n${body}`,
        );
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
        if (!(status >= 400 && status < 500))
          problems.push(`${header}: ${show(value)} answered ${JSON.stringify(text.slice(0, 200))}`);
        else if (!/\r\ncontent-type: application\/problem\+json/i.test(text))
          problems.push(`${header}: ${show(value)} answered ${status} without problem+json`);
        // The header's value never comes back as a header of the answer.
        if (/\r\nX-Injected/i.test(text)) problems.push(`${header}: ${show(value)} injected a header`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(world.takeWrites()).toEqual([]);
    expect(await world.jobs()).toEqual(jobsBefore);
  }, 120_000);
});

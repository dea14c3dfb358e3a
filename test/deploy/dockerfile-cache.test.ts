// The smoke test's build-stage cache (test/deploy/dockerfile.ts) must never hand back a stale tree: a changed file
// that a COPY takes from the context rebuilds, a file the context leaves out does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performDockerfile } from './dockerfile.js';

const DOCKERFILE = `FROM base AS build
WORKDIR /b
COPY input.txt ./
RUN cat input.txt input.txt > out.txt
FROM runtime
WORKDIR /app
COPY --from=build /b/out.txt /app/out.txt
CMD ["out.txt"]
`;

describe('the Dockerfile build-stage cache', () => {
  let context: string;
  let cacheDir: string;
  let n = 0;
  const build = () => {
    const work = mkdtempSync(join(tmpdir(), 'dockerfile-cache-work-'));
    const image = performDockerfile(context, work, {}, { cacheDir });
    const out = readFileSync(join(image.root, 'app', 'out.txt'), 'utf8');
    rmSync(work, { recursive: true, force: true });
    return { out, cached: image.timings.some((t) => t.run.startsWith('build stage from the cache')), n: ++n };
  };

  beforeAll(() => {
    context = mkdtempSync(join(tmpdir(), 'dockerfile-cache-'));
    cacheDir = join(context, '.cache');
    writeFileSync(join(context, 'Dockerfile'), DOCKERFILE);
    writeFileSync(join(context, '.dockerignore'), '*\n!input.txt\n');
    writeFileSync(join(context, 'input.txt'), 'a\n');
    writeFileSync(join(context, 'notes.md'), 'outside the context\n');
  });
  afterAll(() => rmSync(context, { recursive: true, force: true }));

  it('reuses the build stage while its inputs are unchanged and rebuilds when one changes', () => {
    expect(build()).toMatchObject({ out: 'a\na\n', cached: false });
    expect(build()).toMatchObject({ out: 'a\na\n', cached: true });
    writeFileSync(join(context, 'notes.md'), 'changed, but not in the build context\n');
    expect(build()).toMatchObject({ out: 'a\na\n', cached: true });
    writeFileSync(join(context, 'input.txt'), 'b\n');
    expect(build()).toMatchObject({ out: 'b\nb\n', cached: false });
    writeFileSync(join(context, 'Dockerfile'), DOCKERFILE.replace('cat input.txt input.txt', 'cat input.txt'));
    expect(build()).toMatchObject({ out: 'b\n', cached: false });
  });
});

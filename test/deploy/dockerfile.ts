// The Dockerfile performed without a container engine: the build stage's COPY (from the context, as .dockerignore
// filters it) and RUN lines in a temporary directory, then the runtime stage's COPY --from lines into a tree laid out
// like the image's root filesystem. What the image would run (user, working directory, environment, entrypoint and
// command) comes back for the test to start. Anything this does not understand fails loudly, so that a Dockerfile
// change the smoke test cannot follow is noticed rather than silently not tested.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';
import { parseDockerfile, parsePairs, dockerignore, type Stage } from './dockerfile-parse.js';

/** The image smoke test checks the build context against the same rules. */
export { dockerignore };

export interface BuiltImage {
  /** The image's root filesystem (as far as the Dockerfile lays it out: no base image). */
  root: string;
  /** ENV of the runtime stage. */
  env: Record<string, string>;
  workdir: string;
  user: string;
  entrypoint: string[];
  cmd: string[];
  expose: string[];
  labels: Record<string, string>;
  /** ARG defaults of the runtime stage (a LABEL's ${VERSION}, say). */
  args: Record<string, string>;
  /** RUN lines of the runtime stage, not performed (OS packages for the base image). */
  osPackages: string[];
  /** Seconds each RUN of the build stage took. */
  timings: Array<{ run: string; seconds: number }>;
}

/**
 * Performs the Dockerfile of `context` in `work`: `work/build` is the build stage's filesystem, `work/image` the
 * runtime stage's. RUN lines run with `runEnv` (an npm cache, say) over this process's environment.
 */
export function performDockerfile(
  context: string,
  work: string,
  runEnv: Record<string, string> = {},
  { cacheDir }: { cacheDir?: string } = {},
): BuiltImage {
  const stages = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));
  if (stages.length !== 2 || !stages[0]!.name)
    throw new Error('Dockerfile: expected a named build stage and a runtime stage');
  const [build, runtime] = stages as [Stage, Stage];
  const ignored = dockerignore(readFileSync(join(context, '.dockerignore'), 'utf8'));
  const buildRoot = join(work, 'build');
  const imageRoot = join(work, 'image');
  const at = (root: string, cwd: string, path: string) => join(root, posix.resolve(cwd, path));

  let cwd = '/';
  const timings: BuiltImage['timings'] = [];
  const buildEnv: Record<string, string> = {};
  // As a builder's layer cache: the build stage's result is reused when nothing it reads changed (its instructions,
  // the files its COPY lines take from the context, the environment of its RUN lines). .ci/run's second pass and a
  // developer's rerun then start the roles from the same tree without a second npm ci and build.
  const key = cacheDir ? buildStageKey(context, build, ignored, runEnv) : undefined;
  const cached = cacheDir && key ? join(cacheDir, key) : undefined;
  if (cached && existsSync(join(cached, '.complete'))) {
    const started = Date.now();
    mkdirSync(buildRoot, { recursive: true });
    execFileSync('cp', ['-al', `${cached}/build/.`, buildRoot]);
    timings.push({ run: `build stage from the cache (${key!.slice(0, 12)})`, seconds: (Date.now() - started) / 1000 });
  } else {
    for (const { keyword, args } of build.steps) {
      if (keyword === 'USER' || keyword === 'ARG') continue; // the test runs the build as root, like USER 0
      if (keyword === 'WORKDIR') {
        cwd = posix.resolve(cwd, args);
        mkdirSync(at(buildRoot, '/', cwd), { recursive: true });
      } else if (keyword === 'ENV') {
        Object.assign(buildEnv, parsePairs(args));
      } else if (keyword === 'COPY') {
        const words = args.split(/\s+/);
        if (words.some((w) => w.startsWith('--')))
          throw new Error(`Dockerfile: COPY flags in the build stage: ${args}`);
        const dest = words.pop()!;
        for (const src of words)
          copyFromContext(context, src, at(buildRoot, cwd, dest), dest.endsWith('/') || words.length > 1, ignored);
      } else if (keyword === 'RUN') {
        // Absolute paths would reach outside the temporary directory here.
        if (/(^|[\s=])\//.test(args))
          throw new Error(`Dockerfile: RUN in the build stage with an absolute path: ${args}`);
        const started = Date.now();
        execFileSync('sh', ['-c', args], {
          cwd: at(buildRoot, '/', cwd),
          env: { ...process.env, ...buildEnv, ...runEnv },
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 * 1024 * 1024,
        });
        timings.push({ run: args, seconds: (Date.now() - started) / 1000 });
      } else {
        throw new Error(`Dockerfile: the smoke test does not perform ${keyword} in the build stage`);
      }
    }

    if (cached && cacheDir) {
      // One entry: an older build is of no further use.
      rmSync(cacheDir, { recursive: true, force: true });
      mkdirSync(`${cached}.partial`, { recursive: true });
      execFileSync('cp', ['-al', `${buildRoot}/.`, `${cached}.partial/build`]);
      writeFileSync(join(`${cached}.partial`, '.complete'), '');
      renameSync(`${cached}.partial`, cached);
    }
  }

  const image: BuiltImage = {
    root: imageRoot,
    env: {},
    workdir: '/',
    user: 'root',
    entrypoint: [],
    cmd: [],
    expose: [],
    labels: {},
    args: {},
    osPackages: [],
    timings,
  };
  mkdirSync(imageRoot, { recursive: true });
  for (const { keyword, args } of runtime.steps) {
    if (keyword === 'COPY') {
      const m = new RegExp(`^--from=${build.name}\\s+(\\S+)\\s+(\\S+)$`).exec(args);
      if (!m) throw new Error(`Dockerfile: the runtime stage copies only from ${build.name}: ${args}`);
      const dest = at(imageRoot, image.workdir, m[2]!);
      mkdirSync(dirname(dest), { recursive: true });
      // Hard links where possible: the same files, without copying a few hundred megabytes again.
      // A directory's contents go into the destination, as Docker copies them.
      let from = join(buildRoot, m[1]!);
      if (statSync(from).isDirectory()) {
        mkdirSync(dest, { recursive: true });
        from = `${from}/.`;
      }
      if (spawnSync('cp', ['-al', from, dest]).status !== 0) execFileSync('cp', ['-a', from, dest]);
    } else if (keyword === 'WORKDIR') {
      image.workdir = posix.resolve(image.workdir, args);
      mkdirSync(at(imageRoot, '/', image.workdir), { recursive: true });
    } else if (keyword === 'ENV') Object.assign(image.env, parsePairs(args));
    else if (keyword === 'LABEL') Object.assign(image.labels, parsePairs(args));
    else if (keyword === 'ARG') Object.assign(image.args, parsePairs(args));
    else if (keyword === 'USER') image.user = args;
    else if (keyword === 'EXPOSE') image.expose.push(...args.split(/\s+/));
    else if (keyword === 'ENTRYPOINT') image.entrypoint = JSON.parse(args) as string[];
    else if (keyword === 'CMD') image.cmd = JSON.parse(args) as string[];
    else if (keyword === 'RUN') {
      // The base image's package manager, which this machine cannot run; the test's host has those libraries.
      if (!/^microdnf install /.test(args))
        throw new Error(`Dockerfile: RUN in the runtime stage other than OS packages: ${args}`);
      image.osPackages.push(args);
    } else throw new Error(`Dockerfile: the smoke test does not follow ${keyword} in the runtime stage`);
  }
  return image;
}

/** COPY <src> <dest> from the build context, leaving out what .dockerignore leaves out of the context. */
function copyFromContext(
  context: string,
  src: string,
  dest: string,
  intoDir: boolean,
  ignored: (p: string) => boolean,
): void {
  const rel = posix.normalize(src).replace(/\/$/, '');
  const from = join(context, rel);
  if (!existsSync(from) || ignored(rel)) throw new Error(`Dockerfile: COPY ${src}: not in the build context`);
  if (statSync(from).isDirectory()) {
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const inContext = relative(context, path).split('\\').join('/');
        if (ignored(inContext)) continue;
        if (entry.isDirectory()) walk(path);
        else cpSync(path, join(dest, relative(from, path)));
      }
    };
    walk(from);
  } else {
    const target = intoDir ? join(dest, basename(rel)) : dest;
    mkdirSync(dirname(target), { recursive: true });
    cpSync(from, target);
  }
}

/** What the build stage reads: its instructions, the context files its COPY lines take, its RUN environment. */
function buildStageKey(
  context: string,
  build: Stage,
  ignored: (p: string) => boolean,
  runEnv: Record<string, string>,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ steps: build.steps, runEnv, platform: process.platform, arch: process.arch }));
  const add = (path: string) => {
    const rel = relative(context, path).split('\\').join('/');
    if (ignored(rel)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(path, entry));
    } else {
      hash.update(`\0${rel}\0`);
      hash.update(readFileSync(path));
    }
  };
  for (const { keyword, args } of build.steps) {
    if (keyword !== 'COPY') continue;
    const words = args.split(/\s+/);
    words.pop();
    for (const src of words) add(join(context, posix.normalize(src).replace(/\/$/, '')));
  }
  return hash.digest('hex');
}

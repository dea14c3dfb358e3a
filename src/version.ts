// What this Beekeeper is: its version (package.json), the commit it was built from when known, the Node it runs on,
// the apiVersion of its own resources and the Hive it supports. Served at GET /version by every role, logged at
// start-up, printed by `beekeeper version`. Read once at start: files only, no git and no network at runtime.
import { readFileSync } from 'node:fs';
import { BEEKEEPER_API_VERSION } from './hive/resources/crd.js';
import { SUPPORTED_HIVE } from './hive/supported-hive.js';

export interface VersionInfo {
  /** package.json's version. */
  version: string;
  /** The git commit the build came from; null when nobody recorded it (a checkout run through tsx). */
  commit: string | null;
  /** process.version, e.g. v24.21.0. */
  node: string;
  /** The apiVersion Beekeeper writes its own resources with (beekeeper.io/v1beta1). */
  apiGroupVersion: string;
  supportedHive: {
    apiVersion: string;
    testedCommit: string;
    testedCommitDate: string;
    requires: string;
  };
}

export interface VersionSources {
  /** BEEKEEPER_COMMIT, set by the image build (a build argument turned into an environment variable). */
  commit?: string | undefined;
  /** Where package.json and build-info.json are looked for; defaults suit both src/ (tsx) and dist/ (node). */
  packageJson?: URL;
  buildInfo?: URL;
}

const COMMIT = /^[0-9a-f]{7,64}$/;

/**
 * `npm run build` writes dist/build-info.json (scripts/write-build-info.js) beside dist/version.js with the commit
 * of the checkout it built, when it can tell; BEEKEEPER_COMMIT wins over it (an image built from a tarball without
 * .git gets the commit from its build argument). Anything that is not a plain hex id is ignored rather than echoed.
 */
export function readVersionInfo(sources: VersionSources = {}): VersionInfo {
  const pkg = readJson(sources.packageJson ?? new URL('../package.json', import.meta.url)) as { version?: unknown };
  const built = readJson(sources.buildInfo ?? new URL('./build-info.json', import.meta.url)) as { commit?: unknown };
  const commit = [sources.commit, built?.commit].find((c): c is string => typeof c === 'string' && COMMIT.test(c));
  return {
    version: typeof pkg?.version === 'string' ? pkg.version : '0.0.0-unknown',
    commit: commit ?? null,
    node: process.version,
    apiGroupVersion: BEEKEEPER_API_VERSION,
    supportedHive: {
      apiVersion: SUPPORTED_HIVE.apiGroupVersion,
      testedCommit: SUPPORTED_HIVE.testedCommit,
      testedCommitDate: SUPPORTED_HIVE.testedCommitDate,
      requires: SUPPORTED_HIVE.requires,
    },
  };
}

function readJson(url: URL): unknown {
  try {
    return JSON.parse(readFileSync(url, 'utf8'));
  } catch {
    return undefined;
  }
}

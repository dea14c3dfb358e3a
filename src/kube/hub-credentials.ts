// A hub's credentials as they stand: the last KubeConfig that loaded, and when. A Secret mounted as a volume changes
// under a running process (the kubelet swaps its `..data` symlink when a token is rotated or a server URL moves, and
// every hour for the projected ServiceAccount token), so `check()` fingerprints the files behind the connection and
// loads them again when their content changed. A new version that does not load keeps the last good KubeConfig: a
// half-written or mistaken Secret must not cut off a hub that works.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '../clock.js';
import type { GatewayLog } from './gateway-log.js';
import { credentialFiles, loadKubeConfig, type HubConnection } from './kubeconfig.js';

/** `reloaded`: changed content, now in use; `rejected`: changed content that does not load (the last good is kept). */
export type ReloadOutcome = 'reloaded' | 'rejected';

export interface HubCredentials {
  /** The last KubeConfig that loaded; undefined while none has. */
  current(): KubeConfig | undefined;
  /** When `current()` was loaded (clock milliseconds). */
  loadedAt(): number | undefined;
  /** Why the files as they are now are not in use; undefined when they are. */
  problem(): string | undefined;
  /** The files watched for changes (none for inline kubeconfig text). */
  readonly files: readonly string[];
  /**
   * Reads the files again and, when their content changed, loads them and tells `onReload` (once per change, however
   * many callers asked). Checks never overlap: one asked for meanwhile runs after the current one.
   */
  check(): Promise<void>;
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'error';

// The content itself never leaves this function: only its digest is kept.
function digest(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}

const readNow = (files: readonly string[]) =>
  digest(
    files.map((file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch (err) {
        return `\0unreadable ${errorCode(err)}`;
      }
    }),
  );

const readLater = async (files: readonly string[]) =>
  digest(
    await Promise.all(files.map((file) => readFile(file, 'utf8').catch((err) => `\0unreadable ${errorCode(err)}`))),
  );

export function createHubCredentials(
  connection: HubConnection,
  deps: { clock: Clock; log: GatewayLog; onReload?: (outcome: ReloadOutcome) => void },
): HubCredentials {
  const { clock, log } = deps;
  const files = credentialFiles(connection);
  const hub = connection.name;
  let kc: KubeConfig | undefined;
  let loadedAt: number | undefined;
  let problem: string | undefined;
  let seen = readNow(files);
  const load = () => {
    kc = loadKubeConfig(connection);
    loadedAt = clock.now();
    problem = undefined;
  };
  try {
    load();
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err);
  }

  let checking: Promise<void> | undefined;
  let again = false;
  const checkOnce = async (): Promise<ReloadOutcome | undefined> => {
    const print = await readLater(files);
    if (print === seen) return undefined;
    seen = print;
    try {
      load();
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
      // The reason is said without the file's content (kubeconfig.ts describeLoadError): no token reaches the log.
      log.warn(
        { hub, file: files.join(', '), reason: problem },
        kc ? 'hub credentials not reloaded: keeping the last good ones' : 'hub credentials still unusable',
      );
      return 'rejected';
    }
    log.info({ hub, file: files.join(', ') }, 'hub credentials reloaded');
    return 'reloaded';
  };
  // A change signalled while a check runs is checked again afterwards (the kubelet's swap is several events).
  const check = async (): Promise<void> => {
    if (checking) {
      again = true;
      return checking;
    }
    checking = (async () => {
      try {
        do {
          again = false;
          const outcome = await checkOnce();
          if (outcome) deps.onReload?.(outcome);
        } while (again);
      } finally {
        checking = undefined;
      }
    })();
    return checking;
  };

  return {
    current: () => kc,
    loadedAt: () => loadedAt,
    problem: () => problem,
    files,
    check,
  };
}

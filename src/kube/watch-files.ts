// Change signals for files on a mounted Secret or projected volume: an event on the file's directory, and a poll.
// The kubelet updates such a volume by writing a new timestamped directory and renaming a `..data` symlink over the
// old one; the file is a symlink through `..data`, so the file itself sees no event, its directory does. Watches are
// not reliable on every file system (and miss symlink swaps on some), so a poll backs them up. A signal only says
// "look again": the caller compares content.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { GatewayLog } from './gateway-log.js';

export interface FileWatch {
  close(): void;
}

export function watchFiles(
  files: readonly string[],
  onSignal: () => void,
  { intervalMs, log, hub }: { intervalMs: number; log: GatewayLog; hub: string },
): FileWatch {
  const watchers: FSWatcher[] = [];
  const byDir = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byDir.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byDir.set(dirname(file), names);
  }
  for (const [dir, names] of byDir) {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (!name || names.has(name) || name.startsWith('..')) onSignal();
      });
      watcher.on('error', (err) => log.warn({ hub, dir, err: err.message }, 'credential watch failed: polling only'));
      watchers.push(watcher);
    } catch (err) {
      log.warn({ hub, dir, err: errorText(err) }, 'cannot watch the credentials directory: polling only');
    }
  }
  const timer = files.length > 0 ? setInterval(onSignal, intervalMs) : undefined;
  timer?.unref();
  return {
    close() {
      clearInterval(timer);
      for (const w of watchers) w.close();
    },
  };
}

const errorText = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

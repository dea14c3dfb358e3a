// The kubeconfig of a simulated hub, written for kubectl: it holds the hub's admin token, so it is readable by
// its owner only, also when it replaces an older file (writeFile's `mode` applies only to a new file).
import { chmodSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeKubeconfigFile(path: string, yaml: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, yaml, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** Removes the file if it still holds `yaml`: another process may have written its own there since. */
export function removeKubeconfigFile(path: string, yaml: string): void {
  try {
    if (readFileSync(path, 'utf8') === yaml) unlinkSync(path);
  } catch {
    // already gone, or unreadable: nothing of ours to remove
  }
}

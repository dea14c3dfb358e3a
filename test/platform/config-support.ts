// Reading configuration in tests: the problems loadConfig reports for an environment, and a YAML file to point it at.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';

export const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
};

export const yamlFile = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'bk-config-')), 'beekeeper.yaml');
  writeFileSync(path, text);
  return path;
};

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crdFiles } from '../../scripts/crd-files.js';

const root = new URL('../../', import.meta.url);

describe("Beekeeper's CRDs under deploy/crds", () => {
  it('are what the resource schemas generate (run `npm run generate` after changing one)', () => {
    for (const file of crdFiles()) expect(readFileSync(new URL(file.path, root), 'utf8'), file.path).toBe(file.text);
  });

  it('are all generated: no hand-written CRD sits beside them', () => {
    const committed = readdirSync(new URL('deploy/crds/', root))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => `deploy/crds/${f}`);
    expect(committed.sort()).toEqual(
      crdFiles()
        .map((f) => f.path)
        .sort(),
    );
  });
});

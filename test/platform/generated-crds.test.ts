import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crdFiles } from '../../scripts/crd-files.js';

const root = new URL('../../', import.meta.url);

describe("Beekeeper's CRDs under deploy/crds", () => {
  it('are what the resource schemas generate (run `npm run generate` after changing one)', () => {
    for (const file of crdFiles()) expect(readFileSync(new URL(file.path, root), 'utf8'), file.path).toBe(file.text);
  });
});

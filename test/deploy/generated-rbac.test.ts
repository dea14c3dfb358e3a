import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { rbacFiles, withPermissionTable } from '../../scripts/rbac-files.js';
import { CACHED_KINDS } from '../../src/kube/gateway.js';
import { KINDS } from '../../src/kube/kinds.js';
import { PERMISSIONS } from '../../src/kube/permissions.js';

const root = new URL('../../', import.meta.url);

describe('the RBAC manifests (deploy/base/rbac.yaml, deploy/hub-access/)', () => {
  it('are what src/kube/permissions.ts generates (run `npm run generate` after changing the table)', () => {
    for (const file of rbacFiles()) expect(readFileSync(new URL(file.path, root), 'utf8'), file.path).toBe(file.text);
  });

  it('are explained rule by rule in docs/hub-access.md (the table there is generated too)', () => {
    const doc = readFileSync(new URL('docs/hub-access.md', root), 'utf8');
    expect(doc).toBe(withPermissionTable(doc));
  });

  it('grant no Roles, RoleBindings, CRDs, wildcards or watch on Secrets', () => {
    const rules = rbacFiles()
      .filter((f) => f.path.endsWith('rbac.yaml'))
      .flatMap((f) => parseAllDocuments(f.text).map((d) => d.toJSON() as { rules?: unknown[] }))
      .flatMap((o) => (o.rules ?? []) as Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>);
    for (const r of rules) {
      expect([...r.apiGroups, ...r.resources, ...r.verbs]).not.toContain('*');
      expect(r.apiGroups).not.toContain('rbac.authorization.k8s.io');
      expect(r.apiGroups).not.toContain('apiextensions.k8s.io');
      if (r.resources.includes('secrets')) expect(r.verbs).not.toContain('watch');
    }
    expect(PERMISSIONS.every((p) => p.why.length > 0)).toBe(true);
  });

  it('let every informer list and watch its kind where it runs', () => {
    for (const kind of CACHED_KINDS) {
      const { group, plural } = KINDS[kind];
      const scope = group === 'beekeeper.io' ? 'state-namespace' : 'every-hub';
      const verbs = PERMISSIONS.filter((p) => p.group === group && p.resource === plural && p.scope === scope).flatMap(
        (p) => p.verbs,
      );
      expect(verbs, kind).toEqual(expect.arrayContaining(['list', 'watch']));
    }
  });

  it('leave nothing hand-written in deploy/hub-access besides the kubeconfig script', () => {
    const generated = rbacFiles()
      .filter((f) => f.path.startsWith('deploy/hub-access/'))
      .map((f) => f.path.slice('deploy/hub-access/'.length));
    expect(readdirSync(new URL('deploy/hub-access/', root)).sort()).toEqual(
      [...generated, 'make-kubeconfig.sh'].sort(),
    );
  });
});

// BEEKEEPER_HUBS' shorthand, `east=/etc/kube/east.yaml#context,west=in-cluster`, read into the file's form: a list
// of hub entries (HubEntrySchema).
import { HUB_NAME } from './schema.js';
import { quoted, splitList, type ListInput } from './shorthand.js';

/** Also the API's rule for hub path parameters (http/routes/name-params.ts). */
export { HUB_NAME };

export function parseHubs(text: string): ListInput {
  const items = splitList(text);
  const problems = new Map<number, string>();
  const value = items.map((item, i): unknown => {
    const eq = item.indexOf('=');
    const name = item.slice(0, Math.max(eq, 0));
    const where = item.slice(eq + 1);
    if (eq <= 0 || where === '') {
      problems.set(
        i,
        `${JSON.stringify(item)} must be name=/path/to/kubeconfig[#context] or name=in-cluster (name a DNS label)`,
      );
      return item;
    }
    if (where === 'in-cluster') return { name, inCluster: true };
    const hash = where.indexOf('#');
    if (hash < 0) return { name, kubeconfig: where };
    return { name, kubeconfig: where.slice(0, hash), context: where.slice(hash + 1) };
  });
  return { value, problems, subject: quoted(items) };
}

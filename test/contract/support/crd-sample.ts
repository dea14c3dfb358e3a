// The corpus the upstream-CRD comparison runs (upstream-crds.test.ts): objects of every Hive kind we model, each
// marked with upstream's verdict. A sample's builders are here; the samples, by kind, in crd-samples-*.ts.

export interface Sample {
  name: string;
  valid: boolean;
  obj: Record<string, any>;
}

export const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}) });
export const hive = (kind: string, spec?: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'hive.openshift.io/v1',
  kind,
  metadata: meta('sample', 'ns'),
  ...(spec === undefined ? {} : { spec }),
  ...extra,
});
export const v = (name: string, obj: Record<string, any>): Sample => ({ name, valid: true, obj });
export const bad = (name: string, obj: Record<string, any>): Sample => ({ name, valid: false, obj });

export const awsCd = () => ({
  baseDomain: 'example.com',
  clusterName: 'c1',
  platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
  pullSecretRef: { name: 'pull-secret' },
  provisioning: { installConfigSecretRef: { name: 'ic' }, imageSetRef: { name: 'img4.13' } },
});
export const cd = (patch: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  hive('ClusterDeployment', { ...awsCd(), ...patch }, extra);

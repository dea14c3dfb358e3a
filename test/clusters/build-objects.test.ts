// From a compact request to Hive's objects, per platform, without a hub: what the create job will write.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildPlan, inlineSecrets } from '../../src/services/clusters/build-objects.js';
import { createRequestIssues, type CreateClusterRequest } from '../../src/services/clusters/create-request.js';

const base = {
  hub: 'east',
  namespace: 'ns',
  name: 'c1',
  baseDomain: 'example.com',
  releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64',
};

describe('buildPlan', () => {
  it('GCP: project and region in the install-config, credentials written inline under <name>-gcp-creds', () => {
    const req: CreateClusterRequest = {
      ...base,
      platform: {
        gcp: {
          region: 'europe-west4',
          projectID: 'my-proj',
          credentials: { serviceAccountJSON: '{"type":"service_account","private_key":"KEY"}' },
        },
      },
      pullSecret: '{"auths":{}}',
    };
    expect(createRequestIssues(req, Date.now())).toEqual([]);
    const plan = buildPlan(req);
    expect(plan.clusterDeployment.spec.platform).toEqual({
      gcp: { region: 'europe-west4', credentialsSecretRef: { name: 'c1-gcp-creds' } },
    });
    expect(plan.clusterDeployment.spec.provisioning).toEqual({
      installConfigSecretRef: { name: 'c1-install-config' },
      releaseImage: base.releaseImage,
    });
    const ic = parse(plan.installConfigYaml);
    expect(ic.platform).toEqual({ gcp: { projectID: 'my-proj', region: 'europe-west4' } });
    expect(ic.compute[0].platform).toEqual({ gcp: { type: 'n2-standard-4' } });
    expect(plan.ownedSecrets.sort()).toEqual(['c1-gcp-creds', 'c1-install-config', 'c1-pull-secret']);
    expect(JSON.stringify(plan)).not.toContain('KEY');
    expect(
      inlineSecrets(req)
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['c1-gcp-creds', 'c1-pull-secret']);
  });

  it('Azure: resource group and cloud name reach both the CD and the install-config', () => {
    const req: CreateClusterRequest = {
      ...base,
      platform: {
        azure: {
          region: 'westeurope',
          baseDomainResourceGroupName: 'dns-rg',
          cloudName: 'AzurePublicCloud',
          credentialsSecretRef: 'azure-creds',
        },
      },
      powerState: 'Hibernating',
      preserveOnDelete: true,
    };
    expect(createRequestIssues(req, Date.now())).toEqual([]);
    const plan = buildPlan(req);
    expect(plan.clusterDeployment.spec).toMatchObject({
      platform: {
        azure: {
          region: 'westeurope',
          baseDomainResourceGroupName: 'dns-rg',
          cloudName: 'AzurePublicCloud',
          credentialsSecretRef: { name: 'azure-creds' },
        },
      },
      powerState: 'Hibernating',
      preserveOnDelete: true,
    });
    expect(plan.clusterDeployment.spec.pullSecretRef).toBeUndefined();
    expect(parse(plan.installConfigYaml).platform).toEqual({
      azure: { region: 'westeurope', baseDomainResourceGroupName: 'dns-rg', cloudName: 'AzurePublicCloud' },
    });
    expect(plan.ownedSecrets).toEqual(['c1-install-config']);
  });

  it('an absolute expiry waits for creationTimestamp; a relative one is delete-after as given', () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect(buildPlan({ ...base, platform: { none: {} }, expiresAt: at }).expiresAt).toBe(at);
    expect(
      buildPlan({ ...base, platform: { none: {} }, expiresIn: '8h' }).clusterDeployment.metadata.annotations,
    ).toEqual({ 'hive.openshift.io/delete-after': '8h' });
  });
});

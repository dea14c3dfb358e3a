// Upstream-CRD corpus (crd-sample.ts): ClusterDeployment: the platform, provisioning, power and lifecycle fields Beekeeper writes and reads.
import { v, bad, cd, type Sample } from './crd-sample.js';

export const deploymentSamples: Record<string, Sample[]> = {
  ClusterDeployment: [
    v('minimal aws', cd()),
    v('empty refs get defaults', cd({ pullSecretRef: {}, provisioning: { installConfigSecretRef: {} } })),
    v(
      'everything a lifecycle service sets',
      cd({
        powerState: 'Hibernating',
        hibernateAfter: '1h30m',
        installAttemptsLimit: 1,
        installed: false,
        preserveOnDelete: true,
        manageDNS: false,
        clusterPoolRef: {
          namespace: 'pools',
          poolName: 'p',
          claimName: 'c',
          claimedTimestamp: '2026-01-02T03:04:05Z',
          clusterDeploymentCustomization: {},
        },
        clusterMetadata: {
          clusterID: 'id',
          infraID: 'infra',
          adminKubeconfigSecretRef: { name: 'k' },
          adminPasswordSecretRef: { name: 'p' },
          platform: { aws: { hostedZoneRole: 'r' } },
        },
        controlPlaneConfig: {
          apiURLOverride: 'https://api',
          servingCertificates: { default: 'd', additional: [{ name: 'n', domain: 'x.com' }] },
        },
        ingress: [
          {
            name: 'default',
            domain: 'apps.example.com',
            routeSelector: { matchLabels: { a: 'b' } },
            tuningOptions: { threadCount: 4, maxConnections: 5000, connectTimeout: '5s' },
          },
        ],
        certificateBundles: [{ name: 'b', generate: true, certificateSecretRef: { name: 's' } }],
        provisioning: {
          installConfigSecretRef: { name: 'ic' },
          releaseImage: 'quay.io/x:1',
          installerEnv: [{ name: 'A', value: 'b' }],
          sshKnownHosts: ['h'],
        },
      }),
    ),
    v(
      'azure',
      cd({
        platform: {
          azure: {
            region: 'eastus',
            cloudName: 'AzureUSGovernmentCloud',
            credentialsSecretRef: { name: 'c' },
            baseDomainResourceGroupName: 'rg',
          },
        },
      }),
    ),
    v(
      'gcp',
      cd({ platform: { gcp: { region: 'us-east1', discardLocalSsdOnHibernate: true, credentialsSecretRef: {} } } }),
    ),
    v(
      'openstack',
      cd({ platform: { openstack: { cloud: 'c', credentialsSecretRef: { name: 'x' }, trunkSupport: true } } }),
    ),
    v(
      'vsphere',
      cd({
        platform: {
          vsphere: {
            vCenter: 'vc',
            datacenter: 'dc',
            credentialsSecretRef: { name: 'a' },
            certificatesSecretRef: { name: 'b' },
          },
        },
      }),
    ),
    v(
      'nutanix',
      cd({
        platform: { nutanix: { prismCentral: { address: 'pc', port: 9440 }, credentialsSecretRef: { name: 'a' } } },
      }),
    ),
    v(
      'agent, none, baremetal, ibmcloud',
      cd({
        platform: {
          agentBareMetal: { agentSelector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] } },
          none: {},
          baremetal: { libvirtSSHPrivateKeySecretRef: {} },
          ibmcloud: { region: 'r', credentialsSecretRef: { name: 'c' } },
        },
      }),
    ),
    v(
      'observed status',
      cd(
        {},
        {
          status: {
            powerState: 'WaitingForClusterOperators',
            installRestarts: 2,
            apiURL: 'https://api',
            webConsoleURL: 'https://console',
            installedTimestamp: '2026-01-02T03:04:05Z',
            provisionRef: { name: 'c1-0-abcde' },
            installerImage: 'i',
            cliImage: '<NONE>',
            conditions: [
              {
                type: 'Hibernating',
                status: 'False',
                reason: 'ResumingOrRunning',
                message: 'm',
                lastTransitionTime: '2026-01-02T03:04:05Z',
              },
            ],
          },
        },
      ),
    ),
    v(
      'unknown fields are pruned alike',
      cd({ notAField: 1, platform: { aws: { region: 'r', alsoNotAField: true } } }, { notTopLevel: 1 }),
    ),
    bad('powerState not in the enum', cd({ powerState: 'Resuming' })),
    bad('hibernateAfter in days', cd({ hibernateAfter: '1d' })),
    bad('missing baseDomain and clusterName', { ...cd(), spec: { platform: { aws: { region: 'r' } } } }),
    bad('installed as a string', cd({ installed: 'true' })),
    bad(
      'azure cloudName',
      cd({ platform: { azure: { region: 'r', cloudName: 'AzureMarsCloud', credentialsSecretRef: { name: 'c' } } } }),
    ),
    bad('aws without region', cd({ platform: { aws: { credentialsSecretRef: { name: 'c' } } } })),
    bad(
      'clusterMetadata without infraID',
      cd({ clusterMetadata: { clusterID: 'id', adminKubeconfigSecretRef: { name: 'k' } } }),
    ),
    bad('clusterPoolRef without poolName', cd({ clusterPoolRef: { namespace: 'p' } })),
    bad('17 ingresses', cd({ ingress: Array.from({ length: 17 }, (_, i) => ({ name: `i${i}`, domain: 'd' })) })),
    bad(
      'ingress without domain, threadCount too high',
      cd({ ingress: [{ name: 'default', tuningOptions: { threadCount: 100 } }] }),
    ),
    bad('installAttemptsLimit as a string', cd({ installAttemptsLimit: '3' })),
    bad('imageSetRef without name', cd({ provisioning: { imageSetRef: {} } })),
    bad(
      'claimedTimestamp not a date-time',
      cd({ clusterPoolRef: { namespace: 'p', poolName: 'q', claimedTimestamp: 'yesterday' } }),
    ),
    bad('condition without status (golden 40)', cd({}, { status: { conditions: [{ type: 'Ready' }] } })),
    bad('installedTimestamp not a date-time', cd({}, { status: { installedTimestamp: 'now' } })),
  ],
};

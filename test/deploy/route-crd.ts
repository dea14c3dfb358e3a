// route.openshift.io/v1 Route as a CRD. On OpenShift the openshift-apiserver serves Routes (MicroShift installs them
// as this CRD); no npm package carries their schema without a deprecated HTTP stack behind it, so this one is
// written from openshift/api route/v1 types.go (RouteSpec, RouteTargetReference, RoutePort, TLSConfig), enums and
// required fields included. Status is the router's and left free-form.
const str = { type: 'string' };
const target = {
  type: 'object',
  required: ['kind', 'name'],
  properties: {
    kind: { type: 'string', enum: ['Service', ''] },
    name: str,
    weight: { type: 'integer', format: 'int32', minimum: 0, maximum: 256 },
  },
};

/** The openAPIV3Schema of the Route CRD. */
export function routeSchema(): object {
  return {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: str,
      kind: str,
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        required: ['to'],
        properties: {
          host: { type: 'string', maxLength: 253 },
          subdomain: { type: 'string', maxLength: 253 },
          path: str,
          to: target,
          alternateBackends: { type: 'array', maxItems: 3, items: target },
          port: {
            type: 'object',
            required: ['targetPort'],
            properties: { targetPort: { 'x-kubernetes-int-or-string': true } },
          },
          tls: {
            type: 'object',
            required: ['termination'],
            properties: {
              termination: { type: 'string', enum: ['edge', 'reencrypt', 'passthrough'] },
              certificate: str,
              key: str,
              caCertificate: str,
              destinationCACertificate: str,
              insecureEdgeTerminationPolicy: { type: 'string', enum: ['Allow', 'None', 'Redirect', ''] },
              externalCertificate: { type: 'object', properties: { name: str } },
            },
          },
          wildcardPolicy: { type: 'string', enum: ['None', 'Subdomain', ''] },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
}

// Validating admission hooks: called after schema validation, before anything is stored (also on dry runs).

export interface AdmissionRequest {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  group: string;
  version: string;
  resource: string;
  kind: string;
  subresource?: string;
  namespace?: string;
  name: string;
  object?: any;
  oldObject?: any;
  dryRun: boolean;
  user: { username: string; groups: string[] };
}

export type AdmissionResult =
  { allowed: true } | { allowed: false; status: object /* a full k8s Status body incl. code */ };
export type AdmissionHook = (req: AdmissionRequest) => AdmissionResult | Promise<AdmissionResult>;

// What POST /v1/relocations asks (the spec's request fields, dryRun, who asks) and what it can come to; the labels
// a recorded Relocation carries for its hubs.
import type { RelocationSpec } from '../../hive/resources/relocation.js';
import type { JobView } from '../ports.js';
import type { PreflightReport } from './preflight-report.js';
import type { RelocationView } from './relocation-view.js';

export const FROM_LABEL = 'beekeeper.io/relocation-from';
export const TO_LABEL = 'beekeeper.io/relocation-to';

/** POST /v1/relocations: the spec's request fields, `dryRun`, and who asks. */
export type RelocationRequest = Pick<
  RelocationSpec,
  'from' | 'to' | 'clusters' | 'selector' | 'waves' | 'skipFailed'
> & {
  dryRun?: boolean;
  by?: string;
  /** The owning team (services/team-scope.ts creationTeam): the relocation then moves that team's clusters only. */
  team?: string;
};

export type CreateOutcome =
  | { kind: 'dryRun'; report: PreflightReport }
  | { kind: 'refused'; report: PreflightReport; message: string }
  | { kind: 'accepted'; report: PreflightReport; relocation: RelocationView; job: JobView };

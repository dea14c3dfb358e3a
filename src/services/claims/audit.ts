// Claim decisions as structured log lines (`decision: 'claim'`: what, who, the claim, why), including the reaper's
// own. Not the audit trail: each API request makes its one audit record at the HTTP edge (src/http/audit-trail.ts).
// Never secrets: kubeconfigs and passwords are read through other paths and never pass here.
export interface AuditLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export function audit(
  log: AuditLog,
  entry: { action: string; claim: string; actor?: string; outcome: 'done' | 'refused'; [key: string]: unknown },
): void {
  const line = { decision: 'claim', ...entry };
  if (entry.outcome === 'refused') log.warn(line, `claim ${entry.action} refused`);
  else log.info(line, `claim ${entry.action}`);
}

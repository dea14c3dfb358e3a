// The audit trail of claim decisions: a structured log line per decision (what, who, the claim, why). Never
// secrets: kubeconfigs and passwords are read through other paths and never pass here.
export interface AuditLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export function audit(
  log: AuditLog,
  entry: { action: string; claim: string; actor?: string; outcome: 'done' | 'refused'; [key: string]: unknown },
): void {
  const line = { audit: true, ...entry };
  if (entry.outcome === 'refused') log.warn(line, `claim ${entry.action} refused`);
  else log.info(line, `claim ${entry.action}`);
}

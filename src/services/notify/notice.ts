// What Beekeeper tells people, and the two wire formats: generic JSON (signed) and a Slack-compatible message.

export interface Notice {
  /** e.g. `ClusterExpiryWarning`, `ClaimExpiryWarning`. */
  event: string;
  /** Stable id of this notice: the same warning always has the same id, so receivers can de-duplicate. */
  id: string;
  at: string;
  cluster: { hub: string; namespace: string; name: string };
  claim?: { namespace: string; name: string };
  expiresAt: string;
  /** The lead time this warning is for, e.g. `24h`. */
  lead: string;
  message: string;
}

export function genericBody(n: Notice): string {
  return JSON.stringify({
    type: n.event,
    id: n.id,
    at: n.at,
    cluster: n.cluster,
    ...(n.claim ? { claim: n.claim } : {}),
    expiresAt: n.expiresAt,
    lead: n.lead,
    message: n.message,
  });
}

/** Slack incoming-webhook payload: `text` is the fallback, blocks render the details. */
export function slackBody(n: Notice): string {
  const who = `${n.cluster.hub}/${n.cluster.namespace}/${n.cluster.name}`;
  return JSON.stringify({
    text: `:hourglass: ${n.message}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `:hourglass: *${n.event}*\n${n.message}` } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text:
              `cluster \`${who}\`${n.claim ? ` · claim \`${n.claim.namespace}/${n.claim.name}\`` : ''} · ` +
              `expires <!date^${Math.floor(Date.parse(n.expiresAt) / 1000)}^{date_short_pretty} ` +
              `{time}|${n.expiresAt}>`,
          },
        ],
      },
    ],
  });
}

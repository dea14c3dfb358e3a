// The BullMQ dashboard (bull-board) under /admin/queues, behind the same sign-in as the API (src/http/auth.ts, which
// also takes HTTP Basic here) and for platform admins only: it shows and acts on every team's jobs.
import type { FastifyInstance } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import type { BaseAdapter } from '@bull-board/api/baseAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { problem, sendProblem } from './problem.js';

export const BOARD_PATH = '/admin/queues';

// Everything the dashboard needs is served from here: a browser in a disconnected cluster must not reach out
// (bull-board's page links its fonts from a public CDN). The policy is the backstop should a later bull-board
// add another outside reference; inline styles are allowed because the page and React use them.
export const BOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** The page without `<link>`s to other origins (bull-board's Google Fonts stylesheet); its CSS falls back to sans-serif. */
export function withoutOutsideLinks(html: string): string {
  return html.replace(/<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi, '');
}

export async function installBoard(app: FastifyInstance, queues: readonly BaseAdapter[]): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'Beekeeper jobs' } } });
  serverAdapter.setBasePath(BOARD_PATH);
  await app.register(
    async (board) => {
      board.addHook('onRequest', async (request, reply) => {
        if (!request.caller.platformAdmin)
          return sendProblem(reply, problem(403, 'Forbidden', 'the queue dashboard is for platform admins'));
      });
      board.addHook('onSend', async (_req, reply, payload) => {
        reply.header('content-security-policy', BOARD_CSP);
        const html =
          typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').startsWith('text/html');
        return html ? withoutOutsideLinks(payload) : payload;
      });
      await board.register(serverAdapter.registerPlugin());
    },
    { prefix: BOARD_PATH },
  );
}

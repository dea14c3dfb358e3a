// The BullMQ dashboard (bull-board) under /admin/queues, behind the same bearer auth as the API.
import type { FastifyInstance } from 'fastify';
import { createBullBoard } from '@bull-board/api';
import type { BaseAdapter } from '@bull-board/api/baseAdapter';
import { FastifyAdapter } from '@bull-board/fastify';

export const BOARD_PATH = '/admin/queues';

export async function installBoard(app: FastifyInstance, queues: readonly BaseAdapter[]): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'Beekeeper jobs' } } });
  serverAdapter.setBasePath(BOARD_PATH);
  await app.register(serverAdapter.registerPlugin(), { prefix: BOARD_PATH });
}

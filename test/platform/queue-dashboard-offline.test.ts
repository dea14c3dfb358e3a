// The queue dashboard in a disconnected cluster: a real browser loads it, and every request the page makes goes to
// Beekeeper itself (bull-board's page linked its fonts from a public CDN). Requests to anywhere else are recorded
// and aborted before they leave the machine.
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../support/needs.js';
import { buildTestServer, createHarness, type Harness } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const noChromium = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

describe('queue dashboard, offline', () => {
  let h: Harness;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    h = await createHarness();
    app = await buildTestServer(h);
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('serves a page that names no other origin, under a same-origin Content-Security-Policy', async () => {
    const page = await app.inject({ url: '/admin/queues' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('static/css/');
    expect(page.body).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it(
    'loads in a browser with every request to Beekeeper itself',
    { ...needs(noChromium), timeout: 60_000 },
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        const requests: string[] = [];
        const problems: string[] = [];
        page.on('request', (r) => void requests.push(r.url()));
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => void problems.push(String(e)));
        await page.route('**/*', (route) =>
          new URL(route.request().url()).origin === base ? route.continue() : route.abort(),
        );
        await page.goto(`${base}/admin/queues`, { waitUntil: 'load' });
        // The app rendered (its scripts and API calls ran): the queue list shows this hub's queue.
        await page.getByText('ops-local').first().waitFor({ timeout: 15_000 });
        await page.waitForLoadState('networkidle');

        const outside = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== base);
        expect(outside).toEqual([]);
        expect(requests.some((u) => u.includes('/admin/queues/api/queues'))).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
